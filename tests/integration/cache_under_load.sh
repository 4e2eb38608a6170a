#!/usr/bin/env bash
# Faults under load, nothing lost (issue 30): 16 concurrent builds of 8 kernels each share one
# local cache and one remote (nginx with WebDAV on loopback, its root a small tmpfs), with
# `optiml cache gc --max-size` running over and over, while the remote is killed and restarted,
# its volume fills, and builds are killed with SIGKILL at chosen points (a download from the
# remote under way, the local copy being written, any moment). Two builds read the remote through
# nginx's /slow/ (8 KiB/s), so that a download lasts long enough to be cut. Then the local cache
# folder on a read-only mount and on a full tmpfs.
# What it checks:
#   - every `optiml build` that was not killed exits 0 and either embeds a cache entry whose
#     CUBIN and PTX have the SHA-256 digests of that entry's signed manifest, or the original
#     kernel with exactly one warning saying why; no other warning than the faults' own;
#   - no torn entry is ever read: no "damaged" warning, every local entry verifies afterwards,
#     every blob on the server matches its digest, and builds after the kills hit every entry;
#   - gc never takes an entry a build is reading: builds whose reads are slowed (strace delays
#     their open of the entry's CUBIN by 300 ms, while they hold the entry) never see it vanish,
#     and gc reports the entries it kept for them.
# Prints the fault table and keeps it in $work/fault-table-load.md. Needs root (or a user
# namespace) for the tmpfs mounts, strace and xxd. Usage: cache_under_load.sh OPTIML_BINARY
work_dir=${OPTIML_TEST_WORK:?}
# Mounts a killed earlier run left behind, before lib.sh empties the folder.
while read -r _ mount_point _; do
    [[ $mount_point == "$work_dir"/* ]] && umount -l "$mount_point"
done < <(tac /proc/self/mounts)
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/nginx.sh"
optiml=$1
for tool in strace xxd; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (scripts/install-deps.sh installs it)"
done

# tmpfs mounts: as root, or in a user namespace of our own (re-run there); else those parts are
# skipped, loudly.
can_mount=false
mkdir -p "$work/probe"
if mount -t tmpfs -o size=64k tmpfs "$work/probe" 2>/dev/null; then
    umount "$work/probe"
    can_mount=true
elif [[ -z ${OPTIML_LOAD_TEST_UNSHARED:-} ]] && unshare -rm true 2>/dev/null; then
    OPTIML_LOAD_TEST_UNSHARED=1 exec unshare -rm bash "$0" "$@"
fi
mounts=()
mount_tmpfs() {  # DIR SIZE
    mkdir -p "$1"
    mount -t tmpfs -o "size=$2" tmpfs "$1"
    mounts+=("$1")
}
fill() { dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null || true; }  # until ENOSPC
skipped() {
    echo "SKIPPED: $1 (tmpfs mounts are not permitted here: run as root or where \`unshare -rm\` works)" >&2
    row "$2" "SKIPPED: mounts not permitted" "-" "-"
}

background=()
cleanup() {
    local pid point
    for pid in "${background[@]}"; do kill "$pid" 2>/dev/null || true; done
    stop_nginx
    for point in "${mounts[@]}"; do umount -l "$point" 2>/dev/null || true; done
}
trap cleanup EXIT
table=()
row() { table+=("| $1 | $2 | $3 | $4 |"); }

if $can_mount; then mount_tmpfs "$work/nginx/root" 1m; fi
start_nginx "$work/nginx"
echo "nginx on $nginx_url (pid $nginx_pid), serving $nginx_root"
make_signed_entries
OPTIML_SIGNING_KEY=$work/keys/runner.pem "$optiml" cache --cache-dir "$runner" push \
    --remote-cache "$nginx_url" >"$work/push.log" 2>&1 || { cat "$work/push.log"; fail "push failed"; }
# The digests of each kernel's entry, as its signed manifest records them.
declare -A cubin_digest ptx_digest
for i in $(seq 8); do
    key=${keys[$((i - 1))]}
    cubin_digest[$key]=$(jq -r '.sha256["kernel.cubin"]' "$runner/entries/${key:0:2}/$key/manifest.json")
    ptx_digest[$key]=$(jq -r '.sha256["kernel.ptx"]' "$runner/entries/${key:0:2}/$key/manifest.json")
done
# A tuning runner's 8 kernels (saxpy_t1..8): keys the remote does not have.
for i in $(seq 8); do
    jq ".name = \"saxpy_t$i\"" "$kernels/saxpy_1.optiml.json" >"$kernels/saxpy_t$i.optiml.json"
done

# SHA-256 of the sm_90 variant's embedded CUBIN or PTX (KIND) in a generated launcher, or none.
embedded_digest() {  # GENERATED KIND
    local bytes
    bytes=$(sed -n "s|^// Variant [0-9]* (sm_90): $2[^0-9]*\\([0-9]*\\) bytes\\.\$|\\1|p" "$1")
    [[ -n $bytes ]] || { echo none; return; }
    sed -n "\\|^// Variant [0-9]* (sm_90): $2|,\\|^};|p" "$1" | grep -o '0x[0-9a-f][0-9a-f]' |
        cut -c3- | xxd -r -p | head -c "$bytes" | sha256sum | cut -c1-64
}

# --- one build: kernels 1..8 (build B starts at kernel B), each an `optiml build` of its own ---
gc_limit=100000  # bytes: under three entries, so gc keeps evicting what builds use
entry_dir() { echo "$local_cache/entries/${1:0:2}/$1"; }
# The slowed writers and downloaders build their 8 kernels again (into p2/, p3/) while the killer
# still waits for a point: on a fast machine their first pass can end before it finds them all.
one_build() {  # ROUND_DIR B KIND: KIND is plain, slow-read, slow-write, slow-download or tuner
    local round=$1 b=$2 kind=$3 j i dir rc key prefix url=$nginx_url pass=1 passes=1
    [[ $kind == slow-download ]] && url=$nginx_url/slow
    [[ $kind == slow-write || $kind == slow-download ]] && passes=3
    for j in $(seq 0 $((8 * passes - 1))); do
        if ((j > 0 && j % 8 == 0)); then
            [[ -e $round/killer-done ]] && break
            pass=$((pass + 1))
        fi
        i=$(((b + j) % 8 + 1))
        key=${keys[$((i - 1))]}
        dir=$round/b$b/k$i
        ((pass == 1)) || dir=$round/b$b/p$pass/k$i
        mkdir -p "$dir"
        prefix=()
        case $kind in
            # The open of the entry's CUBIN waits 300 ms: the build holds the entry meanwhile.
            slow-read) prefix=(strace -qq -f -e signal=none -o "$dir/strace.log" -e trace=openat
                -e inject=openat:delay_enter=300000 -P "$(entry_dir "$key")/kernel.cubin") ;;
            # Every fsync waits 150 ms: writing an entry into the local cache takes a second.
            slow-write) prefix=(strace -qq -f --seccomp-bpf -e signal=none -o /dev/null
                -e trace=fsync -e inject=fsync:delay_enter=150000) ;;
        esac
        # LeakSanitizer cannot run under ptrace (scripts/sanitize.sh's build): no leak check there.
        if [[ ${#prefix[@]} -gt 0 ]]; then
            prefix=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "${prefix[@]}")
        fi
        rc=0
        if [[ $kind == tuner ]]; then
            FAKE_DEVICES=1 OPTIML_SIGNING_KEY=$work/keys/runner.pem "$optiml" build \
                --spec "$kernels/saxpy_t$i.optiml.json" --archs 90 --out "$dir/out" \
                --cache-dir "$local_cache" --remote-cache "$nginx_url" --remote-cache-mode read-write \
                --trusted-keys "$trusted" --budget-evaluations 2 >"$dir/log" 2>&1 || rc=$?
        else
            "${prefix[@]}" "$optiml" build --spec "$kernels/saxpy_$i.optiml.json" --archs 90 \
                --out "$dir/out" --cache-dir "$local_cache" --remote-cache "$url" \
                --trusted-keys "$trusted" >"$dir/log" 2>&1 &
            echo "$! $dir $key $kind" >"$round/b$b.current"
            { wait $!; } 2>/dev/null || rc=$?  # no "Killed" line from bash: the kills are listed
        fi
        echo "$rc" >"$dir/rc"
    done
    rm -f "$round/b$b.current"
}

# --- SIGKILL at chosen points ---
# The optiml process of each build's current kernel (under strace: strace's child), its folder,
# key and build kind: "PID DIR KEY KIND" lines, the builds in random order.
current_kernels() {  # ROUND_DIR
    local file pid dir key kind child
    for file in $(printf '%s\n' "$1"/b*.current | shuf); do
        read -r pid dir key kind 2>/dev/null <"$file" || continue
        if ! [[ /proc/$pid/exe -ef $optiml ]]; then
            read -r child _ 2>/dev/null <"/proc/$pid/task/$pid/children" || continue
            [[ /proc/$child/exe -ef $optiml ]] || continue
            pid=$child
        fi
        echo "$pid $dir $key $kind"
    done
}
has_socket() {
    local fd
    for fd in /proc/"$1"/fd/*; do [[ -S $fd ]] && return 0; done
    return 1
}
# Whether the kernel is at POINT: download (a build reading /slow/ with a connection to the
# remote open, nothing written of its entry yet, none found), write (its staging folder in the
# local cache's tmp/), any (the kernel the killer sees as the Nth of the round, N drawn at random:
# any@N; a moment drawn on the clock could fall after the builds' last kernel on a loaded machine).
at_point() {  # POINT PID DIR KEY KIND
    case $1 in
        download) [[ $5 == slow-download ]] && has_socket "$2" && [[ ! -d $(entry_dir "$4") ]] &&
            ! compgen -G "$local_cache/tmp/$4.$2.*" >/dev/null && ! grep -q 'cache hit' "$3/log" ;;
        write) compgen -G "$local_cache/tmp/*.$2.*" >/dev/null ||
            compgen -G "$local_cache/images/tmp/*.$2.*" >/dev/null ;;
        any@*) ((kernels_seen >= ${1#any@})) ;;
    esac
}
killer() {  # ROUND_DIR POINT...: one SIGKILL at each POINT while the builds run
    local round=$1 pending=("${@:2}") pid dir key kind n kernels_seen=0
    local -A seen
    for n in "${!pending[@]}"; do  # "any": one of the first 30 of the round's 128 kernels
        [[ ${pending[$n]} == any ]] && pending[$n]=any@$((1 + RANDOM % 30))
    done
    while ((${#pending[@]})) && [[ ! -e $round/done ]]; do
        while read -r pid dir key kind; do
            [[ -n ${seen[$pid]:-} ]] || { seen[$pid]=1; kernels_seen=$((kernels_seen + 1)); }
            for n in "${!pending[@]}"; do
                if at_point "${pending[$n]}" "$pid" "$dir" "$key" "$kind" && kill -KILL "$pid" 2>/dev/null; then
                    echo "${pending[$n]%@*} $pid $dir" >>"$round/kills"
                    unset "pending[$n]"
                    break
                fi
            done
        done < <(current_kernels "$round")
        sleep 0.01
    done
    echo "$kernels_seen" >"$round/kernels-seen"
    touch "$round/killer-done"
}
gc_loop() {  # ROUND_DIR
    local status
    while [[ ! -e $1/done ]]; do
        status=0
        "$optiml" cache --cache-dir "$local_cache" gc --max-size "$gc_limit" >>"$1/gc.log" 2>&1 || status=$?
        ((status == 0)) || echo "gc exited $status" >>"$1/gc.log"
        sleep 0.1
    done
}

# --- checking what each build did ---
declare -A tally
# check_kernel DIR KIND: the outcome of one kernel's build; adds to tally[hit|remote|original|
# killed|tuned|read-slowed].
check_kernel() {
    local dir=$1 kind=$2 rc key i generated line
    rc=$(cat "$dir/rc")
    if ((rc == 137)); then tally[killed]=$((tally[killed] + 1)); return; fi
    ((rc == 0)) || { cat "$dir/log"; fail "$dir: optiml build exited $rc"; }
    i=${dir##*/k}
    # Only the faults' own warnings: a damaged (torn) entry, a failed copy or anything else fails.
    while IFS= read -r line; do
        case $line in
            "optiml: warning: remote cache $nginx_url"*": cannot read "*"; not using it for 60 s; the build goes on without it") ;;
            "optiml: warning: saxpy_$i: no tuned entry for sm_90 ("*) ;;
            "optiml: warning: not published to the remote cache: remote cache $nginx_url: cannot write (PUT "*)
                [[ $kind == tuner ]] || fail "$dir: a build that does not tune published: $line" ;;
            *) fail "$dir: unexpected warning: $line" ;;
        esac
    done < <(grep '^optiml: warning' "$dir/log")
    if [[ $kind == tuner ]]; then
        assert_matches "$dir/log" "^optiml: saxpy_t$i: sm_90: done: " "$dir: the tuning did not finish"
        [[ $(count_matches '^optiml: warning: not published to the remote cache' "$dir/log") -eq 1 ]] ||
            fail "$dir: a publish refused by the full remote is not exactly one warning"
        tally[tuned]=$((tally[tuned] + 1))
        return
    fi
    key=${keys[$((i - 1))]}
    generated=$dir/out/optiml_saxpy_$i.cu
    if grep -q "^optiml: saxpy_$i: sm_90: cache hit ${key:0:12} " "$dir/log"; then
        [[ $(embedded_digest "$generated" CUBIN) == "${cubin_digest[$key]}" &&
            $(embedded_digest "$generated" PTX) == "${ptx_digest[$key]}" ]] ||
            fail "$dir: the build used an entry whose CUBIN or PTX does not match its manifest's digests"
        assert_no_match "$dir/log" "no tuned entry" "$dir: a hit that also warns of no entry"
        if grep -q "cache hit ${key:0:12} (remote" "$dir/log"; then
            tally[remote]=$((tally[remote] + 1))
        else
            tally[hit]=$((tally[hit] + 1))
        fi
    else
        [[ $(fallback_key "$generated" 90) == "${key:0:12}" ]] ||
            fail "$dir: neither a verified entry nor the original kernel for sm_90"
        [[ $(embedded_digest "$generated" CUBIN) == none ]] || fail "$dir: a fallback that embeds a variant"
        [[ $(count_matches "^optiml: warning: saxpy_$i: no tuned entry for sm_90 \\(" "$dir/log") -eq 1 ]] ||
            fail "$dir: the original kernel without exactly one warning saying why"
        tally[original]=$((tally[original] + 1))
    fi
    if [[ $kind == slow-read && -s $dir/strace.log ]]; then
        # The CUBIN's open was delayed while the build held the entry: it must have found it.
        if grep -q 'ENOENT' "$dir/strace.log"; then
            cat "$dir/strace.log"
            fail "$dir: gc or another process took the entry away while this build was reading it"
        fi
        tally[read-slowed]=$((tally[read-slowed] + 1))
    fi
}
remote_warning_count() { cat "$1"/b*/k*/log "$1"/b*/p*/k*/log 2>/dev/null | grep -c '^optiml: warning: remote cache' || true; }

# Downloads that a SIGKILL cut short: nginx logged fewer body bytes than the blob holds.
cut_downloads() {  # ACCESS_LOG_LINES_FROM
    tail -n +"$1" "$work/nginx/logs/access.log" | awk -v root="$nginx_root" '
        $6 == "\"GET" && $9 == 200 {
            path = $7; sub(/^\/slow/, "", path)
            if (!(path in size)) { cmd = "stat -c %s " root path; cmd | getline size[path]; close(cmd) }
            if ($10 + 0 < size[path] + 0) cut++
        } END { print cut + 0 }'
}
access_lines() { wc -l <"$work/nginx/logs/access.log"; }

# run_round NAME FAULT KILL_POINTS...: 16 builds at once (builds 1-2 with slowed writes, 3-4
# with slowed reads, 5-6 downloading from /slow/ when slow_downloads is set; with FAULT
# full_remote, build 16 a tuning runner), gc over and over, the kills, and FAULT (a function
# run alongside); then every kernel's outcome checked.
slow_downloads=false
all_kept=0 all_slowed=0  # over the rounds: entries gc kept for a reader, reads slowed
run_round() {
    local name=$1 fault=$2 round=$work/rounds/$1 b kind dir pids=() start=$SECONDS kill_pid gc_pid
    shift 2
    mkdir -p "$round"
    : >"$round/kills"
    tally=([hit]=0 [remote]=0 [original]=0 [killed]=0 [tuned]=0 [read-slowed]=0)
    round_access_start=$(($(access_lines) + 1))
    for b in $(seq 16); do
        kind=plain
        ((b <= 2)) && kind=slow-write
        ((b == 3 || b == 4)) && kind=slow-read
        $slow_downloads && ((b == 5 || b == 6)) && kind=slow-download
        [[ $fault == full_remote && $b == 16 ]] && kind=tuner
        echo "$kind" >"$round/b$b.kind"
        one_build "$round" "$b" "$kind" &
        pids+=($!)
    done
    gc_loop "$round" &
    gc_pid=$!
    killer "$round" "$@" &
    kill_pid=$!
    background+=("${pids[@]}" "$gc_pid" "$kill_pid")
    "$fault" "$round"
    for b in "${pids[@]}"; do wait "$b"; done
    touch "$round/done"
    wait "$gc_pid" "$kill_pid"
    round_seconds=$((SECONDS - start))
    for b in $(seq 16); do
        kind=$(cat "$round/b$b.kind")
        for dir in "$round/b$b"/k* "$round/b$b"/p*/k*; do
            [[ -d $dir ]] && check_kernel "$dir" "$kind"
        done
    done
    ! grep -q '^gc exited\|error' "$round/gc.log" || fail "gc failed during round $name: $(grep -m1 'exited\|error' "$round/gc.log")"
    "$optiml" cache --cache-dir "$local_cache" verify >"$round/verify.log" 2>&1 ||
        { cat "$round/verify.log"; fail "after round $name, the local cache holds a damaged entry"; }
    gc_kept=$(grep -c '^kept ' "$round/gc.log" || true)
    all_kept=$((all_kept + gc_kept))
    all_slowed=$((all_slowed + tally[read-slowed]))
    gc_removed=$(grep -c '^removed [0-9a-f]' "$round/gc.log" || true)
    echo "round $name: ${round_seconds}s; hits ${tally[hit]} local, ${tally[remote]} remote;" \
        "original ${tally[original]}; tuned ${tally[tuned]}; killed ${tally[killed]};" \
        "gc removed $gc_removed, kept $gc_kept in use; kills: $(kill_summary "$round")"
    round_kills=$(wc -l <"$round/kills")
    ((round_kills == $#)) ||
        fail "round $name: $round_kills of $# SIGKILLs found their point ($*); the killer saw $(cat "$round/kernels-seen") kernels"
}
outcome() {  # what the builds did, for the table
    echo "exit 0 for all not killed: ${tally[hit]} verified local hits, ${tally[remote]} verified remote hits, ${tally[original]} original kernel (one warning each); ${tally[killed]} killed"
}
checked() {  # entries checked, for the table
    echo "$(grep -c '^ok' "$1/verify.log") local entries verify; $((tally[hit] + tally[remote])) embedded entries match their digests; gc removed $gc_removed, kept $gc_kept in use; ${tally[read-slowed]} reads held 300 ms under gc, none lost its entry${2:-}"
}
kill_summary() { cut -d' ' -f1 "$1/kills" | sort | uniq -c | awk '{printf "%s%s at %s", (NR > 1 ? ", " : ""), $1, $2}'; }

# --- round 1: the remote killed (SIGKILL) a second in, restarted 1.5 s later ---
# Killed once the builds are reading the remote (10 requests of the round logged), and kept down
# until a build has noticed (its mark in remote-down/) or 20 s: fixed times missed the builds on
# a slow machine (a sanitized build's first kernels took longer than the 1.5 s it was down).
kill_and_restart() {
    local tries
    for ((tries = 0; tries < 600 && $(access_lines) - round_access_start + 1 < 10; tries++)); do
        sleep 0.1
    done
    kill -KILL "$nginx_pid"
    wait "$nginx_pid" 2>/dev/null || true
    for ((tries = 0; tries < 200; tries++)); do
        compgen -G "$local_cache/remote-down/*" >/dev/null && break
        sleep 0.1
    done
    sleep 0.5
    restart_nginx
    # The mark that has builds skip a dead remote for 60 s, aged by hand: builds find it again.
    find "$local_cache/remote-down" -type f -exec touch -d '-2 min' {} + 2>/dev/null || true
    sleep 3
    rm -rf "$local_cache/remote-down"
}
run_round killed-remote kill_and_restart any any
warnings=$(remote_warning_count "$work/rounds/killed-remote")
per_build_max=$(for b in $(seq 16); do cat "$work/rounds/killed-remote/b$b"/k*/log | grep -c '^optiml: warning: remote cache' || true; done | sort -n | tail -1)
((per_build_max <= 1)) || fail "a build warned $per_build_max times of the remote it lost once"
((warnings >= 1)) || fail "no build noticed the remote was killed"
row "remote nginx SIGKILLed once the builds read it, restarted (same port) once a build noticed; SIGKILL: $(kill_summary "$work/rounds/killed-remote")" \
    "$(outcome); $warnings builds warned once of the remote (no build twice); the others used it before and after" \
    "$(checked "$work/rounds/killed-remote")" "nothing: no failed build, no damaged entry, no mismatched digest"

# --- round 2: the remote's volume full (PUT answers 500); build 16 tunes and publishes ---
full_remote() { :; }
if $can_mount; then
    fill "$nginx_root"
    run_round full-remote full_remote write any
    rm -f "$nginx_root/filler"
    refused=$(tail -n +"$round_access_start" "$work/nginx/logs/access.log" | grep -c '"PUT [^"]*" 50[07] ' || true)
    ((refused >= 1)) || fail "the tuning runner's uploads did not reach the full remote"
    ((tally[original] == 0)) ||
        fail "with the remote's volume full, ${tally[original]} kernels got the original kernel: a full remote still serves reads"
    [[ $(remote_warning_count "$work/rounds/full-remote") -eq 0 ]] ||
        fail "a full remote (reads still fine) was taken for a dead one: $(cat "$work/rounds/full-remote"/b*/k*/log "$work/rounds/full-remote"/b*/p*/k*/log 2>/dev/null | grep -m1 'warning: remote cache')"
    for i in $(seq 8); do
        key=$("$optiml" cache key --spec "$kernels/saxpy_t$i.optiml.json" --arch 90)
        [[ ! -e $nginx_root/ac/$key ]] || fail "a manifest reached the full remote"
    done
    row "remote volume full (tmpfs filled: PUT answers 500); SIGKILL: $(kill_summary "$work/rounds/full-remote")" \
        "$(outcome); the runner tuned ${tally[tuned]} kernels, each \"not published\" in one warning ($refused PUTs refused); readers kept reading the remote (no remote warning)" \
        "$(checked "$work/rounds/full-remote")" "nothing: nothing published half (no manifest without its blobs)"
else
    skipped "the remote's full volume" "remote volume full"
fi

# --- round 3: SIGKILLs during downloads, during writes into the local cache, and anywhere ---
sigkill_storm() { :; }
gc_limit=40000  # about one entry: most kernels download theirs again
slow_downloads=true
run_round sigkills sigkill_storm download download download write write write any any any
slow_downloads=false
cut=$(cut_downloads "$round_access_start")
((cut >= 1)) || fail "no SIGKILL cut a download short (nginx logged every GET whole)"
row "9 SIGKILLs of builds: $(kill_summary "$work/rounds/sigkills") (a kill that came as the build ended leaves it exit 0)" \
    "$(outcome); nginx logged $cut downloads cut short (fewer bytes sent than the blob holds)" \
    "$(checked "$work/rounds/sigkills" "; $(find "$local_cache/tmp" "$local_cache/images/tmp" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l) staging folders of killed writers left in tmp/ (never read; gc takes them after an hour)")" \
    "nothing: every killed write left a staging folder or nothing, never an entry"

# gc met a build reading an entry (and kept it) at least once, and slowed reads happened.
((all_kept >= 1 && all_slowed >= 1)) ||
    fail "gc never met a build reading an entry ($all_kept kept, $all_slowed reads slowed): the protection went untested"

# --- round 4: afterwards, no fault, no gc: every kernel finds its whole entry ---
after() { :; }
gc_limit=100000000000
run_round after after
((tally[hit] + tally[remote] == 128)) || fail "after the faults, $((tally[original])) kernels did not find their entry"
row "none (16 builds of the same 8 kernels afterwards)" "$(outcome)" "$(checked "$work/rounds/after")" \
    "nothing: all 128 kernels found a whole entry"
blobs=$(check_server_blobs)

# --- the local cache folder on a read-only mount and on a full tmpfs ---
# local_folder_case LABEL DIR PROBLEM: kernels 1-4 have entries in DIR, 5-8 only on the remote;
# then without the remote. One warning naming DIR each time; the entries read where present.
local_folder_case() {
    local label=$1 dir=$2 problem=$3 i key log remote_url
    for remote_url in "$nginx_url" ""; do
        for i in $(seq 8); do
            key=${keys[$((i - 1))]}
            log=$work/$label${remote_url:+-remote}.$i.log
            "$optiml" build --spec "$kernels/saxpy_$i.optiml.json" --archs 90 --out "$work/out-$label/$i" \
                --cache-dir "$dir/cache" --remote-cache "$remote_url" --trusted-keys "$trusted" >"$log" 2>&1 ||
                { cat "$log"; fail "$label: kernel $i failed"; }
            [[ $(count_matches '^optiml: warning: ' "$log") -eq $((i <= 4 || ${#remote_url} ? 1 : 2)) ]] ||
                { cat "$log"; fail "$label: kernel $i did not give exactly the warnings expected"; }
            assert_matches "$log" "^optiml: warning: the local cache $dir/cache cannot be written \\($problem\\)" \
                "$label: no warning naming the folder"
            if ((i <= 4)) || [[ -n $remote_url ]]; then
                assert_matches "$log" "cache hit ${key:0:12} \\((cache $dir/cache|remote $nginx_url)\\)" "$label: kernel $i"
                [[ $(embedded_digest "$work/out-$label/$i/optiml_saxpy_$i.cu" CUBIN) == "${cubin_digest[$key]}" ]] ||
                    fail "$label: kernel $i embeds a CUBIN that does not match its digest"
            else
                assert_matches "$log" "warning: saxpy_$i: no tuned entry for sm_90" "$label: kernel $i"
            fi
        done
    done
    [[ $(find "$dir/cache/entries" -mindepth 2 -maxdepth 2 -type d | wc -l) -eq 4 ]] ||
        fail "$label: the folder's entries changed"
}
if $can_mount; then
    mount_tmpfs "$work/ro" 1m
    "$optiml" cache --cache-dir "$runner" export --to "$work/ro/cache" "${keys[@]:0:4}" >/dev/null
    mount -o remount,ro "$work/ro"
    local_folder_case read-only "$work/ro" "Read-only file system"
    row "local cache folder on a read-only mount (4 of the 8 entries in it)" \
        "exit 0: kernels 1-4 read their entry from it, 5-8 from the remote (not kept) or, without the remote, the original kernel; one warning naming the folder (Read-only file system)" \
        "8 embedded entries match their digests, twice" "nothing: the folder unchanged"
    mount_tmpfs "$work/full" 256k
    "$optiml" cache --cache-dir "$runner" export --to "$work/full/cache" "${keys[@]:0:4}" >/dev/null
    fill "$work/full"
    local_folder_case full "$work/full" "No space left on device"
    row "local cache folder on a full tmpfs (4 of the 8 entries in it)" \
        "exit 0: the same; one warning naming the folder (No space left on device)" \
        "8 embedded entries match their digests, twice" "nothing"
else
    skipped "the local cache folder on a read-only mount and on a full tmpfs" "local cache folder read-only / full"
fi

echo "server: $(ls "$nginx_root/ac" | wc -l) manifests, $blobs blobs, each under its digest"
{
    echo "| what was done | what the builds did | entries checked | anything lost |"
    echo "|---|---|---|---|"
    printf '%s\n' "${table[@]}"
} | tee "$work/fault-table-load.md"
echo "PASSED: 16 concurrent builds of 8 kernels under faults, nothing lost (${SECONDS}s)"
