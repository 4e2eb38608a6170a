#!/usr/bin/env bash
# OptiML added with add_subdirectory(): optiml_optimize_kernel() is visible to the parent project
# and its rule runs the driver built in this same build (so building the user's target builds
# the driver first), not an installed one. Configure only: building would rebuild all of OptiML.
source "$(dirname "$0")/lib.sh"
project=$(dirname "$0")/projects/subproject

configure "$project" "$work/build" -DOPTIML_SOURCE_DIR="$source_dir" \
    -DOPTIML_EXAMPLES_DIR="$source_dir/examples"
# The custom command's edge: "build <outputs>: CUSTOM_COMMAND <dependencies>" and its COMMAND.
rule=$(grep -B1 -E '^  COMMAND = .* build --spec [^ ]*/saxpy.optiml.json' "$work/build/build.ninja" || true)
[[ -n $rule ]] || fail "no build rule runs optiml build for saxpy"
echo "$rule"
grep -q "$work/build/optiml/bin/optiml build --spec" <<<"$rule" ||
    fail "the rule does not run the driver of this build ($work/build/optiml/bin/optiml)"
grep -q 'optiml/bin/optiml-worker' <<<"$rule" || fail "the rule does not depend on the in-tree worker"
echo "PASSED: add_subdirectory(optiml) gives the parent optiml_optimize_kernel() with the in-tree driver"
