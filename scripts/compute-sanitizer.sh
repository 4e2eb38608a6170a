#!/usr/bin/env bash
# On a GPU machine: OptiML's worker under compute-sanitizer, through OPTIML_WORKER (a wrapper that
# runs the real worker under the tool, its report in a log per worker process). memcheck (with
# leak check) and initcheck over real tunings of the examples, memcheck and racecheck over the
# planted faults (tests/gpu/planted: their fault=1 variants are meant to fail; memcheck names them),
# then GPU tests with the worker under memcheck. Profiling is off (CUPTI and compute-sanitizer do
# not share a process). About 9 minutes on an H200 (each step is skipped once less than its time
# is left of 560 s, so that it fits one 10-minute call).
#   scripts/compute-sanitizer.sh [OUT]   logs in OUT (default build-sanitize-gpu/logs), a summary
#                                        line per worker process in OUT/summary.txt
set -u
OUT=${1:-$PWD/build-sanitize-gpu/logs}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
start=$(date +%s)
logs=$OUT
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitize-gpu -G Ninja -DOPTIML_WARNINGS_AS_ERRORS=ON > $logs/configure.log 2>&1 || { tail -30 $logs/configure.log; exit 1; }
ninja -C build-sanitize-gpu > $logs/build.log 2>&1 || { grep -B2 -A10 "error" $logs/build.log | head -60; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
compute-sanitizer --version | tail -1
worker=$PWD/build-sanitize-gpu/bin/optiml-worker
cat > $logs/worker.sh <<W
#!/bin/bash
extra=()
[[ \$CS_TOOL == memcheck ]] && extra=(--leak-check full)
exec compute-sanitizer --tool \$CS_TOOL "\${extra[@]}" --log-file $logs/\$CS_TAG-%p.log --print-limit 30 $worker "\$@"
W
chmod +x $logs/worker.sh
export OPTIML_WORKER=$logs/worker.sh OPTIML_PROFILE=0
optiml=$PWD/build-sanitize-gpu/bin/optiml
left() { echo $(( 560 - ($(date +%s) - start) )); }
# run TOOL TAG SECONDS SPEC EVALUATIONS: one tuning with the worker under TOOL, if time is left.
run() {
  local tool=$1 tag=$2 seconds=$3 spec=$4 evaluations=$5
  if (( $(left) < seconds )); then echo "$tag: skipped, $(left) s left"; return; fi
  local t0=$(date +%s)
  CS_TOOL=$tool CS_TAG=$tag timeout -k 5 $seconds $optiml tune --spec $spec \
    --cache-dir /tmp/cache-$tag --budget-evaluations $evaluations > $logs/$tag.txt 2>&1
  local status=$?
  echo "$tag: exit $status in $(( $(date +%s) - t0 )) s; $(grep -c . $logs/$tag.txt) lines; last: $(tail -1 $logs/$tag.txt)"
}
run memcheck memcheck-saxpy 90 examples/saxpy/kernels/saxpy.optiml.json 10
planted=tests/gpu/planted
for kernel in race oob_write modifies_input stale_output tail_ignored nan_output writes_nothing other_stream; do
  run racecheck racecheck-$kernel 40 $planted/$kernel.optiml.json 4
  run memcheck memcheck-$kernel 40 $planted/$kernel.optiml.json 4
done
run initcheck initcheck-saxpy 60 examples/saxpy/kernels/saxpy.optiml.json 6
run initcheck initcheck-oob_write 40 $planted/oob_write.optiml.json 4
run memcheck memcheck-matmul 150 examples/matmul/kernels/matmul.optiml.json 4
run memcheck memcheck-infinite_loop 60 $planted/infinite_loop.optiml.json 3
if (( $(left) > 120 )); then
  CS_TOOL=memcheck CS_TAG=ctest timeout $(( $(left) - 10 )) ctest --test-dir build-sanitize-gpu -L gpu -R 'custom_compare|structured_inputs|no_defaults' --output-on-failure > $logs/ctest.txt 2>&1
  grep -E "Test +#|tests passed" $logs/ctest.txt
fi
for f in $logs/*.log; do echo "$(basename $f): $(grep -h "ERROR SUMMARY\|LEAK SUMMARY\|RACECHECK SUMMARY" $f | tr "\n" " ")"; done > $OUT/summary.txt
wc -l < $OUT/summary.txt; sort -t: -k2 $OUT/summary.txt | awk -F: '{print $2}' | sort | uniq -c
echo "total: $(( $(date +%s) - start )) s"
