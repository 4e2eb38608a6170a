#!/usr/bin/env bash
# Several kernels per target and several targets: each kernel gets its own build rule and
# generated files per target, the architectures come from ARCHS or CUDA_ARCHITECTURES (suffixes
# stripped), all tuning rules share the Ninja pool of one, and a static library passes the
# runtime on to the programs that link it.
source "$(dirname "$0")/lib.sh"
project=$(dirname "$0")/projects/several_kernels

configure "$project" "$work/build" -DOptiML_DIR="$optiml_build_dir" \
    -DOPTIML_EXAMPLES_DIR="$source_dir/examples"
ninja_file=$work/build/build.ninja
# Without ARCHS the driver reads the target's architectures from its compile command.
assert_matches "$ninja_file" 'optiml build --spec [^ ]*/saxpy.optiml.json --mode [^ ]* --out [^ ]*/optiml/both .*--compile-commands ' \
    "no rule for saxpy on target both reading the target's compile command"
assert_matches "$ninja_file" 'optiml build --spec [^ ]*/matmul.optiml.json --archs 90,80 .*--out [^ ]*/optiml/both ' \
    "no rule for matmul on target both with ARCHS 90 80"
assert_matches "$ninja_file" 'optiml build --spec [^ ]*/saxpy.optiml.json --mode [^ ]* --out [^ ]*/optiml/saxpy_library .*--compile-commands ' \
    "no rule for saxpy on target saxpy_library reading the target's compile command"
[[ $(count_matches '^  pool = optiml_tune$' "$ninja_file") -eq 3 ]] || fail "not every optiml rule is in the optiml_tune pool"
assert_matches "$work/build/CMakeFiles/rules.ninja" '^pool optiml_tune$' "the optiml_tune pool is not defined"
grep -A1 '^pool optiml_tune$' "$work/build/CMakeFiles/rules.ninja" | grep -Eq '^ *depth = 1$' ||
    fail "the optiml_tune pool is not of depth 1"

build "$work/build" "$work/build.log"
[[ $(count_matches '^optiml: warning:' "$work/build.log") -eq 3 ]] || fail "expected one warning per kernel rule (3)"
assert_matches "$work/build.log" '^optiml: warning: matmul: .*sm_90, sm_80' "matmul's one warning does not list both architectures"
assert_matches "$work/build.log" '^optiml: warning: saxpy: no tuned entry for sm_90 \(' "saxpy of both is not on sm_90 alone"
assert_matches "$work/build.log" '^optiml: warning: saxpy: no tuned entry for sm_90, sm_80 \(' \
    "the library's CUDA_ARCHITECTURES 90-real;80-virtual did not become sm_90 and sm_80"
for file in both/optiml_saxpy.cu both/optiml_matmul.cu saxpy_library/optiml_saxpy.cu \
    both/include/optiml/saxpy.h both/include/optiml/matmul.h saxpy_library/include/optiml/saxpy.h; do
    [[ -f $work/build/optiml/$file ]] || fail "optiml/$file was not generated"
done
[[ -x $work/build/both && -x $work/build/uses_library ]] || fail "the programs were not linked"
# The build manifest: one file per kernel rule, each naming its architectures with a key.
for manifest in both.saxpy both.matmul saxpy_library.saxpy; do
    file=$work/build/optiml-kernels/$manifest.json
    [[ -f $file ]] || fail "optiml-kernels/$manifest.json (the build manifest) was not written"
    assert_matches "$file" '"key": "[0-9a-f]{64}"' "optiml-kernels/$manifest.json names no cache key"
done
[[ $(count_matches '"arch": "sm_' "$work/build/optiml-kernels/both.matmul.json") -eq 2 ]] ||
    fail "optiml-kernels/both.matmul.json does not list sm_90 and sm_80"
echo "PASSED: several kernels and targets build, each with its own rule in the pool of one"
