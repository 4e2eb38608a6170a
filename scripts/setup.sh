#!/usr/bin/env bash
# From a fresh clone to working examples: installs the Debian dependencies, builds OptiML and
# installs it into build/install, then builds both examples against that install, as a user
# would. With a GPU, the examples are built for its architecture (tuning what their seed caches
# do not cover) and run. Without one, they are built from their committed seed caches and not run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/install-deps.sh
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi

echo "== Building OptiML (build/optiml) and installing it into build/install"
cmake -S . -B build/optiml -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPTIML_BUILD_TESTS=OFF
cmake --build build/optiml
cmake --install build/optiml --prefix build/install
optiml=$root/build/install/bin/optiml

# "0: NVIDIA H200 (sm_90, ...)" per GPU, or a line saying there is none.
devices=$("$optiml" devices)
echo "$devices"
arch=$(sed -n 's/.*(sm_\([0-9]*\),.*/\1/p' <<<"$devices" | head -n1)
architecture_args=()
[[ -n $arch ]] && architecture_args=(-DCMAKE_CUDA_ARCHITECTURES="$arch")

for example in saxpy matmul; do
    echo "== Building examples/$example (build/examples/$example)"
    cmake -S "examples/$example" -B "build/examples/$example" -G Ninja \
        -DCMAKE_PREFIX_PATH="$root/build/install" "${architecture_args[@]}"
    cmake --build "build/examples/$example"
done

if [[ -n $arch ]]; then
    for example in saxpy matmul; do
        echo "== Running build/examples/$example/$example"
        "build/examples/$example/$example"
    done
    echo "Done: both examples built for sm_$arch and ran on this GPU."
else
    echo "Done, without a GPU: both examples were built from their seed caches (tuned sm_90" \
        "kernels where a seed has them; otherwise the original kernels, as the build's" \
        "warnings say). They were not run, since running them needs a CUDA GPU."
fi
