#!/usr/bin/env bash
# A fuzz target's CTest smoke: copies the seeds into a fresh corpus folder (libFuzzer writes new
# inputs there, never into the source tree) and runs the target for a few seconds.
#   smoke.sh TARGET replay|libfuzzer SEED...
# OPTIML_FUZZ_SECONDS sets how long (default 3).
set -euo pipefail
target=$1 mode=$2
shift 2
seconds=${OPTIML_FUZZ_SECONDS:-3}
corpus=$(mktemp -d "${TMPDIR:-/tmp}/optiml-fuzz-corpus-XXXXXX")
here=$PWD
# A failing input (crash-*, leak-*, timeout-*) is kept where CTest ran the test, named on stderr.
keep_findings() {
    local finding
    for finding in "$corpus"/crash-* "$corpus"/leak-* "$corpus"/timeout-*; do
        [[ -e $finding ]] || continue
        cp "$finding" "$here/" && echo "smoke: kept the failing input as $here/$(basename "$finding")" >&2
    done
    rm -rf "$corpus"
}
trap keep_findings EXIT
i=0
for seed in "$@"; do
    i=$((i + 1))
    cp "$seed" "$corpus/$i-$(basename "$seed")"
done
cd "$corpus"
if [[ $mode == libfuzzer ]]; then
    "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$corpus/" "$corpus"
else
    "$target" --seconds "$seconds" "$corpus"/*
fi
