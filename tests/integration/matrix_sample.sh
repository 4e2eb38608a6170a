#!/usr/bin/env bash
# A project shaped like NVIDIA's matrixMul sample (a template kernel beside main() in one .cu,
# system and helper headers, CUDA_SEPARABLE_COMPILATION, four architectures set in its
# CMakeLists) integrated with one optiml_optimize_kernel() line and the drop-in form at its launch
# sites, built on a machine without a GPU:
#   (a) integration.diff is all that changed: reversed, it gives the original project, which
#       builds without OptiML; the README's table counts exactly its lines;
#   (b) without a seed: the target's flags (-rdc=true, the helper folder, its definitions) reach
#       the driver, every one of the four architectures gets the original kernel (compiled by
#       OptiML with those flags, embedded as the fallback) and the build warns once, listing all;
#   (c) a change of the target's CUDA flags re-runs the driver with a new cache key;
#   (d) with the committed seed (when it has entries: an H200 run makes them) sm_90 is a seed hit
#       and the one warning lists only the three others.
source "$(dirname "$0")/lib.sh"
project=$source_dir/tests/integration/projects/matrix_sample
cp -r "$project" "$work/src"
rm -rf "$work/src/optiml-seed/entries"

# (a) the integration, undone, is the original sample, and it builds as it is
cp -r "$project" "$work/original"
rm -rf "$work/original/optiml-seed"
(cd "$work/original" && patch -R -p1 --quiet <integration.diff) || fail "(a) integration.diff does not reverse"
assert_no_match "$work/original/matrixMul.cu" 'optiml' "(a) the original still mentions OptiML"
assert_no_match "$work/original/CMakeLists.txt" 'optiml|OptiML' "(a) the original CMakeLists still uses OptiML"
configure "$work/original" "$work/build-original"
build "$work/build-original" "$work/build-original.log"
[[ -x $work/build-original/matrixMul ]] || fail "(a) the original sample was not linked"
readme=$project/README.md
for file in CMakeLists.txt matrixMul.cu; do
    added=$(awk -v f="$file" '/^\+\+\+ /{on = ($2 == "integrated/" f)} on && /^\+[^+]/' "$project/integration.diff" | wc -l)
    removed=$(awk -v f="$file" '/^\+\+\+ /{on = ($2 == "integrated/" f)} /^--- /{next} on && /^-/' "$project/integration.diff" | wc -l)
    assert_matches "$readme" "^\| \`$file\` \| $added \| $removed \|" \
        "(a) the README's table does not say $file has $added lines added and $removed removed"
done
spec_lines=$(wc -l <"$project/MatrixMulCUDA.optiml.json")
assert_matches "$readme" "^\| \`MatrixMulCUDA.optiml.json\` \(new\) \| $spec_lines \| 0 \|" \
    "(a) the README's table does not give the spec's $spec_lines lines"
echo "ok: (a) the integration is integration.diff: $(grep -c '^[-+][^-+]' "$project/integration.diff") lines"

# (b) no seed, no GPU: the original everywhere, one warning naming the four architectures
configure "$work/src" "$work/build" -DOptiML_DIR="$optiml_build_dir"
build "$work/build" "$work/build1.log"
generated=$work/build/optiml/matrixMul/optiml_MatrixMulCUDA.cu
assert_matches "$work/build1.log" '^optiml: MatrixMulCUDA: the target.s flags: .*-rdc=true' \
    "(b) the driver did not see the target's separable compilation"
assert_matches "$work/build1.log" '^optiml: MatrixMulCUDA: the target.s flags: .*-Icommon' \
    "(b) the driver did not see the target's include folder"
warnings=$(count_matches '^optiml: warning:' "$work/build1.log")
[[ $warnings -eq 1 ]] || fail "(b) expected exactly one 'optiml: warning:' line, got $warnings"
assert_matches "$work/build1.log" '^optiml: warning: MatrixMulCUDA: no tuned entry for sm_75, sm_86, sm_90, sm_120 ' \
    "(b) the warning does not list the project's four architectures"
for arch in 75 86 90 120; do
    assert_matches "$generated" "^// The original \\(sm_$arch\\): CUBIN" \
        "(b) the launcher embeds no original CUBIN for sm_$arch"
done
assert_matches "$generated" '__attribute__\(\(weak\)\)' "(b) the program's own kernel is not preferred where it exists"
# The drop-in form runs the instantiation of the caller's block: OptiML compiled each of them.
for instance in 'instance == 1\) \{  // MatrixMulCUDA<8>' 'instance == 2\) \{  // MatrixMulCUDA<16>'; do
    assert_matches "$generated" "$instance" "(b) no compiled original for the drop-in's ${instance##*// }"
done
[[ -x $work/build/matrixMul ]] || fail "(b) the program was not linked"
"$work/build/matrixMul" >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "(b) the program failed"; }
key1=$(fallback_key "$generated" 90)
[[ -n $key1 ]] || fail "(b) the launcher names no cache key for sm_90"
echo "ok: (b) built from nothing: the original on sm_75, sm_86, sm_90, sm_120 with one warning"

# (c) the user's flags are part of the key: a change re-runs the driver
configure "$work/src" "$work/build" -DOptiML_DIR="$optiml_build_dir" -DCMAKE_CUDA_FLAGS=--use_fast_math
build "$work/build" "$work/build2.log"
assert_matches "$work/build2.log" 'OptiML: kernel MatrixMulCUDA of matrixMul' "(c) changing CMAKE_CUDA_FLAGS did not run the driver"
assert_matches "$work/build2.log" '^optiml: MatrixMulCUDA: the target.s flags: .*--use_fast_math' \
    "(c) the driver did not see --use_fast_math"
key2=$(fallback_key "$generated" 90)
[[ -n $key2 && $key2 != "$key1" ]] || fail "(c) the cache key did not change with the flags ($key1 -> $key2)"
echo "ok: (c) CMAKE_CUDA_FLAGS changed the key ($key1 -> $key2)"

# (d) the committed seed, when it has entries
if find "$project/optiml-seed" -name manifest.json -print -quit 2>/dev/null | grep -q .; then
    configure "$project" "$work/build-seed" -DOptiML_DIR="$optiml_build_dir"
    build "$work/build-seed" "$work/build-seed.log"
    assert_matches "$work/build-seed.log" '^optiml: MatrixMulCUDA: sm_90: cache hit [0-9a-f]{12} \(seed ' \
        "(d) sm_90 was not a seed hit"
    [[ $(count_matches '^optiml: warning:' "$work/build-seed.log") -eq 1 ]] || fail "(d) expected one warning"
    assert_matches "$work/build-seed.log" '^optiml: warning: MatrixMulCUDA: no tuned entry for sm_75, sm_86, sm_120 ' \
        "(d) the warning does not list exactly the three architectures without an entry"
    echo "ok: (d) the committed seed serves sm_90"
else
    echo "note: (d) skipped: $project/optiml-seed has no entries yet (README.md says how to make them on an H200)"
fi
echo "PASSED: the matrix sample integrates with one line and the drop-in form"
