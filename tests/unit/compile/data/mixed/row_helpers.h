// A helper header of the mixed fixture: device code the kernel calls.
#pragma once

#ifndef FACTOR
#define FACTOR 2
#endif

__device__ inline float scaled(float x) { return x * FACTOR; }
