# A real nginx with WebDAV PUT on loopback, for the remote-cache tests (sourced after lib.sh).
# It runs as the current user, in the foreground of a background job, with its config, logs and
# temporary files in one folder, so a test starts and stops it at will.
#   start_nginx DIR    serves DIR/root on a free port: sets nginx_url, nginx_pid, nginx_root;
#                      /private/ asks for basic auth (user optiml, password $nginx_password),
#                      /bearer/ for the token $nginx_token; the same root over TLS at
#                      $nginx_tls_url, with a certificate of the CA in $nginx_ca (made here)
#   stop_nginx         kill it (a server that went away)

nginx_command=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_command ]] || fail "nginx is not installed (scripts/install-deps.sh installs it)"
"$nginx_command" -V 2>&1 | grep -q -- --with-http_dav_module ||
    fail "$nginx_command has no WebDAV module (ngx_http_dav_module); install Debian's nginx"
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
        "$nginx_command" -p "$dir" -e "$dir/logs/error.log" -c "$dir/nginx.conf" &
        nginx_pid=$!
        nginx_url=http://127.0.0.1:$port
        nginx_tls_url=https://127.0.0.1:$tls_port
        for _ in $(seq 50); do
            if curl -s -o /dev/null "$nginx_url/"; then return 0; fi
            kill -0 "$nginx_pid" 2>/dev/null || break  # lost the race for the port
            sleep 0.1
        done
        kill "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
    done
    cat "$dir/logs/error.log" >&2 || true
    fail "nginx did not start"
}

stop_nginx() {
    kill -CONT "$nginx_pid" 2>/dev/null || true
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
}
