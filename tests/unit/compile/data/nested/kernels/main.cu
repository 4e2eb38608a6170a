#include <cuda_fp16.h>
#include "common.h"
#include "sub/detail.h"
// #include "missing.h" is skipped without error
