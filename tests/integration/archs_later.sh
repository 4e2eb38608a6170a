#!/usr/bin/env bash
# The architectures and flags the driver uses are the target's as CMake resolves them at
# generate time: CUDA_ARCHITECTURES set after optiml_optimize_kernel() ("80-real;90-virtual":
# sm_80 and sm_90, each on the original kernel with one warning naming both), and a definition
# behind $<COMPILE_LANGUAGE:CUDA> reaches the kernel's compile and its key.
source "$(dirname "$0")/lib.sh"
project=$(dirname "$0")/projects/archs_later

configure "$project" "$work/build" -DOptiML_DIR="$optiml_build_dir" \
    -DOPTIML_DATA_DIR="$source_dir/tests/unit/codegen/data" "-DLATER_ARCHS=80-real;90-virtual"
build "$work/build" "$work/build.log"
assert_matches "$work/build.log" '^optiml: scale_matrix: the target.s flags: .*-DSCALE_FROM_THE_BUILD=1' \
    "the definition behind a generator expression did not reach the driver"
[[ $(count_matches '^optiml: warning:' "$work/build.log") -eq 1 ]] || fail "expected exactly one warning"
assert_matches "$work/build.log" '^optiml: warning: scale_matrix: no tuned entry for sm_80, sm_90 ' \
    "the warning does not name the architectures set after the call"
generated=$work/build/optiml/app/optiml_scale_matrix.cu
assert_matches "$generated" '^// sm_80: no tuned entry' "the launcher does not cover sm_80"
assert_matches "$generated" '^// sm_90: no tuned entry' "the launcher does not cover sm_90"
[[ -x $work/build/app ]] || fail "the program was not linked"
echo "PASSED: architectures and flags set after the call reach the driver"
