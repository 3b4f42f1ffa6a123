/*
 * gp_test_elems.h - one element of a float or complex buffer read and
 * written as a complex double, for the C tests whose models of vendor
 * libraries compute in it (test_fft.c, test_getrs.c). Apart from gp_test.h
 * because <complex.h> defines I, which other tests use as a name.
 */
#ifndef GP_TEST_ELEMS_H
#define GP_TEST_ELEMS_H

#include <complex.h>
#include <stdint.h>

#include "gpunp.h"

/* Element i of a float32/64 or complex64/128 buffer, as a complex double. */
static inline double complex elem_load(const void *p, int32_t dtype, int64_t i)
{
    switch (dtype) {
    case GP_FLOAT32: return ((const float *)p)[i];
    case GP_FLOAT64: return ((const double *)p)[i];
    case GP_COMPLEX64: return ((const float complex *)p)[i];
    default: return ((const double complex *)p)[i];
    }
}

/* v stored as element i of an int32, float32/64 or complex64/128 buffer
 * (the real types keep its real part). */
static inline void elem_store(void *p, int32_t dtype, int64_t i, double complex v)
{
    switch (dtype) {
    case GP_INT32: ((int32_t *)p)[i] = (int32_t)creal(v); break;
    case GP_FLOAT32: ((float *)p)[i] = (float)creal(v); break;
    case GP_FLOAT64: ((double *)p)[i] = creal(v); break;
    case GP_COMPLEX64: ((float complex *)p)[i] = (float complex)v; break;
    default: ((double complex *)p)[i] = v; break;
    }
}

#endif /* GP_TEST_ELEMS_H */
