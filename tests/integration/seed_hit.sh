#!/usr/bin/env bash
# An example built from its committed seed cache on a machine without a GPU, with an empty local
# cache: the build finds the sm_90 entry in the seed, embeds its CUBIN, and does not warn.
# Skipped (exit 77) while the seed has no entries: they come from tuning on an H200.
# Usage: seed_hit.sh EXAMPLE
source "$(dirname "$0")/lib.sh"
example=$1
seed=$source_dir/examples/$example/optiml-seed

if ! find "$seed" -name manifest.json -print -quit 2>/dev/null | grep -q .; then
    echo "SKIPPED: $seed holds no cache entries yet; fill it from a GPU run as its README.md says"
    exit 77
fi

# The example as committed (the build writes only to its build folder).
configure "$source_dir/examples/$example" "$work/build" -DOptiML_DIR="$optiml_build_dir"
build "$work/build" "$work/build.log"
generated=$work/build/optiml/$example/optiml_$example.cu

assert_no_match "$work/build.log" '^optiml: warning:' "the build warned although the seed has the entry"
assert_matches "$work/build.log" "^optiml: $example: sm_90: cache hit [0-9a-f]{12} \\(seed " \
    "the build did not report a seed-cache hit for sm_90"
assert_matches "$generated" '^// sm_90: variant [0-9]+' "the generated launcher does not say sm_90 runs a tuned variant"
assert_matches "$generated" '^// Variant [0-9]+ \(sm_90\): CUBIN' "the generated launcher embeds no sm_90 CUBIN"
assert_matches "$generated" '^ *\{90, false, ' "the image table has no sm_90 CUBIN entry"
echo "PASSED: $example builds with the tuned sm_90 entry from its seed cache"
