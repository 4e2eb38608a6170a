#!/usr/bin/env bash
# The LLM endpoint failing every way a real one can, during a tuning on this GPU: the saxpy
# example tuned (`optiml tune`, the tuning a build runs) with the loopback server
# (tests/llm/openai_server.py) scripted to fail, once per fault. Each tuning must still finish
# and store a verified winner of its own (parameters and rule rewrites: no llm node wins), and
# the manifest must name what went wrong at the first proposal asked. Prints the fault table
# (what the server did, what OptiML did, whether the tuning succeeded, its wall time) and keeps
# it in $OPTIML_KEEP_LLM_FAULTS/llm-fault-table.md when that is set.
# Usage: llm_faults.sh OPTIML SOURCE_DIR
set -euo pipefail
optiml=$1 source_dir=$2
source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
server_pid=
# `wait` reports the killed server's status (143): never let set -e take that for a failure.
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=
}
trap 'stop_server; rm -rf "$work"' EXIT
spec=$source_dir/examples/saxpy/kernels/saxpy.optiml.json
export OPTIML_LLM_MODEL=scripted OPTIML_LLM_API_KEY=test-key-$RANDOM
export OPTIML_LLM_MAX_TRIES=3 OPTIML_LLM_MAX_RETRY_WAIT=2 OPTIML_LLM_TIMEOUT=3
table=("| what the server did | what OptiML did (first proposal) | tuning succeeded | wall (s) |"
       "|---|---|---|---|")

# run_fault NAME DESCRIPTION PATTERN [SCRIPT_JSON]: no script = no server at all.
run_fault() {
  local name=$1 description=$2 pattern=$3 script=${4:-}
  local dir=$work/$name
  mkdir -p "$dir"
  if [ -n "$script" ]; then
    printf '%s' "$script" >"$dir/script.json"
    python3 "$source_dir/tests/llm/openai_server.py" --script "$dir/script.json" \
      --port-file "$dir/port" --log "$dir/requests.jsonl" &
    server_pid=$!
    for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.1; done
    [ -s "$dir/port" ] || fail "$name: the loopback server did not start"
    export OPTIML_LLM_BASE_URL="http://127.0.0.1:$(cat "$dir/port")/v1"
  else
    export OPTIML_LLM_BASE_URL="http://127.0.0.1:9/v1"  # nothing listens on the discard port
  fi
  local status=0 start=$SECONDS
  # 40 evaluations: the parameter search takes 32 of saxpy's 60 (kSmallSpace), the tree the rest,
  # so the tree asks the LLM at its root.
  "$optiml" tune --spec "$spec" --cache-dir "$dir/cache" --budget-evaluations 40 \
    >"$dir/tune.log" 2>&1 || status=$?
  local wall=$((SECONDS - start))
  stop_server
  local manifest
  manifest=$(find "$dir/cache/entries" -name manifest.json 2>/dev/null | head -n1 || true)
  if [[ $status -ne 0 || -z $manifest ]]; then
    tail -20 "$dir/tune.log"
    fail "$name: the tuning failed (exit $status) or stored no entry"
  fi
  local did
  did=$(python3 - "$manifest" "$pattern" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
tree = m["search"].get("tree", {})
llm = tree.get("llm", {})
proposals = llm.get("proposals", [])
if not proposals:
    sys.exit("no proposal was asked of the LLM (the tree asked none)")
attempts = proposals[0].get("attempts", [])
if not attempts:
    sys.exit("the first proposal records no attempt")
first = attempts[-1]
text = f'{first["stage"]}: {first["reason"]}'.replace("\n", " ").replace("|", "/")
if not re.search(sys.argv[2], text):
    sys.exit(f"expected /{sys.argv[2]}/ in the first proposal's last attempt, got: {text}")
path = [tree["nodes"][i] for i in tree.get("winning_path", [])]
if any(n.get("kind") == "llm" for n in path):
    sys.exit("an llm node is on the winning path although the endpoint failed")
print(f'{len(attempts)} attempt(s), then {text[:150]}')
PY
  ) || fail "$name: $did"
  grep -qF "$OPTIML_LLM_API_KEY" "$dir/tune.log" "$manifest" && fail "$name: the API key was written out"
  table+=("| $description | $did | yes (exit 0, entry stored) | $wall |")
  echo "ok: $name: $did"
}

run_fault down "nothing listens (connection refused)" "endpoint: .*(onnect|refused)"
run_fault rate_limited "429 with Retry-After: 1, every time" "endpoint: .*(429|gave up)" \
  '{"responses": [{"status": 429, "headers": {"Retry-After": "1"}, "body": {"error": {"message": "slow down"}}}], "repeat_last": true}'
run_fault quota "429 insufficient_quota" "endpoint: .*quota" \
  '{"responses": [{"status": 429, "body": {"error": {"message": "You exceeded your current quota", "type": "insufficient_quota", "code": "insufficient_quota"}}}], "repeat_last": true}'
run_fault unauthorized "401 (a wrong key)" "endpoint: .*401" \
  '{"responses": [{"status": 401, "body": {"error": {"message": "Incorrect API key provided"}}}], "repeat_last": true}'
run_fault server_error "503, every time" "endpoint: .*(503|gave up)" \
  '{"responses": [{"status": 503, "body": "upstream unavailable"}], "repeat_last": true}'
run_fault slow "answers after 30 s (the timeout is 3 s)" "endpoint: .*(imeout|imed out)" \
  '{"responses": [{"delay_s": 30, "content": "too late"}], "repeat_last": true}'
run_fault not_json "HTTP 200 with a body that is not JSON" "endpoint: .*not JSON" \
  '{"responses": [{"raw": "<html>gateway</html>"}], "repeat_last": true}'
run_fault no_kernel "a chat answer without a kernel" "parse: " \
  '{"responses": [{"content": "I am sorry, I cannot help with CUDA today."}], "repeat_last": true}'

printf '%s\n' "${table[@]}" | tee "$work/llm-fault-table.md"
[ -n "${OPTIML_KEEP_LLM_FAULTS:-}" ] && mkdir -p "$OPTIML_KEEP_LLM_FAULTS" &&
  cp "$work/llm-fault-table.md" "$OPTIML_KEEP_LLM_FAULTS/"
echo "PASSED: every LLM fault left the tuning finished with a verified winner, and named"
