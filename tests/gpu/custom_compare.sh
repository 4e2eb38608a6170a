#!/usr/bin/env bash
# A project-supplied comparison function (check.compare): tunes planted/partial_sums, a reduction
# whose number of partial sums is a tunable parameter, twice. With its comparison function
# (partial_sums.optiml.json) every configuration must be accepted, at the spec's size and at its
# extra size; without it (partial_sums_elementwise.optiml.json, otherwise the same) every
# configuration but the original must be rejected as a mismatch. Exit code 77 = no GPU here.
set -uo pipefail
optiml=${1:?usage: custom_compare.sh <optiml executable> [host C++ compiler]}
compiler=${2:-c++}
planted=$(cd "$(dirname "$0")/planted" && pwd)

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/tune_run.sh"
for kernel in partial_sums partial_sums_elementwise; do
  tune_run "$optiml" "$planted/$kernel.optiml.json" "$work/$kernel" "$compiler"
done

echo
python3 "$planted/check_compare.py" "$planted" "$work"
status=$?
if [[ $status -ne 0 ]]; then
  for kernel in partial_sums partial_sums_elementwise; do
    echo && echo "== $kernel: tune.log (last 40 lines)" && tail -n 40 "$work/$kernel/tune.log"
  done
fi
exit $status
