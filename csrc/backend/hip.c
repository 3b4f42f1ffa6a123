/*
 * hip.c - the HIP backend: gpu.c compiled a second time, with the HIP
 * vendor header (vendor/hip.h) in place of CUDA's.
 */
#define GP_GPU_HIP 1
#include "gpu.c"
