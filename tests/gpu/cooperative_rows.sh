#!/usr/bin/env bash
# The structural rewrite warp_per_row on the GPU (issue 27): a normalization written one
# thread per row (tests/data/kernels/row_norm) tuned with the transformation tree. The rewritten
# kernel, launched with 32 times the spec's grid, must verify against the original at the spec's
# size and at the extra size, and the entry must keep the grid it was launched with. Its time is
# printed, never asserted.
set -euo pipefail
optiml=$1 source_dir=$2

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

spec=$source_dir/tests/data/kernels/row_norm/row_norm.optiml.json
"$optiml" tune --spec "$spec" --cache-dir "$work/cache" --budget-evaluations 24 2>&1 |
  tee "$work/log" || fail "optiml tune"
manifest=$(find "$work/cache/entries" -name manifest.json | head -n1)
[ -n "$manifest" ] || fail "no cache entry written"
python3 - "$manifest" <<'PY' || fail "the warp-per-row variant"
import json, sys
m = json.load(open(sys.argv[1]))
rows = [r for r in m["trace"] if "warp_per_row" in r.get("transformations", [])]
assert rows, "the tree never measured warp_per_row: " + str(
    sorted({t for r in m["trace"] for t in r.get("transformations", [])}))
for r in rows:
    assert r["status"] == "ok", r
    assert r["grid"][0].endswith(" * 32"), r
original = m["original_time_ms"]["median"]
best = min(r["time_ms"]["median"] for r in rows)
print(f"warp_per_row: {len(rows)} variants verified; best {best:.4f} ms, original "
      f"{original:.4f} ms ({original / best:.1f}x); entry: {m['time_ms']['median']:.4f} ms "
      f"{m.get('transformations', [])} grid {m.get('grid', 'the spec')}")
PY
echo "PASSED: a warp per row verifies on the GPU"
