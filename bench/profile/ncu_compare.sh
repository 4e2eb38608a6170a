#!/usr/bin/env bash
# OptiML's counters against Nsight Compute's on the same kernel and the same inputs, side by
# side in one run, for the examples' original and tuned (seed) variants.
#   bench/profile/ncu_compare.sh <optiml executable> [output dir]
# Each variant is profiled twice: `optiml profile --json` (CUPTI Range Profiler in the worker), and
# `ncu --metrics` watching `optiml profile --run-only`, which runs the same variant on the same
# inputs (fixed seeds) without profiling it itself. ncu runs with --clock-control none (OptiML does
# not lock clocks) and --cache-control all (it flushes caches before each pass; OptiML evicts L2
# by a clean read before the profiled launch).
set -euo pipefail
optiml=$(realpath "$1")
out=$(realpath -m "${2:-$(mktemp -d)}")
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
export OPTIML_CACHE_DIR=${OPTIML_CACHE_DIR:-$out/cache}

for example in saxpy matmul; do
  spec=$root/examples/$example/kernels/$example.optiml.json
  seed=$root/examples/$example/optiml-seed
  for variant in original tuned; do
    name=${example}_$variant
    "$optiml" profile --spec "$spec" --variant "$variant" --seed "$seed" --no-pc-sampling \
      --json "$out/$name.optiml.json" >/dev/null
    # ncu collects exactly the counters OptiML reported for this variant.
    metrics=$(python3 "$root/bench/profile/ncu_compare.py" --metrics "$out/$name.optiml.json")
    # The reference run launches the original once per correctness trial (3) before the variant
    # runs: skip those for the tuned variant.
    skip=0; [ "$variant" = tuned ] && skip=3
    ncu --clock-control none --cache-control all --target-processes all --csv \
      --metrics "$metrics" -k "regex:^$example" --launch-skip "$skip" --launch-count 1 \
      "$optiml" profile --spec "$spec" --variant "$variant" --seed "$seed" --run-only \
      >"$out/$name.ncu.csv" 2>"$out/$name.ncu.log"
  done
done
python3 "$root/bench/profile/ncu_compare.py" "$out" | tee "$out/ncu_compare.md"
