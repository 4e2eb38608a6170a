#!/usr/bin/env bash
# The other structural rewrites on the GPU (issue 27), each tuned with the transformation tree
# from a kernel written the usual way: the bench's histogram (privatize_atomics, alone, over 64
# items a thread and over 256 read four at a time, and vectorize_narrow_loads alone, each with the
# grid's x divided), the naive transpose (transpose_through_shared) and PolyBench's gemm
# (shared_tiles, the product's operands staged through shared memory) and the bench's 5-point
# stencil (stage_halo).
# Every variant the tree measured with one of them must have verified against the original at the
# spec's size and its extra sizes (a failing variant is recorded, not shipped, so this checks that
# the rewrites are right, not merely harmless). Times are printed, never asserted.
set -euo pipefail
optiml=$1 source_dir=$2

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check() {  # check <spec> <evaluations> <rewrite>...
  local spec=$1 evaluations=$2; shift 2
  local cache=$work/$(basename "$spec" .optiml.json)
  "$optiml" tune --spec "$spec" --cache-dir "$cache" --budget-evaluations "$evaluations" 2>&1 |
    tail -n 3 || fail "optiml tune $spec"
  local manifest
  manifest=$(find "$cache/entries" -name manifest.json | head -n1)
  [ -n "$manifest" ] || fail "no cache entry for $spec"
  python3 - "$manifest" "$@" <<'PY' || fail "$spec"
import json, sys
m = json.load(open(sys.argv[1]))
for rewrite in sys.argv[2:]:
    rows = [r for r in m["trace"]
            if any(t.startswith(rewrite) for t in r.get("transformations", []))]
    assert rows, f"the tree never measured {rewrite}"
    for r in rows:
        assert r["status"] == "ok", r
    best = min(r["time_ms"]["median"] for r in rows)
    print(f"{m['name']}: {rewrite}: {len(rows)} variants verified, best {best:.4f} ms "
          f"(original {m['original_time_ms']['median']:.4f} ms)")
PY
}

check "$source_dir/bench/transformations/kernels/histogram.optiml.json" 40 \
  "privatize_atomics" "privatize_atomics over 64 items a thread" \
  "privatize_atomics over 256 items a thread, 4 a load" "vectorize_narrow_loads"
check "$source_dir/tests/data/kernels/naive_transpose/naive_transpose.optiml.json" 60 \
  "transpose_through_shared"
check "$source_dir/tests/data/kernels/gemm/gemm.optiml.json" 60 "shared_tiles 16 deep"
check "$source_dir/bench/transformations/kernels/stencil2d.optiml.json" 40 "stage_halo"
echo "PASSED: the structural rewrites verify on the GPU"
