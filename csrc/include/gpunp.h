/*
 * gpunp.h - the C ABI of the gpunp engine. Include this one header.
 *
 *   gp_base.h     status codes, errors, version, conventions
 *   gp_dtype.h    dtypes, promotion, casting, scalars
 *   gp_array.h    the array handle, creation, views, copies, transfers
 *   gp_ops.h      ufuncs, reductions, accumulations, generators
 *   gp_runtime.h  backends, devices, streams, kernel cache
 *   gp_interop.h  zero-copy exchange: raw pointers, DLPack
 *   gp_user.h     users' kernels (raw modules, expressions) and graphs
 *   gp_sort.h     sorting and searching
 *   gp_linalg.h   dense factorizations (LU, Cholesky, QR, eigen, SVD)
 *   gp_fft.h      Fourier transforms
 *   gp_sparse.h   products of CSR sparse matrices (scipy.sparse)
 *
 * Anything not declared in these headers is not API.
 */
#ifndef GPUNP_H
#define GPUNP_H

#include "gp_base.h"
#include "gp_dtype.h"
#include "gp_array.h"
#include "gp_ops.h"
#include "gp_runtime.h"
#include "gp_interop.h"
#include "gp_user.h"
#include "gp_sort.h"
#include "gp_linalg.h"
#include "gp_fft.h"
#include "gp_sparse.h"

#endif /* GPUNP_H */
