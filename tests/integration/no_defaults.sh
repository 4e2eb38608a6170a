#!/usr/bin/env bash
# A Kernel Tuner kernel without #ifndef defaults builds into a program: the generated launcher
# defines the spec's defaults before the kernel source, so nvcc's fallback compiles (on main
# before this test it failed with "identifier block_size_y is undefined").
source "$(dirname "$0")/lib.sh"
project=$(dirname "$0")/projects/no_defaults

configure "$project" "$work/build" -DOptiML_DIR="$optiml_build_dir" \
    -DOPTIML_KERNEL_DIR="$source_dir/tests/data/kernels/tiled_matmul"
build "$work/build" "$work/build.log"
generated=$work/build/optiml/app/optiml_tiled_matmul.cu
assert_matches "$generated" '^#define block_size_y 16$' "the launcher does not define the spec's default"
assert_matches "$generated" "^// Original kernel .*at the spec's defaults,$" \
    "the launcher's comment does not name the spec's defaults as the original"
assert_matches "$generated" "^//   block_size_x=16, block_size_y=16, tile_size_x=1, tile_size_y=1\.$" \
    "the launcher's comment does not list the spec's defaults"
[[ -x $work/build/app ]] || fail "the program was not linked"
echo "PASSED: a kernel without #ifndef defaults builds with the spec's defaults as its original"
