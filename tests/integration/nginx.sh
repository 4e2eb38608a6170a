# A real nginx with WebDAV PUT on loopback, for the remote-cache tests (sourced after lib.sh).
# It runs as the current user, in the foreground of a background job, with its config, logs and
# temporary files in one folder, so a test starts and stops it at will.
#   start_nginx DIR    serves DIR/root on a free port: sets nginx_url, nginx_pid, nginx_root;
#                      /private/ asks for basic auth (user optiml, password $nginx_password)
#   stop_nginx         kill it (a server that went away)

nginx_command=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_command ]] || fail "nginx is not installed (scripts/install-deps.sh installs it)"
"$nginx_command" -V 2>&1 | grep -q -- --with-http_dav_module ||
    fail "$nginx_command has no WebDAV module (ngx_http_dav_module); install Debian's nginx"
nginx_password=letmein-$RANDOM

start_nginx() {
    local dir=$1 port attempt
    nginx_root=$dir/root
    mkdir -p "$dir/root/private" "$dir/tmp" "$dir/logs"
    # nginx's auth_basic_user_file reads the {PLAIN} scheme: no hashing tool needed.
    echo "optiml:{PLAIN}$nginx_password" >"$dir/htpasswd"
    for attempt in $(seq 20); do
        port=$((20000 + RANDOM % 40000))
        # A port something already listens on is not free.
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
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
    }
}
EOF
        "$nginx_command" -p "$dir" -e "$dir/logs/error.log" -c "$dir/nginx.conf" &
        nginx_pid=$!
        nginx_url=http://127.0.0.1:$port
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
