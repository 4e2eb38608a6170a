#!/usr/bin/env bash
# A smoke test of the pass@k harness (bench/llm_synth/run.py) against the loopback server, on a
# machine without a GPU (the scripted worker lists none). It checks the HARNESS'S COUNTING ONLY,
# not any model: a scripted answer that compiles for one task and one that never compiles for
# another; every sample of the first is compiled but not verified (no GPU: pass@ stays 0), none of
# the second compiles. Also: with no endpoint the harness says so and measures nothing, and its
# pass@k estimator gives the unbiased values.
source "$(dirname "$0")/lib.sh"
optiml=$optiml_build_dir/bin/optiml
bench=$source_dir/bench/llm_synth

python3 - "$bench" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from run import pass_at_k
assert pass_at_k(10, 0, 1) == 0.0 and pass_at_k(10, 10, 5) == 1.0
assert abs(pass_at_k(10, 3, 1) - 0.3) < 1e-12
assert abs(pass_at_k(10, 3, 5) - (1 - 21 / 252)) < 1e-12  # 1 - C(7,5)/C(10,5)
assert pass_at_k(5, 1, 5) == 1.0
print("ok: the pass@k estimator")
PY

out=$(env -u OPTIML_LLM_BASE_URL python3 "$bench/run.py" --optiml "$optiml")
[[ $out == *"no LLM endpoint configured"* ]] || fail "no endpoint: $out"
echo "ok: no endpoint, nothing measured"

# Two tasks: relu answered with a kernel that compiles, saxpy with one that never does.
python3 - "$bench/tasks.json" "$work" <<'PY'
import json, os, sys
tasks = {t["name"]: t for t in json.load(open(sys.argv[1]))["tasks"]}
work = sys.argv[2]
subset = [dict(tasks["relu"], reference=os.path.join(os.path.dirname(sys.argv[1]), tasks["relu"]["reference"])),
          dict(tasks["saxpy"], reference=os.path.join(os.path.dirname(sys.argv[1]), tasks["saxpy"]["reference"]))]
json.dump({"tasks": subset}, open(f"{work}/tasks.json", "w"))
spec = {"kernel": "relu", "arguments": [
    {"name": "in", "type": "float32", "pointer": True, "count": "n", "role": "input",
     "fill": {"kind": "uniform", "min": -1, "max": 1, "seed": 1}},
    {"name": "out", "type": "float32", "pointer": True, "count": "n", "role": "output"},
    {"name": "n", "type": "int32", "value": 4096}],
    "launch": {"block": [128], "grid": ["ceil_div(n, 128)"]}}
good = ('```cuda\nextern "C" __global__ void relu(const float* in, float* out, int n) {\n'
        '    int i = blockIdx.x * 128 + threadIdx.x;\n    if (i < n) out[i] = fmaxf(in[i], 0.0f);\n}\n'
        '```\n```json\n' + json.dumps(spec) + '\n```\n')
bad = '```cuda\nextern "C" __global__ void saxpy(int n) { this does not compile }\n```\n```json\n{"kernel": "saxpy"}\n```\n'
json.dump({"responses": [{"match": "ReLU", "content": good}, {"match": "SAXPY", "content": bad},
                         {"match": "That answer has a problem", "content": bad}],
           "repeat_last": True}, open(f"{work}/script.json", "w"))
PY
python3 "$source_dir/tests/llm/openai_server.py" --script "$work/script.json" --port-file "$work/port" &
server_pid=$!
trap 'kill $server_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the loopback server did not start"

out=$(OPTIML_LLM_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1" OPTIML_LLM_MODEL=scripted \
      python3 "$bench/run.py" --optiml "$optiml" --tasks "$work/tasks.json" --n 3 --k 2 \
      --keep "$work/samples")
echo "$out"
row() { grep -E "^$1 " <<<"$out" | tr -s ' '; }
[[ $(row relu) == "relu 3 3 0 0.000 0.000" ]] || fail "relu row: $(row relu)"
[[ $(row saxpy) == "saxpy 3 0 0 0.000 0.000" ]] || fail "saxpy row: $(row saxpy)"
[[ $(row overall) == "overall 6 3 0 0.000 0.000" ]] || fail "overall row: $(row overall)"
[[ $out == *"3 samples compiled but were NOT verified"* ]] || fail "the unverified samples are not said"
grep -q "NOT verified against the reference" "$work/samples/relu/0/synth.log" ||
  fail "synth did not say the kernel is unverified: $(cat "$work/samples/relu/0/synth.log")"
echo "ok: the harness counts compiled and verified samples per task and overall (counting only)"
