#!/usr/bin/env bash
# Builds OptiML with warnings as errors in build-test/ and runs every test: unit, integration
# (real CMake builds of the examples) and GPU tests, which skip themselves without a GPU.
# A unity build (CMAKE_UNITY_BUILD: a few files compiled as one) halves a fresh build on a
# 2-core machine, and keeps the code unity-safe; a developer's own build may leave it off.
# Extra arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
fi

cmake -S . -B build-test -G Ninja -DOPTIML_WARNINGS_AS_ERRORS=ON -DCMAKE_UNITY_BUILD=ON "$@"
cmake --build build-test
ctest --test-dir build-test --output-on-failure -j2
