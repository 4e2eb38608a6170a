#!/usr/bin/env bash
# An example built from its committed seed cache on a machine without a GPU, with an empty local
# cache, in each of CMake's build types (Release adds -DNDEBUG, which the kernel never reads: the
# key must not split on it): the build finds the sm_90 entry in the seed, embeds its CUBIN, and
# does not warn.
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
for build_type in Debug Release RelWithDebInfo; do
    build_dir=$work/build-$build_type
    configure "$source_dir/examples/$example" "$build_dir" -DOptiML_DIR="$optiml_build_dir" \
        -DCMAKE_BUILD_TYPE=$build_type
    build "$build_dir" "$build_dir.log"
    generated=$build_dir/optiml/$example/optiml_$example.cu

    assert_no_match "$build_dir.log" '^optiml: warning:' "$build_type: the build warned although the seed has the entry"
    assert_matches "$build_dir.log" "^optiml: $example: sm_90: cache hit [0-9a-f]{12} \\(seed " \
        "$build_type: the build did not report a seed-cache hit for sm_90"
    assert_matches "$generated" '^// sm_90: variant [0-9]+' "$build_type: the generated launcher does not say sm_90 runs a tuned variant"
    assert_matches "$generated" '^// Variant [0-9]+ \(sm_90\): CUBIN' "$build_type: the generated launcher embeds no sm_90 CUBIN"
    assert_matches "$generated" '^ *\{90, false, ' "$build_type: the image table has no sm_90 CUBIN entry"
    echo "ok: $build_type: $(grep -m1 "the target's flags" "$build_dir.log")"
done
echo "PASSED: $example builds with the tuned sm_90 entry from its seed cache in Debug, Release and RelWithDebInfo"
