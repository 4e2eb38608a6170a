#!/usr/bin/env bash
# An example built with an empty seed and an empty cache on a machine without a GPU:
#   (a) the build succeeds, prints exactly one `optiml: warning:` line (the fallback to the
#       original kernel), and the generated launcher says sm_90 runs the original kernel;
#   (b) a rebuild with nothing changed does not run optiml again;
#   (c) editing the kernel source, and a header it includes (when given), runs it again, with a
#       new cache key.
# Usage: fallback_rebuild.sh EXAMPLE [HEADER under kernels/]
source "$(dirname "$0")/lib.sh"
example=$1
header=${2:-}

copy_example "$example" "$work/src"
configure "$work/src" "$work/build" -DOptiML_DIR="$optiml_build_dir"
generated=$work/build/optiml/$example/optiml_$example.cu
generated_header=$work/build/optiml/$example/include/optiml/$example.h
driver_ran="OptiML: kernel $example of $example"

# (a) fallback with one warning
build "$work/build" "$work/build1.log"
warnings=$(count_matches '^optiml: warning:' "$work/build1.log")
[[ $warnings -eq 1 ]] || fail "(a) expected exactly one 'optiml: warning:' line, got $warnings"
assert_matches "$work/build1.log" "^optiml: warning: $example: .*sm_90.*original kernel" \
    "(a) the warning does not say that sm_90 falls back to the original kernel"
assert_matches "$generated" '^// sm_90: .*original kernel' \
    "(a) the generated launcher does not say that sm_90 runs the original kernel"
assert_no_match "$generated" '^// sm_90: variant' "(a) the generated launcher claims a tuned sm_90 variant"
key1=$(fallback_key "$generated" 90)
[[ -n $key1 ]] || fail "(a) the generated launcher names no cache key for sm_90"

# (b) nothing changed: optiml does not run, the outputs are untouched
before=$(mtime "$generated") header_before=$(mtime "$generated_header")
build "$work/build" "$work/build2.log"
assert_no_match "$work/build2.log" "$driver_ran" "(b) optiml ran again although nothing changed"
assert_matches "$work/build2.log" 'no work to do' "(b) the no-op rebuild did some work"
[[ $(mtime "$generated") == "$before" && $(mtime "$generated_header") == "$header_before" ]] ||
    fail "(b) the generated files were rewritten"

# (c) an edit of the kernel source runs optiml again; the key changes
echo "// edited by the integration test" >>"$work/src/kernels/$example.cu"
build "$work/build" "$work/build3.log"
assert_matches "$work/build3.log" "$driver_ran" "(c) editing the kernel source did not run optiml"
key2=$(fallback_key "$generated" 90)
[[ -n $key2 && $key2 != "$key1" ]] || fail "(c) the cache key did not change with the kernel source ($key1 -> $key2)"

if [[ -n $header ]]; then
    # ... and so does an edit of a header it includes (found through the depfile)
    echo "// edited by the integration test" >>"$work/src/kernels/$header"
    build "$work/build" "$work/build4.log"
    assert_matches "$work/build4.log" "$driver_ran" "(c) editing the included header $header did not run optiml"
    key3=$(fallback_key "$generated" 90)
    [[ -n $key3 && $key3 != "$key2" ]] || fail "(c) the cache key did not change with the header ($key2 -> $key3)"
fi

build "$work/build" "$work/build5.log"
assert_no_match "$work/build5.log" "$driver_ran" "(b) optiml ran again after the edits were built"
echo "PASSED: $example falls back with one warning, rebuilds only when its sources change"
