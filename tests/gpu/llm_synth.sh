#!/usr/bin/env bash
# `optiml synth` on a GPU against the loopback OpenAI-compatible server (tests/llm/openai_server.py):
# the reference is a C++ function (bench/llm_synth/tasks/relu.cpp). First the server answers with a
# correct kernel: synth verifies it against the reference on the GPU, tunes it and stores the entry
# (exit 0). Then, in a fresh cache, with a wrong kernel (a leaky ReLU) every time: each answer is
# rejected with the mismatch, which goes back to the model for repair, and synth ends with exit 1
# naming the mismatch; it never says verified.
set -euo pipefail
optiml=$1 source_dir=$2

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

# The tuning after verification searches parameters only: the transformation tree (where the model
# would be asked again, with this script's answers) is tests/gpu/llm_matmul.sh's subject.
export OPTIML_TRANSFORM=0
work=$(mktemp -d)
server_pid=
stop_server() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true; server_pid=; }
trap 'stop_server; rm -rf "$work"' EXIT

# The answers: a kernel and its spec, correct or wrong.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
spec = {"kernel": "relu",
        "arguments": [
            {"name": "in", "type": "float32", "pointer": True, "count": "n", "role": "input",
             "fill": {"kind": "uniform", "min": -1, "max": 1, "seed": 1}},
            {"name": "out", "type": "float32", "pointer": True, "count": "n", "role": "output"},
            {"name": "n", "type": "int32", "value": 65536}],
        "launch": {"block": ["block_size_x"], "grid": ["ceil_div(n, block_size_x)"]},
        "parameters": [{"name": "block_size_x", "values": [64, 128, 256], "default": 128}],
        "budget": {"evaluations": 6, "seconds": 120}}
def kernel(body):
    return ('extern "C" __global__ void relu(const float* in, float* out, int n) {\n'
            '    int i = blockIdx.x * block_size_x + threadIdx.x;\n'
            '    if (i < n) out[i] = ' + body + ';\n}\n')
def answer(body):
    return ("```cuda\n" + kernel(body) + "```\n```json\n" + json.dumps(spec, indent=2) + "\n```\n")
for name, body in [("right", "fmaxf(in[i], 0.0f)"), ("wrong", "in[i] > 0.0f ? in[i] : 0.1f * in[i]")]:
    json.dump({"responses": [{"content": answer(body)}], "repeat_last": True},
              open(f"{work}/{name}.json", "w"))
PY

start_server() {
  rm -f "$work/port"
  python3 "$source_dir/tests/llm/openai_server.py" --script "$work/$1.json" --port-file "$work/port" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
  [ -s "$work/port" ] || fail "the loopback server did not start"
  export OPTIML_LLM_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1" OPTIML_LLM_MODEL=scripted
}
synth() {  # synth <cache dir> <out dir>
  "$optiml" synth "set out[i] to max(in[i], 0) for every i < n" \
    --reference "$source_dir/bench/llm_synth/tasks/relu.cpp" --name relu \
    --cache-dir "$1" --out "$2"
}

start_server right
status=0
synth "$work/cache-right" "$work/right" >"$work/right.log" 2>&1 || status=$?
cat "$work/right.log"
[ "$status" -eq 0 ] || fail "a correct kernel: exit $status, expected 0"
grep -q "verified against the reference .*relu.cpp (relu_reference)" "$work/right.log" ||
  fail "no verification line"
grep -q "optiml: stored " "$work/right.log" || fail "the verified kernel was not tuned and stored"
grep -q "NOT verified" "$work/right.log" && fail "claims both verified and not"
stop_server

start_server wrong
status=0
synth "$work/cache-wrong" "$work/wrong" >"$work/wrong.log" 2>&1 || status=$?
cat "$work/wrong.log"
[ "$status" -eq 1 ] || fail "a wrong kernel: exit $status, expected 1"
grep -q "no acceptable kernel after 3 repairs; the last problem: the kernel does not match the reference relu.cpp (relu_reference) on the GPU: mismatch" \
  "$work/wrong.log" || fail "the mismatch is not reported"
grep -q "verified against" "$work/wrong.log" && fail "a wrong kernel was said verified"
[ ! -e "$work/cache-wrong/entries" ] || fail "a wrong kernel was stored"
echo "PASSED: the correct kernel verified and tuned; the wrong one rejected with its mismatch"
