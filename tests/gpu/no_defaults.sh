#!/usr/bin/env bash
# A Kernel Tuner kernel without #ifndef defaults (tests/data/kernels/tiled_matmul) tunes on this
# GPU: the original is the spec's defaults, it compiles with NVRTC, verifies, and a variant wins;
# then a cache-only build of its launcher hits the entry just made.
set -euo pipefail
optiml=$1 source_dir=$2
source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/tests/data/kernels/tiled_matmul" "$work/kernel"

OPTIML_PROFILE=0 "$optiml" tune --spec "$work/kernel/tiled_matmul.optiml.json" \
  --cache-dir "$work/cache" 2>&1 | tee "$work/tune.log"
grep -q "does not compile" "$work/tune.log" && fail "the original did not compile"
grep -q ": done: " "$work/tune.log" || fail "tuning did not finish"
manifest=$(find "$work/cache/entries" -name manifest.json)
[ -n "$manifest" ] || fail "no cache entry"
python3 - "$manifest" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["default_parameters"] == {"block_size_x": 16, "block_size_y": 16, "tile_size_x": 1,
                                   "tile_size_y": 1}, m["default_parameters"]
baseline = m["trace"][0]
assert baseline["parameters"] == m["default_parameters"] and baseline["status"] == "ok", baseline
ok = [row for row in m["trace"] if row["status"] == "ok"]
assert len(ok) >= 2, f"only {len(ok)} variants passed verification"
print(f"{len(ok)}/{len(m['trace'])} variants correct; winner {m['parameters']} "
      f"{m['time_ms']['median']:.4f} ms vs original {m['original_time_ms']['median']:.4f} ms "
      f"({m['speedup']:.2f}x)")
PY
"$optiml" build --spec "$work/kernel/tiled_matmul.optiml.json" --archs "$arch" --mode cache-only \
  --cache-dir "$work/cache" --out "$work/out" 2>&1 | tee "$work/build.log"
grep -q "sm_$arch: cache hit" "$work/build.log" || fail "the launcher build missed the new entry"
echo "PASSED: a kernel without #ifndef defaults tuned on this GPU with the spec's defaults as the original"
