/*
 * sort.c - sorting and searching (gp_sort.h): binary search in generated
 * kernels (a thread per searched value), and stable LSD radix sorts driven
 * from here (see docs/architecture.md, "Sorting").
 *
 * NumPy's order is the one every kernel follows: NaNs last and equal to
 * each other, -0.0 equal to 0.0, complex numbers in the four NaN classes
 * [R + Rj, R + nanj, nan + Rj, nan + nanj], lexicographic within a class.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"

/* ---- the order, in generated code ------------------------------------------------------- */

/* Types and loads of a kernel over elements of dtype `dt`: gpk_st is the
 * storage type, gpk_ct the type values compare in (float16 as float32),
 * GPK_VAL(x) a stored element's value, and gpk_lt(a, b) NumPy's "a sorts
 * before b". */
static void emit_order(gp_str_t *s, int32_t dt)
{
    int32_t kind = gp_dtype_kind(dt);
    gp_str_printf(s, "typedef %s gpk_st;\ntypedef %s gpk_ct;\n", gp_dtypes[dt].storage,
                  gp_dtypes[gp_dtypes[dt].compute].storage);
    gp_str_printf(s, "#define GPK_VAL(x) %s\n", dt == GP_FLOAT16 ? "gpk_f16_to_f32(x)" : "(x)");
    if (kind == GP_KIND_COMPLEX) {
        /* npy_sort's CLT: the classes first, then real, then imaginary part */
        gp_str_puts(s, "GPK_FN int gpk_lt(gpk_ct a, gpk_ct b)\n{\n"
                       "  if (a.re < b.re) return a.im == a.im || b.im != b.im;\n"
                       "  if (a.re > b.re) return b.im != b.im && a.im == a.im;\n"
                       "  if (a.re == b.re || (a.re != a.re && b.re != b.re))\n"
                       "    return a.im < b.im || (b.im != b.im && a.im == a.im);\n"
                       "  return b.re != b.re;\n}\n");
    } else if (kind == GP_KIND_FLOAT) {
        gp_str_puts(s, "GPK_FN int gpk_lt(gpk_ct a, gpk_ct b) "
                       "{ return a < b || (b != b && a == a); }\n");
    } else {
        gp_str_puts(s, "GPK_FN int gpk_lt(gpk_ct a, gpk_ct b) { return a < b; }\n");
    }
}

/* ---- searchsorted ----------------------------------------------------------------------- */

typedef struct gp_search_spec {
    uint8_t family;     /* GP_FAMILY_SEARCH */
    uint8_t dt;
    uint8_t side;       /* enum gp_search_side */
    uint8_t sorter;     /* a[sorter[i]] is the i-th element */
} gp_search_spec_t;

/* A thread per value of `v` (C-contiguous) finds its place in `a` (any
 * stride, bytes) by bisection, as NumPy's binsearch. */
static gp_status_t gen_search(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_search_spec_t *sp = vspec;
    snprintf(name, name_size, "gpk_searchsorted_%s_%s%s", gp_dtypes[sp->dt].suffix,
             sp->side == GP_SEARCH_LEFT ? "left" : "right", sp->sorter ? "_sorter" : "");
    gp_str_printf(s, "/* searchsorted */\ntypedef long long gpk_idx;\n");
    emit_order(s, sp->dt);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, m, as, ss;\n  const char *a;\n"
                   "  const char *sorter;\n  const gpk_st *v;\n  long long *out;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, i, p.m) {\n"
                   "  const gpk_ct x = GPK_VAL(p.v[i]);\n"
                   "  gpk_idx lo = 0, hi = p.n;\n"
                   "  while (lo < hi) {\n"
                   "    const gpk_idx mid = lo + ((hi - lo) >> 1);\n");
    if (sp->sorter)
        gp_str_puts(s, "    const gpk_idx j = *(const long long *)(p.sorter + mid * p.ss);\n");
    else
        gp_str_puts(s, "    const gpk_idx j = mid;\n");
    gp_str_puts(s, "    const gpk_ct y = GPK_VAL(*(const gpk_st *)(p.a + j * p.as));\n");
    gp_str_printf(s, "    if (%s) lo = mid + 1; else hi = mid;\n  }\n  p.out[i] = lo;\n}\n}\n",
                  sp->side == GP_SEARCH_LEFT ? "gpk_lt(y, x)" : "!gpk_lt(x, y)");
    return GP_OK;
}

GP_API gp_status_t gp_array_searchsorted(const gp_array_t *a, const gp_array_t *v, int32_t side,
                                         const gp_array_t *sorter, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_array_searchsorted: out is NULL");
    *out = NULL;
    GP_CHECK_ARRAY(a);
    GP_CHECK_ARRAY(v);
    if (a->ndim != 1)
        return gp_set_error(GP_ERR_VALUE, "object %s for desired array",
                            a->ndim ? "too deep" : "of too small depth");
    if (side != GP_SEARCH_LEFT && side != GP_SEARCH_RIGHT)
        return gp_set_error(GP_ERR_VALUE, "search side must be 'left' or 'right'");
    if (a->dtype != v->dtype)
        return gp_set_error(GP_ERR_TYPE, "searchsorted: a and v must have one dtype");
    if (sorter) {
        GP_CHECK_ARRAY(sorter);
        if (sorter->ndim != 1 || sorter->dtype != GP_INT64)
            return gp_set_error(GP_ERR_TYPE, "searchsorted: sorter must be a 1-d int64 array");
        if (sorter->shape[0] != a->shape[0])
            return gp_set_error(GP_ERR_VALUE, "sorter.size must equal a.size");
    }
    gp_array_t *vc = NULL;
    if (v->flags & GP_FLAG_C_CONTIGUOUS) {
        gp_array_retain((gp_array_t *)v);
        vc = (gp_array_t *)v;
    } else {
        GP_TRY(gp_copy_new(v, v->dtype, GP_ORDER_C, &vc));
    }
    gp_status_t s = gp_array_empty(GP_INT64, v->ndim, v->shape, GP_ORDER_C, out);
    if (s == GP_OK && v->size > 0) {
        gp_search_spec_t sp = {GP_FAMILY_SEARCH, (uint8_t)a->dtype, (uint8_t)side,
                               sorter != NULL};
        const gp_kernel_t *k;
        s = gp_kernel_get(&sp, sizeof sp, gen_search, &sp, &k);
        if (s == GP_OK) {
            gp_params_t p;
            gp_params_init(&p);
            gp_params_index(&p, a->shape[0]);
            gp_params_index(&p, v->size);
            gp_params_index(&p, a->strides[0]);
            gp_params_index(&p, sorter ? sorter->strides[0] : 0);
            gp_params_ptr(&p, gp_array_data(a));
            gp_params_ptr(&p, sorter ? gp_array_data(sorter) : NULL);
            gp_params_ptr(&p, gp_array_data(vc));
            gp_params_ptr(&p, gp_array_data(*out));
            gp_launch_t cfg = gp_grid_for(v->size, 256);
            s = gp_launch(k, &cfg, &p);
        }
    }
    gp_array_release(vc);
    if (s != GP_OK) {
        gp_array_release(*out);
        *out = NULL;
    }
    return s;
}
