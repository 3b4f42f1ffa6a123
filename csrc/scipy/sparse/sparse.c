/*
 * sparse.c - products of CSR matrices (gp_sparse.h): sparse x dense (SpMV,
 * SpMM) and sparse x sparse (SpGEMM), by kernels written here as fixed text
 * with the dtypes substituted, on every backend; on CUDA the vendor library
 * (cuSPARSE, csrc/backend/vendor/sparse.c) takes SpMM of float and complex
 * data (and SpMV, with GPUNP_TUNE_SPMV_VENDOR=1).
 *
 * Every kernel checks what it reads: a row's range against the stored
 * elements, a column index against the columns it may address. A bad one
 * claims the device's error record (csrc/backend/errrec.c) and is skipped,
 * so bad input is an IndexError, never a read outside an array.
 *
 * Arithmetic is SciPy's sparsetools': both operands are converted to the
 * result dtype, each product is formed there, and a sum starts from zero and
 * adds the products in the order of the stored elements. Integers compute
 * in the unsigned type of their width (wrapping, as NumPy's integers do);
 * bool is OR of ANDs; a complex product is the four-multiplication formula
 * without fused multiply-adds (SciPy's complex_wrapper). On the host a sum
 * runs in exactly that order, so results equal SciPy's bit for bit.
 *
 * SpGEMM runs in three kernels around two scans of per-row counts:
 *   1. FLOPS: each row's number of products (the lengths of the rows of B
 *      its elements select);
 *   2. EXPAND: each row writes its products (column, value) in SciPy's order
 *      into its slice of a buffer of all products, sorts them by column with
 *      a stable merge sort (so equal columns keep that order), adds each
 *      run of one column from zero, drops sums that are exactly zero, and
 *      counts what is left;
 *   3. COPY: each row's survivors move to the result at its row's start.
 * A thread handles a row. The buffer holds every product, twice (the merge
 * sort's scratch): memory grows with the multiplications, not the result.
 */
#include <stdio.h>
#include <string.h>

#include "../scipy.h"

/* ---- dtypes of the kernels ------------------------------------------------------- */

enum { K_BOOL, K_INT, K_FLOAT, K_COMPLEX };

typedef struct {
    int32_t dtype;
    const char *type;  /* storage type */
    const char *acc;   /* the type sums compute in */
    const char *real;  /* complex: a part's type */
    uint8_t kind;
} sp_dtype_t;

static const sp_dtype_t sp_dtypes[] = {
    {GP_BOOL, "gpk_b", "gpk_b", NULL, K_BOOL},
    {GP_INT32, "gpk_i32", "gpk_u32", NULL, K_INT},
    {GP_INT64, "gpk_i64", "gpk_u64", NULL, K_INT},
    {GP_FLOAT32, "gpk_f32", "gpk_f32", NULL, K_FLOAT},
    {GP_FLOAT64, "gpk_f64", "gpk_f64", NULL, K_FLOAT},
    {GP_COMPLEX64, "gpk_c64", "gpk_c64", "float", K_COMPLEX},
    {GP_COMPLEX128, "gpk_c128", "gpk_c128", "double", K_COMPLEX},
};

static const sp_dtype_t *sp_dtype(int32_t dt)
{
    for (size_t i = 0; i < sizeof sp_dtypes / sizeof *sp_dtypes; ++i)
        if (sp_dtypes[i].dtype == dt)
            return &sp_dtypes[i];
    return NULL;
}

/* ---- kernel specifications ------------------------------------------------------ */

enum { SP_MV, SP_MM, SP_FLOPS, SP_EXPAND, SP_COPY, SP_CHECK, SP_PRUNE, SP_PACK };
static const char *const stage_names[] = {"mv",    "mm",    "flops", "expand",
                                          "copy",  "check", "prune", "pack"};

typedef struct {
    uint8_t family;        /* GP_FAMILY_SPARSE */
    uint8_t stage;         /* SP_* */
    uint8_t a_idx, b_idx;  /* index bytes of A and B (B: SpGEMM's), 4 or 8 */
    uint8_t out_idx;       /* COPY: the result's index bytes */
    uint8_t a_dt, b_dt;    /* data dtypes of A and of x (or B) */
    uint8_t y_dt;          /* the result's dtype */
    uint8_t lanes;         /* MV: threads a row on a GPU (2 to 32; the host uses one) */
    uint8_t pad[3];
} sp_spec_t;

/* sp_in_a, sp_in_b (an element of A, of x or B, in the result's dtype),
 * sp_zero, sp_mac (s + a * b), sp_add, sp_out (to storage), sp_nonzero. */
static void put_arith(gp_str_t *s, const sp_spec_t *sp)
{
    const sp_dtype_t *a = sp_dtype(sp->a_dt), *b = sp_dtype(sp->b_dt), *y = sp_dtype(sp->y_dt);
    gp_str_printf(s, "typedef %s gpk_ta;\ntypedef %s gpk_tb;\ntypedef %s gpk_ty;\n"
                     "typedef %s gpk_acc;\n", a->type, b->type, y->type, y->acc);
    const sp_dtype_t *in[2] = {a, b};
    const char *which[2] = {"a", "b"};
    if (y->kind == K_COMPLEX) {
        gp_str_printf(s, "GPK_FN gpk_acc sp_cx(%s re, %s im) { gpk_acc z; z.re = re; z.im = im; "
                         "return z; }\n", y->real, y->real);
        for (int k = 0; k < 2; ++k)
            gp_str_printf(s, "GPK_FN gpk_acc sp_in_%s(gpk_t%s v) { return %s; }\n", which[k],
                          which[k],
                          in[k]->kind == K_COMPLEX ? "sp_cx(v.re, v.im)" : "sp_cx(v, 0)");
        gp_str_puts(s,
                    "GPK_FN gpk_acc sp_zero(void) { return sp_cx(0, 0); }\n"
                    "GPK_FN gpk_acc sp_add(gpk_acc s, gpk_acc t) "
                    "{ return sp_cx(s.re + t.re, s.im + t.im); }\n"
                    "GPK_FN gpk_acc sp_mul(gpk_acc a, gpk_acc b) "
                    "{ return sp_cx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }\n"
                    "GPK_FN gpk_ty sp_out(gpk_acc v) { return v; }\n"
                    "GPK_FN int sp_nonzero(gpk_acc v) { return v.re != 0 || v.im != 0; }\n");
    } else {
        for (int k = 0; k < 2; ++k)
            gp_str_printf(s, "GPK_FN gpk_acc sp_in_%s(gpk_t%s v) { return (gpk_acc)v; }\n",
                          which[k], which[k]);
        gp_str_printf(s,
                      "GPK_FN gpk_acc sp_zero(void) { return 0; }\n"
                      "GPK_FN gpk_acc sp_add(gpk_acc s, gpk_acc t) { return %s; }\n"
                      "GPK_FN gpk_acc sp_mul(gpk_acc a, gpk_acc b) { return %s; }\n"
                      "GPK_FN gpk_ty sp_out(gpk_acc v) { return (gpk_ty)v; }\n"
                      "GPK_FN int sp_nonzero(gpk_acc v) { return v != 0; }\n",
                      y->kind == K_BOOL ? "(gpk_acc)(s | t)" : "s + t",
                      y->kind == K_BOOL ? "(gpk_acc)(a & b)" : "a * b");
    }
    /* the product is rounded before the sum, as in SciPy's loops */
    gp_str_puts(s, "GPK_FN gpk_acc sp_mac(gpk_acc s, gpk_acc a, gpk_acc b) "
                   "{ return sp_add(s, sp_mul(a, b)); }\n");
}

/* sp_range: a row's stored elements, checked against the `nnz` there are
 * (an indptr that decreases or leaves them claims the record; the row is
 * then empty). */
static void put_range(gp_str_t *s)
{
    gp_str_puts(s, "GPK_FN void sp_range(long long *rec, gpk_index lo, gpk_index hi, gpk_index nnz,\n"
                   "                     gpk_index *plo, gpk_index *phi)\n{\n"
                   "  if (lo < 0 || lo > nnz) { gpk_index_error(rec, lo, 0, nnz); hi = lo = 0; }\n"
                   "  else if (hi < lo || hi > nnz) { gpk_index_error(rec, hi, 0, nnz); hi = lo; }\n"
                   "  *plo = lo; *phi = hi;\n}\n");
}

static const char *idx_type(int bytes)
{
    return bytes == 4 ? "gpk_i32" : "gpk_i64";
}

/* y[r] (MV) or y[r, j] (MM): the row's sum, `lanes` threads a row on a GPU
 * (a warp's groups of lanes take consecutive rows, then a shuffle tree adds
 * the lanes' partial sums). */
static void put_mv(gp_str_t *s, const sp_spec_t *sp, const char *name)
{
    gp_str_puts(s, "struct gpk_params {\n  gpk_index rows, cols, nnz, k;\n  long long *rec;\n"
                   "  const gpk_ia *ptr;\n  const gpk_ia *ind;\n  const gpk_ta *a;\n"
                   "  const gpk_tb *x;\n  gpk_ty *y;\n};\n");
    /* a row's partial sum over the elements lane, lane + step, ... */
    gp_str_puts(s, "GPK_FN gpk_acc sp_row(const struct gpk_params *p, gpk_index r, gpk_index j,\n"
                   "                      gpk_index lane, gpk_index step)\n{\n"
                   "  gpk_index lo, hi;\n"
                   "  sp_range(p->rec, (gpk_index)p->ptr[r], (gpk_index)p->ptr[r + 1], p->nnz, "
                   "&lo, &hi);\n"
                   "  gpk_acc s = sp_zero();\n"
                   "  for (gpk_index e = lo + lane; e < hi; e += step) {\n"
                   "    const gpk_index c = (gpk_index)p->ind[e];\n"
                   "    if (c < 0 || c >= p->cols) { gpk_index_error(p->rec, c, 1, p->cols); "
                   "continue; }\n"
                   "    s = sp_mac(s, sp_in_a(p->a[e]), sp_in_b(p->x[c * p->k + j]));\n"
                   "  }\n  return s;\n}\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    if (sp->stage == SP_MM) {
        gp_str_puts(s, "  GPK_GRID_LOOP(gpk_index, i, p.rows * p.k) {\n"
                       "    p.y[i] = sp_out(sp_row(&p, i / p.k, i % p.k, 0, 1));\n  }\n}\n");
        return;
    }
    gp_str_printf(s,
                  "#ifdef GPK_HOST\n"
                  "  GPK_GRID_LOOP(gpk_index, r, p.rows) p.y[r] = sp_out(sp_row(&p, r, 0, 0, 1));\n"
                  "#else\n"
                  "  const gpk_index L = %d, lane = GPK_THREAD_ID %% L;\n"
                  "  const gpk_index in_warp = (GPK_THREAD_ID %% GPK_WARP) / L;\n"
                  "  const gpk_index groups = GPK_NUM_BLOCKS * GPK_BLOCK_SIZE / L;\n"
                  "  /* the loop's test is the warp's first row: every lane shuffles */\n"
                  "  for (gpk_index r0 = (GPK_BLOCK_ID * GPK_BLOCK_SIZE + GPK_THREAD_ID) / L - in_warp;\n"
                  "       r0 < p.rows; r0 += groups) {\n"
                  "    const gpk_index r = r0 + in_warp;\n"
                  "    gpk_acc s = r < p.rows ? sp_row(&p, r, 0, lane, L) : sp_zero();\n"
                  "    for (int d = (int)L / 2; d > 0; d >>= 1) s = sp_add(s, gpk_shfl_down(s, d));\n"
                  "    if (lane == 0 && r < p.rows) p.y[r] = sp_out(s);\n"
                  "  }\n#endif\n}\n",
                  sp->lanes);
}

/* FLOPS: f[r] = the products row r of A @ B forms. */
static void put_flops(gp_str_t *s, const char *name)
{
    gp_str_printf(s,
                  "struct gpk_params {\n  gpk_index rows, a_nnz, b_rows, b_nnz;\n  long long *rec;\n"
                  "  const gpk_ia *aptr;\n  const gpk_ia *aind;\n  const gpk_ib *bptr;\n"
                  "  long long *f;\n};\n"
                  "GPK_KERNEL(%s, struct gpk_params)\n{\n"
                  "  GPK_GRID_LOOP(gpk_index, r, p.rows) {\n"
                  "    gpk_index lo, hi, f = 0;\n"
                  "    sp_range(p.rec, (gpk_index)p.aptr[r], (gpk_index)p.aptr[r + 1], p.a_nnz, "
                  "&lo, &hi);\n"
                  "    for (gpk_index e = lo; e < hi; ++e) {\n"
                  "      const gpk_index c = (gpk_index)p.aind[e];\n"
                  "      if (c < 0 || c >= p.b_rows) { gpk_index_error(p.rec, c, 1, p.b_rows); "
                  "continue; }\n"
                  "      gpk_index blo, bhi;\n"
                  "      sp_range(p.rec, (gpk_index)p.bptr[c], (gpk_index)p.bptr[c + 1], p.b_nnz, "
                  "&blo, &bhi);\n"
                  "      f += bhi - blo;\n"
                  "    }\n    p.f[r] = f;\n  }\n}\n",
                  name);
}

/* EXPAND: row r's products into [f[r-1], f[r]) of (col, val), sorted
 * stably by column through (col2, val2), summed per column; n[r] = the
 * nonzero sums, which the row's slice then begins with. */
static void put_expand(gp_str_t *s, const char *name)
{
    gp_str_printf(
        s,
        "struct gpk_params {\n  gpk_index rows, a_nnz, b_rows, b_cols, b_nnz;\n  long long *rec;\n"
        "  const gpk_ia *aptr;\n  const gpk_ia *aind;\n  const gpk_ta *a;\n"
        "  const gpk_ib *bptr;\n  const gpk_ib *bind;\n  const gpk_tb *b;\n"
        "  const long long *f;\n  long long *col;\n  gpk_acc *val;\n  long long *col2;\n"
        "  gpk_acc *val2;\n  long long *n;\n};\n"
        "GPK_KERNEL(%s, struct gpk_params)\n{\n"
        "  GPK_GRID_LOOP(gpk_index, r, p.rows) {\n"
        "    const gpk_index start = r ? p.f[r - 1] : 0, len = p.f[r] - start;\n"
        "    long long *c = p.col + start, *c2 = p.col2 + start;\n"
        "    gpk_acc *v = p.val + start, *v2 = p.val2 + start;\n"
        "    gpk_index lo, hi, m = 0;\n"
        "    sp_range(p.rec, (gpk_index)p.aptr[r], (gpk_index)p.aptr[r + 1], p.a_nnz, &lo, &hi);\n"
        "    for (gpk_index e = lo; e < hi; ++e) {\n"
        "      const gpk_index j = (gpk_index)p.aind[e];\n"
        "      if (j < 0 || j >= p.b_rows) continue; /* FLOPS claimed the record */\n"
        "      const gpk_acc x = sp_in_a(p.a[e]);\n"
        "      gpk_index blo, bhi;\n"
        "      sp_range(p.rec, (gpk_index)p.bptr[j], (gpk_index)p.bptr[j + 1], p.b_nnz, &blo, &bhi);\n"
        "      for (gpk_index t = blo; t < bhi && m < len; ++t) {\n"
        "        const gpk_index k = (gpk_index)p.bind[t];\n"
        "        if (k < 0 || k >= p.b_cols) { gpk_index_error(p.rec, k, 1, p.b_cols); continue; }\n"
        "        c[m] = k; v[m] = sp_mul(x, sp_in_b(p.b[t])); ++m;\n"
        "      }\n    }\n"
        "    /* bottom-up merge sort, stable: a tie takes the left run's first */\n"
        "    int in_scratch = 0;\n"
        "    for (gpk_index w = 1; w < m; w *= 2) {\n"
        "      const long long *sc = in_scratch ? c2 : c; long long *dc = in_scratch ? c : c2;\n"
        "      const gpk_acc *sv = in_scratch ? v2 : v; gpk_acc *dv = in_scratch ? v : v2;\n"
        "      for (gpk_index i = 0; i < m; i += 2 * w) {\n"
        "        gpk_index x = i, xe = i + w < m ? i + w : m, y = xe, ye = i + 2 * w < m ? i + 2 * w : m, o = i;\n"
        "        while (x < xe && y < ye) {\n"
        "          if (sc[y] < sc[x]) { dc[o] = sc[y]; dv[o++] = sv[y++]; }\n"
        "          else { dc[o] = sc[x]; dv[o++] = sv[x++]; }\n"
        "        }\n"
        "        while (x < xe) { dc[o] = sc[x]; dv[o++] = sv[x++]; }\n"
        "        while (y < ye) { dc[o] = sc[y]; dv[o++] = sv[y++]; }\n"
        "      }\n      in_scratch = !in_scratch;\n    }\n"
        "    const long long *sc = in_scratch ? c2 : c;\n"
        "    const gpk_acc *sv = in_scratch ? v2 : v;\n"
        "    gpk_index out = 0;\n"
        "    for (gpk_index i = 0; i < m;) {\n"
        "      const long long k = sc[i];\n"
        "      gpk_acc sum = sp_zero();\n"
        "      for (; i < m && sc[i] == k; ++i) sum = sp_add(sum, sv[i]);\n"
        "      /* out <= the run's first position: never overwrites what is still read */\n"
        "      if (sp_nonzero(sum)) { c[out] = k; v[out] = sum; ++out; }\n"
        "    }\n    p.n[r] = out;\n  }\n}\n",
        name);
}

/* COPY: the survivors of row r to [n[r-1], n[r]) of the result. */
static void put_copy(gp_str_t *s, const sp_spec_t *sp, const char *name)
{
    gp_str_printf(s,
                  "typedef %s gpk_io;\n"
                  "struct gpk_params {\n  gpk_index rows;\n  const long long *f;\n"
                  "  const long long *n;\n  const long long *col;\n  const gpk_acc *val;\n"
                  "  gpk_io *ptr;\n  gpk_io *ind;\n  gpk_ty *data;\n};\n"
                  "GPK_KERNEL(%s, struct gpk_params)\n{\n"
                  "  GPK_GRID_LOOP(gpk_index, r, p.rows) {\n"
                  "    const gpk_index src = r ? p.f[r - 1] : 0, dst = r ? p.n[r - 1] : 0;\n"
                  "    for (gpk_index i = 0; i < p.n[r] - dst; ++i) {\n"
                  "      p.ind[dst + i] = (gpk_io)p.col[src + i];\n"
                  "      p.data[dst + i] = sp_out(p.val[src + i]);\n    }\n"
                  "    p.ptr[r + 1] = (gpk_io)p.n[r];\n"
                  "    if (r == 0) p.ptr[0] = 0;\n  }\n}\n",
                  idx_type(sp->out_idx), name);
}

/* CHECK: f[r] = the elements of row r that do not follow a smaller column
 * (unsorted or repeated: the library wants neither), and its columns
 * checked against `cols`. */
static void put_check(gp_str_t *s, const char *name)
{
    gp_str_printf(s,
                  "struct gpk_params {\n  gpk_index rows, nnz, cols;\n  long long *rec;\n"
                  "  const gpk_ia *ptr;\n  const gpk_ia *ind;\n  long long *f;\n};\n"
                  "GPK_KERNEL(%s, struct gpk_params)\n{\n"
                  "  GPK_GRID_LOOP(gpk_index, r, p.rows) {\n"
                  "    gpk_index lo, hi, bad = 0;\n"
                  "    sp_range(p.rec, (gpk_index)p.ptr[r], (gpk_index)p.ptr[r + 1], p.nnz, "
                  "&lo, &hi);\n"
                  "    for (gpk_index e = lo; e < hi; ++e) {\n"
                  "      const gpk_index c = (gpk_index)p.ind[e];\n"
                  "      if (c < 0 || c >= p.cols) { gpk_index_error(p.rec, c, 1, p.cols); ++bad; "
                  "continue; }\n"
                  "      if (e > lo && c <= (gpk_index)p.ind[e - 1]) ++bad;\n"
                  "    }\n    p.f[r] = bad;\n  }\n}\n",
                  name);
}

/* PRUNE: the library's row r made canonical in place: sorted by column (an
 * insertion sort, linear on the sorted rows the library gives), a column's
 * repeats added, sums that are exactly zero dropped (the library keeps
 * them, SciPy does not); n[r] = what is left, at the row's start. */
static void put_prune(gp_str_t *s, const char *name)
{
    gp_str_printf(s,
                  "struct gpk_params {\n  gpk_index rows;\n  const gpk_ia *ptr;\n  gpk_ia *ind;\n"
                  "  gpk_ty *val;\n  long long *n;\n};\n"
                  "GPK_KERNEL(%s, struct gpk_params)\n{\n"
                  "  GPK_GRID_LOOP(gpk_index, r, p.rows) {\n"
                  "    const gpk_index lo = (gpk_index)p.ptr[r], len = (gpk_index)p.ptr[r + 1] - lo;\n"
                  "    gpk_ia *c = p.ind + lo;\n    gpk_ty *v = p.val + lo;\n"
                  "    for (gpk_index i = 1; i < len; ++i) {\n"
                  "      const gpk_ia k = c[i];\n      const gpk_ty x = v[i];\n"
                  "      gpk_index j = i;\n"
                  "      for (; j > 0 && c[j - 1] > k; --j) { c[j] = c[j - 1]; v[j] = v[j - 1]; }\n"
                  "      c[j] = k; v[j] = x;\n    }\n"
                  "    gpk_index out = 0;\n"
                  "    for (gpk_index i = 0; i < len;) {\n"
                  "      const gpk_ia k = c[i];\n"
                  "      gpk_acc sum = sp_in_a(v[i++]);\n"
                  "      for (; i < len && c[i] == k; ++i) sum = sp_add(sum, sp_in_a(v[i]));\n"
                  "      if (sp_nonzero(sum)) { c[out] = k; v[out] = sp_out(sum); ++out; }\n"
                  "    }\n    p.n[r] = out;\n  }\n}\n",
                  name);
}

/* PACK: row r's n[r] - n[r-1] pruned elements (at ptr[r]) to the result. */
static void put_pack(gp_str_t *s, const sp_spec_t *sp, const char *name)
{
    gp_str_printf(s,
                  "typedef %s gpk_io;\n"
                  "struct gpk_params {\n  gpk_index rows;\n  const gpk_ia *ptr;\n"
                  "  const gpk_ia *ind;\n  const gpk_ty *val;\n  const long long *n;\n"
                  "  gpk_io *optr;\n  gpk_io *oind;\n  gpk_ty *odata;\n};\n"
                  "GPK_KERNEL(%s, struct gpk_params)\n{\n"
                  "  GPK_GRID_LOOP(gpk_index, r, p.rows) {\n"
                  "    const gpk_index src = (gpk_index)p.ptr[r], dst = r ? p.n[r - 1] : 0;\n"
                  "    for (gpk_index i = 0; i < p.n[r] - dst; ++i) {\n"
                  "      p.oind[dst + i] = (gpk_io)p.ind[src + i];\n"
                  "      p.odata[dst + i] = p.val[src + i];\n    }\n"
                  "    p.optr[r + 1] = (gpk_io)p.n[r];\n"
                  "    if (r == 0) p.optr[0] = 0;\n  }\n}\n",
                  idx_type(sp->out_idx), name);
}

static gp_status_t gen_sparse(const void *spec, char *name, size_t name_size, gp_str_t *s)
{
    const sp_spec_t *sp = spec;
    snprintf(name, name_size, "gpk_csr_%s_i%d%d_%s_%s_%s_l%d_o%d", stage_names[sp->stage],
             sp->a_idx * 8, sp->b_idx * 8, gp_dtypes[sp->a_dt].name, gp_dtypes[sp->b_dt].name,
             gp_dtypes[sp->y_dt].name, sp->lanes, sp->out_idx * 8);
    gp_str_printf(s, "/* CSR products: %s */\ntypedef %s gpk_ia;\ntypedef %s gpk_ib;\n",
                  stage_names[sp->stage], idx_type(sp->a_idx), idx_type(sp->b_idx));
    put_arith(s, sp);
    put_range(s);
    switch (sp->stage) {
    case SP_MV:
    case SP_MM: put_mv(s, sp, name); break;
    case SP_FLOPS: put_flops(s, name); break;
    case SP_EXPAND: put_expand(s, name); break;
    case SP_CHECK: put_check(s, name); break;
    case SP_PRUNE: put_prune(s, name); break;
    case SP_PACK: put_pack(s, sp, name); break;
    default: put_copy(s, sp, name); break;
    }
    return GP_OK;
}

static gp_status_t run(const sp_spec_t *sp, int64_t items, uint32_t block, gp_params_t *p)
{
    if (items == 0)
        return GP_OK;
    const gp_kernel_t *k;
    GP_TRY(gp_kernel_get(sp, sizeof *sp, gen_sparse, sp, &k));
    gp_launch_t cfg = gp_grid_for(items, block);
    GP_TRY(gp_launch(k, &cfg, p));
    return gp_errrec_launched();
}

/* ---- arguments ---------------------------------------------------------------- */

/* A CSR matrix's arrays, each C-contiguous (a copy when given otherwise). */
typedef struct {
    int64_t rows, cols, nnz;
    int32_t idx_dt;
    gp_array_t *ptr, *ind, *data;
} csr_t;

static void csr_release(csr_t *m)
{
    gp_array_release(m->ptr);
    gp_array_release(m->ind);
    gp_array_release(m->data);
}

/* `a` itself (a new reference) when C-contiguous, else a contiguous copy. */
static gp_status_t contiguous(const gp_array_t *a, gp_array_t **out)
{
    if (a->flags & GP_FLAG_C_CONTIGUOUS) {
        *out = (gp_array_t *)a;
        return gp_array_retain(*out);
    }
    return gp_copy_new(a, a->dtype, GP_ORDER_C, out);
}

static gp_status_t csr_get(const char *fn, const char *which, int64_t rows, int64_t cols,
                           const gp_array_t *ptr, const gp_array_t *ind, const gp_array_t *data,
                           csr_t *m)
{
    memset(m, 0, sizeof *m);
    if (!ptr || !ind || !data)
        return gp_set_error(GP_ERR_MISUSE, "%s: %s's arrays may not be NULL", fn, which);
    GP_CHECK_ARRAY(ptr);
    GP_CHECK_ARRAY(ind);
    GP_CHECK_ARRAY(data);
    if (rows < 0 || cols < 0)
        return gp_set_error(GP_ERR_VALUE, "%s: %s's shape (%lld, %lld) is negative", fn, which,
                            (long long)rows, (long long)cols);
    if (ptr->ndim != 1 || ind->ndim != 1 || data->ndim != 1)
        return gp_set_error(GP_ERR_VALUE, "%s: %s's indptr, indices and data must be 1-d", fn,
                            which);
    if (ptr->dtype != ind->dtype || (ptr->dtype != GP_INT32 && ptr->dtype != GP_INT64))
        return gp_set_error(GP_ERR_TYPE, "%s: %s's indptr and indices must be both int32 or "
                                         "both int64, not %s and %s", fn, which,
                            gp_dtypes[ptr->dtype].name, gp_dtypes[ind->dtype].name);
    if (!sp_dtype(data->dtype))
        return gp_set_error(GP_ERR_TYPE, "%s: %s's data has no products for dtype %s", fn,
                            which, gp_dtypes[data->dtype].name);
    if (ptr->size != rows + 1)
        return gp_set_error(GP_ERR_VALUE, "%s: %s's indptr has %lld entries, not rows + 1 = %lld",
                            fn, which, (long long)ptr->size, (long long)rows + 1);
    if (ind->size != data->size)
        return gp_set_error(GP_ERR_VALUE, "%s: %s's indices and data differ in length (%lld and "
                                          "%lld)", fn, which, (long long)ind->size,
                            (long long)data->size);
    m->rows = rows, m->cols = cols, m->nnz = ind->size, m->idx_dt = ptr->dtype;
    gp_status_t st = contiguous(ptr, &m->ptr);
    if (st == GP_OK)
        st = contiguous(ind, &m->ind);
    if (st == GP_OK)
        st = contiguous(data, &m->data);
    if (st != GP_OK)
        csr_release(m);
    return st;
}

static gp_status_t result_type(int32_t a, int32_t b, int32_t *out)
{
    int32_t dts[2] = {a, b};
    return gp_dtype_result_type(2, dts, NULL, out);
}

/* n * size rounded up to 16 bytes; false past INT64_MAX */
static bool span16(int64_t n, int64_t size, int64_t *out)
{
    return !__builtin_mul_overflow(n, size, out) && !__builtin_add_overflow(*out, 15, out) &&
           ((*out &= ~(int64_t)15), true);
}

/* ---- SpMV and SpMM --------------------------------------------------------------- */

/* Threads a row for the GPU's vector kernel: about the row's mean length,
 * a power of two up to a warp (cuSPARSE's and CuPy's rule of thumb). The
 * host picks as a GPU of 32-wide warps would, though it sums each row in
 * one thread: so its kernels, which CI compiles with NVRTC and hiprtc too,
 * are the GPU's. */
static int mv_lanes(const gp_backend_i *be, int64_t rows, int64_t nnz)
{
    const gp_device_props_t *props;
    int warp = be->dl_device_type == GP_DL_CPU || gp_backend_props(&props) != GP_OK
                   ? 32 : props->warp_size;
    int64_t mean = rows ? nnz / rows : 0;
    int lanes = 2;
    while (lanes < 32 && lanes < warp && lanes < mean)
        lanes *= 2;
    return lanes;
}

/* The vendor library's SpMM (k columns) or SpMV (k = 0) for float and
 * complex data, after a pass that checks the indices as the engine's
 * kernels do: the library trusts them. `done` false: the kernels' turn. */
static gp_status_t vendor_mm(const gp_backend_i *be, const csr_t *m, const gp_array_t *x,
                             int64_t k, gp_array_t *y, bool *done);

GP_API gp_status_t gp_csr_matmul(int64_t rows, int64_t cols, const gp_array_t *indptr,
                                 const gp_array_t *indices, const gp_array_t *data,
                                 const gp_array_t *x, gp_array_t **out)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return gp_csr_matmul_on(be, rows, cols, indptr, indices, data, x, out);
}

gp_status_t gp_csr_matmul_on(const gp_backend_i *be, int64_t rows, int64_t cols,
                             const gp_array_t *indptr, const gp_array_t *indices,
                             const gp_array_t *data, const gp_array_t *x, gp_array_t **out)
{
    static const char fn[] = "gp_csr_matmul";
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "%s: out is NULL", fn);
    *out = NULL;
    if (!x)
        return gp_set_error(GP_ERR_MISUSE, "%s: x is NULL", fn);
    GP_CHECK_ARRAY(x);
    csr_t m;
    GP_TRY(csr_get(fn, "the matrix", rows, cols, indptr, indices, data, &m));
    gp_status_t st = GP_OK;
    gp_array_t *xc = NULL, *y = NULL;
    int32_t ydt = -1;
    if (x->ndim != 1 && x->ndim != 2)
        st = gp_set_error(GP_ERR_VALUE, "%s: x must be 1-d or 2-d, not %d-d", fn, x->ndim);
    else if (x->shape[0] != cols)
        st = gp_set_error(GP_ERR_VALUE, "%s: dimension mismatch: the matrix has %lld columns, "
                                        "x %lld rows", fn, (long long)cols,
                          (long long)x->shape[0]);
    else if (!sp_dtype(x->dtype))
        st = gp_set_error(GP_ERR_TYPE, "%s: no products for x of dtype %s", fn,
                          gp_dtypes[x->dtype].name);
    if (st == GP_OK)
        st = result_type(m.data->dtype, x->dtype, &ydt);
    int64_t k = x->ndim == 2 ? x->shape[1] : 1;
    int64_t shape[2] = {rows, k};
    if (st == GP_OK)
        st = contiguous(x, &xc);
    if (st == GP_OK)
        st = gp_array_empty(ydt, x->ndim, shape, GP_ORDER_C, &y);
    bool done = false;
    /* SpMM, and SpMV where tuned so, by the library; an empty operand may
     * have no memory at all, and more stored elements than the matrix has
     * (repeats) are invalid to it: both stay with the kernels */
    bool library = be->csr_mm && rows && cols && k && m.nnz && (m.nnz - 1) / cols < rows &&
                   (x->ndim == 2 || gp_tuning()->spmv_vendor);
    if (st == GP_OK && library)
        st = vendor_mm(be, &m, xc, x->ndim == 2 ? k : 0, y, &done);
    if (st == GP_OK && !done) {
        void *rec;
        st = gp_errrec_get(&rec);
        sp_spec_t sp = {GP_FAMILY_SPARSE, x->ndim == 1 ? SP_MV : SP_MM,
                        (uint8_t)gp_dtype_size(m.idx_dt), 4, 0, (uint8_t)m.data->dtype,
                        (uint8_t)x->dtype, (uint8_t)ydt, 1, {0}};
        int64_t items = rows * k;
        uint32_t block = 256;
        if (sp.stage == SP_MV) {
            sp.lanes = (uint8_t)mv_lanes(be, rows, m.nnz);
            items = rows * sp.lanes;
        }
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, rows);
        gp_params_index(&p, cols);
        gp_params_index(&p, m.nnz);
        gp_params_index(&p, k);
        gp_params_ptr(&p, rec);
        gp_params_ptr(&p, gp_array_data(m.ptr));
        gp_params_ptr(&p, gp_array_data(m.ind));
        gp_params_ptr(&p, gp_array_data(m.data));
        gp_params_ptr(&p, gp_array_data(xc));
        gp_params_ptr(&p, gp_array_data(y));
        if (st == GP_OK)
            st = run(&sp, items, block, &p);
    }
    csr_release(&m);
    gp_array_release(xc);
    if (st != GP_OK) {
        gp_array_release(y);
        return st;
    }
    *out = y;
    return GP_OK;
}

/* ---- the vendor library's SpMM ------------------------------------------------ */

/* Device memory for the library, from the engine's pool: kept in `keep` and
 * released (ordered on the stream) after the call. */
typedef struct {
    gp_array_t *keep[6];
    int n;
} sp_alloc_t;

static gp_status_t sp_alloc(void *ctx, size_t bytes, void **ptr)
{
    sp_alloc_t *a = ctx;
    if (a->n == (int)(sizeof a->keep / sizeof *a->keep))
        return gp_set_error(GP_ERR_MISUSE, "sparse library: too many workspaces");
    int64_t n = bytes ? (int64_t)bytes : 1;
    GP_TRY(gp_array_empty(GP_UINT8, 1, &n, GP_ORDER_C, &a->keep[a->n]));
    *ptr = gp_array_data(a->keep[a->n++]);
    return GP_OK;
}

/* The check pass before the library: the CSR_MV kernel with no output
 * would read x too, so a FLOPS pass over (A, A's column count as B's rows,
 * an indptr of zeros) checks A's rows and columns alone. */
static gp_status_t check_csr(const csr_t *m)
{
    void *rec;
    GP_TRY(gp_errrec_get(&rec));
    int64_t n = m->cols + 1, f_n = m->rows;
    gp_array_t *zeros = NULL, *f = NULL;
    gp_status_t st = gp_array_zeros(m->idx_dt, 1, &n, GP_ORDER_C, &zeros);
    if (st == GP_OK)
        st = gp_array_empty(GP_INT64, 1, &f_n, GP_ORDER_C, &f);
    if (st == GP_OK) {
        uint8_t ib = (uint8_t)gp_dtype_size(m->idx_dt);
        sp_spec_t sp = {GP_FAMILY_SPARSE, SP_FLOPS, ib, ib, 0, GP_BOOL, GP_BOOL, GP_BOOL, 1, {0}};
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, m->rows);
        gp_params_index(&p, m->nnz);
        gp_params_index(&p, m->cols);
        gp_params_index(&p, 0);
        gp_params_ptr(&p, rec);
        gp_params_ptr(&p, gp_array_data(m->ptr));
        gp_params_ptr(&p, gp_array_data(m->ind));
        gp_params_ptr(&p, gp_array_data(zeros));
        gp_params_ptr(&p, gp_array_data(f));
        st = run(&sp, m->rows, 256, &p);
    }
    gp_array_release(zeros);
    gp_array_release(f);
    return st;
}

static gp_status_t vendor_mm(const gp_backend_i *be, const csr_t *m, const gp_array_t *x,
                             int64_t k, gp_array_t *y, bool *done)
{
    int32_t dt = y->dtype;
    *done = false;
    if (dt != GP_FLOAT32 && dt != GP_FLOAT64 && dt != GP_COMPLEX64 && dt != GP_COMPLEX128)
        return GP_OK;
    /* the library computes in one dtype: the operands are brought to it */
    gp_array_t *a = NULL, *xd = NULL;
    gp_status_t st = m->data->dtype == dt ? gp_array_retain(a = m->data)
                                          : gp_copy_new(m->data, dt, GP_ORDER_C, &a);
    if (st == GP_OK)
        st = x->dtype == dt ? gp_array_retain(xd = (gp_array_t *)x)
                            : gp_copy_new(x, dt, GP_ORDER_C, &xd);
    if (st == GP_OK)
        st = check_csr(m);
    sp_alloc_t mem = {{NULL}, 0};
    if (st == GP_OK) {
        gp_csr_mm_t c = {dt, m->idx_dt, m->rows, m->cols, m->nnz, gp_array_data(m->ptr),
                         gp_array_data(m->ind), gp_array_data(a), k, gp_array_data(xd),
                         gp_array_data(y)};
        st = be->csr_mm(&c, sp_alloc, &mem, gp_current_stream());
        if (st == GP_ERR_UNSUPPORTED) { /* sizes past the library's: the kernels */
            gp_clear_error();
            st = GP_OK;
        } else if (st == GP_OK) {
            *done = true;
        }
    }
    for (int i = 0; i < mem.n; ++i)
        gp_array_release(mem.keep[i]);
    gp_array_release(a);
    gp_array_release(xd);
    return st;
}

/* ---- SpGEMM ------------------------------------------------------------------- */

/* The last entry of a 1-d int64 array of n entries (0 when empty); waits
 * for the device, then for the error record of the launches before it. */
static gp_status_t last_of(const gp_backend_i *be, const gp_array_t *a, int64_t n, int64_t *v)
{
    *v = 0;
    if (n == 0)
        return GP_OK;
    void *stream = gp_current_stream();
    GP_TRY(be->memcpy_dtoh(v, gp_array_data(a) + (n - 1) * 8, 8, stream));
    GP_TRY(be->stream_synchronize(stream));
    return gp_errrec_check(stream, false);
}

static gp_status_t cumsum(const gp_array_t *a, gp_array_t **out)
{
    static int32_t add = -1;
    if (add < 0)
        add = gp_ufunc_id("add");
    return gp_ufunc_accumulate(add, a, 0, GP_INT64, out);
}

GP_API gp_status_t gp_csr_spgemm(int64_t a_rows, int64_t a_cols, const gp_array_t *a_indptr,
                                 const gp_array_t *a_indices, const gp_array_t *a_data,
                                 int64_t b_rows, int64_t b_cols, const gp_array_t *b_indptr,
                                 const gp_array_t *b_indices, const gp_array_t *b_data,
                                 gp_array_t **indptr, gp_array_t **indices, gp_array_t **data)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return gp_csr_spgemm_on(be, a_rows, a_cols, a_indptr, a_indices, a_data, b_rows, b_cols,
                            b_indptr, b_indices, b_data, indptr, indices, data);
}

static gp_status_t kernel_spgemm(const gp_backend_i *be, const csr_t *pa, const csr_t *pb,
                                 int32_t ydt, gp_array_t **indptr, gp_array_t **indices,
                                 gp_array_t **data);
static gp_status_t vendor_spgemm(const gp_backend_i *be, const csr_t *a, const csr_t *b,
                                 int32_t ydt, gp_array_t **indptr, gp_array_t **indices,
                                 gp_array_t **data, bool *done);

gp_status_t gp_csr_spgemm_on(const gp_backend_i *be, int64_t a_rows, int64_t a_cols,
                             const gp_array_t *a_indptr, const gp_array_t *a_indices,
                             const gp_array_t *a_data, int64_t b_rows, int64_t b_cols,
                             const gp_array_t *b_indptr, const gp_array_t *b_indices,
                             const gp_array_t *b_data, gp_array_t **indptr,
                             gp_array_t **indices, gp_array_t **data)
{
    static const char fn[] = "gp_csr_spgemm";
    if (!indptr || !indices || !data)
        return gp_set_error(GP_ERR_MISUSE, "%s: an output pointer is NULL", fn);
    *indptr = *indices = *data = NULL;
    csr_t a, b;
    GP_TRY(csr_get(fn, "A", a_rows, a_cols, a_indptr, a_indices, a_data, &a));
    gp_status_t st = csr_get(fn, "B", b_rows, b_cols, b_indptr, b_indices, b_data, &b);
    if (st != GP_OK) {
        csr_release(&a);
        return st;
    }
    int32_t ydt = -1;
    if (a_cols != b_rows)
        st = gp_set_error(GP_ERR_VALUE, "%s: dimension mismatch: A is %lld x %lld, B %lld x "
                                        "%lld", fn, (long long)a_rows, (long long)a_cols,
                          (long long)b_rows, (long long)b_cols);
    if (st == GP_OK)
        st = result_type(a.data->dtype, b.data->dtype, &ydt);
    bool done = false;
    if (st == GP_OK && be->csr_spgemm)
        st = vendor_spgemm(be, &a, &b, ydt, indptr, indices, data, &done);
    if (st == GP_OK && !done)
        st = kernel_spgemm(be, &a, &b, ydt, indptr, indices, data);
    csr_release(&a);
    csr_release(&b);
    return st;
}

/* The engine's three kernels (the file's header). */
static gp_status_t kernel_spgemm(const gp_backend_i *be, const csr_t *pa, const csr_t *pb,
                                 int32_t ydt, gp_array_t **indptr, gp_array_t **indices,
                                 gp_array_t **data)
{
    static const char fn[] = "gp_csr_spgemm";
    const csr_t a = *pa, b = *pb;
    int64_t a_rows = a.rows, b_cols = b.cols;
    gp_status_t st = GP_OK;
    void *rec = NULL;
    if (st == GP_OK)
        st = gp_errrec_get(&rec);
    uint8_t ai = (uint8_t)gp_dtype_size(a.idx_dt), bi = (uint8_t)gp_dtype_size(b.idx_dt);
    sp_spec_t sp = {GP_FAMILY_SPARSE, SP_FLOPS, ai, bi, 0, (uint8_t)a.data->dtype,
                    (uint8_t)b.data->dtype, (uint8_t)ydt, 1, {0}};
    gp_array_t *f = NULL, *fs = NULL, *buf = NULL, *n = NULL, *ns = NULL;
    gp_array_t *optr = NULL, *oind = NULL, *odata = NULL;
    int64_t rows = a_rows, total = 0, nnz = 0;
    /* 1. products a row, and their running sum */
    if (st == GP_OK)
        st = gp_array_empty(GP_INT64, 1, &rows, GP_ORDER_C, &f);
    if (st == GP_OK) {
        sp.stage = SP_FLOPS;
        sp.a_dt = sp.b_dt = sp.y_dt = GP_BOOL; /* FLOPS reads no data */
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, rows);
        gp_params_index(&p, a.nnz);
        gp_params_index(&p, b.rows);
        gp_params_index(&p, b.nnz);
        gp_params_ptr(&p, rec);
        gp_params_ptr(&p, gp_array_data(a.ptr));
        gp_params_ptr(&p, gp_array_data(a.ind));
        gp_params_ptr(&p, gp_array_data(b.ptr));
        gp_params_ptr(&p, gp_array_data(f));
        st = run(&sp, rows, 128, &p);
    }
    if (st == GP_OK)
        st = cumsum(f, &fs);
    if (st == GP_OK)
        st = last_of(be, fs, rows, &total);
    /* 2. the products, sorted and summed per row */
    /* the buffer: columns, values, then the sort's scratch of both */
    int64_t cspan = 0, vspan = 0, bytes = 0;
    if (st == GP_OK && (!span16(total, 8, &cspan) || !span16(total, gp_dtype_size(ydt), &vspan) ||
                        __builtin_add_overflow(cspan, vspan, &bytes) ||
                        __builtin_mul_overflow(bytes, 2, &bytes)))
        st = gp_set_error(GP_ERR_NOMEM_DEVICE, "%s: the %lld products do not fit memory", fn,
                          (long long)total);
    int64_t col_off = 0, val_off = cspan, col2_off = cspan + vspan, val2_off = 2 * cspan + vspan;
    if (st == GP_OK)
        st = gp_array_empty(GP_UINT8, 1, &bytes, GP_ORDER_C, &buf);
    if (st == GP_OK)
        st = gp_array_empty(GP_INT64, 1, &rows, GP_ORDER_C, &n);
    char *base = buf ? gp_array_data(buf) : NULL;
    if (st == GP_OK) {
        sp.stage = SP_EXPAND;
        sp.a_dt = (uint8_t)a.data->dtype, sp.b_dt = (uint8_t)b.data->dtype,
        sp.y_dt = (uint8_t)ydt;
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, rows);
        gp_params_index(&p, a.nnz);
        gp_params_index(&p, b.rows);
        gp_params_index(&p, b.cols);
        gp_params_index(&p, b.nnz);
        gp_params_ptr(&p, rec);
        gp_params_ptr(&p, gp_array_data(a.ptr));
        gp_params_ptr(&p, gp_array_data(a.ind));
        gp_params_ptr(&p, gp_array_data(a.data));
        gp_params_ptr(&p, gp_array_data(b.ptr));
        gp_params_ptr(&p, gp_array_data(b.ind));
        gp_params_ptr(&p, gp_array_data(b.data));
        gp_params_ptr(&p, gp_array_data(fs));
        gp_params_ptr(&p, base + col_off);
        gp_params_ptr(&p, base + val_off);
        gp_params_ptr(&p, base + col2_off);
        gp_params_ptr(&p, base + val2_off);
        gp_params_ptr(&p, gp_array_data(n));
        st = run(&sp, rows, 64, &p);
    }
    if (st == GP_OK)
        st = cumsum(n, &ns);
    if (st == GP_OK)
        st = last_of(be, ns, rows, &nnz);
    /* 3. the result */
    int32_t odt = nnz <= INT32_MAX && a_rows <= INT32_MAX && b_cols <= INT32_MAX ? GP_INT32
                                                                                   : GP_INT64;
    int64_t rows1 = rows + 1;
    if (st == GP_OK)
        st = gp_array_zeros(odt, 1, &rows1, GP_ORDER_C, &optr);
    if (st == GP_OK)
        st = gp_array_empty(odt, 1, &nnz, GP_ORDER_C, &oind);
    if (st == GP_OK)
        st = gp_array_empty(ydt, 1, &nnz, GP_ORDER_C, &odata);
    if (st == GP_OK) {
        sp.stage = SP_COPY;
        sp.out_idx = (uint8_t)gp_dtype_size(odt);
        /* COPY reads only the result's dtype: one kernel for every operand pair */
        sp.a_idx = sp.b_idx = 8, sp.a_dt = sp.b_dt = (uint8_t)ydt;
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, rows);
        gp_params_ptr(&p, gp_array_data(fs));
        gp_params_ptr(&p, gp_array_data(ns));
        gp_params_ptr(&p, base + col_off);
        gp_params_ptr(&p, base + val_off);
        gp_params_ptr(&p, gp_array_data(optr));
        gp_params_ptr(&p, gp_array_data(oind));
        gp_params_ptr(&p, gp_array_data(odata));
        st = run(&sp, rows, 128, &p);
    }
    gp_array_release(f);
    gp_array_release(fs);
    gp_array_release(buf);
    gp_array_release(n);
    gp_array_release(ns);
    if (st != GP_OK) {
        gp_array_release(optr);
        gp_array_release(oind);
        gp_array_release(odata);
        return st;
    }
    *indptr = optr, *indices = oind, *data = odata;
    return GP_OK;
}

/* ---- the vendor library's SpGEMM ------------------------------------------------ */

/* The number of m's elements that do not follow a smaller column in their
 * row (0: canonical); waits for the device, so a bad index or indptr is
 * an error here, before the library reads it. */
static gp_status_t misordered(const gp_backend_i *be, const csr_t *m, int64_t *bad)
{
    void *rec;
    GP_TRY(gp_errrec_get(&rec));
    int64_t rows = m->rows;
    gp_array_t *f = NULL, *fs = NULL;
    gp_status_t st = gp_array_empty(GP_INT64, 1, &rows, GP_ORDER_C, &f);
    if (st == GP_OK) {
        uint8_t ib = (uint8_t)gp_dtype_size(m->idx_dt);
        sp_spec_t sp = {GP_FAMILY_SPARSE, SP_CHECK, ib, ib, 0, GP_BOOL, GP_BOOL, GP_BOOL, 1, {0}};
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, rows);
        gp_params_index(&p, m->nnz);
        gp_params_index(&p, m->cols);
        gp_params_ptr(&p, rec);
        gp_params_ptr(&p, gp_array_data(m->ptr));
        gp_params_ptr(&p, gp_array_data(m->ind));
        gp_params_ptr(&p, gp_array_data(f));
        st = run(&sp, rows, 128, &p);
    }
    if (st == GP_OK)
        st = cumsum(f, &fs);
    if (st == GP_OK)
        st = last_of(be, fs, rows, bad);
    gp_array_release(f);
    gp_array_release(fs);
    return st;
}

/* `x` as dtype `dt` (itself, a new reference, when it is). */
static gp_status_t as_dtype(gp_array_t *x, int32_t dt, gp_array_t **out)
{
    if (x->dtype == dt) {
        *out = x;
        return gp_array_retain(x);
    }
    return gp_copy_new(x, dt, GP_ORDER_C, out);
}

/* The library's C (`c`, its indptr `cptr`) made canonical as the kernels'
 * result is: PRUNE in place, a scan of the rows' survivors, PACK into new
 * arrays with int32 indices where they fit. */
static gp_status_t canonical(const gp_backend_i *be, const gp_csr_spgemm_t *c,
                             const gp_array_t *cptr, gp_array_t **indptr, gp_array_t **indices,
                             gp_array_t **data)
{
    int64_t rows = c->rows, rows1 = rows + 1, nnz = 0;
    uint8_t ib = (uint8_t)gp_dtype_size(c->idx_dtype), yd = (uint8_t)c->dtype;
    sp_spec_t sp = {GP_FAMILY_SPARSE, SP_PRUNE, ib, ib, 0, yd, yd, yd, 1, {0}};
    gp_array_t *n = NULL, *ns = NULL, *optr = NULL, *oind = NULL, *odata = NULL;
    gp_status_t st = gp_array_empty(GP_INT64, 1, &rows, GP_ORDER_C, &n);
    if (st == GP_OK) {
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, rows);
        gp_params_ptr(&p, gp_array_data(cptr));
        gp_params_ptr(&p, c->c_indices);
        gp_params_ptr(&p, c->c_data);
        gp_params_ptr(&p, gp_array_data(n));
        st = run(&sp, rows, 64, &p);
    }
    if (st == GP_OK)
        st = cumsum(n, &ns);
    if (st == GP_OK)
        st = last_of(be, ns, rows, &nnz);
    int32_t odt = nnz <= INT32_MAX && rows <= INT32_MAX && c->cols <= INT32_MAX ? GP_INT32
                                                                                 : GP_INT64;
    if (st == GP_OK)
        st = gp_array_zeros(odt, 1, &rows1, GP_ORDER_C, &optr);
    if (st == GP_OK)
        st = gp_array_empty(odt, 1, &nnz, GP_ORDER_C, &oind);
    if (st == GP_OK)
        st = gp_array_empty(c->dtype, 1, &nnz, GP_ORDER_C, &odata);
    if (st == GP_OK) {
        sp.stage = SP_PACK;
        sp.out_idx = (uint8_t)gp_dtype_size(odt);
        gp_params_t p;
        gp_params_init(&p);
        gp_params_index(&p, rows);
        gp_params_ptr(&p, gp_array_data(cptr));
        gp_params_ptr(&p, c->c_indices);
        gp_params_ptr(&p, c->c_data);
        gp_params_ptr(&p, gp_array_data(ns));
        gp_params_ptr(&p, gp_array_data(optr));
        gp_params_ptr(&p, gp_array_data(oind));
        gp_params_ptr(&p, gp_array_data(odata));
        st = run(&sp, rows, 128, &p);
    }
    gp_array_release(n);
    gp_array_release(ns);
    if (st != GP_OK) {
        gp_array_release(optr);
        gp_array_release(oind);
        gp_array_release(odata);
        return st;
    }
    *indptr = optr, *indices = oind, *data = odata;
    return GP_OK;
}

/* SpGEMM by the library for float and complex results of canonical
 * operands (it wants sorted, distinct indices); `done` false: the kernels'
 * turn (other dtypes, an operand with nothing stored or not canonical, or
 * the library declining). Operands are brought to the result's dtype and
 * to one index dtype (int64 if they differ). */
static gp_status_t vendor_spgemm(const gp_backend_i *be, const csr_t *a, const csr_t *b,
                                 int32_t ydt, gp_array_t **indptr, gp_array_t **indices,
                                 gp_array_t **data, bool *done)
{
    *done = false;
    if (ydt != GP_FLOAT32 && ydt != GP_FLOAT64 && ydt != GP_COMPLEX64 && ydt != GP_COMPLEX128)
        return GP_OK;
    /* an empty operand may have no memory at all; more stored elements
     * than a matrix holds are repeats, which the library refuses to describe */
    if (!a->rows || !a->cols || !b->cols || !a->nnz || !b->nnz ||
        (a->nnz - 1) / a->cols >= a->rows || (b->nnz - 1) / b->cols >= b->rows)
        return GP_OK;
    int64_t bad = 0;
    GP_TRY(misordered(be, a, &bad));
    if (bad == 0)
        GP_TRY(misordered(be, b, &bad));
    if (bad)
        return GP_OK;
    int32_t it = a->idx_dt == b->idx_dt ? a->idx_dt : GP_INT64;
    gp_array_t *ops[6] = {NULL}, *cptr = NULL;
    gp_array_t *const src[6] = {a->ptr, a->ind, a->data, b->ptr, b->ind, b->data};
    gp_status_t st = GP_OK;
    for (int i = 0; i < 6 && st == GP_OK; ++i)
        st = as_dtype(src[i], i % 3 == 2 ? ydt : it, &ops[i]);
    int64_t rows1 = a->rows + 1;
    if (st == GP_OK)
        st = gp_array_zeros(it, 1, &rows1, GP_ORDER_C, &cptr);
    sp_alloc_t mem = {{NULL}, 0};
    if (st == GP_OK) {
        gp_csr_spgemm_t c = {ydt, it, a->rows, a->cols, b->cols, a->nnz, b->nnz,
                             gp_array_data(ops[0]), gp_array_data(ops[1]), gp_array_data(ops[2]),
                             gp_array_data(ops[3]), gp_array_data(ops[4]), gp_array_data(ops[5]),
                             gp_array_data(cptr), 0, NULL, NULL};
        st = be->csr_spgemm(&c, sp_alloc, &mem, gp_current_stream());
        if (st == GP_ERR_UNSUPPORTED) { /* past the library's sizes or memory: the kernels */
            gp_clear_error();
            st = GP_OK;
        } else if (st == GP_OK) {
            st = canonical(be, &c, cptr, indptr, indices, data);
            *done = st == GP_OK;
        }
    }
    for (int i = 0; i < mem.n; ++i)
        gp_array_release(mem.keep[i]);
    for (int i = 0; i < 6; ++i)
        gp_array_release(ops[i]);
    gp_array_release(cptr);
    return st;
}

/* ---- the sparse direct solve --------------------------------------------------- */

GP_API gp_status_t gp_csr_solve(int64_t n, const gp_array_t *indptr, const gp_array_t *indices,
                                const gp_array_t *data, const gp_array_t *b, gp_array_t **x,
                                int64_t *singular)
{
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return gp_csr_solve_on(be, n, indptr, indices, data, b, x, singular);
}

gp_status_t gp_csr_solve_on(const gp_backend_i *be, int64_t n, const gp_array_t *indptr,
                            const gp_array_t *indices, const gp_array_t *data,
                            const gp_array_t *b, gp_array_t **x, int64_t *singular)
{
    static const char fn[] = "gp_csr_solve";
    if (!x || !singular)
        return gp_set_error(GP_ERR_MISUSE, "%s: x or singular is NULL", fn);
    *x = NULL;
    *singular = -1;
    if (!b)
        return gp_set_error(GP_ERR_MISUSE, "%s: b is NULL", fn);
    GP_CHECK_ARRAY(b);
    csr_t m;
    GP_TRY(csr_get(fn, "A", n, n, indptr, indices, data, &m));
    int32_t dt = m.data->dtype;
    gp_status_t st = GP_OK;
    if (dt != GP_FLOAT32 && dt != GP_FLOAT64 && dt != GP_COMPLEX64 && dt != GP_COMPLEX128)
        st = gp_set_error(GP_ERR_TYPE, "%s: no solve for dtype %s", fn, gp_dtypes[dt].name);
    else if (b->dtype != dt)
        st = gp_set_error(GP_ERR_TYPE, "%s: b's dtype %s is not A's %s", fn,
                          gp_dtypes[b->dtype].name, gp_dtypes[dt].name);
    else if ((b->ndim != 1 && b->ndim != 2) || b->shape[b->ndim - 1] != n)
        st = gp_set_error(GP_ERR_VALUE, "%s: b must be of shape (%lld,) or (k, %lld)", fn,
                          (long long)n, (long long)n);
    else if (!be->csr_solve)
        st = gp_set_error(GP_ERR_UNSUPPORTED, "%s: the backend has no sparse direct solver",
                          fn);
    int64_t k = b->ndim == 2 ? b->shape[0] : 1, bad = 0;
    gp_array_t *ptr32 = NULL, *ind32 = NULL, *bc = NULL, *out = NULL;
    if (st == GP_OK)
        st = gp_array_zeros(dt, b->ndim, b->shape, GP_ORDER_C, &out);
    /* nothing to solve, or nothing stored (singular at row 0) */
    bool solve = st == GP_OK && n && k;
    if (solve && m.nnz == 0) {
        *singular = 0;
        solve = false;
    }
    if (solve)
        st = misordered(be, &m, &bad);
    if (solve && st == GP_OK && bad)
        st = gp_set_error(GP_ERR_VALUE, "%s: A's rows must have sorted, distinct indices", fn);
    /* the library's indices are int32 */
    if (solve && st == GP_OK && m.idx_dt != GP_INT32) {
        if (n > INT32_MAX || m.nnz > INT32_MAX)
            st = gp_set_error(GP_ERR_UNSUPPORTED, "%s: too many rows or elements for int32 "
                                                  "indices", fn);
        if (st == GP_OK)
            st = gp_copy_new(m.ptr, GP_INT32, GP_ORDER_C, &ptr32);
        if (st == GP_OK)
            st = gp_copy_new(m.ind, GP_INT32, GP_ORDER_C, &ind32);
    }
    if (solve && st == GP_OK)
        st = contiguous(b, &bc);
    size_t row = (size_t)n * (size_t)gp_dtype_size(dt);
    for (int64_t i = 0; solve && st == GP_OK && i < k; ++i) {
        gp_csr_solve_t c = {dt, n, m.nnz, gp_array_data(ptr32 ? ptr32 : m.ptr),
                            gp_array_data(ind32 ? ind32 : m.ind), gp_array_data(m.data),
                            (const char *)gp_array_data(bc) + i * row,
                            (char *)gp_array_data(out) + i * row, -1};
        st = be->csr_solve(&c, gp_current_stream());
        if (st == GP_OK && c.singular >= 0) {
            *singular = c.singular;
            break;
        }
    }
    csr_release(&m);
    gp_array_release(ptr32);
    gp_array_release(ind32);
    gp_array_release(bc);
    if (st != GP_OK) {
        gp_array_release(out);
        *singular = -1;
        return st;
    }
    *x = out;
    return GP_OK;
}
