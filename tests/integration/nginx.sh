# A real nginx with WebDAV PUT on loopback, for the remote-cache tests (sourced after lib.sh).
# It runs as the current user, in the foreground of a background job, with its config, logs and
# temporary files in one folder, so a test starts and stops it at will.
#   start_nginx DIR    serves DIR/root on a free port: sets nginx_url, nginx_pid, nginx_root;
#                      /private/ asks for basic auth (user optiml, password $nginx_password),
#                      /bearer/ for the token $nginx_token; the same root over TLS at
#                      $nginx_tls_url, with a certificate of the CA in $nginx_ca (made here).
#                      /slow/ serves the same root at 8 KiB/s (downloads that take a second or
#                      two). DIR/root may be a mount the caller made (a small tmpfs: a volume
#                      that fills)
#   stop_nginx         kill it (a server that went away)
#   restart_nginx      start it again, same root, same port (the server came back)

nginx_command=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_command ]] || fail "nginx is not installed (scripts/install-deps.sh installs it)"
"$nginx_command" -V 2>&1 | grep -q -- --with-http_dav_module ||
    fail "$nginx_command has no WebDAV module (ngx_http_dav_module); install Debian's nginx"
# Nothing of the developer's remote-cache settings leaks into a test.
unset OPTIML_REMOTE_CACHE OPTIML_REMOTE_CACHE_MODE OPTIML_REMOTE_CACHE_TOKEN OPTIML_SIGNING_KEY \
    OPTIML_REMOTE_CACHE_USER OPTIML_REMOTE_CACHE_PASSWORD OPTIML_TRUSTED_KEYS \
    OPTIML_REMOTE_CACHE_TIMEOUT_MS OPTIML_REMOTE_CACHE_CONNECT_TIMEOUT_MS
nginx_password=letmein-$RANDOM
nginx_token=token-$RANDOM$RANDOM

# free_port: a loopback port nothing listens on (nginx may still lose a race for it).
free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
    done
}

# make_certificates DIR: a CA and a certificate for 127.0.0.1 signed by it.
make_certificates() {
    local dir=$1
    [[ -f $dir/ca.pem ]] && return
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=OptiML test CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$dir/server.key" \
        -out "$dir/server.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\n' >"$dir/san.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" \
        -CAcreateserial -days 2 -extfile "$dir/san.ext" -out "$dir/server.pem" 2>/dev/null
}

start_nginx() {
    local dir=$1 port tls_port attempt
    nginx_root=$dir/root
    mkdir -p "$dir/root/private" "$dir/tmp" "$dir/logs"
    make_certificates "$dir"
    nginx_ca=$dir/ca.pem
    # nginx's auth_basic_user_file reads the {PLAIN} scheme: no hashing tool needed.
    echo "optiml:{PLAIN}$nginx_password" >"$dir/htpasswd"
    for attempt in $(seq 20); do
        port=$(free_port)
        tls_port=$(free_port)
        [[ $port != "$tls_port" ]] || continue
        cat >"$dir/nginx.conf" <<EOF
daemon off;
master_process off;  # one process, as the current user: one pid to stop or pause
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 512; }
http {
    access_log $dir/logs/access.log;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    server {
        listen 127.0.0.1:$port;
        root $dir/root;
        client_max_body_size 1g;
        location / {
            dav_methods PUT;
            create_full_put_path on;
        }
        location /private/ {
            auth_basic "optiml remote cache";
            auth_basic_user_file $dir/htpasswd;
            dav_methods PUT;
            create_full_put_path on;
        }
        location /slow/ {
            alias $dir/root/;
            limit_rate 8k;
        }
        location /bearer/ {
            if (\$http_authorization != "Bearer $nginx_token") { return 401; }
            dav_methods PUT;
            create_full_put_path on;
        }
    }
    server {
        listen 127.0.0.1:$tls_port ssl;
        ssl_certificate $dir/server.pem;
        ssl_certificate_key $dir/server.key;
        root $dir/root;
        location / {}
    }
}
EOF
        nginx_url=http://127.0.0.1:$port
        nginx_tls_url=https://127.0.0.1:$tls_port
        nginx_dir=$dir
        launch_nginx && return 0
    done
    cat "$dir/logs/error.log" >&2 || true
    fail "nginx did not start"
}

# launch_nginx: nginx with $nginx_dir/nginx.conf, in the background; true once it answers.
launch_nginx() {
    "$nginx_command" -p "$nginx_dir" -e "$nginx_dir/logs/error.log" -c "$nginx_dir/nginx.conf" &
    nginx_pid=$!
    for _ in $(seq 50); do
        if curl -s -o /dev/null "$nginx_url/"; then return 0; fi
        kill -0 "$nginx_pid" 2>/dev/null || break  # lost the race for the port
        sleep 0.1
    done
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
    return 1
}

restart_nginx() {
    for _ in $(seq 20); do
        launch_nginx && return 0
        sleep 0.2  # the port may still be held a moment by the process that went away
    done
    cat "$nginx_dir/logs/error.log" >&2 || true
    fail "nginx did not start again on $nginx_url"
}

stop_nginx() {
    kill -CONT "$nginx_pid" 2>/dev/null || true
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
}

# --- entries and builds, for the tests that use the server (with $optiml, the driver) ---

# make_signed_entries: 8 kernels, saxpy_1..8, that differ only in their name (in $kernels), and
# one entry each in a tuning runner's cache ($runner): the saxpy example's committed sm_90 entry,
# re-keyed, signed with a key made here ($work/keys/runner.pem, whose .pub is $trusted). Sets
# kernels, runner, trusted, seed, seed_key and keys (kernel N's key is keys[N-1]).
make_signed_entries() {
    local i key seed_entry
    seed=$source_dir/examples/saxpy/optiml-seed
    find "$seed" -name manifest.json -print -quit | grep -q . || fail "$seed holds no cache entry"
    "$optiml" cache keygen --out "$work/keys" --name runner --comment "test runner" >/dev/null
    trusted=$work/keys/runner.pub
    kernels=$work/kernels
    mkdir -p "$kernels"
    cp "$source_dir/examples/saxpy/kernels/saxpy.cu" "$kernels/"
    runner=$work/runner-cache
    "$optiml" cache --cache-dir "$runner" import --from "$seed" >/dev/null
    seed_key=$("$optiml" cache key --spec "$source_dir/examples/saxpy/kernels/saxpy.optiml.json" --arch 90)
    seed_entry=$runner/entries/${seed_key:0:2}/$seed_key
    [[ -f $seed_entry/manifest.json ]] || fail "the saxpy seed has no entry $seed_key"
    keys=()
    for i in $(seq 8); do
        jq ".name = \"saxpy_$i\"" "$source_dir/examples/saxpy/kernels/saxpy.optiml.json" \
            >"$kernels/saxpy_$i.optiml.json"
        key=$("$optiml" cache key --spec "$kernels/saxpy_$i.optiml.json" --arch 90)
        keys+=("$key")
        mkdir -p "$runner/entries/${key:0:2}/$key"
        cp "$seed_entry"/kernel.* "$runner/entries/${key:0:2}/$key/"
        jq --arg key "$key" --arg name "saxpy_$i" '.key = $key | .name = $name | del(.signature)' \
            "$seed_entry/manifest.json" >"$runner/entries/${key:0:2}/$key/manifest.json"
    done
    rm -rf "$seed_entry"
    "$optiml" cache --cache-dir "$runner" sign --key "$work/keys/runner.pem" >/dev/null
    "$optiml" cache --cache-dir "$runner" verify >/dev/null || fail "the runner's cache is damaged"
}

# build_kernel N URL LOG [driver options]: kernel N's `optiml build` with the shared local cache
# ($local_cache), generating into $work/out/N (or $work/out/$out_name).
local_cache=$work/local-cache
build_kernel() {
    local i=$1 url=$2 log=$3
    shift 3
    "$optiml" build --spec "$kernels/saxpy_$i.optiml.json" --archs 90 --out "$work/out/${out_name:-$i}" \
        --cache-dir "$local_cache" --remote-cache "$url" --trusted-keys "$trusted" "$@" >"$log" 2>&1
}
embeds_tuned() { grep -Eq '^// sm_90: variant [0-9]+' "$work/out/$1/optiml_saxpy_$1.cu"; }
# Every blob on the server is stored under the SHA-256 of its bytes (other names there are the
# server's own temporary files, e.g. of a PUT that a full disk cut short: no GET names them).
check_server_blobs() {
    local blob count=0
    for blob in "$nginx_root"/cas/*; do
        [[ $(basename "$blob") =~ ^[0-9a-f]{64}$ ]] || continue
        [[ $(sha256sum <"$blob" | cut -c1-64) == "$(basename "$blob")" ]] ||
            fail "blob $blob on the server does not match its digest (torn or lost)"
        count=$((count + 1))
    done
    echo "$count"
}
remote_warnings() { cat "$@" | grep -c '^optiml: warning: remote cache' || true; }
