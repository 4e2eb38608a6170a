#!/usr/bin/env bash
# Inputs with structure (issue 12, item 7): kernels of tests/data/kernels tuned with inputs a
# project generator makes. spmv_csr (CSR row pointers and column indices from make_csr.cpp) and
# point_in_polygon (a polygon and its edge slopes in constant memory from make_polygon.cpp) must
# tune with every configuration accepted; spmv_csr_out_of_range (column indices out of range) must
# stop with the message that names its generator, not a crash or a variant's failure; and
# point_in_polygon_random_slopes (independent random tables) must reject every configuration that
# reads the slopes. check_structured_inputs.py judges. Exit code 77 = no GPU here.
set -uo pipefail
optiml=${1:?usage: structured_inputs.sh <optiml executable> <source dir> [host C++ compiler]}
source_dir=${2:?usage: structured_inputs.sh <optiml executable> <source dir> [host C++ compiler]}
compiler=${3:-c++}
kernels=$source_dir/tests/data/kernels

source "$(dirname "$0")/skip_without_gpu.sh" "$optiml"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/tune_run.sh"
for run in spmv_csr/spmv_csr spmv_csr/spmv_csr_out_of_range point_in_polygon/point_in_polygon \
           point_in_polygon/point_in_polygon_random_slopes; do
  tune_run "$optiml" "$kernels/$run.optiml.json" "$work/$(basename "$run")" "$compiler" 600
done

echo
python3 "$(dirname "$0")/check_structured_inputs.py" "$kernels" "$work"
status=$?
if [[ $status -ne 0 ]]; then
  for out in "$work"/*/; do
    echo && echo "== $(basename "$out"): tune.log (last 40 lines)" && tail -n 40 "$out/tune.log"
  done
fi
exit $status
