#!/usr/bin/env bash
# Builds OptiML (driver, cache, runtime and the tests) with AddressSanitizer, its LeakSanitizer,
# and UndefinedBehaviorSanitizer in build-asan/, and runs the CPU suite under them: the unit tests
# (with the fuzz smokes), the integration tests and the bench smokes; not the GPU tests (label
# gpu: they skip without a GPU, and the profiler's injected library and the CUDA driver are not
# meant to run under ASan). Any report fails the run, even one in a child process whose exit
# status a test expected to be non-zero: reports go to files, printed at the end. CI runs this
# after scripts/test.sh (docs/ci.md says what it costs).
# Extra arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi
build=build-asan
started=$SECONDS

# Debug keeps assert() on; -O1 and line tables only (-g1) keep the build and the tests about as
# fast as a sanitized build gets, with file:line in every report. A unity build, as scripts/test.sh.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DOPTIML_SANITIZE=address,undefined -DCMAKE_UNITY_BUILD=ON "$@"
cmake --build "$build"
build_seconds=$((SECONDS - started))

reports=$PWD/$build/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
# Every report stops its program (halt_on_error; the build has -fno-sanitize-recover=all) with
# exit status 86 and is written to $reports/<sanitizer>.<pid>.
export ASAN_OPTIONS="halt_on_error=1:exitcode=86:detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:strict_string_checks=1:log_path=$reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86:log_path=$reports/ubsan"
export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize-lsan.supp:print_suppressions=0"

failed=0
timings=()
run_tests() {  # NAME CTEST-ARGUMENTS...
    local name=$1 begun=$SECONDS
    shift
    echo "sanitize: $name"
    ctest --test-dir "$build" --output-on-failure -j2 "$@" || failed=1
    timings+=("$(printf '%-22s %5d s' "$name" $((SECONDS - begun)))")
}
run_tests "unit tests" -L '^unit$'
run_tests "integration tests" -L '^integration$'
run_tests "bench smokes" -LE '^(unit|integration|gpu)$'

found=$(find "$reports" -type f | sort)
if [[ -n $found ]]; then
    failed=1
    echo "sanitize: $(wc -l <<<"$found") sanitizer report(s):"
    while IFS= read -r report; do
        echo "=== $report"
        cat "$report"
    done <<<"$found"
fi

echo "sanitize: elapsed"
printf '%-22s %5d s\n' "build" "$build_seconds"
printf '%s\n' "${timings[@]}"
printf '%-22s %5d s\n' "total" $((SECONDS - started))
if [[ $failed -ne 0 ]]; then
    echo "sanitize: FAILED" >&2
    exit 1
fi
echo "sanitize: every test passed with no sanitizer report"
