#!/usr/bin/env bash
# `optiml devices` in a build tree finds the worker built beside it (on main before this test the
# worker sat in another folder, every GPU machine read as having no GPU, and every GPU test
# skipped). A machine without a GPU says so and why; a missing worker is an error naming it.
source "$(dirname "$0")/lib.sh"
unset OPTIML_WORKER  # the real worker, found where optiml looks for it
optiml=$1

[[ -x $(dirname "$optiml")/optiml-worker ]] ||
    fail "optiml-worker is not beside $optiml, where optiml looks for it"

status=0
"$optiml" devices >"$work/devices.log" 2>&1 || status=$?
cat "$work/devices.log"
[[ $status -eq 0 ]] || fail "optiml devices failed in its own build tree (exit $status)"
grep -Eq '^[0-9]+: .*\(sm_[0-9]+,|^no CUDA GPU available: (no CUDA driver|the CUDA driver lists no GPU)' \
    "$work/devices.log" || fail "optiml devices neither listed a GPU nor said why there is none"

status=0
OPTIML_WORKER=$work/missing/optiml-worker "$optiml" devices >"$work/missing.log" 2>&1 || status=$?
cat "$work/missing.log"
[[ $status -eq 1 ]] || fail "a missing worker did not fail optiml devices (exit $status)"
assert_matches "$work/missing.log" "the worker program $work/missing/optiml-worker does not exist" \
    "the error does not name the missing worker"
assert_no_match "$work/missing.log" 'no CUDA GPU' "a missing worker read as no GPU"
echo "PASSED: optiml devices finds its worker in the build tree; a missing one is named"
