#!/usr/bin/env bash
# Installs OptiML's build and test dependencies from Debian's packages. The CUDA toolkit (nvcc,
# NVRTC) is a prerequisite this script does not install: it only checks that it is there.
set -euo pipefail

# chromium (headless) renders `optiml report`'s HTML pages in the report tests.
# nginx (its build includes ngx_http_dav_module), curl, jq and openssl: the remote-cache tests
# serve a WebDAV cache on loopback, over HTTP and TLS (tests/integration/remote_cache.sh).
# strace and xxd: the load test slows a build's reads and writes and reads the images a launcher
# embeds (tests/integration/cache_under_load.sh).
# g++ brings the runtimes of AddressSanitizer and UndefinedBehaviorSanitizer (libasan8, libubsan1)
# that scripts/sanitize.sh's build links.
# zlib1g-dev: gzipped recordings (`optiml tune --replay x.json.gz`, docs/replay.md).
packages=(cmake ninja-build g++ nlohmann-json3-dev libcli11-dev libssl-dev libcurl4-openssl-dev
          libgtest-dev googletest chromium fonts-dejavu-core nginx curl jq openssl patch strace
          xxd zlib1g-dev)
as_root=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
    as_root=(sudo)
fi
"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${packages[@]}"

if ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
    echo "install-deps: the CUDA toolkit was not found (no nvcc on PATH or in /usr/local/cuda/bin);" \
        "install it from NVIDIA first" >&2
    exit 1
fi
