#!/usr/bin/env bash
# The secrets never leave the environment: OPTIML_LLM_API_KEY, OPTIML_REMOTE_CACHE_TOKEN, the
# remote's user password (and its Basic header) and the signing key's private part appear in no
# file a run writes, no message (errors, and a process killed mid-request), and no process's
# command line (what a core dump records). A full run of every path that holds one:
#   LLM: `optiml synth` against a loopback OpenAI-compatible server (a scripted worker stands in
#        for the GPU): a 401 whose body echoes the key, a verified kernel stored with its LLM
#        exchanges, and a request killed with SIGSEGV and SIGABRT while it waits;
#   remote: entries signed with a key made here, pushed to nginx (WebDAV) with the bearer token
#        and with basic authentication, a wrong token refused, a build that hits the remote;
# then a scan of every file under this test's folder (caches, build outputs, logs, the server's
# stored files and logs, the temporary folder) for each secret, whole or base64-encoded.
# Usage: secrets.sh OPTIML_BINARY
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/nginx.sh"
optiml=$1
unset OPTIML_REMOTE_CACHE OPTIML_REMOTE_CACHE_MODE OPTIML_REMOTE_CACHE_TOKEN OPTIML_SIGNING_KEY \
    OPTIML_REMOTE_CACHE_USER OPTIML_REMOTE_CACHE_PASSWORD OPTIML_TRUSTED_KEYS OPTIML_LLM_API_KEY
export OPTIML_PROFILE=0 OPTIML_TRANSFORM=0 TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
# Files that hold a secret by design (the server's settings, the key files, the LLM script).
fixture=$work/fixture
mkdir -p "$fixture"

start_nginx "$fixture/nginx"
trap 'stop_nginx; [[ -n ${server_pid:-} ]] && kill "$server_pid" 2>/dev/null || true' EXIT
api_key=sk-proj-$RANDOM$RANDOM-do-not-write-$RANDOM
"$optiml" cache keygen --out "$fixture/keys" --name runner --comment "secrets test" >/dev/null
# The private key's base64 body, line by line: any of them in a file is a leak.
mapfile -t pem_lines < <(grep -v -- '-----' "$fixture/keys/runner.pem")
secrets=("$api_key" "$nginx_token" "$nginx_password"
         "$(printf 'optiml:%s' "$nginx_password" | base64 -w0)"
         "$(printf '%s' "$api_key" | base64 -w0)" "${pem_lines[@]}")

# Every process's command line, sampled while the run goes on (a core dump records it).
cmdline_leaks=$work/cmdline-leaks.txt
: >"$cmdline_leaks"
sample_command_lines() {
    local cmdline secret
    for cmdline in /proc/[0-9]*/cmdline; do
        local text
        text=$({ tr '\0' ' ' <"$cmdline"; } 2>/dev/null) || continue  # it may have ended
        for secret in "${secrets[@]}"; do
            [[ $text == *"$secret"* ]] && echo "$cmdline: $text" >>"$cmdline_leaks"
        done
    done
    return 0
}
sampler_pid=
start_sampler() { (while :; do sample_command_lines; sleep 0.05; done) & sampler_pid=$!; }
stop_sampler() { kill "$sampler_pid" 2>/dev/null || true; wait "$sampler_pid" 2>/dev/null || true; }
start_sampler

# --- LLM ---
# The key reaches the script through its environment, never its command line.
SECRETS_TEST_KEY=$api_key python3 - "$fixture" "$source_dir/tests/llm" <<'PY'
import json, os, sys
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[2])
from synth_answers import relu_answer
fixture, key = sys.argv[1], os.environ["SECRETS_TEST_KEY"]
answer = relu_answer("relu")
scripts = {
    # A server that quotes the key it refused, as some proxies do.
    "refused": {"responses": [{"status": 401, "body": {"error": {
        "message": f"Incorrect API key provided: {key}. Find your key at the dashboard."}}}],
        "repeat_last": True},
    "verified": {"responses": [{"content": answer}], "repeat_last": True},
    "slow": {"responses": [{"delay_s": 60, "content": answer}], "repeat_last": True},
}
for name, script in scripts.items():
    json.dump(script, open(f"{fixture}/{name}.json", "w"))
PY

server_pid=
start_server() {  # start_server SCRIPT: the loopback LLM server answering from fixture/SCRIPT.json
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
    rm -f "$work/port"
    python3 "$source_dir/tests/llm/openai_server.py" --script "$fixture/$1.json" \
        --port-file "$work/port" --log "$work/llm-requests-$1.jsonl" &
    server_pid=$!
    for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.1; done
    [[ -s $work/port ]] || fail "the loopback LLM server did not start"
}
synth() {  # synth NAME [&]: optiml synth against the running server; output in $work/synth-NAME.log
    OPTIML_LLM_API_KEY=$api_key OPTIML_LLM_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1" \
        OPTIML_LLM_MODEL=scripted FAKE_DEVICES=1 \
        "$optiml" synth "apply ReLU" --reference "$source_dir/bench/llm_synth/tasks/relu.cpp" \
        --name relu --out "$work/synth-out-$1" --cache-dir "$work/synth-cache-$1" \
        >"$work/synth-$1.log" 2>&1
}

start_server refused
status=0
synth refused || status=$?
[[ $status -ne 0 ]] || fail "a refused key did not fail the synth"
grep -q "401" "$work/synth-refused.log" || { cat "$work/synth-refused.log"; fail "no 401 reported"; }
grep -q "<redacted>" "$work/synth-refused.log" ||
    { cat "$work/synth-refused.log"; fail "the server's echo of the key was not redacted"; }
echo "ok: a 401 that quotes the key is reported with the key redacted"

start_server verified
synth verified || { cat "$work/synth-verified.log"; fail "synth with a verified answer failed"; }
grep -q "optiml: stored " "$work/synth-verified.log" || fail "the verified kernel was not stored"
[[ $(find "$work/synth-cache-verified" -type f | wc -l) -gt 0 ]] || fail "synth stored no file"
grep -q '"authorization_scheme": *"Bearer"' "$work/llm-requests-verified.jsonl" ||
    fail "the key was not sent as a bearer token"
echo "ok: a verified kernel stored with its LLM exchanges"

for signal in SEGV ABRT; do
    start_server slow
    # Under AddressSanitizer (scripts/sanitize.sh) the signal this test sends is no fault of
    # OptiML's: ASan's SIGSEGV handler would report it as one.
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0 synth "killed-$signal" &
    synth_pid=$!
    # Killed while it waits for the answer, mid-request.
    for _ in $(seq 100); do
        [[ -s $work/llm-requests-slow.jsonl ]] && break
        sleep 0.1
    done
    [[ -s $work/llm-requests-slow.jsonl ]] || fail "synth sent no request to the slow server"
    optiml_pid=$(pgrep -n -f -- "--name relu --out $work/synth-out-killed-$signal") ||
        fail "no optiml synth process to kill"
    sample_command_lines
    kill -"$signal" "$optiml_pid"
    status=0
    wait "$synth_pid" || status=$?
    [[ $status -ne 0 ]] || fail "synth killed with SIG$signal exited 0"
    rm -f "$work/llm-requests-slow.jsonl"
    echo "ok: synth killed with SIG$signal mid-request (exit $status)"
done

# --- remote cache: sign, push with the token and with basic authentication, build from it ---
seed=$source_dir/examples/saxpy/optiml-seed
runner=$work/runner-cache
"$optiml" cache --cache-dir "$runner" import --from "$seed" >/dev/null
OPTIML_SIGNING_KEY=$fixture/keys/runner.pem \
    "$optiml" cache --cache-dir "$runner" sign >"$work/sign.log" 2>&1 ||
    { cat "$work/sign.log"; fail "signing failed"; }
OPTIML_REMOTE_CACHE_TOKEN=$nginx_token OPTIML_SIGNING_KEY=$fixture/keys/runner.pem \
    "$optiml" cache --cache-dir "$runner" push --remote-cache "$nginx_url/bearer" \
    >"$work/push-bearer.log" 2>&1 || { cat "$work/push-bearer.log"; fail "push with the token failed"; }
OPTIML_REMOTE_CACHE_USER=optiml OPTIML_REMOTE_CACHE_PASSWORD=$nginx_password \
    OPTIML_SIGNING_KEY=$fixture/keys/runner.pem \
    "$optiml" cache --cache-dir "$runner" push --remote-cache "$nginx_url/private" \
    >"$work/push-basic.log" 2>&1 || { cat "$work/push-basic.log"; fail "push with a password failed"; }
grep -q "^pushed " "$work/push-basic.log" || fail "nothing pushed with basic authentication"
status=0
OPTIML_REMOTE_CACHE_TOKEN=$nginx_token-wrong \
    "$optiml" cache --cache-dir "$runner" push --remote-cache "$nginx_url/bearer" \
    >"$work/push-refused.log" 2>&1 || status=$?
[[ $status -ne 0 ]] || fail "a wrong token was accepted"
echo "ok: pushed with the token and with a password; a wrong token refused (exit $status)"

OPTIML_REMOTE_CACHE_USER=optiml OPTIML_REMOTE_CACHE_PASSWORD=$nginx_password \
    "$optiml" build --spec "$source_dir/examples/saxpy/kernels/saxpy.optiml.json" --archs 90 \
    --out "$work/build-out" --cache-dir "$work/build-cache" --remote-cache "$nginx_url/private" \
    --trusted-keys "$fixture/keys/runner.pub" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; fail "the build from the remote failed"; }
grep -Eq '^// sm_90: variant [0-9]+' "$work/build-out/optiml_saxpy.cu" ||
    { cat "$work/build.log"; fail "the build did not use the remote's signed entry"; }
echo "ok: a build hit the remote with basic authentication"
stop_sampler

# --- the scan ---
by_design=("$fixture/nginx/nginx.conf" "$fixture/nginx/htpasswd" "$fixture/keys/runner.pem"
           "$fixture/refused.json" "$cmdline_leaks")
is_by_design() {
    local file
    for file in "${by_design[@]}"; do [[ $1 == "$file" ]] && return 0; done
    return 1
}
leaks=()
scanned=0
while IFS= read -r -d '' file; do
    is_by_design "$file" && continue
    scanned=$((scanned + 1))
    for secret in "${secrets[@]}"; do
        grep -qF -- "$secret" "$file" && leaks+=("$file holds a secret (${secret:0:6}...)")
    done
done < <(find "$work" -type f -print0)
[[ -s $cmdline_leaks ]] && leaks+=("a command line held a secret: $(head -3 "$cmdline_leaks")")
if [[ ${#leaks[@]} -gt 0 ]]; then
    printf '%s\n' "${leaks[@]}" >&2
    fail "${#leaks[@]} leaks"
fi
echo "ok: ${#secrets[@]} secrets in none of $scanned files a run wrote, nor in any command line"
