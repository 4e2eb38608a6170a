#!/usr/bin/env bash
# A program that calls a kernel through the drop-in form and passes a launch argument builds on a
# machine without a GPU (the original kernel, with the one warning) and runs: without a GPU both
# launch forms return an error, with one they compute the right result.
source "$(dirname "$0")/lib.sh"
project=$(dirname "$0")/projects/dropin

configure "$project" "$work/build" -DOptiML_DIR="$optiml_build_dir" \
    -DOPTIML_DATA_DIR="$source_dir/tests/unit/codegen/data"
build "$work/build" "$work/build.log"
header=$work/build/optiml/app/include/optiml/scale_matrix.h
[[ -f $header ]] || header=$(find "$work/build" -name scale_matrix.h -print -quit)
assert_matches "$header" '^cudaError_t scale_matrix_launch\(dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, int width, const float\* in, float\* out, int height\);$' \
    "the header does not declare the drop-in form with the launch argument last"
[[ $(count_matches '^optiml: warning:' "$work/build.log") -eq 1 ]] ||
    fail "the build without a GPU did not warn exactly once"
[[ -x $work/build/app ]] || fail "the program was not linked"
OPTIML_VERBOSE=1 "$work/build/app" >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "the program failed"; }
cat "$work/run.log"
assert_no_match "$work/run.log" 'never launched' "a launcher without tuned variants reported a leftover <<<>>>"
echo "PASSED: the drop-in form with a launch argument builds and runs on the original kernel"
