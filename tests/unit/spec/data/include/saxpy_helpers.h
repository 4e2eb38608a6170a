// Test fixture: a local header reached through the spec's include_dirs.
#pragma once

__device__ inline float axpy(float a, float x, float y) {
    return a * x + y;
}
