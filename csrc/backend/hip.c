/*
 * hip.c - the HIP backend: gpu.c and its vendor libraries compiled a second
 * time, with the HIP vendor header (vendor/hip.h) in place of CUDA's.
 */
#define GP_GPU_HIP 1
#include "gpu.c"
#include "vendor/blas.c"
#include "vendor/solver.c"
#include "vendor/fft.c"
#include "vendor/sparse.c"
