#!/usr/bin/env bash
# OPTIML_MODE: the environment variable (read at configure time) overrides the cache variable,
# and `off` builds the original kernel without looking at the cache: the cache path here is a
# regular file, which any cache access would fail on.
source "$(dirname "$0")/lib.sh"

copy_example saxpy "$work/src"
configure "$work/src" "$work/build" -DOptiML_DIR="$optiml_build_dir"
assert_matches "$work/build/build.ninja" 'optiml build .*--mode auto' "the default mode is not auto"

OPTIML_MODE=off configure "$work/src" "$work/build" -DOPTIML_MODE=cache-only
assert_matches "$work/build/build.ninja" 'optiml build .*--mode off' \
    "the environment variable OPTIML_MODE=off did not override the cache variable"

export OPTIML_CACHE_DIR=$work/not-a-cache
echo "a file, not a cache folder" >"$OPTIML_CACHE_DIR"
build "$work/build" "$work/build.log"
generated=$work/build/optiml/saxpy/optiml_saxpy.cu
assert_no_match "$work/build.log" '^optiml: warning:' "mode off warned"
assert_matches "$generated" '^// .*OPTIML_MODE=off' "the generated launcher does not say the mode is off"
assert_no_match "$generated" '^// sm_90: variant' "mode off embedded a tuned variant"
[[ $(cat "$OPTIML_CACHE_DIR") == "a file, not a cache folder" ]] || fail "the cache path was touched"

# Without the environment variable the cache variable applies again (and re-runs optiml).
configure "$work/src" "$work/build"
assert_matches "$work/build/build.ninja" 'optiml build .*--mode cache-only' \
    "the cache variable OPTIML_MODE was not used once the environment variable was unset"
echo "PASSED: OPTIML_MODE=off builds without the cache; the environment overrides the cache variable"
