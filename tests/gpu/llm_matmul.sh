#!/usr/bin/env bash
# The LLM layer end to end on a GPU: the matmul example tuned as a user would (CMake build, empty
# cache, no seed) with the loopback OpenAI-compatible server (tests/llm/openai_server.py) as the
# endpoint. The server's script: at the first node asked, an answer that does not compile, then
# as its repair the fixture (tests/data/llm/matmul_tiled_answer.md: a restructured kernel); at
# later nodes a numerically wrong one (the last k-tile skipped); the judge's scores and verdicts.
# Checked: the repair was asked with the compiler's messages; the fixture's node passed
# verification and is on the winner's path, the cache entry ships its text and the generated
# launcher that entry's CUBIN (the two times are printed, never asserted); the wrong answer was
# rejected by verification; the manifest keeps EAR metrics; `optiml explain` shows the llm step;
# the program dispatches to the tuned variant; the API key is in no file the run wrote.
set -euo pipefail
optiml=$1 optiml_dir=$2 source_dir=$3

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The script, from the fixture: the broken first answer and the wrong one are edits of it.
python3 - "$source_dir/tests/data/llm/matmul_tiled_answer.md" "$work/script.json" <<'PY'
import json, sys
fixture = open(sys.argv[1], encoding="utf-8").read()
fma = "fmaf(a[i], b[j], sums[i][j])"
loop = "for (int k0 = 0; k0 < K; k0 += BK)"
assert fma in fixture and loop in fixture, "the fixture changed: update llm_matmul.sh's edits"
broken = fixture.replace(fma, "fmaf(a[i], b[j], sums[i][j], 1.0f)")
wrong = fixture.replace(loop, "for (int k0 = 0; k0 < K - BK; k0 += BK)")
score = '```json\n{"score": 0.9, "reason": "a register-blocked tiling answers the roofline verdict and stall-1"}\n```'
verdict = '{"score": 0.8, "verdict": "the metrics moved as the roofline verdict implies"}'
script = {"responses": [
    {"match": "You are optimizing", "content": broken},
    {"match": "was not accepted", "content": fixture},
    {"match": "You are optimizing", "content": wrong},
    {"match": "You judge proposed changes", "content": score},
    {"match": "You judge a measured change", "content": verdict},
], "repeat_last": True}
json.dump(script, open(sys.argv[2], "w", encoding="utf-8"))
PY
python3 "$source_dir/tests/llm/openai_server.py" --script "$work/script.json" \
  --port-file "$work/port" --log "$work/requests.jsonl" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the loopback server did not start"

key="optiml-test-key-$RANDOM$RANDOM"
export OPTIML_LLM_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1" OPTIML_LLM_MODEL=scripted
export OPTIML_LLM_API_KEY=$key
cp -r "$source_dir/examples/matmul" "$work/src"
rm -rf "$work/src/optiml-seed/entries"
export OPTIML_CACHE_DIR=$work/cache OPTIML_MODE=auto
export OPTIML_BUDGET_EVALUATIONS=${OPTIML_BUDGET_EVALUATIONS:-60}
cmake -S "$work/src" -B "$work/build" -G Ninja -DOptiML_DIR="$optiml_dir" \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$work/configure.log"
cmake --build "$work/build" 2>&1 | tee "$work/build.log"
grep -q "sm_$arch: done:" "$work/build.log" || fail "the build did not finish tuning"

manifest=$(find "$work/cache/entries" -name manifest.json | head -n1)
[ -n "$manifest" ] || fail "no cache entry"
launcher=$(find "$work/build/optiml" -name 'optiml_*.cu' | head -n1)
[ -n "$launcher" ] || fail "no generated launcher under $work/build/optiml"
# What is checked is which variant won and ships, never how fast it was: the times are printed.
python3 - "$work/cache/entries" "$launcher" "$arch" "$source_dir/tests/data/llm/matmul_tiled_answer.md" <<'PY' \
  || fail "the winner is not the verified llm proposal the launcher ships (above)"
import glob, json, os, sys
entries, launcher, arch, fixture = sys.argv[1:]
# The entry tuned with the LLM, not its copy under the plain key (which records "tuned_with_llm").
tuned = [f for f in glob.glob(os.path.join(entries, "*", "*", "manifest.json"))
         if "tuned_with_llm" not in json.load(open(f))]
if len(tuned) != 1: sys.exit(f"expected one entry tuned with the LLM under {entries}, found {tuned}")
manifest = tuned[0]
entry = os.path.dirname(manifest)
m = json.load(open(manifest))
tree = m["search"]["tree"]
nodes = tree["nodes"]
path = [nodes[i] for i in tree["winning_path"]]
llm_ok = [n for n in nodes if n["kind"] == "llm" and n["status"] == "ok"]
llm_wrong = [n for n in nodes if n["kind"] == "llm" and n["status"] == "mismatch"]
llm_on_path = [n for n in path if n["kind"] == "llm"]
winner = path[-1]
problems = []
if not llm_ok: problems.append("no llm node passed verification")
if not llm_on_path: problems.append("the winner is not on an llm path")
if any(n["status"] != "ok" for n in llm_on_path): problems.append("an llm step on the winning path was not verified")
if winner["status"] != "ok": problems.append(f"the winning node's status is {winner['status']}")
if not llm_wrong: problems.append("no wrong llm answer was rejected by verification (mismatch)")
# The entry's winner is the winning path's last node, and its text is the fixture's kernel.
if m.get("source_id") != winner.get("source_id") or m["parameters"] != winner["parameters"]:
    problems.append(f"the entry's winner ({m.get('source_id')}, {m['parameters']}) is not the path's last node ({winner.get('source_id')}, {winner['parameters']})")
shipped_source = open(os.path.join(entry, m["files"]["source"])).read() if "source" in m["files"] else ""
answer = open(fixture, encoding="utf-8").read()
for line in ("for (int k0 = 0; k0 < K; k0 += BK)", "fmaf(a[i], b[j], sums[i][j])"):
    if line in answer and line not in shipped_source: problems.append(f"the shipped kernel.cu lacks the llm answer's {line!r}")
# The generated launcher embeds that entry's CUBIN and names its source.
text = open(launcher).read()
cubin_bytes = os.path.getsize(os.path.join(entry, m["files"]["cubin"]))
for expected in (f"cache key: {os.path.basename(entry)}",
                 f"source: derived {str(m.get('source_id'))[:12]}",
                 f"CUBIN sm_{arch} ({cubin_bytes} bytes)"):
    if expected not in text: problems.append(f"the launcher {launcher} does not say {expected!r}")
llm = tree.get("llm", {})
if llm.get("ear", {}).get("evidence_coverage") is None: problems.append("no EAR metrics for the search")
if any("ear" not in n for n in llm_ok): problems.append("an llm node without EAR metrics")
first = llm.get("proposals", [{}])[0].get("attempts", [])
if [a["stage"] for a in first[:2]] != ["compile", "accepted"]: problems.append(f"first proposal's attempts: {first}")
root_ms, best_ms = path[0]["time_ms"]["median"], winner["time_ms"]["median"]
print(f"information: parameters' best {root_ms:.4g} ms, llm path {best_ms:.4g} ms; "
      f"original {m['original_time_ms']['median']:.4g} ms; EAR {llm.get('ear')}")
for p in problems: print("  " + p)
sys.exit(1 if problems else 0)
PY

python3 - "$work/requests.jsonl" <<'PY' || fail "the repair request did not carry the compiler's message"
import json, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
repairs = [r for r in requests if "was not accepted" in r["body"]["messages"][-1]["content"]]
assert repairs, "no repair request"
text = repairs[0]["body"]["messages"][-1]["content"]
assert "matmul.cu(" in text and "error" in text, text
assert "load_or_zero" not in text, "a header's text was sent"
PY

"$optiml" explain --cache-dir "$work/cache" "$work/src/kernels/matmul.optiml.json" | tee "$work/explain.txt"
grep -q "\[llm\]" "$work/explain.txt" || fail "optiml explain does not show the llm step"
grep -q "EAR:" "$work/explain.txt" || fail "optiml explain does not show EAR metrics"

"$work/build/matmul" | tee "$work/run.log"
grep -q "variant: tuned" "$work/run.log" || fail "this GPU did not dispatch to the tuned variant"
if grep -rlF "$key" "$work/cache" "$work/build" "$work/build.log"; then
  fail "the API key appears in a file the run wrote (above)"
fi
echo "PASSED: matmul tuned with the LLM endpoint; the llm path wins, verified, with EAR metrics"
