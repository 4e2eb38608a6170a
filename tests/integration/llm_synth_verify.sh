#!/usr/bin/env bash
# `optiml synth`'s verification WIRING on a machine without a GPU: the scripted worker
# (tests/unit/measure/fake_worker.sh) stands in for a GPU, so this checks what synth asks of the
# worker and what it does with the verdict, not any real verdict (tests/gpu/llm_synth.sh does that
# on a GPU). The reference (a C++ function) must be the worker's reference, in its one-thread
# kernel, and the synthesized kernel the one verified; a passing verdict is tuned and stored
# (exit 0); a mismatch goes back for repair and ends with the mismatch reported (exit 1), nothing
# stored, never "verified".
source "$(dirname "$0")/lib.sh"
optiml=$optiml_build_dir/bin/optiml
export FAKE_DEVICES=1 OPTIML_PROFILE=0 OPTIML_TRANSFORM=0 FAKE_REQUEST_LOG=$work/requests.log

# answer NAME: a kernel of that name (the scripted worker fails verification of "mismatch").
python3 - "$work" "$source_dir/tests/llm" <<'PY'
import json, sys
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[2])
from synth_answers import relu_answer
work = sys.argv[1]
for name in ("relu", "mismatch"):
    json.dump({"responses": [{"content": relu_answer(name)}], "repeat_last": True},
              open(f"{work}/{name}.json", "w"))
PY

server_pid=
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null || true' EXIT
synth() {  # synth NAME: the server answers with that kernel; the log in $work/NAME.log
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -f "$work/port"
  python3 "$source_dir/tests/llm/openai_server.py" --script "$work/$1.json" --port-file "$work/port" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
  [ -s "$work/port" ] || fail "the loopback server did not start"
  local status=0
  OPTIML_LLM_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1" OPTIML_LLM_MODEL=scripted \
    "$optiml" synth "apply ReLU" --reference "$source_dir/bench/llm_synth/tasks/relu.cpp" \
    --name "$1" --out "$work/out-$1" --cache-dir "$work/cache-$1" >"$work/$1.log" 2>&1 || status=$?
  cat "$work/$1.log"
  return $status
}

synth relu || fail "a kernel the worker verifies: exit $?, expected 0"
grep -q "verified against the reference .*relu.cpp (relu_reference) on Fake GPU; tuning" "$work/relu.log" ||
  fail "no verification line"
grep -q "optiml: stored " "$work/relu.log" || fail "the verified kernel was not tuned and stored"
grep '"op":"reference"' "$work/requests.log" | head -n1 | grep -q '"symbol":"optiml_reference"' ||
  fail "the worker's reference is not the C++ function's kernel"
grep '"op":"verify"' "$work/requests.log" | head -n1 | grep -q '"symbol":"relu"' ||
  fail "the synthesized kernel was not the one verified"
echo "ok: the reference in the original's place, the kernel verified, then tuned and stored"

status=0
synth mismatch || status=$?
[ "$status" -eq 1 ] || fail "a kernel that fails verification: exit $status, expected 1"
grep -q "repair 3 of 3: the kernel does not match the reference relu.cpp (relu_reference) on the GPU: mismatch: out: 4096 of 4096" \
  "$work/mismatch.log" || fail "the mismatch did not go back for repair"
grep -q "no acceptable kernel after 3 repairs; the last problem: the kernel does not match the reference" \
  "$work/mismatch.log" || fail "the mismatch is not reported"
grep -q "verified against" "$work/mismatch.log" && fail "a rejected kernel was said verified"
[ ! -e "$work/cache-mismatch/entries" ] || fail "a rejected kernel was stored"
echo "ok: a mismatch is repaired, then rejected with the mismatch, nothing stored (wiring only)"
