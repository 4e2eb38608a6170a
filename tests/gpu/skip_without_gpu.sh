# Sourced by the GPU test scripts: `source skip_without_gpu.sh <optiml executable>` ends the
# script with exit code 77 (CTest reports it skipped) where `optiml devices` lists no CUDA GPU.
if ! "$1" devices | grep -q "sm_"; then
  echo "no CUDA GPU on this machine: skipped"
  exit 77
fi
