#!/usr/bin/env bash
# Mistakes in an optiml_optimize_kernel() call or its spec stop the configuration with one clear
# error naming the file or the call, the field and the fix. The control case (a good call)
# configures, so a failure below is the case's own.
source "$(dirname "$0")/lib.sh"
project=$(dirname "$0")/projects/bad_calls
specs=$(cd "$project/specs" && pwd)

# expect_error CASE MESSAGE [cmake arguments...]: configuring fails, printing MESSAGE (a fixed string).
expect_error() {
    local case=$1 message=$2
    shift 2
    local log=$work/$case.log
    if "$cmake_command" -S "$project" -B "$work/build" -G Ninja -DCMAKE_MAKE_PROGRAM="$ninja_command" \
        -DCMAKE_CUDA_COMPILER="$nvcc_command" -DOptiML_DIR="$optiml_build_dir" -DCASE="$case" -DOPTIML_MODE=auto "$@" \
        >"$log" 2>&1; then
        cat "$log"
        fail "case $case: configuring succeeded; expected the error '$message'"
    fi
    # CMake wraps long messages: compare with the lines joined.
    if ! tr -s ' \n' ' ' <"$log" | grep -qF -- "$message"; then
        cat "$log"
        fail "case $case: the error does not say '$message'"
    fi
    echo "ok: $case"
}

configure "$project" "$work/build" -DOptiML_DIR="$optiml_build_dir" -DCASE=ok
echo "ok: the control case configures"
# CUDA_ARCHITECTURES "all" is the target's to choose: the driver reads what CMake expands it to.
configure "$project" "$work/build-all" -DOptiML_DIR="$optiml_build_dir" -DCASE=arch_all
echo "ok: CUDA_ARCHITECTURES all configures"

expect_error spec_missing_name "$specs/spec_missing_name.optiml.json: name: missing; expected a non-empty string"
expect_error spec_name_not_string "$specs/spec_name_not_string.optiml.json: name: is a JSON number; expected a non-empty string"
expect_error spec_bad_name "$specs/spec_bad_name.optiml.json: name: \"3-scale\" is not a C++ identifier"
expect_error spec_missing_source "$specs/spec_missing_source.optiml.json: source: \"missing.cu\" resolves to $specs/missing.cu, which does not exist"
expect_error spec_absolute_source "$specs/spec_absolute_source.optiml.json: source: \"/abs/kernel.cu\" is absolute; expected a path relative to the spec file"
expect_error spec_invalid_json "$specs/spec_invalid_json.optiml.json: not valid JSON"
expect_error spec_not_object "$specs/spec_not_object.optiml.json: the top level is a JSON array; expected a JSON object"
expect_error no_spec_file "SPEC file $specs/absent.optiml.json does not exist"
expect_error twice "a kernel named \"scale\" is already optimized for this target"
expect_error bad_archs "optiml_optimize_kernel(app): ARCHS is \"native\""
expect_error bad_mode "optiml_optimize_kernel(app): MODE argument is \"fastest\"; expected one of auto, cache-only, retune, off."
OPTIML_MODE=turbo expect_error env_mode "environment variable OPTIML_MODE is \"turbo\"; expected one of auto, cache-only, retune, off."
expect_error cache_mode "cache variable OPTIML_MODE is \"slow\"" -DOPTIML_MODE=slow
expect_error bad_budget "BUDGET_EVALUATIONS is \"0\"; expected a positive integer."
expect_error bad_llm_budget "LLM_TOKEN_BUDGET is \"lots\"; expected a whole number of tokens"
expect_error interface_target "\"headers_only\" is an INTERFACE_LIBRARY target; OptiML adds generated sources"
expect_error no_target "there is no target named \"missing\""
expect_error typo "unexpected arguments \"SPECS;specs/good.optiml.json\""
# A remote cache mode other than read / read-write (the cache variable stays in this build
# folder, which the next case replaces).
expect_error ok "optiml_optimize_kernel(app): REMOTE_CACHE_MODE is \"write\"; expected read (never upload) or read-write" \
    -DOPTIML_REMOTE_CACHE_MODE=write
# The CUDA language is decided once per build folder: a fresh one.
rm -rf "$work/build"
expect_error no_cuda "the CUDA language is not enabled"
echo "PASSED: every bad call stops the configuration with its message"
