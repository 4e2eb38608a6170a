#!/usr/bin/env bash
# Profiler evidence on a real GPU (issue 4):
#  - the original matmul example is classified on the roofline, and its dominant stall is
#    attributed to a line of its inner k-loop (found in the source, not hard-coded);
#  - the tuned saxpy (the committed seed's winner) is memory-bound at >= 80% of the bandwidth
#    roof that OptiML's calibration kernels measured.
set -euo pipefail
optiml=$1 source_dir=$2

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OPTIML_CACHE_DIR=$work/cache

matmul_source=$source_dir/examples/matmul/kernels/matmul.cu
"$optiml" profile --spec "$source_dir/examples/matmul/kernels/matmul.optiml.json" \
  --variant original --json "$work/matmul.json" | tee "$work/matmul.md"
# The global-memory path's inner loop: from its `for (int k ...)` line to the `#endif` after it.
loop_first=$(grep -n 'for (int k = 0; k < K; ++k, b_row += N)' "$matmul_source" | cut -d: -f1)
loop_last=$(awk -v from="$loop_first" 'NR > from && /^#endif/ { print NR; exit }' "$matmul_source")
[ -n "$loop_first" ] && [ -n "$loop_last" ] || fail "cannot find the inner loop in $matmul_source"

python3 - "$work/matmul.json" "$loop_first" "$loop_last" <<'PY' || fail "matmul original evidence"
import json, sys
report = json.load(open(sys.argv[1]))
first, last = int(sys.argv[2]), int(sys.argv[3])
roofline = report["roofline"]
assert roofline, "no roofline verdict"
assert roofline["verdict"] in ("memory-bound", "compute-bound", "latency-bound"), roofline
assert roofline["arithmetic_intensity"] and roofline["arithmetic_intensity"] > 0, roofline
stalls = report["stalls"]["items"]
assert stalls, "no dominant stall"
top = stalls[0]
assert top["file"].endswith("matmul.cu"), top
assert first <= top["line"] < last, f"dominant stall at line {top['line']}, inner loop is {first}-{last}"
print(f"matmul original: {roofline['verdict']}, AI {roofline['arithmetic_intensity']:.2f} FLOP/B, "
      f"{top['id']} {top['reason']} at matmul.cu:{top['line']} ({100*top['share']:.1f}%)")
PY

"$optiml" profile --spec "$source_dir/examples/saxpy/kernels/saxpy.optiml.json" --variant tuned \
  --seed "$source_dir/examples/saxpy/optiml-seed" --json "$work/saxpy.json" | tee "$work/saxpy.md"
python3 - "$work/saxpy.json" <<'PY' || fail "saxpy tuned evidence"
import json, sys
roofline = json.load(open(sys.argv[1]))["roofline"]
assert roofline, "no roofline verdict"
assert roofline["verdict"] == "memory-bound", roofline
assert roofline["roof"] == "dram", roofline
assert roofline["fraction_of_roof"] >= 0.80, roofline
print(f"saxpy tuned: memory-bound at {100*roofline['fraction_of_roof']:.1f}% of the DRAM roof")
PY
echo "PASSED: profiler evidence"
