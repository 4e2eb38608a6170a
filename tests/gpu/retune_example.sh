#!/usr/bin/env bash
# The nightly retune of one example against its committed seed, as CI would run it: a cache-only
# build (the seed answers, nothing is tuned in the build), then `optiml retune`, which tunes again
# on this GPU and times the new winner beside the seed's winner in one worker. Checks the report:
# one row for this GPU's architecture with both winners timed and a status; prints the Markdown.
# $OPTIML_KEEP_RETUNE_REPORT=<dir>: copy the report there (for the issue's evidence).
set -euo pipefail
example=$1 optiml=$2 optiml_dir=$3 source_dir=$4

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/examples/$example" "$work/src"
export OPTIML_CACHE_DIR=$work/cache
cmake -S "$work/src" -B "$work/build" -G Ninja -DOptiML_DIR="$optiml_dir" \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" -DOPTIML_MODE=cache-only >"$work/configure.log"
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }

status=0
"$optiml" retune --build-dir "$work/build" --fail-on-regression "${OPTIML_RETUNE_THRESHOLD:-5}" \
  --budget-evaluations "${OPTIML_BUDGET_EVALUATIONS:-40}" | tee "$work/retune.log" || status=$?
report=$work/build/optiml-retune
cat "$report/retune-report.md"
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || fail "optiml retune exited with $status"
grep -q "| $example | sm_$arch | \(faster\|slower\|unchanged\) |" "$report/retune-report.md" ||
  fail "no side-by-side row for $example on sm_$arch"
grep -q '"cached_now": {' "$report/retune-report.json" || fail "the cached winner was not timed"
[ -n "${OPTIML_KEEP_RETUNE_REPORT:-}" ] && mkdir -p "$OPTIML_KEEP_RETUNE_REPORT" &&
  cp "$report/retune-report.md" "$OPTIML_KEEP_RETUNE_REPORT/retune-$example.md" &&
  cp "$report/retune-report.json" "$OPTIML_KEEP_RETUNE_REPORT/retune-$example.json"
echo "PASSED: $example retuned against its seed (retune exit status $status)"
