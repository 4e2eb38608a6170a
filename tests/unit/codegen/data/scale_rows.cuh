// A local header of the templated fixture kernel: the generated .cu must find it through the
// kernel source's own #include.
#pragma once

#ifndef block_size_x
#define block_size_x 32
#endif
#ifndef block_size_y
#define block_size_y 4
#endif
#ifndef reserve_kib  // dynamic shared memory reserved beyond the staging tile (launch geometry
                     // only)
#define reserve_kib 64
#endif

__constant__ float row_scale[64];
