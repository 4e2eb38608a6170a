# Sourced first by the GPU test scripts: `source skip_without_gpu.sh <optiml executable>` ends the
# script with exit code 77 (CTest reports it skipped) where `optiml devices` lists no CUDA GPU,
# and fails it (exit 1) where optiml cannot use its worker: a broken build must not read as a
# machine without a GPU. Then sets what every GPU test uses: $arch, the first GPU's architecture
# ("90" for sm_90), and fail(), which ends the test with its message.
if ! devices_output=$("$1" devices 2>&1); then
  echo "FAILED: optiml devices: $devices_output"
  exit 1
fi
if ! grep -q "sm_" <<<"$devices_output"; then
  echo "no CUDA GPU on this machine ($devices_output): skipped"
  exit 77
fi
arch=$(sed -n 's/.*(sm_\([0-9]*\),.*/\1/p' <<<"$devices_output" | head -n1)
fail() { echo "FAILED: $*"; exit 1; }
