/*
 * gp_sort.h - sorting and searching: binary search of sorted arrays, and
 * stable sorts along an axis (values and indices).
 *
 * Every operation orders elements as NumPy does: NaNs after everything else
 * (all NaNs equal), -0.0 equal to 0.0, complex numbers by real then
 * imaginary part with NumPy's NaN classes ([R + Rj, R + nanj, nan + Rj,
 * nan + nanj]).
 */
#ifndef GP_SORT_H
#define GP_SORT_H

#include "gp_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which end of a run of equal elements numpy.searchsorted returns. */
enum gp_search_side {
    GP_SEARCH_LEFT = 0,  /* the first index i with not (a[i] < v) */
    GP_SEARCH_RIGHT = 1  /* the first index i with v < a[i] */
};

/* numpy.searchsorted: for each element of `v`, the index where it would be
 * inserted into the 1-d array `a` (ascending in NumPy's order, or ascending
 * through `sorter`) to keep it sorted. `v` has a's dtype and any shape;
 * `sorter` (may be NULL) is a 1-d int64 array of a's length whose values
 * are all in [0, len(a)); one that is not gives GP_ERR_INDEX as an index out
 * of bounds does in gp_array_gather (on a GPU from the next synchronisation)
 * and is never read through. The result is a new C-contiguous int64 array of
 * v's shape. GP_ERR_VALUE for an `a` that is not 1-d, a `sorter` of
 * another length, an unknown side; GP_ERR_TYPE for mismatched dtypes. */
GP_API gp_status_t gp_array_searchsorted(const gp_array_t *a, const gp_array_t *v, int32_t side,
                                         const gp_array_t *sorter, gp_array_t **out);

/* numpy.sort (`indices` 0) or numpy.argsort (1) along `axis` of `a`
 * (negative counts from the end; GP_AXIS_NONE: the flattened array, a 1-d
 * result), stable: equal elements keep their order, so the result is the
 * one of NumPy's kind='stable'. A new array of a's shape (the axis' values
 * or their int64 indices along it). Sorting the values of a float array
 * of one row waits for the device once (whether NaNs or -0.0 are there
 * decides what the passes move). On CUDA the kernels include CUB's
 * block-wide primitives (the CCCL headers, found at run time: see
 * docs/architecture.md, "Sorting"); on HIP GP_ERR_UNSUPPORTED. GP_ERR_AXIS
 * for an axis out of range. */
GP_API gp_status_t gp_array_sort(const gp_array_t *a, int32_t axis, int32_t indices,
                                 gp_array_t **out);

#ifdef __cplusplus
}
#endif
#endif /* GP_SORT_H */
