#!/usr/bin/env bash
# Several GPUs of one model: tunes examples/saxpy twice from nothing, on one GPU
# (OPTIML_DEVICES=A) and on two (OPTIML_DEVICES=A,B; A times every variant, both verify), and
# checks that the second run used both GPUs and decided as the first did. Prints both tuning wall
# times: the speed-up the second GPU brings. Exit code 77 = fewer than two GPUs of one model here.
#
# Decisions: verification verdicts do not depend on which identical GPU ran them, so the same
# variants must be rejected for the same reasons, and each run's winner must have passed in the
# other run too. The winner is decided by timing on GPU A in both runs, and two separate runs time
# on different occasions, so which correct variant wins is reported, not asserted: the test
# prints, for each run, how far the other run's winner measured from its own (confidence
# intervals and the ratio of medians), and a timing never fails it.
set -uo pipefail
optiml=${1:?usage: multi_gpu.sh <optiml executable> <source dir>}
source_dir=${2:?usage: multi_gpu.sh <optiml executable> <source dir>}

# "0: NVIDIA H200 (sm_90, 132 SMs, ...)": the first two devices whose model and arch match.
read -r first second < <("$optiml" devices | sed -n 's/^\([0-9]*\): \(.*\) (\(sm_[0-9]*\),.*/\1 \2 \3/p' |
  awk '{ index_ = $1; $1 = ""; if (seen[$0] != "") { print seen[$0], index_; exit } seen[$0] = index_ }')
if [[ -z ${second:-} ]]; then
  echo "fewer than two GPUs of one model on this machine: skipped"
  "$optiml" devices
  exit 77
fi
echo "GPUs $first and $second are of one model"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
spec=$source_dir/examples/saxpy/kernels/saxpy.optiml.json
# Profiling runs on the timing GPU alone after the search: left out, it would only blur the
# comparison of the two searches' wall times.
export OPTIML_PROFILE=0
budget=(--budget-evaluations "${MULTI_GPU_EVALUATIONS:-60}" --budget-seconds 3600)

tune() {  # tune <name> <OPTIML_DEVICES>
  local out=$work/$1
  mkdir -p "$out"
  echo "== $1: OPTIML_DEVICES=$2 optiml tune --device $first"
  local start end
  start=$(date +%s.%N)
  OPTIML_DEVICES=$2 timeout --kill-after=10 1200 "$optiml" tune --spec "$spec" --device "$first" \
    --cache-dir "$out/cache" "${budget[@]}" >"$out/tune.log" 2>&1
  local status=$?
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >"$out/wall_s"
  tail -n 2 "$out/tune.log"
  if [[ $status -ne 0 ]]; then
    echo "FAILED: optiml tune exited $status" && tail -n 40 "$out/tune.log"
    exit 1
  fi
  find "$out/cache/entries" -name manifest.json -exec cp {} "$out/manifest.json" \;
}
tune one_gpu "$first"
tune two_gpus "$first,$second"

fail() { echo "FAILED: $*"; exit 1; }
grep -q "GPUs verify" "$work/one_gpu/tune.log" && fail "OPTIML_DEVICES=$first still verified on several GPUs"
grep -q "2 GPUs verify (devices $first,$second); device $first times every variant" \
  "$work/two_gpus/tune.log" || fail "the two-GPU log does not say that 2 GPUs verify"

python3 - "$work" "$first" "$second" <<'EOF'
import json, sys
work, first, second = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
runs = {name: json.load(open(f"{work}/{name}/manifest.json")) for name in ("one_gpu", "two_gpus")}
problems = []
one, two = runs["one_gpu"], runs["two_gpus"]
if one.get("devices") != [first]:
    problems.append(f"one-GPU manifest lists devices {one.get('devices')}, expected [{first}]")
if two.get("devices") != [first, second]:
    problems.append(f"two-GPU manifest lists devices {two.get('devices')}, expected [{first}, {second}]")

def key(parameters):
    return json.dumps(parameters, sort_keys=True)

rows = {name: {key(row["parameters"]): row for row in m["trace"]} for name, m in runs.items()}
if rows["one_gpu"].keys() != rows["two_gpus"].keys():
    problems.append("the two runs evaluated different configurations")
verified_on = {}
for row in two["trace"]:
    device = row["details"].get("verified_on_device")
    verified_on[device] = verified_on.get(device, 0) + 1
print("two-GPU run, variants verified per device:", verified_on)
if not (verified_on.get(first) and verified_on.get(second)):
    problems.append(f"verification was not spread over both GPUs: {verified_on}")

# The same verdicts: which variants were rejected, and why.
for config, row in rows["one_gpu"].items():
    other = rows["two_gpus"].get(config)
    if other and (row["status"] == "ok") != (other["status"] == "ok"):
        problems.append(f"{config}: {row['status']} on one GPU, {other['status']} on two")
    elif other and row["status"] != "ok" and row["status"] != other["status"]:
        problems.append(f"{config}: rejected as {row['status']} on one GPU, {other['status']} on two")

winners = {name: key(m["parameters"]) for name, m in runs.items()}
if winners["one_gpu"] == winners["two_gpus"]:
    print("same winner:", winners["one_gpu"])
else:
    # Timing noise between two separate runs (see the top of this script).
    for name, other_name in (("one_gpu", "two_gpus"), ("two_gpus", "one_gpu")):
        mine = rows[name][winners[name]]
        theirs = rows[name].get(winners[other_name])
        if not theirs or theirs["status"] != "ok":
            problems.append(f"{other_name}'s winner failed in {name}")
            continue
        a, b = mine["details"], theirs["details"]
        overlap = b["ci_low_ms"] <= a["ci_high_ms"] and a["ci_low_ms"] <= b["ci_high_ms"]
        ratio = max(mine["time_ms"]["median"], theirs["time_ms"]["median"]) / \
            min(mine["time_ms"]["median"], theirs["time_ms"]["median"])
        print(f"in {name}: its winner {winners[name]} [{a['ci_low_ms']:.5f}, {a['ci_high_ms']:.5f}] ms, "
              f"{other_name}'s winner {winners[other_name]} [{b['ci_low_ms']:.5f}, {b['ci_high_ms']:.5f}] ms, "
              f"medians {ratio:.4f}x apart, intervals {'overlap' if overlap else 'apart'} (reported, not asserted)")

for name, m in runs.items():
    print(f"{name}: winner {winners[name]} {m['time_ms']['median']:.5f} ms, "
          f"{m['search']['evaluations']} evaluations, search {m['search']['wall_s']:.1f} s")
for problem in problems:
    print("FAILED:", problem)
sys.exit(1 if problems else 0)
EOF
status=$?
one=$(cat "$work/one_gpu/wall_s") two=$(cat "$work/two_gpus/wall_s")
awk -v one="$one" -v two="$two" \
  'BEGIN { printf "tuning wall time: one GPU %.1f s, two GPUs %.1f s (%.2fx)\n", one, two, one / two }'
[[ $status -eq 0 ]] && echo "PASSED: two GPUs verified with the verdicts of one GPU, manifest lists both"
exit $status
