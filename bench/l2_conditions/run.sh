#!/usr/bin/env bash
# The speedup OptiML reports under each timing condition against what a program sees (issue 25,
# item 8), for the matmul example's kernel at an L2-resident size (small, 2 MB) and at one whose
# data does not fit in L2 (large, 96 MiB). Needs a GPU, nvcc and Python 3.
#   bench/l2_conditions/run.sh <OptiML build or install dir (holding OptiMLConfig.cmake)> [out dir]
# Out dir: the second argument, else $OUT/l2_conditions when $OUT is set, else a temporary one.
# Steps:
#   1. builds this folder's project from an empty cache: OptiML tunes both kernels at build time
#      (small decides by warm, large by cold, the default; both conditions are timed for each);
#   2. runs each program 5 times as built (the tuned variant) and 5 times with
#      OPTIML_FORCE_ORIGINAL=1, interleaved; each run times warm (back-to-back launches) and cold
#      (a read flush of 2x L2 before each launch) with cudaEvents;
#   3. writes table.md (reported cold, reported warm, observed by the program, per case) and
#      results.json (what gpu.l2_conditions checks).
set -euo pipefail
optiml_dir=$(realpath "$1")
out=${2:-${OUT:+$OUT/l2_conditions}}
out=$(realpath -m "${out:-$(mktemp -d)}")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export OPTIML_CACHE_DIR=$work/cache OPTIML_MODE=auto OPTIML_PROFILE=0
unset OPTIML_FORCE_ORIGINAL
cmake -S "$here" -B "$work/build" -G Ninja -DOptiML_DIR="$optiml_dir" -DCMAKE_BUILD_TYPE=Release \
    >"$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
cmake --build "$work/build" >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
grep "done:\|tuned" "$out/build.log" || true

for case in small large; do
  manifest=$(find "$work/cache" -name manifest.json -print0 | xargs -0 python3 -c '
import json, sys
print(next((p for p in sys.argv[2:] if json.load(open(p)).get("name") == sys.argv[1]), ""))' \
      "matmul_l2_$case")
  [ -n "$manifest" ] || { echo "no cache entry for matmul_l2_$case (see $out/build.log)"; exit 1; }
  cp "$manifest" "$out/manifest-$case.json"
  : >"$out/runs-$case.jsonl"
  for round in 1 2 3 4 5; do
    # Alternate which runs first, so neither always follows the other.
    order="tuned original"
    ((round % 2 == 0)) && order="original tuned"
    for variant in $order; do
      if [[ $variant == original ]]; then
        line=$(OPTIML_FORCE_ORIGINAL=1 "$work/build/l2_$case")
      else
        line=$("$work/build/l2_$case")
      fi
      echo "{\"run\": \"$variant\", \"round\": $round, \"program\": $line}" >>"$out/runs-$case.jsonl"
    done
  done
done

python3 - "$out" <<'PY'
import json, pathlib, statistics, sys
out = pathlib.Path(sys.argv[1])
results, lines = {}, []
lines.append("| case | data / L2 | decided by | condition | reported original ms | reported tuned ms "
             "| reported speedup | observed original ms | observed tuned ms | observed speedup | difference |")
lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
for case in ("small", "large"):
    m = json.loads((out / f"manifest-{case}.json").read_text())
    runs = [json.loads(l) for l in (out / f"runs-{case}.jsonl").read_text().splitlines() if l.strip()]
    decided = m["timing"].get("decided_by", "cold")
    prog = runs[0]["program"]
    tuned_runs = [r["program"] for r in runs if r["run"] == "tuned"]
    if any(p["variant"] < 0 for p in tuned_runs):  # a winner that is the original, say
        print(f"note: {case}: the program as built ran the original kernel ({tuned_runs[0]['why']})")
    entry = {"decided_by": decided, "parameters": m["parameters"],
             "data_bytes": prog["data_bytes"], "l2_bytes": prog["l2_bytes"], "conditions": {}}
    for condition in ("cold", "warm"):
        reported = m["timing"].get(condition)
        observed = {v: statistics.median(r["program"][f"{condition}_ms"] for r in runs if r["run"] == v)
                    for v in ("tuned", "original")}
        observed_speedup = observed["original"] / observed["tuned"]
        row = {"observed_original_ms": observed["original"], "observed_tuned_ms": observed["tuned"],
               "observed_speedup": observed_speedup, "recorded": reported is not None}
        if reported:
            row.update(reported_original_ms=reported["original_time_ms"],
                       reported_tuned_ms=reported["time_ms"], reported_speedup=reported["speedup"],
                       difference=reported["speedup"] / observed_speedup - 1)
        entry["conditions"][condition] = row
        fmt = lambda key, f="{:.5f}": f.format(row[key]) if key in row else "not recorded"
        lines.append(f"| {case} | {prog['data_bytes'] / prog['l2_bytes']:.2f} | {decided} | "
                     f"{condition}{' (decides)' if condition == decided else ''} | "
                     f"{fmt('reported_original_ms')} | {fmt('reported_tuned_ms')} | "
                     f"{fmt('reported_speedup', '{:.3f}x')} | {row['observed_original_ms']:.5f} | "
                     f"{row['observed_tuned_ms']:.5f} | {row['observed_speedup']:.3f}x | "
                     f"{fmt('difference', '{:+.1%}')} |")
    entry["manifest_speedup"] = m["speedup"]
    results[case] = entry
(out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
table = "\n".join(lines) + "\n"
(out / "table.md").write_text(table)
print(table)
print(f"observed: median of 5 interleaved runs of each program; written to {out}")
PY
