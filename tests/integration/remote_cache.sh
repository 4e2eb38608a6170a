#!/usr/bin/env bash
# The remote cache against a real nginx with WebDAV PUT on loopback, started here: round trip
# (push, then a CMake build that hits the remote and keeps the entry locally), 8 concurrent
# pushes and 8 concurrent builds sharing one remote and one local cache, the server killed or
# frozen mid-build, a corrupted blob, a 401, and entries signed by an untrusted key, unsigned,
# or with a file swapped after signing. Prints the fault table (what was done to the server,
# what the build did, the time it added) and keeps it in $work/fault-table.md.
# The entries are the saxpy example's committed sm_90 entry, re-keyed for 8 kernels that differ
# only in their name, and signed with a key made here. Usage: remote_cache.sh OPTIML_BINARY
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/nginx.sh"
optiml=$1

start_nginx "$work/nginx"
trap stop_nginx EXIT
echo "nginx on $nginx_url (pid $nginx_pid), serving $nginx_root"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
table=()
row() { table+=("| $1 | $2 | $3 |"); }

# --- keys and entries: 8 kernels (saxpy_1..8), one signed entry each in the runner's cache ---
make_signed_entries
"$optiml" cache keygen --out "$work/keys" --name stranger --comment "not ours" >/dev/null
[[ $(stat -c %a "$work/keys/runner.pem") == 600 ]] || fail "the private key is not mode 0600"
# The connections waiting to be accepted by the listener on 127.0.0.1:<port>: a stopped nginx
# accepts none, so this counts the requests made to it meanwhile (rx_queue of a LISTEN socket,
# state 0A, in /proc/net/tcp is its accept queue).
accept_queue() {
    local want sl address remote state queues rest
    want=$(printf '0100007F:%04X' "$1")
    while read -r sl address remote state queues rest; do
        if [[ $address == "$want" && $state == 0A ]]; then
            echo $((16#${queues#*:}))
            return
        fi
    done </proc/net/tcp
    echo "no listener on 127.0.0.1:$1"
}

# --- 1. eight concurrent pushes of eight entries that share their blobs ---
export OPTIML_SIGNING_KEY=$work/keys/runner.pem
pids=()
for i in $(seq 8); do
    "$optiml" cache --cache-dir "$runner" push --remote-cache "$nginx_url" "${keys[$((i - 1))]}" \
        >"$work/push.$i.log" 2>&1 &
    pids+=($!)
done
for i in $(seq 8); do
    wait "${pids[$((i - 1))]}" || { cat "$work/push.$i.log"; fail "push $i failed"; }
    assert_matches "$work/push.$i.log" "^pushed ${keys[$((i - 1))]}" "push $i did not upload"
done
unset OPTIML_SIGNING_KEY
[[ $(ls "$nginx_root/ac" | wc -l) -eq 8 ]] || fail "the server holds $(ls "$nginx_root/ac" | wc -l) manifests, not 8"
echo "server: 8 manifests, $(check_server_blobs) blobs, each under its digest"
"$optiml" cache --cache-dir "$runner" push --remote-cache "$nginx_url" "${keys[0]}" \
    >"$work/push.again.log" 2>&1
assert_matches "$work/push.again.log" "^already there ${keys[0]}" "a second push uploaded again"

# --- 2. builds that tune (a scripted GPU): read-write publishes signed, read never uploads ---
for i in 9 10 11; do
    jq ".name = \"saxpy_$i\"" "$source_dir/examples/saxpy/kernels/saxpy.optiml.json" \
        >"$kernels/saxpy_$i.optiml.json"
done
tune_kernel() {  # N MODE LOG: kernel N tuned on the scripted GPU with a remote in MODE
    FAKE_DEVICES=1 "$optiml" build --spec "$kernels/saxpy_$1.optiml.json" --archs 90 \
        --out "$work/out/$1" --cache-dir "$work/tuner-cache" --budget-evaluations 2 \
        --remote-cache "$nginx_url" --remote-cache-mode "$2" >"$3" 2>&1 || { cat "$3"; fail "tuning kernel $1 failed"; }
}
OPTIML_SIGNING_KEY=$work/keys/runner.pem tune_kernel 9 read-write "$work/tune.rw.log"
key9=$("$optiml" cache key --spec "$kernels/saxpy_9.optiml.json")
assert_matches "$work/tune.rw.log" "^optiml: saxpy_9: sm_90: published ${key9:0:12} to the remote cache" \
    "a read-write build did not publish what it tuned"
[[ $(jq -r .signature.public_key "$nginx_root/ac/$key9") == $(cut -d' ' -f2 "$trusted") ]] ||
    fail "the published entry is not signed by the runner's key"
puts_before=$(grep -c '"PUT ' "$work/nginx/logs/access.log" || true)
OPTIML_SIGNING_KEY=$work/keys/runner.pem tune_kernel 10 read "$work/tune.ro.log"
[[ $(grep -c '"PUT ' "$work/nginx/logs/access.log" || true) -eq $puts_before ]] ||
    fail "a read-only build uploaded (PUT) to the remote"
assert_no_match "$work/tune.ro.log" "published" "a read-only build claims to have published"
tune_kernel 11 read-write "$work/tune.unsigned.log"
assert_matches "$work/tune.unsigned.log" '^optiml: warning: not published to the remote cache: entry [0-9a-f]{12} is unsigned.*OPTIML_SIGNING_KEY' \
    "a read-write build without a signing key did not say why it did not publish"
[[ ! -e $nginx_root/ac/$("$optiml" cache key --spec "$kernels/saxpy_11.optiml.json") ]] ||
    fail "an unsigned result was published"
rm -rf "$local_cache"
build_kernel 9 "$nginx_url" "$work/after-tune.log"
assert_matches "$work/after-tune.log" "cache hit ${key9:0:12} \\(remote $nginx_url\\)" \
    "a developer build did not get what the runner published"
row "none: a runner tunes kernel 9 (read-write, signing key), others build" \
    "published signed; a developer build hits it; a read-only tuner never PUTs; without a key: not published, one warning why" "-"

# --- 3. baseline: what one kernel's build costs with no remote at all ---
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
# measure RUNS COMMAND...: runs it RUNS times, each with an empty local cache (and so without the
# mark of a down remote); it must succeed. Sets measured_ms (the median) and spread_ms.
measure() {
    local runs=$1 times=() run start
    shift
    for ((run = 0; run < runs; run++)); do
        rm -rf "$local_cache"
        start=$(now_ms)
        "$@" || fail "$* failed"
        times+=($(($(now_ms) - start)))
    done
    measured_ms=$(median "${times[@]}")
    spread_ms=$(($(printf '%s\n' "${times[@]}" | sort -n | tail -1) - $(printf '%s\n' "${times[@]}" | sort -n | head -1)))
}
# The time a fault added to one kernel's build: its median minus the baseline's.
added() {
    local delta=$(($1 - baseline_ms))
    if ((delta < noise_ms && delta > -noise_ms)); then
        echo "${delta} ms (within the ${noise_ms} ms spread of a build)"
    else
        echo "${delta} ms"
    fi
}
no_remote_build() {
    "$optiml" build --spec "$kernels/saxpy_1.optiml.json" --archs 90 --out "$work/out/base" \
        --cache-dir "$local_cache" >/dev/null
}
measure 5 no_remote_build
baseline_ms=$measured_ms noise_ms=$spread_ms
echo "baseline: ${baseline_ms} ms for a kernel build (a miss) without a remote, spread ${noise_ms} ms"

# --- 4. eight concurrent builds, one remote, one (empty) local cache ---
rm -rf "$local_cache"
pids=()
for i in $(seq 8); do
    build_kernel "$i" "$nginx_url" "$work/concurrent.$i.log" &
    pids+=($!)
done
for i in $(seq 8); do
    wait "${pids[$((i - 1))]}" || { cat "$work/concurrent.$i.log"; fail "concurrent build $i failed"; }
    assert_matches "$work/concurrent.$i.log" "^optiml: saxpy_$i: sm_90: cache hit [0-9a-f]{12} \\(remote $nginx_url\\)" \
        "concurrent build $i did not hit the remote"
    assert_no_match "$work/concurrent.$i.log" '^optiml: warning:' "concurrent build $i warned"
    embeds_tuned "$i" || fail "concurrent build $i does not embed the remote's CUBIN"
done
"$optiml" cache --cache-dir "$local_cache" verify >"$work/verify.log" || {
    cat "$work/verify.log"
    fail "the shared local cache has a damaged entry"
}
[[ $(grep -c '^ok ' "$work/verify.log") -eq 8 ]] || fail "the local cache holds $(grep -c '^ok ' "$work/verify.log") entries, not 8"
for key in "${keys[@]}"; do grep -q "^ok *$key" "$work/verify.log" || fail "entry $key was lost"; done
# The same kernel 8 times at once into a fresh local cache: one entry, whole.
rm -rf "$local_cache"
pids=()
for j in $(seq 8); do
    out_name=same$j build_kernel 1 "$nginx_url" "$work/same.$j.log" &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "a concurrent build of one kernel failed"; done
"$optiml" cache --cache-dir "$local_cache" verify >"$work/verify.same.log" || fail "one kernel, 8 writers: damaged"
[[ $(grep -c '^ok ' "$work/verify.same.log") -eq 1 ]] || fail "one kernel, 8 writers: not one entry"
row "8 concurrent pushes, then 8 concurrent builds, one remote and one local cache" \
    "all 8 hit the remote; local cache: 8 entries, each verified by digest; server: every blob matches its digest" "-"

# --- 5. round trip through CMake: optiml_optimize_kernel(... REMOTE_CACHE ...) ---
project=$work/project
copy_example saxpy "$project"
sed -i "s|CACHE_SEED optiml-seed)|CACHE_SEED optiml-seed REMOTE_CACHE $nginx_url REMOTE_CACHE_MODE read TRUSTED_KEYS $trusted)|" \
    "$project/CMakeLists.txt"
# The example's own key is the seed's: publish that entry (signed by the runner) as well.
project_key=$("$optiml" cache key --spec "$project/kernels/saxpy.optiml.json" --arch 90)
[[ $project_key == "$seed_key" ]] || fail "the copied example keys to $project_key, not the seed's $seed_key"
"$optiml" cache --cache-dir "$work/seed-copy" import --from "$seed" >/dev/null
OPTIML_SIGNING_KEY=$work/keys/runner.pem "$optiml" cache --cache-dir "$work/seed-copy" push \
    --remote-cache "$nginx_url" >/dev/null
export OPTIML_CACHE_DIR=$work/cmake-cache
configure "$project" "$work/project-build" -DOptiML_DIR="$optiml_build_dir"
build "$work/project-build" "$work/project-build.log"
assert_matches "$work/project-build.log" "^optiml: saxpy: sm_90: cache hit [0-9a-f]{12} \\(remote $nginx_url\\)" \
    "the CMake build did not hit the remote"
assert_no_match "$work/project-build.log" '^optiml: warning:' "the CMake build warned"
"$optiml" cache verify | grep -q "^ok *$seed_key" || fail "the remote hit was not kept in the local cache"
stop_nginx
touch "$project/kernels/saxpy.optiml.json"
build "$work/project-build" "$work/project-build.2.log"
assert_matches "$work/project-build.2.log" "^optiml: saxpy: sm_90: cache hit [0-9a-f]{12} \\(cache " \
    "the rebuild did not use the entry kept locally"
unset OPTIML_CACHE_DIR
export OPTIML_CACHE_DIR=$work/cache
start_nginx "$work/nginx"
row "none (CMake build with REMOTE_CACHE, empty local cache)" \
    "remote hit, entry kept in the local cache; rebuild with the server gone hits the local copy" "-"

# --- 6. server killed mid-build: kernels 1-3 hit, then the server goes, kernels 4-8 ---
rm -rf "$local_cache"
for i in 1 2 3; do build_kernel "$i" "$nginx_url" "$work/killed.$i.log" || fail "kernel $i failed"; done
stop_nginx
start=$(now_ms)
build_kernel 4 "$nginx_url" "$work/killed.4.log" || { cat "$work/killed.4.log"; fail "kernel 4 failed with the server gone"; }
first_ms=$(($(now_ms) - start))
start=$(now_ms)
for i in 5 6 7 8; do
    build_kernel "$i" "$nginx_url" "$work/killed.$i.log" || { cat "$work/killed.$i.log"; fail "kernel $i failed with the server gone"; }
done
rest_ms=$((($(now_ms) - start) / 4))
[[ $(remote_warnings "$work"/killed.*.log) -eq 1 ]] || fail "killed server: $(remote_warnings "$work"/killed.*.log) remote warnings, expected 1"
assert_matches "$work/killed.4.log" 'remote cache .*: cannot read .*Connection refused|remote cache .*Couldn.t connect' \
    "the warning does not say the server could not be reached"
for i in 1 2 3; do embeds_tuned "$i" || fail "kernel $i lost its remote entry"; done
for i in 4 5 6 7 8; do ! embeds_tuned "$i" || fail "kernel $i claims a tuned variant"; done
row "killed (connection refused) after 3 of 8 kernel builds" \
    "kernels 1-3 got their entries from the remote; 4-8 the original kernel; one warning in all; exit 0" \
    "kernel 4 (refused, warns): $(added "$first_ms"); kernels 5-8 (skip): $(added "$rest_ms") each"
start_nginx "$work/nginx"

# --- 7. server frozen (SIGSTOP: connections accepted, never answered), default timeouts ---
rm -rf "$local_cache"
kill -STOP "$nginx_pid"
[[ $(accept_queue "${nginx_url##*:}") == 0 ]] ||
    fail "before the builds, nginx's accept queue holds $(accept_queue "${nginx_url##*:}")"
start=$(now_ms)
slowest_rest_ms=0
for i in $(seq 8); do
    build_start=$(now_ms)
    build_kernel "$i" "$nginx_url" "$work/frozen.$i.log" || fail "kernel $i failed"
    build_ms=$(($(now_ms) - build_start))
    if ((i == 1)); then first_ms=$build_ms; elif ((build_ms > slowest_rest_ms)); then slowest_rest_ms=$build_ms; fi
done
elapsed=$(($(now_ms) - start))
total=$((elapsed - 8 * baseline_ms))
# One request for the whole build: the first build's, which timed out; the other 7 skipped the
# remote. Counted, not timed: a loaded machine stretches every build.
requests=$(accept_queue "${nginx_url##*:}")
kill -CONT "$nginx_pid"
[[ $requests == 1 ]] || fail "8 builds against a frozen server made $requests requests, expected 1 (the first build's; the others skip a remote marked down)"
[[ $(remote_warnings "$work"/frozen.*.log) -eq 1 ]] || fail "frozen server: $(remote_warnings "$work"/frozen.*.log) remote warnings, expected 1"
assert_matches "$work/frozen.1.log" 'request timeout 10000 ms' "the warning does not name the timeout"
assert_matches "$work/frozen.1.log" 'timed out' "the warning does not say the request timed out"
row "frozen (SIGSTOP) for a build of 8 kernels, default timeouts (connect 2 s, request 10 s)" \
    "first kernel waits one request timeout, warns once; the other 7 skip the remote (marked down for 60 s); all original kernel; exit 0" \
    "${total} ms added to the whole build; the first build ${first_ms} ms, the slowest of the other 7 ${slowest_rest_ms} ms"

# --- 8. a corrupted blob: the CUBIN truncated on the server ---
rm -rf "$local_cache"
cubin_digest=$(jq -r '.sha256["kernel.cubin"]' "$nginx_root/ac/${keys[0]}")
cp "$nginx_root/cas/$cubin_digest" "$work/cubin.good"
head -c 1000 "$work/cubin.good" >"$nginx_root/cas/$cubin_digest"
measure 3 build_kernel 1 "$nginx_url" "$work/corrupt.log"
assert_matches "$work/corrupt.log" "^optiml: warning: ignoring a damaged cache entry: $nginx_url/cas/$cubin_digest \\(kernel.cubin of entry [0-9a-f]{12}\\): SHA-256 of the 1000 bytes received is" \
    "the truncated blob was not rejected with its digest"
! embeds_tuned 1 || fail "the truncated CUBIN was shipped"
"$optiml" cache --cache-dir "$local_cache" ls | grep -q . && fail "the damaged entry reached the local cache"
cp "$work/cubin.good" "$nginx_root/cas/$cubin_digest"
row "one blob (the CUBIN) truncated to 1000 bytes on the server" \
    "rejected: digest mismatch named with the URL; original kernel; nothing stored locally" "$(added "$measured_ms")"

# --- 9. 401: the remote asks for basic auth ---
rm -rf "$local_cache"
OPTIML_SIGNING_KEY=$work/keys/runner.pem OPTIML_REMOTE_CACHE_USER=optiml \
    OPTIML_REMOTE_CACHE_PASSWORD=$nginx_password "$optiml" cache --cache-dir "$runner" push \
    --remote-cache "$nginx_url/private" "${keys[1]}" >/dev/null || fail "an authenticated push failed"
measure 3 build_kernel 2 "$nginx_url/private" "$work/unauthorized.log"
[[ $(grep -c 'OPTIML_REMOTE_CACHE_USER' "$work/unauthorized.log") -eq 1 ]] ||
    fail "a 401 did not give one message naming OPTIML_REMOTE_CACHE_USER"
assert_matches "$work/unauthorized.log" 'HTTP 401 Unauthorized.*set OPTIML_REMOTE_CACHE_TOKEN' "the 401 message"
rm -rf "$local_cache"  # and with it the mark that the remote is down
OPTIML_REMOTE_CACHE_USER=optiml OPTIML_REMOTE_CACHE_PASSWORD=wrong-$nginx_password \
    build_kernel 2 "$nginx_url/private" "$work/wrong-password.log"
assert_matches "$work/wrong-password.log" 'refused the credentials' "a wrong password"
assert_no_match "$work/wrong-password.log" "$nginx_password" "the password appeared in a message"
rm -rf "$local_cache"
OPTIML_REMOTE_CACHE_USER=optiml OPTIML_REMOTE_CACHE_PASSWORD=$nginx_password \
    build_kernel 2 "$nginx_url/private" "$work/authorized.log"
assert_matches "$work/authorized.log" "cache hit [0-9a-f]{12} \\(remote $nginx_url/private\\)" \
    "basic auth did not reach the entry"
row "401 (basic auth on /private/), no credentials set" \
    "one message: HTTP 401, set OPTIML_REMOTE_CACHE_TOKEN or OPTIML_REMOTE_CACHE_USER/PASSWORD; original kernel; exit 0 (with them: hit)" \
    "$(added "$measured_ms")"

# --- bearer token, and TLS with the team's own CA ---
OPTIML_SIGNING_KEY=$work/keys/runner.pem OPTIML_REMOTE_CACHE_TOKEN=$nginx_token \
    "$optiml" cache --cache-dir "$runner" push --remote-cache "$nginx_url/bearer" "${keys[2]}" \
    >"$work/push.bearer.log" 2>&1 || { cat "$work/push.bearer.log"; fail "a push with a bearer token failed"; }
rm -rf "$local_cache"
build_kernel 3 "$nginx_url/bearer" "$work/no-token.log"
assert_matches "$work/no-token.log" 'HTTP 401 Unauthorized.*set OPTIML_REMOTE_CACHE_TOKEN' "a 401 without a token"
rm -rf "$local_cache"
OPTIML_REMOTE_CACHE_TOKEN=$nginx_token build_kernel 3 "$nginx_url/bearer" "$work/token.log"
assert_matches "$work/token.log" "cache hit [0-9a-f]{12} \\(remote $nginx_url/bearer\\)" "the bearer token did not reach the entry"
assert_no_match "$work/token.log" "$nginx_token" "the token appeared in a message"
rm -rf "$local_cache"
build_kernel 1 "$nginx_tls_url" "$work/tls-unknown-ca.log"
assert_matches "$work/tls-unknown-ca.log" "^optiml: warning: remote cache $nginx_tls_url: cannot read .*(certificate|SSL)" \
    "a server whose CA is unknown was not reported as a TLS failure"
rm -rf "$local_cache"
OPTIML_REMOTE_CACHE_CA=$nginx_ca build_kernel 1 "$nginx_tls_url" "$work/tls.log"
assert_matches "$work/tls.log" "cache hit [0-9a-f]{12} \\(remote $nginx_tls_url\\)" "TLS with OPTIML_REMOTE_CACHE_CA did not hit"
row "HTTPS with a certificate of a private CA; /bearer/ wants a token" \
    "without OPTIML_REMOTE_CACHE_CA: one warning (certificate problem), original kernel; with it: hit. No token: 401 message; with OPTIML_REMOTE_CACHE_TOKEN: hit" "-"

# --- 10. trust: valid digests, but untrusted key / unsigned / a file swapped after signing ---
# Published by hand with curl under /trust/, as a compromised runner or server could.
trust_url=$nginx_url/trust
put() { curl -sf -X PUT --data-binary "@$2" "$trust_url/$1" >/dev/null || fail "PUT $1"; }
entry_dir() { echo "$runner/entries/${1:0:2}/$1"; }
publish_raw() {  # KEY MANIFEST: the entry's blobs, then MANIFEST as its /ac/
    local file
    for file in "$(entry_dir "$1")"/kernel.*; do put "cas/$(sha256sum <"$file" | cut -c1-64)" "$file"; done
    put "ac/$1" "$2"
}
"$optiml" cache --cache-dir "$work/stranger-cache" import --from "$runner" >/dev/null
"$optiml" cache --cache-dir "$work/stranger-cache" sign --key "$work/keys/stranger.pem" "${keys[2]}" >/dev/null
publish_raw "${keys[2]}" "$work/stranger-cache/entries/${keys[2]:0:2}/${keys[2]}/manifest.json"
jq 'del(.signature)' "$(entry_dir "${keys[3]}")/manifest.json" >"$work/unsigned.json"
publish_raw "${keys[3]}" "$work/unsigned.json"
echo "hostile code" >"$work/hostile.cubin"
hostile=$(sha256sum <"$work/hostile.cubin" | cut -c1-64)
put "cas/$hostile" "$work/hostile.cubin"
jq --arg d "$hostile" '.sha256["kernel.cubin"] = $d' "$(entry_dir "${keys[4]}")/manifest.json" >"$work/swapped.json"
publish_raw "${keys[4]}" "$work/swapped.json"
for case in "3|stranger|is signed by key .*, which no trusted-keys file lists|signed by an untrusted key" \
    "4|unsigned|is unsigned|unsigned" \
    "5|swapped|has a signature by trusted key .* that does not match its contents|a file swapped after signing (digest updated)"; do
    IFS='|' read -r i name reason label <<<"$case"
    measure 3 build_kernel "$i" "$trust_url" "$work/trust.$name.log"
    assert_matches "$work/trust.$name.log" "^optiml: warning: rejecting an untrusted cache entry: remote $trust_url: entry [0-9a-f]{12} $reason" \
        "the $name entry was not rejected with its reason"
    ! embeds_tuned "$i" || fail "the $name entry was shipped"
    "$optiml" cache --cache-dir "$local_cache" ls | grep -q . && fail "the $name entry reached the local cache"
    row "entry with valid digests, $label" \
        "rejected, one warning: \"${reason//.\*/…}\"; original kernel; nothing stored locally" "$(added "$measured_ms")"
done

# --- pull by hand: a trusted entry comes in; an untrusted one is refused with its reason ---
"$optiml" cache --cache-dir "$work/pulled" pull --remote-cache "$nginx_url" --trusted-keys "$trusted" \
    "${keys[5]}" >"$work/pull.log" 2>&1 || { cat "$work/pull.log"; fail "pull failed"; }
assert_matches "$work/pull.log" "^pulled ${keys[5]}" "pull did not report the entry"
"$optiml" cache --cache-dir "$work/pulled" verify | grep -q "^ok *${keys[5]}" || fail "the pulled entry is not in the cache"
if "$optiml" cache --cache-dir "$work/pulled" pull --remote-cache "$trust_url" --trusted-keys "$trusted" \
    "${keys[2]}" >"$work/pull.untrusted.log" 2>&1; then
    fail "pulling an entry signed by an untrusted key succeeded"
fi
assert_matches "$work/pull.untrusted.log" "^optiml: error: remote $trust_url: entry [0-9a-f]{12} is signed by key" \
    "pull did not say why it refused the entry"

{
    echo "| what was done to the server | what the build did | time added |"
    echo "|---|---|---|"
    printf '%s\n' "${table[@]}"
} | tee "$work/fault-table.md"
echo "PASSED: remote cache against nginx (round trip, concurrency, faults, trust)"
