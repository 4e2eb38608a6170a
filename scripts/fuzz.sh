#!/usr/bin/env bash
# Fuzzes OptiML's readers of outside bytes with libFuzzer: builds build-fuzz/ with clang, the
# product's code instrumented for coverage, AddressSanitizer and UndefinedBehaviorSanitizer, then
# runs every fuzz target (tests/fuzz/) for -runs executions over a copy of its seed corpus and
# prints a table: target, executions, corpus size, findings. A finding's input is kept in
# build-fuzz/findings/. Needs clang and libclang-rt-dev (Debian: clang, libclang-rt-14-dev).
#   scripts/fuzz.sh [RUNS] [TARGET...]     RUNS defaults to 1000000; TARGET to every target
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
shift || true
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi
sanitizers=-fsanitize=fuzzer-no-link,address,undefined
# Programs link --as-needed, as GCC's do by default on Debian and Ubuntu: a target that links a
# room which links the CUDA driver (libcuda.so.1) but calls none of it then runs where no driver
# is installed (clang names every library given).
# Shared libraries (liboptiml-activity.so, which the profiler's library depends on being built)
# link with --no-undefined: they name the sanitizers' runtime as a shared library, since clang
# puts the static one only into programs. No fuzz target loads them.
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_UNITY_BUILD=ON -DOPTIML_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="$sanitizers -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined -Wl,--as-needed" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined -shared-libasan" >/dev/null
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    mapfile -t targets < <(sed -n 's/^optiml_fuzz_target(\([a-z_]*\).*/\1/p' tests/fuzz/targets.cmake)
fi
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}"

findings=$PWD/build-fuzz/findings
mkdir -p "$findings"
rows=()
for target in "${targets[@]}"; do
    corpus=build-fuzz/corpus/$target
    mkdir -p "$corpus"
    # The seeds CTest's smoke uses, copied once; the corpus then grows across runs.
    seeds=$(ctest --test-dir build-fuzz -R "^fuzz\.$target\$" --show-only=json-v1 |
        jq -r '.tests[0].command[4:][]')
    i=0
    for seed in $seeds; do
        i=$((i + 1))
        [[ -e $corpus/seed-$i ]] || cp "$seed" "$corpus/seed-$i"
    done
    log=build-fuzz/$target.log
    start=$(date +%s)
    status=0
    build-fuzz/tests/fuzz/fuzz_$target -runs="$runs" -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$findings/$target-" "$corpus" >"$log" 2>&1 ||
        status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    size=$(find "$corpus" -type f | wc -l)
    found=$(find "$findings" -name "$target-*" | wc -l)
    rows+=("| $target | ${executions:-?} | $size | $found | $(($(date +%s) - start)) s | $status |")
    echo "fuzz: $target: ${executions:-?} executions, corpus $size, findings $found (log $log)"
done
echo
echo "| target | executions | corpus | findings | time | exit |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
