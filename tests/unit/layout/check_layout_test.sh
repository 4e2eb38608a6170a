#!/usr/bin/env bash
# scripts/check_layout.py on a small tree of its own: the real table, and code that breaks it in
# each way it must catch (a room above, a room not named, another room's detail/ header), then
# the same tree with those includes mended.
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/docs" "$work/driver/base" "$work/driver/spec/detail" "$work/driver/tune" \
         "$work/driver/search" "$work/cache" "$work/runtime"
cp "$source_dir/docs/layout.md" "$work/docs/"
echo '#include "driver/tune/tuning.h"' > "$work/driver/base/uses_above.h"        # a room above
echo '#include "driver/search/search.h"' > "$work/driver/spec/uses_unnamed.h"    # not in "may use"
echo '#include "driver/spec/detail/inner.h"' > "$work/driver/tune/uses_detail.h" # another's detail/
touch "$work/driver/tune/tuning.h" "$work/driver/search/search.h" "$work/driver/spec/detail/inner.h"

if out=$(python3 "$source_dir/scripts/check_layout.py" --root "$work"); then
    echo "check_layout passed a tree that breaks the table:"; echo "$out"; exit 1
fi
for expected in "driver/base/uses_above.h: includes driver/tune/tuning.h, but base/ may not use tune/" \
                "driver/spec/uses_unnamed.h: includes driver/search/search.h, but spec/ may not use search/" \
                "driver/tune/uses_detail.h: includes driver/spec/detail/inner.h, a header spec/ keeps to itself" \
                "check_layout: 3 includes break docs/layout.md"; do
    grep -qF "$expected" <<<"$out" || { echo "missing: $expected"; echo "$out"; exit 1; }
done

rm "$work/driver/base/uses_above.h" "$work/driver/spec/uses_unnamed.h" "$work/driver/tune/uses_detail.h"
echo '#include "driver/base/uses_nothing.h"' > "$work/driver/tune/uses_base.h"
touch "$work/driver/base/uses_nothing.h"
python3 "$source_dir/scripts/check_layout.py" --root "$work"
