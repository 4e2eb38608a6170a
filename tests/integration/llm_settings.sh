#!/usr/bin/env bash
# optiml_optimize_kernel()'s LLM settings reach `optiml build` as flags (docs/llm.md): the
# function's LLM_* arguments, else the OPTIML_LLM_* cache variables, else nothing (the driver then
# reads the build's environment). The API key is never a CMake setting: set in the environment
# while configuring, it appears in no file of the build folder.
source "$(dirname "$0")/lib.sh"
project=$(dirname "$0")/projects/bad_calls
export OPTIML_LLM_API_KEY=sk-integration-NEVER-IN-A-FILE-42

# build_command BUILD: the `optiml build` command line of the kernel in BUILD/build.ninja.
build_command() {
    grep -E -- "optiml\"? build --spec" "$1/build.ninja" | head -1
}
expect_in() {  # expect_in TEXT WHAT CASE
    [[ $1 == *"$2"* ]] || fail "$3: the optiml build command lacks '$2': $1"
}

configure "$project" "$work/plain" -DOptiML_DIR="$optiml_build_dir" -DCASE=ok
line=$(build_command "$work/plain")
[[ -n $line ]] || fail "plain: no optiml build command in build.ninja"
[[ $line != *--llm-* ]] || fail "plain: LLM flags without any LLM setting: $line"
echo "ok: no LLM setting, no LLM flag"

configure "$project" "$work/arguments" -DOptiML_DIR="$optiml_build_dir" -DCASE=llm_arguments \
    -DOPTIML_LLM_MODEL=cache-model
line=$(build_command "$work/arguments")
expect_in "$line" "--llm-base-url http://127.0.0.1:9/v1" arguments
expect_in "$line" "--llm-model arg-model" arguments  # the argument wins over the cache variable
expect_in "$line" "--llm-token-budget 5000" arguments
expect_in "$line" "--llm-replay" arguments
echo "ok: LLM_* arguments become flags"

configure "$project" "$work/variables" -DOptiML_DIR="$optiml_build_dir" -DCASE=llm_cache_variables \
    -DOPTIML_LLM_BASE_URL=https://api.example.com/v1 -DOPTIML_LLM_MODEL=cache-model
line=$(build_command "$work/variables")
expect_in "$line" "--llm-base-url https://api.example.com/v1" variables
expect_in "$line" "--llm-model cache-model" variables
[[ $line != *--llm-replay* ]] || fail "variables: --llm-replay without LLM_REPLAY: $line"
echo "ok: OPTIML_LLM_* cache variables become flags"

if grep -rlF -- "$OPTIML_LLM_API_KEY" "$work"; then
    fail "the API key was written into the files above"
fi
echo "PASSED: LLM settings pass through CMake; the key is in no build file"
