/*
 * gp_ops.h - operations: the ufunc table (elementwise ops, their loops and
 * type resolution), reductions, accumulations and generators.
 *
 * Every operation does the whole job in one call: promotion, broadcasting,
 * allocation of results, kernel lookup (generating and compiling the kernel
 * on first use) and launch on the current stream.
 */
#ifndef GP_OPS_H
#define GP_OPS_H

#include "gp_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The identity of a ufunc, the start value of its reductions. */
enum gp_identity {
    GP_IDENTITY_NONE = 0,
    GP_IDENTITY_ZERO = 1,
    GP_IDENTITY_ONE = 2,
    GP_IDENTITY_MINUS_ONE = 3, /* all bits set, for bitwise_and */
    GP_IDENTITY_FALSE = 4,
    GP_IDENTITY_TRUE = 5,
    GP_IDENTITY_MINUS_INF = 6 /* logaddexp, logaddexp2 */
};

/* Static facts of one ufunc of the op table. */
typedef struct gp_ufunc_info {
    const char *name;   /* NumPy's name ("add") */
    int32_t nin;
    int32_t nout;
    int32_t ntypes;     /* number of loops */
    int32_t identity;   /* enum gp_identity */
    int32_t reorderable;/* 1 if reductions may combine in any order */
} gp_ufunc_info_t;

/* An operand of an operation: an array, or (when `array` is NULL) a scalar. */
typedef struct gp_operand {
    gp_array_t *array;
    gp_scalar_t scalar;
} gp_operand_t;

/* Sentinel for "no axis" (axis=None) where one axis is taken. */
#define GP_AXIS_NONE (-1000000)

/* The version of the NumPy whose per-element rules the kernels follow where
 * NumPy releases differ (major * 10000 + minor * 100 + patch, 20502 for
 * 2.5.2; the default is 20400). A change forgets the loaded kernels (they
 * were generated under the old one) and so is costly: set it at start. */
GP_API gp_status_t gp_set_numpy_version(int32_t version);

/* The version of the SciPy whose type resolution scipy.special's ufuncs
 * follow (the same encoding; the default is 11700): SciPy 1.18 resolves most
 * of them as NumPy resolves its own, with its loops ordered by size, where
 * 1.17 first looks for the loop of exactly its operands' dtypes. A change
 * forgets the loaded kernels, as gp_set_numpy_version's does. */
GP_API gp_status_t gp_set_scipy_version(int32_t version);

/* Number of ufuncs in the op table. */
GP_API gp_status_t gp_ufunc_count(int32_t *out);

/* The id of the ufunc called `name`; GP_ERR_NOT_FOUND if there is none. */
GP_API gp_status_t gp_ufunc_find(const char *name, int32_t *out);

/* Facts of ufunc `id` (0 <= id < count). Strings are static. */
GP_API gp_status_t gp_ufunc_get_info(int32_t id, gp_ufunc_info_t *out);

/* The dtypes of loop `loop` of ufunc `id` into dtypes[0 .. nin+nout-1]. */
GP_API gp_status_t gp_ufunc_get_loop(int32_t id, int32_t loop, int32_t *dtypes);

/* Resolves the loop dtypes of ufunc `id` for operands of `dtypes` (nin+nout
 * entries, -1 for an output not given) and `weak` flags (nin entries, may be
 * NULL), as numpy's ufunc.resolve_dtypes. `signature` (nin+nout entries, -1
 * for free; may be NULL) fixes loop dtypes. Inputs must cast to the loop
 * under `casting`, the loop's outputs to given outputs likewise. Writes
 * nin+nout dtypes into loop_dtypes. GP_ERR_TYPE_NO_LOOP or
 * GP_ERR_TYPE_CASTING with NumPy's message on failure. */
GP_API gp_status_t gp_ufunc_resolve(int32_t id, const int32_t *dtypes, const int32_t *weak,
                                    const int32_t *signature, int32_t casting,
                                    int32_t *loop_dtypes);

/* Calls ufunc `id` on `in` (nin operands). `out` has nout entries: a NULL
 * entry asks for a new array, which the caller then owns; a given array is
 * written in place (it must have the broadcast shape). `where` (may be NULL)
 * is a boolean array broadcast with the inputs: elements where it is false
 * are left untouched. `signature` as in gp_ufunc_resolve. `order` (C, F, A,
 * K) lays out new outputs. On error new outputs are released and set to NULL. */
GP_API gp_status_t gp_ufunc_call(int32_t id, const gp_operand_t *in, gp_array_t **out,
                                 const gp_array_t *where, const int32_t *signature,
                                 int32_t casting, int32_t order);

/* Shortcuts of gp_ufunc_call for Python's operators, which need neither
 * struct building nor options: a new output (the caller owns *out), casting
 * same_kind, order K. _aa takes two arrays; _as an array and a scalar given
 * by its fields (gp_scalar_t's), the scalar first if `scalar_first`; _a one
 * array. A ufunc of another arity (two inputs for _aa and _as, one for _a,
 * and one output) gives GP_ERR_MISUSE. */
GP_API gp_status_t gp_ufunc_call_aa(int32_t id, gp_array_t *a, gp_array_t *b, gp_array_t **out);
GP_API gp_status_t gp_ufunc_call_as(int32_t id, gp_array_t *a, int32_t dtype, int32_t weak,
                                    int64_t i, double re, double im, int32_t scalar_first,
                                    gp_array_t **out);
GP_API gp_status_t gp_ufunc_call_a(int32_t id, gp_array_t *a, gp_array_t **out);

/* ufunc.reduce of binary ufunc `id` over `naxes` axes of `a` (`axes` NULL:
 * every axis; naxes 0 with non-NULL axes: none). `dtype` -1 picks NumPy's
 * default (add and multiply raise small integers to the platform integer).
 * `initial` (may be NULL) starts every reduction; without it an empty
 * reduction of a ufunc with no identity is a GP_ERR_VALUE. `*out` NULL gives
 * a new array, else the given array receives the result. */
GP_API gp_status_t gp_ufunc_reduce(int32_t id, const gp_array_t *a, int32_t naxes,
                                   const int32_t *axes, int32_t keepdims, int32_t dtype,
                                   const gp_scalar_t *initial, gp_array_t **out);

/* ufunc.accumulate of binary ufunc `id` along `axis` of `a`, in `dtype`
 * (-1: NumPy's default, as for reduce). `*out` as in gp_ufunc_reduce. */
GP_API gp_status_t gp_ufunc_accumulate(int32_t id, const gp_array_t *a, int32_t axis,
                                       int32_t dtype, gp_array_t **out);

/* numpy.mean over `axes` (as gp_ufunc_reduce); `dtype` -1: float64 for
 * integer and bool input, else the input's dtype (float16 accumulates in
 * float32). */
GP_API gp_status_t gp_array_mean(const gp_array_t *a, int32_t naxes, const int32_t *axes,
                                 int32_t keepdims, int32_t dtype, gp_array_t **out);

/* numpy.argmax (`maximum` 1) or argmin (0) along `axis` (GP_AXIS_NONE:
 * the flattened array). The first of equal extremes wins; NaN is extreme.
 * GP_ERR_VALUE for an empty array. Result dtype int64. */
GP_API gp_status_t gp_array_argextreme(const gp_array_t *a, int32_t maximum, int32_t axis,
                                       int32_t keepdims, gp_array_t **out);

/* numpy.matmul: the matrix products of the last two dims of `a` and `b` (a
 * 1-d operand is a row, resp. column, vector whose dim is dropped from the
 * result), broadcast over the leading dims, in the dtype of NumPy's loop for
 * the two dtypes. `*out` NULL gives a new C-contiguous array; a given array
 * receives the result (casting same_kind; it may overlap the inputs).
 * GP_ERR_VALUE with NumPy's message for mismatched dims. */
GP_API gp_status_t gp_matmul(const gp_array_t *a, const gp_array_t *b, gp_array_t **out);

/* A new 1-d array of `n` elements of `dtype` (not bool) as numpy.arange
 * fills it: elements 0 and 1 are `first` and `second` (cast to the dtype),
 * element i >= 2 is first + i * (second - first) computed in the dtype. */
GP_API gp_status_t gp_array_arange(const gp_scalar_t *first, const gp_scalar_t *second,
                                   int64_t n, int32_t dtype, gp_array_t **out);

/* ---- random numbers ------------------------------------------------------
 * Streams of Philox4x32-10 (a counter-based generator): block j of a stream
 * is the four 32-bit words of Philox4x32-10 under `key` of the counter
 * whose words 0-2 are counter[0..2] + j (96 bits, word 0 lowest) and whose
 * word 3 is counter[3] + the attempt of a rejection sampler (0 for every
 * first draw). Element i of the result is made from block i / E alone (E
 * elements a block, by distribution and dtype), so the result does not
 * depend on how the work is split, and every backend gives the same bits
 * (docs/architecture.md, "Random numbers"). */
enum gp_random_dist {
    GP_RANDOM_BITS = 0,        /* raw words: uint32 (E = 4), uint64 (two words, low first; E = 2) */
    GP_RANDOM_UNIFORM = 1,     /* a + b * u, u uniform in [0, 1): float32 from the top 24 bits of
                                  a word (E = 4), float64 from the top 53 of two (E = 2) */
    GP_RANDOM_INTEGERS = 2,    /* low + r (modulo 2^64), r uniform in [0, range1] (Lemire's
                                  method, unbiased): one word (E = 4) when range1 < 2^32, else
                                  two (E = 2); bool or an integer dtype */
    GP_RANDOM_NORMAL = 3,      /* a + b * z, z standard normal (Box-Muller of two 53-bit
                                  uniforms: a block gives two; E = 2), float32 or float64 */
    GP_RANDOM_EXPONENTIAL = 4, /* a + b * e, e = -log(u), u in (0, 1] from 53 bits (E = 2) */
    /* From here on one element a block (E = 1; a row of k values for the
     * row distributions), whose own stream is its block at attempts 0, 1,
     * 2...; parameters p0, p1, p2 of args (f: double, i: int64), each a
     * scalar or an array (see gp_random_args_t). Floats are float64 or
     * float32 (the double rounded), counts int64. */
    GP_RANDOM_GAMMA = 5,       /* f f: p1 * Gamma(shape p0) (Marsaglia-Tsang) */
    GP_RANDOM_BETA = 6,        /* f f: Beta(a, b) */
    GP_RANDOM_CHISQUARE = 7,   /* f: df */
    GP_RANDOM_NONCENTRAL_CHISQUARE = 8, /* f f: df, nonc */
    GP_RANDOM_F = 9,           /* f f: dfnum, dfden */
    GP_RANDOM_NONCENTRAL_F = 10, /* f f f: dfnum, dfden, nonc */
    GP_RANDOM_STANDARD_T = 11, /* f: df */
    GP_RANDOM_CAUCHY = 12,     /* standard Cauchy: a normal over a normal */
    GP_RANDOM_LAPLACE = 13,    /* f f: loc, scale */
    GP_RANDOM_LOGISTIC = 14,   /* f f: loc, scale */
    GP_RANDOM_GUMBEL = 15,     /* f f: loc, scale */
    GP_RANDOM_WEIBULL = 16,    /* f: a */
    GP_RANDOM_PARETO = 17,     /* f: a (Lomax, as NumPy) */
    GP_RANDOM_POWER = 18,      /* f: a */
    GP_RANDOM_RAYLEIGH = 19,   /* f: scale */
    GP_RANDOM_LOGNORMAL = 20,  /* f f: mean, sigma */
    GP_RANDOM_WALD = 21,       /* f f: mean, scale */
    GP_RANDOM_TRIANGULAR = 22, /* f f f: left, mode, right */
    GP_RANDOM_VONMISES = 23,   /* f f: mu, kappa */
    GP_RANDOM_POISSON = 24,    /* f: lam -> int64 */
    GP_RANDOM_BINOMIAL = 25,   /* i f: n, p -> int64 */
    GP_RANDOM_GEOMETRIC = 26,  /* f: p -> int64 */
    GP_RANDOM_NEGATIVE_BINOMIAL = 27, /* f f: n, p -> int64 */
    GP_RANDOM_HYPERGEOMETRIC = 28, /* i i i: ngood, nbad, nsample -> int64 */
    GP_RANDOM_LOGSERIES = 29,  /* f: p -> int64 */
    GP_RANDOM_ZIPF = 30,       /* f: a -> int64 */
    GP_RANDOM_DIRICHLET = 31,  /* row: vec alpha -> float64 */
    GP_RANDOM_MULTINOMIAL = 32, /* row: i n, vec pvals -> int64 */
    GP_RANDOM_MVHYPERGEOMETRIC = 33 /* row: i nsample, vec colors -> int64 */
};

/* What a random fill makes. */
typedef struct gp_random_args {
    int32_t dist;         /* enum gp_random_dist */
    uint32_t key[2];
    uint32_t counter[4];  /* the counter of block 0 */
    double a, b;          /* UNIFORM, NORMAL, EXPONENTIAL: a + b * x, in double */
    uint64_t low;         /* INTEGERS: the lowest value (two's complement bits) */
    uint64_t range1;      /* INTEGERS: the number of values minus one */
    /* GAMMA and later: parameter k is f[k] (double) or i[k] (int64) by the
     * distribution's kind, unless arr[k] is an array of that type (float64
     * or int64) with one element for each element (each row) of the result,
     * contiguous in the same memory order */
    double f[3];
    int64_t i[3];
    gp_array_t *arr[3];
    gp_array_t *vec;      /* the row distributions: the k values of a row's parameter
                             (float64, contiguous); the result is C-contiguous (rows, k) */
} gp_random_args_t;

/* Fills `out` (C- or F-contiguous, writeable; its elements in memory order)
 * with a stream of `args->dist`. *blocks (may be NULL) gets the number of
 * counter blocks the stream used (ceil(size / E)): the next stream of the
 * same key starts that many blocks later. GP_ERR_TYPE for a dtype the
 * distribution does not make, GP_ERR_VALUE for an unknown distribution or
 * a layout that is not contiguous. */
GP_API gp_status_t gp_random_fill(gp_array_t *out, const gp_random_args_t *args, uint64_t *blocks);

/* What an index out of bounds does (numpy.take's `mode`). */
enum gp_take_mode {
    GP_TAKE_RAISE = 0, /* an error (see below) */
    GP_TAKE_WRAP = 1,  /* taken modulo the axis' length */
    GP_TAKE_CLIP = 2   /* clipped to [0, length - 1], negative ones too */
};

/* Advanced indexing, reading: out[b..., r...] = a[idx[0][b...], ...,
 * idx[k-1][b...], r...]. The k = `nidx` index arrays (any integer dtype;
 * each index taken as an int64, as NumPy casts to intp) broadcast together
 * to a shape B and index the first k dims of `a`; r runs over a's other
 * dims. `out` has a's dtype and shape B + a.shape[k:], any strides, and must
 * not overlap `a`. `axes` (k entries; NULL: 0..k-1) are the axis numbers
 * error messages name. With GP_TAKE_RAISE negative indices count from the
 * end, and one out of bounds gives GP_ERR_INDEX ("index 10 is out of bounds
 * for axis 0 with size 5") and moves nothing for that element: on the host
 * backend from this call; on a GPU, without waiting for the kernel, from
 * the next gp_array_to_host, gp_stream_synchronize or gp_device_synchronize
 * of the device (the kernel writes a device-side error record, read where
 * the host waits anyway). With WRAP or CLIP an axis of length 0 gives
 * GP_ERR_INDEX when there is anything to take. GP_ERR_INDEX when the index
 * arrays do not broadcast, GP_ERR_VALUE for a wrong `out`. */
GP_API gp_status_t gp_array_gather(const gp_array_t *a, int32_t nidx, gp_array_t *const *idx,
                                   const int32_t *axes, int32_t mode, gp_array_t *out);

/* Advanced indexing, writing: a[idx[0][b...], ..., idx[k-1][b...], r...] =
 * values[b..., r...], `values` broadcast to B + a.shape[k:] and cast to a's
 * dtype (unsafe casting, as NumPy's assignment). Indices and errors as in
 * gp_array_gather; `a` must be writeable. Where an element is indexed more
 * than once, the host backend stores the value of the last (C order of the
 * iteration, as NumPy); a GPU one of them. */
GP_API gp_status_t gp_array_scatter(gp_array_t *a, int32_t nidx, gp_array_t *const *idx,
                                    const int32_t *axes, int32_t mode, const gp_array_t *values);

/* a[idx...] += values, each occurrence of an index adding its value (as
 * numpy.add.at): indices, broadcasting, casting and errors as in
 * gp_array_scatter. `a` must be int32, uint32, int64, uint64, float32,
 * float64, complex64 or complex128 (GP_ERR_TYPE otherwise). The host adds in
 * C order of the iteration; a GPU adds atomically in no fixed order, so a
 * float result may differ from the host's in rounding (integers are exact). */
GP_API gp_status_t gp_array_scatter_add(gp_array_t *a, int32_t nidx, gp_array_t *const *idx,
                                        const int32_t *axes, int32_t mode,
                                        const gp_array_t *values);

/* numpy.nonzero as one array: a new C-contiguous int64 array of shape
 * (ndim, count) whose row d holds the coordinates along dim d of the
 * non-zero elements of `a` (ndim >= 1), in C order. The count is brought to
 * the host (a synchronisation). */
GP_API gp_status_t gp_array_nonzero(const gp_array_t *a, gp_array_t **out);

/* a[mask] for a bool `mask` of a's shape: a new 1-D C-contiguous array of
 * the elements of `a` where `mask` is true, in C order (NumPy's result). The
 * count is brought to the host (a synchronisation). GP_ERR_INDEX when the
 * shapes differ. */
GP_API gp_status_t gp_array_masked(const gp_array_t *a, const gp_array_t *mask,
                                   gp_array_t **out);

#ifdef __cplusplus
}
#endif
#endif /* GP_OPS_H */
