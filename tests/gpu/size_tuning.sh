#!/usr/bin/env bash
# Tuning across problem sizes on this GPU (issue 29): the saxpy example's spec with three problems
# (2^14, 2^20 and its own 2^25 elements) tunes at its own size, then at each problem from the
# winners so far, then times every winner at every problem: the manifest's "sizes" holds a full
# matrix in which the shipped winner ran everywhere, a dispatch that covers every problem, and
# explain prints the matrix; the launcher built from the entry picks by size where the dispatch
# chose several variants. Times are printed, never asserted.
set -euo pipefail
optiml=$1 source_dir=$2
source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/examples/saxpy/kernels" "$work/kernel"
python3 - "$work/kernel/saxpy.optiml.json" <<'PY'
import json, sys
path = sys.argv[1]
spec = json.load(open(path))
spec["problems"] = [{"n": 1 << 20}, {"n": 1 << 25}, {"n": 1 << 14}]
spec["budget"] = {"evaluations": 30, "seconds": 120}
json.dump(spec, open(path, "w"), indent=2)
PY
OPTIML_PROFILE=0 OPTIML_TRANSFORM=0 "$optiml" tune --spec "$work/kernel/saxpy.optiml.json" \
  --cache-dir "$work/cache" 2>&1 | tee "$work/tune.log"
grep -q ": done: " "$work/tune.log" || fail "tuning did not finish"
grep -q "n=33554432: the arguments' own values, tuned first" "$work/tune.log" ||
  fail "the arguments' own size was searched again"
# The two searched problems' sessions fit any GPU's memory: the matrix times them there.
grep -q "3 problems timed in .*, 2 of them in their search's session" "$work/tune.log" ||
  fail "the matrix opened the searched problems' sessions again"
manifest=$(find "$work/cache/entries" -name manifest.json)
[ -n "$manifest" ] || fail "no cache entry"
python3 - "$manifest" <<'PY' || fail "the manifest's sizes"
import json, sys
m = json.load(open(sys.argv[1]))
sizes = m["sizes"]
assert sizes["problems"] == [{"n": 1 << 14}, {"n": 1 << 20}, {"n": 1 << 25}], sizes["problems"]
times = sizes["times_ms"]
assert len(times) == len(sizes["variants"]) >= 1, sizes
assert all(len(row) == 3 for row in times), times
assert all(t > 0 for t in times[0]), f"the shipped winner failed at a problem: {times[0]}"
assert sizes["variants"][0]["parameters"] == m["parameters"], sizes["variants"][0]
ranges = sizes["dispatch"]["ranges"]
served = sorted(p for r in ranges for p in range(r["first_problem"], r["last_problem"] + 1))
assert served == [0, 1, 2], ranges
assert all(loss <= 0.03 + 1e-9 for loss in sizes["dispatch"]["loss"]), sizes["dispatch"]
for p, problem in enumerate(sizes["problems"]):
    best = min(row[p] for row in times if row[p] > 0)
    print(f"n={problem['n']}: shipped {times[0][p]:.4f} ms, best {best:.4f} ms "
          f"({times[0][p] / best:.3f}x)")
print("searches:", [s["evaluations"] for s in sizes["searches"]], "evaluations")
PY
"$optiml" explain "$work/kernel/saxpy.optiml.json" --cache-dir "$work/cache" | tee "$work/explain.txt"
grep -q "sizes: tuned at 3 problems" "$work/explain.txt" || fail "explain shows no matrix"
# The launcher built from the entry dispatches by size exactly where the dispatch runs some range
# with another variant than the winner (with its images), and compiles.
"$optiml" build --spec "$work/kernel/saxpy.optiml.json" --archs "$arch" --mode cache-only \
  --cache-dir "$work/cache" --out "$work/out" 2>&1 | tee "$work/build.log"
grep -q "sm_$arch: cache hit" "$work/build.log" || fail "the launcher build missed the new entry"
# Ranges run by a variant other than the winner (with its images): the launcher picks by size.
picks=$(python3 - "$manifest" <<'PY'
import json, sys
dispatch = json.load(open(sys.argv[1]))["sizes"]["dispatch"]
print(sum(1 for r in dispatch["ranges"]
          if r["variant"] != 0 and str(r["variant"]) in dispatch["images"]))
PY
)
if [ "$picks" -ge 1 ]; then
  grep -q "table_for_size(dispatch.variant, static_cast<double>(arg_n))" "$work/out/optiml_saxpy.cu" ||
    fail "$picks range(s) run another variant but the launcher does not pick by size"
else
  ! grep -q "table_for_size" "$work/out/optiml_saxpy.cu" ||
    fail "the winner serves every size but the launcher picks by size"
fi
nvcc -std=c++17 -arch=sm_$arch -c -I"$source_dir/runtime/include" -I"$work/out/include" \
  -o "$work/launcher.o" "$work/out/optiml_saxpy.cu" || fail "the generated launcher does not compile"
echo "PASSED: tuned at three sizes, every winner timed at every size, a dispatch chosen ($picks" \
  "range(s) run by another variant than the winner)"
