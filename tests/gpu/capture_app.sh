#!/usr/bin/env bash
# `optiml capture --snapshot -- ./known_launch` (capture_app/known_launch.cu) on this GPU: the hot
# kernel's first launch is captured exactly (grid, block, shared memory, scalars, buffer sizes,
# the inputs' data), the cold one gets no spec, and the spec written tunes with a tiny budget.
set -euo pipefail
optiml=$1 program=$2 app_dir=$3
source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cp "$app_dir/scale_add.cu" "$work/src/"

"$optiml" capture --source "$work/src/scale_add.cu" --output-dir "$work/specs" --snapshot \
  -- "$program" 2>&1 | tee "$work/capture.log"
grep -q "known_launch: 24 kernels ran" "$work/capture.log" || fail "the program did not run"
grep -q "optiml: wrote $work/specs/scale_add.optiml.json for scale_add (../src/scale_add.cu): grid \[3907, 1, 1\], block \[256, 1, 1\], 2 inputs' data in scale_add.data/; 0 decisions left" \
  "$work/capture.log" || fail "no complete spec for scale_add"
[ ! -e "$work/specs/touch.optiml.json" ] || fail "the cold kernel got a spec"

python3 - "$work/specs" <<'PY'
import json, struct, sys
from pathlib import Path
specs = Path(sys.argv[1])
text = specs.joinpath("scale_add.optiml.json").read_text()
spec = json.loads("\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//")))
args = {a["name"]: a for a in spec["arguments"]}
assert spec["source"] == "../src/scale_add.cu", spec["source"]
assert args["n"]["value"] == 1000000, args["n"]
assert args["a"]["value"] == 1.5, args["a"]
assert args["x"] == {"name": "x", "type": "float32", "pointer": True, "count": "n",
                     "role": "input", "fill": {"kind": "file", "path": "scale_add.data/x.bin"}}, args["x"]
assert args["y"] == {"name": "y", "type": "float32", "pointer": True, "count": "1000024",
                     "role": "inout", "fill": {"kind": "file", "path": "scale_add.data/y.bin"}}, args["y"]
assert spec["launch"] == {"block": ["block_size_x", "1", "1"],
                          "grid": ["ceil_div(n, block_size_x)", "1", "1"],
                          "shared_memory_bytes": "64"}, spec["launch"]
n = 1000000
x = struct.unpack(f"<{n}f", specs.joinpath("scale_add.data/x.bin").read_bytes())
assert all(x[i] == (i % 97) * 0.25 for i in range(n)), "x's snapshot differs from what the program wrote"
y = struct.unpack(f"<{n + 24}f", specs.joinpath("scale_add.data/y.bin").read_bytes())
assert all(y[i] == 1 + i % 13 for i in range(n)) and all(v == -1 for v in y[n:]), \
    "y's snapshot is not its data before the first launch"
# Every size the program launched at: 20 launches at n, then 3 at n / 2.
assert spec["problems"] == [{"n": 500000}, {"n": 1000000}], spec.get("problems")
assert "// 3 launches, the first at grid [1954, 1, 1]" in text and "// 20 launches" in text, text
side = json.loads(specs.joinpath("scale_add.data/y.bin.json").read_text())
assert (side["type"], side["count"], side["bytes"], side["argument"]) == ("float32", n + 24, 4 * (n + 24), "y"), side
print("captured exactly: n=1000000 a=1.5 grid 3907 block 256 shared 64, x n floats, y n+24 floats, both snapshots, problems n=500000 and n=1000000")
PY

OPTIML_PROFILE=0 "$optiml" tune --spec "$work/specs/scale_add.optiml.json" --cache-dir "$work/cache" \
  --budget-evaluations 3 2>&1 | tee "$work/tune.log"
grep -q ": done: " "$work/tune.log" || fail "tuning the captured spec did not finish"
manifest=$(find "$work/cache/entries" -name manifest.json)
[ -n "$manifest" ] || fail "no cache entry"
python3 - "$manifest" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
baseline = m["trace"][0]
assert baseline["status"] == "ok", baseline
assert m["default_parameters"] == {"block_size_x": 256}, m["default_parameters"]
ok = [row for row in m["trace"] if row["status"] == "ok"]
print(f"{len(ok)}/{len(m['trace'])} variants correct; winner {m['parameters']} ({m['speedup']:.2f}x)")
PY
echo "PASSED: optiml capture recorded scale_add's launch exactly and its spec tuned"
