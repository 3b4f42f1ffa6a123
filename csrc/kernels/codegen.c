/*
 * codegen.c - writes kernel source from the op table and a kernel spec.
 *
 * The text written here is the backend-independent part of a kernel; the
 * cache prepends the backend's prelude and the common prelude. Families:
 * elementwise (n-ary, strided or contiguous, scalars by value), reductions
 * (one output per thread or per block, optionally split in two stages),
 * scans (one line per thread, or a single pass over tiles), matrix
 * products, users' kernels, and random fills (a thread per Philox counter
 * block).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"

#define EXPR_MAX 2048

/* Set when an expression did not fit its buffer; the generator then fails
 * rather than emit a truncated kernel. */
static _Thread_local bool expr_overflow;

/* snprintf into an EXPR_MAX buffer, noting truncation. */
static void put(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, EXPR_MAX, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= EXPR_MAX)
        expr_overflow = true;
}

static gp_status_t check_overflow(const char *name)
{
    if (!expr_overflow)
        return GP_OK;
    expr_overflow = false;
    return gp_set_error(GP_ERR_UNSUPPORTED, "an expression of kernel %s is too long", name);
}

/* ---- types and conversions ------------------------------------------------ */

/* The dtype whose storage type holds computed values of `dt`. */
static int32_t compute_dt(int32_t dt) { return gp_dtypes[dt].compute; }

static const char *ctype(int32_t dt) { return gp_dtypes[compute_dt(dt)].storage; }
static const char *csuffix(int32_t dt) { return gp_dtypes[compute_dt(dt)].suffix; }

/* A 16-bit float (float16, bfloat16): stored in its 16 bits, computed as
 * float32 holding a value rounded to it, converted by the prelude's
 * gpk_<suffix>_to_f32, gpk_f32_to_<suffix> and gpk_f64_to_<suffix>. */
static bool narrow(int32_t dt) { return compute_dt(dt) != dt; }
static const char *sfx(int32_t dt) { return gp_dtypes[dt].suffix; }

int32_t gp_compute_size(int32_t dt) { return gp_dtypes[compute_dt(dt)].itemsize; }
int32_t gp_compute_align(int32_t dt) { return gp_dtypes[compute_dt(dt)].alignment; }

/* Writes into `out` the expression converting `e`, a computed value of
 * dtype `from`, to a computed value of dtype `to`, with the engine's cast
 * semantics (gp_scalar_to_storage mirrors them). */
static void stored_expr(int32_t sd, int32_t vd, const char *e, char *v);

static void cast_expr(int32_t from, int32_t to, const char *e, char *out)
{
    int32_t kf = gp_dtype_kind(from), kt = gp_dtype_kind(to);
    if (narrow(to)) {
        if (from == to) {
            put(out, "%s", e);
        } else {
            char h[EXPR_MAX];
            stored_expr(to, from, e, h);
            put(out, "gpk_%s_to_f32(%s)", sfx(to), h);
        }
        return;
    }
    if (compute_dt(from) == compute_dt(to)) {
        put(out, "%s", e);
    } else if (to == GP_BOOL) {
        if (kf == GP_KIND_COMPLEX)
            put(out, "(gpk_b)gpk_nonzero_%s(%s)", csuffix(from), e);
        else
            put(out, "(gpk_b)((%s) != 0)", e);
    } else if (kt == GP_KIND_COMPLEX) {
        const char *t = to == GP_COMPLEX64 ? "gpk_f32" : "gpk_f64";
        if (kf == GP_KIND_COMPLEX)
            put(out, "gpk_make_%s((%s)(%s).re, (%s)(%s).im)", csuffix(to), t, e, t, e);
        else
            put(out, "gpk_make_%s((%s)(%s), (%s)0)", csuffix(to), t, e, t);
    } else if (kf == GP_KIND_COMPLEX) {
        char re[EXPR_MAX];
        put(re, "(%s).re", e);
        cast_expr(from == GP_COMPLEX64 ? GP_FLOAT32 : GP_FLOAT64, to, re, out);
    } else if ((kt == GP_KIND_INT || kt == GP_KIND_UINT) && kf == GP_KIND_FLOAT) {
        put(out, "gpk_f2%s((gpk_f64)(%s))", csuffix(to), e);
    } else {
        put(out, "(%s)(%s)", ctype(to), e);
    }
}

/* The computed value (of dtype `vd`) of `raw`, an element of storage dtype
 * `sd`. */
static void value_expr(int32_t sd, int32_t vd, const char *raw, char *out)
{
    char v[EXPR_MAX];
    if (narrow(sd))
        put(v, "gpk_%s_to_f32(%s)", sfx(sd), raw);
    else if (sd == GP_BOOL)
        put(v, "(gpk_b)(%s != 0)", raw);
    else
        put(v, "%s", raw);
    cast_expr(sd, vd, v, out);
}

/* The computed value (of dtype `vd`) of the element of storage dtype `sd`
 * at address `addr`. */
static void load_expr(int32_t sd, int32_t vd, const char *addr, char *out)
{
    char raw[EXPR_MAX];
    put(raw, "(*(const %s *)(%s))", gp_dtypes[sd].storage, addr);
    value_expr(sd, vd, raw, out);
}

/* `e`, a computed value of dtype `vd`, as a value of storage dtype `sd`. */
static void stored_expr(int32_t sd, int32_t vd, const char *e, char *v)
{
    if (narrow(sd)) {
        if (vd == GP_FLOAT64)
            put(v, "gpk_f64_to_%s(%s)", sfx(sd), e);
        else if (vd == GP_COMPLEX128)
            put(v, "gpk_f64_to_%s((%s).re)", sfx(sd), e);
        else if (vd == GP_COMPLEX64)
            put(v, "gpk_f32_to_%s((%s).re)", sfx(sd), e);
        else if (narrow(vd) && vd != sd)
            /* the other 16-bit float's loop stores its result first */
            put(v, "gpk_f32_to_%s(gpk_%s_to_f32(gpk_f32_to_%s((gpk_f32)(%s))))", sfx(sd),
                sfx(vd), sfx(vd), e);
        else
            put(v, "gpk_f32_to_%s((gpk_f32)(%s))", sfx(sd), e);
    } else if (narrow(vd)) {
        /* a 16-bit loop's result is rounded (NumPy stores it) before it widens */
        char h[EXPR_MAX];
        put(h, "gpk_%s_to_f32(gpk_f32_to_%s((gpk_f32)(%s)))", sfx(vd), sfx(vd), e);
        cast_expr(vd, sd, h, v);
    } else {
        cast_expr(vd, sd, e, v);
    }
}

/* A statement storing `e`, a computed value of dtype `vd`, into the element
 * of storage dtype `sd` at address `addr`. */
static void emit_store(gp_str_t *s, int32_t sd, int32_t vd, const char *addr, const char *e)
{
    char v[EXPR_MAX];
    stored_expr(sd, vd, e, v);
    gp_str_printf(s, "*(%s *)(%s) = %s;\n", gp_dtypes[sd].storage, addr, v);
}

static const char *op_slot_expr(const gp_op_t *op, int32_t d0, int32_t d1)
{
    int32_t k0 = gp_dtype_kind(d0), k1 = d1 >= 0 ? gp_dtype_kind(d1) : -1;
    int slot = GP_EK_ANY;
    if (k0 == GP_KIND_INT && k1 == GP_KIND_UINT)
        slot = GP_EK_SU;
    else if (k0 == GP_KIND_UINT && k1 == GP_KIND_INT)
        slot = GP_EK_US;
    else if (k0 == GP_KIND_BOOL)
        slot = GP_EK_B;
    else if (k0 == GP_KIND_INT)
        slot = GP_EK_I;
    else if (k0 == GP_KIND_UINT)
        slot = op->expr[GP_EK_U] ? GP_EK_U : GP_EK_I;
    else if (k0 == GP_KIND_FLOAT)
        slot = d0 == GP_FLOAT16 && op->expr[GP_EK_H]   ? GP_EK_H
               : d0 == GP_FLOAT32 && op->expr[GP_EK_S] ? GP_EK_S
                                                       : GP_EK_F;
    else if (k0 == GP_KIND_COMPLEX)
        slot = GP_EK_C;
    return op->expr[slot] ? op->expr[slot] : op->expr[GP_EK_ANY];
}

/* The expression slot of `op` for inputs of loop dtypes d0 (and d1). An
 * expression that follows the running NumPy's (SciPy's) release gets its
 * version defined in `s` (before its use), and only such a kernel: the
 * others' sources, and so their disk cache entries, do not change with it. */
static const char *op_expr(gp_str_t *s, const gp_op_t *op, int32_t d0, int32_t d1)
{
    const char *ex = op_slot_expr(op, d0, d1);
    if (ex && strstr(ex, "GPK_NUMPY_VERSION"))
        gp_str_printf(s, "%s#define GPK_NUMPY_VERSION %d\n",
                      s->len && s->data[s->len - 1] != '\n' ? "\n" : "",
                      (int)gp_numpy_version);
    /* ...and one that follows the running SciPy's (an orthogonal polynomial
     * or a parameter inverse that 1.18 changed), SciPy's */
    if (ex && strstr(ex, "GPK_SCIPY_VERSION"))
        gp_str_printf(s, "%s#define GPK_SCIPY_VERSION %d\n",
                      s->len && s->data[s->len - 1] != '\n' ? "\n" : "",
                      (int)gp_scipy_version);
    return ex;
}

/* An op's name as part of a kernel's (C identifier) name: the rows of
 * SciPy's functions are named "scipy.special.gamma", and a dot is no
 * identifier's. Returns the characters written (n - 1 at most). */
static size_t op_ident(char *out, size_t n, const char *opname)
{
    size_t k = 0;
    for (; n && opname[k] && k + 1 < n; ++k)
        out[k] = opname[k] == '.' ? '_' : opname[k];
    if (n)
        out[k] = '\0';
    return k;
}

static void emit_header(gp_str_t *s, const char *what, int32_t fdt, int idx32)
{
    gp_str_printf(s, "/* %s */\n", what);
    gp_str_printf(s, "#define F(n) gpk_##n##_%s\n", csuffix(fdt));
    gp_str_printf(s, "typedef %s gpk_idx;\n", idx32 ? "int" : "long long");
}

/* Decomposes index `var` over `n` dims of `shape` (innermost last), adding
 * coordinate * stride to each offset of `offs` (with their stride arrays). */
/* The same over the parameter struct `pv` (users' kernels name it gpk_p). */
static void emit_decompose_in(gp_str_t *s, const char *pv, const char *var, int n,
                              const char *shape, int noffs, const char *const *offs,
                              const char *const *strides)
{
    if (n == 0)
        return;
    gp_str_printf(s, "{ gpk_idx r_ = %s, c_;\n", var);
    for (int d = n - 1; d >= 0; --d) {
        if (d > 0)
            gp_str_printf(s, "  c_ = r_ %% (gpk_idx)%s.%s[%d]; r_ /= (gpk_idx)%s.%s[%d];\n", pv,
                          shape, d, pv, shape, d);
        else
            gp_str_puts(s, "  c_ = r_;\n");
        for (int k = 0; k < noffs; ++k)
            gp_str_printf(s, "  %s += c_ * (gpk_idx)%s.%s[%d];\n", offs[k], pv, strides[k], d);
    }
    gp_str_puts(s, "}\n");
}

static void emit_decompose(gp_str_t *s, const char *var, int n, const char *shape, int noffs,
                           const char *const *offs, const char *const *strides)
{
    emit_decompose_in(s, "p", var, n, shape, noffs, offs, strides);
}

/* ---- elementwise -------------------------------------------------------------- */

const gp_op_t *gp_ew_op(const gp_ew_spec_t *spec)
{
    if (spec->internal == 1)
        return &gp_op_copy;
    if (spec->internal == 2)
        return &gp_op_arange;
    return &gp_ufuncs[spec->op];
}

/* The statements computing outputs y0.. from inputs x0.. of an elementwise
 * spec. */
static gp_status_t emit_op(gp_str_t *s, const gp_ew_spec_t *sp, const gp_op_t *op)
{
    int nin = sp->nin, nout = sp->nout;
    for (int k = 0; k < nout; ++k)
        gp_str_printf(s, "%s y%d;\n", ctype(sp->loop[nin + k]), k);
    const char *ex = op_expr(s, op, sp->loop[0], nin > 1 ? sp->loop[1] : -1);
    if (!ex)
        return gp_set_error(GP_ERR_UNSUPPORTED, "ufunc %s has no expression for %s", op->name,
                            gp_dtypes[sp->loop[0]].name);
    if (nout == 1)
        gp_str_printf(s, "y0 = %s;\n", ex);
    else
        gp_str_printf(s, "%s\n", ex);
    return GP_OK;
}

/* One element at index i, through addresses (contiguous or strided). */
static gp_status_t emit_element(gp_str_t *s, const gp_ew_spec_t *sp, const gp_op_t *op,
                                char addr[][64])
{
    int nin = sp->nin, nout = sp->nout;
    char e[EXPR_MAX];
    if (sp->has_where) {
        load_expr(GP_BOOL, GP_BOOL, addr[nin + nout], e);
        gp_str_printf(s, "if (%s) {\n", e);
    }
    for (int k = 0; k < nin; ++k) {
        if (sp->kind[k] == GP_OPND_SCALAR)
            put(e, "p.v%d", k);
        else
            load_expr(sp->dt[k], sp->loop[k], addr[k], e);
        gp_str_printf(s, "const %s x%d = %s;\n", ctype(sp->loop[k]), k, e);
    }
    GP_TRY(emit_op(s, sp, op));
    for (int k = 0; k < nout; ++k) {
        char y[16];
        snprintf(y, sizeof y, "y%d", k);
        emit_store(s, sp->dt[nin + k], sp->loop[nin + k], addr[nin + k], y);
    }
    if (sp->has_where)
        gp_str_puts(s, "}\n");
    return GP_OK;
}

/* The vector path: each thread moves `vec` adjacent elements of every
 * array in one access (16 bytes at most), `unroll` such accesses per
 * iteration (all loads issued before the first use), then the tail
 * element-wise. */
static gp_status_t emit_vector_loop(gp_str_t *s, const gp_ew_spec_t *sp, const gp_op_t *op)
{
    int nin = sp->nin, nout = sp->nout, nop = nin + nout, w = sp->vec;
    int u = sp->unroll > 1 ? sp->unroll : 1;
    for (int k = 0; k < nop; ++k)
        if (sp->kind[k] != GP_OPND_SCALAR)
            gp_str_printf(s, "typedef struct { GPK_ALIGN(%d) %s v[%d]; } gpk_vec%d;\n",
                          w * gp_dtypes[sp->dt[k]].itemsize, gp_dtypes[sp->dt[k]].storage, w, k);
    gp_str_printf(s, "const gpk_idx nv = (gpk_idx)(p.n / %d);\n"
                     "const gpk_idx step = (gpk_idx)GPK_NUM_BLOCKS * (gpk_idx)GPK_BLOCK_SIZE;\n"
                     "for (gpk_idx b0 = (gpk_idx)GPK_BLOCK_ID * (gpk_idx)GPK_BLOCK_SIZE + "
                     "(gpk_idx)GPK_THREAD_ID; b0 < nv; b0 += step * %d) {\n", w, u);
    for (int k = 0; k < nin; ++k)
        if (sp->kind[k] != GP_OPND_SCALAR)
            gp_str_printf(s, "gpk_vec%d r%d[%d];\n", k, k, u);
    gp_str_printf(s, "for (int u = 0; u < %d; ++u) {\nconst gpk_idx iv = b0 + u * step;\n"
                     "if (iv < nv) {\n", u);
    for (int k = 0; k < nin; ++k)
        if (sp->kind[k] != GP_OPND_SCALAR)
            gp_str_printf(s, "r%d[u] = ((const gpk_vec%d *)p.p%d)[iv];\n", k, k, k);
    gp_str_printf(s, "}\n}\nfor (int u = 0; u < %d; ++u) {\nconst gpk_idx iv = b0 + u * step;\n"
                     "if (iv >= nv) break;\n", u);
    for (int k = nin; k < nop; ++k)
        gp_str_printf(s, "gpk_vec%d w%d;\n", k, k);
    gp_str_printf(s, "for (int k = 0; k < %d; ++k) {\nconst gpk_idx i = iv * %d + k;\n(void)i;\n", w,
                  w);
    char e[EXPR_MAX], raw[EXPR_MAX];
    for (int k = 0; k < nin; ++k) {
        if (sp->kind[k] == GP_OPND_SCALAR) {
            put(e, "p.v%d", k);
        } else {
            put(raw, "r%d[u].v[k]", k);
            value_expr(sp->dt[k], sp->loop[k], raw, e);
        }
        gp_str_printf(s, "const %s x%d = %s;\n", ctype(sp->loop[k]), k, e);
    }
    GP_TRY(emit_op(s, sp, op));
    for (int k = 0; k < nout; ++k) {
        char y[16];
        snprintf(y, sizeof y, "y%d", k);
        stored_expr(sp->dt[nin + k], sp->loop[nin + k], y, e);
        gp_str_printf(s, "w%d.v[k] = %s;\n", nin + k, e);
    }
    gp_str_puts(s, "}\n");
    for (int k = nin; k < nop; ++k)
        gp_str_printf(s, "((gpk_vec%d *)p.p%d)[iv] = w%d;\n", k, k, k);
    gp_str_puts(s, "}\n}\n");
    /* the last n % vec elements */
    gp_str_printf(s, "GPK_GRID_LOOP(gpk_idx, t, p.n %% %d) {\nconst gpk_idx i = p.n - p.n %% %d + t;\n",
                  w, w);
    char addr[GP_EW_MAX][64];
    for (int k = 0; k < nop; ++k)
        snprintf(addr[k], sizeof addr[k], "p.p%d + i", k);
    GP_TRY(emit_element(s, sp, op, addr));
    gp_str_puts(s, "}\n");
    return GP_OK;
}

/* The tiled path of a unary op between transposed 2-d layouts: a block
 * reads a 32x32 tile along the input's contiguous dim into shared memory
 * and writes it along the output's, so both are coalesced. The loops over
 * a tile have a constant count (GPK_TILE_THREADS threads a block) and
 * unroll, so each thread has its four loads in flight together. */
static gp_status_t emit_tiled(gp_str_t *s, const gp_ew_spec_t *sp, const gp_op_t *op)
{
    char e[EXPR_MAX];
    int32_t od = sp->loop[1];
    gp_str_printf(s, "GPK_SHARED %s tile[32][33];\n", ctype(od));
    gp_str_puts(s, "const gpk_idx R = (gpk_idx)p.shape[0], Cn = (gpk_idx)p.shape[1];\n"
                   "const gpk_idx tr = (R + 31) / 32, tc = (Cn + 31) / 32;\n"
                   "for (gpk_idx t = (gpk_idx)GPK_BLOCK_ID; t < tr * tc; "
                   "t += (gpk_idx)GPK_NUM_BLOCKS) {\n"
                   "const gpk_idx r0 = t / tc * 32, c0 = t % tc * 32;\n");
    gp_str_printf(s, "%s xs[1024 / GPK_TILE_THREADS];\n", ctype(sp->loop[0]));
    /* every load first, then the op and the stores into the tile */
    const char *tile_loop = "GPK_UNROLL for (int k = 0; k < 1024 / GPK_TILE_THREADS; ++k) {\n"
                            "const gpk_idx q = (gpk_idx)GPK_THREAD_ID + (gpk_idx)k * "
                            "GPK_TILE_THREADS;\n"
                            "const gpk_idx r = r0 + q % 32, c = c0 + q / 32;\n"
                            "if (r < R && c < Cn) {\n";
    gp_str_puts(s, tile_loop);
    load_expr(sp->dt[0], sp->loop[0], "p.p0 + r * (gpk_idx)p.s0[0] + c * (gpk_idx)p.s0[1]", e);
    gp_str_printf(s, "xs[k] = %s;\n}\n}\n", e);
    gp_str_puts(s, tile_loop);
    gp_str_printf(s, "const %s x0 = xs[k];\n", ctype(sp->loop[0]));
    GP_TRY(emit_op(s, sp, op));
    gp_str_puts(s, "tile[q % 32][q / 32] = y0;\n}\n}\nGPK_SYNC();\n"
                   "GPK_UNROLL for (int k = 0; k < 1024 / GPK_TILE_THREADS; ++k) {\n"
                   "const gpk_idx q = (gpk_idx)GPK_THREAD_ID + (gpk_idx)k * GPK_TILE_THREADS;\n"
                   "const gpk_idx r = r0 + q / 32, c = c0 + q % 32;\n"
                   "if (r < R && c < Cn) {\n");
    emit_store(s, sp->dt[1], od, "p.p1 + r * (gpk_idx)p.s1[0] + c * (gpk_idx)p.s1[1]",
               "tile[q / 32][q % 32]");
    gp_str_puts(s, "}\n}\nGPK_SYNC();\n}\n");
    return GP_OK;
}

gp_status_t gp_gen_ew(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_ew_spec_t *sp = vspec;
    const gp_op_t *op = gp_ew_op(sp);
    size_t used = (size_t)snprintf(name, name_size, "gpk_");
    used += op_ident(name + used, name_size - used, op->name[0] == '_' ? op->name + 1 : op->name);
    for (int k = 0; k < sp->nin + sp->nout && used < name_size; ++k)
        used += (size_t)snprintf(name + used, name_size - used, "_%s",
                                 gp_dtypes[sp->loop[k]].suffix);
    if (used < name_size)
        snprintf(name + used, name_size - used, sp->tiled ? "_t" : sp->ndim ? "_s%d" : "_c%d",
                 sp->ndim ? sp->ndim : sp->vec * 10 + sp->unroll);
    int nin = sp->nin, nout = sp->nout, nop = nin + nout + sp->has_where, nd = sp->ndim;
    char what[256];
    snprintf(what, sizeof what, "elementwise %s", op->name);
    emit_header(s, what, sp->loop[0], sp->idx32);

    /* parameters */
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n;\n");
    if (nd)
        gp_str_printf(s, "  gpk_index shape[%d];\n", nd);
    for (int k = 0; k < nop; ++k) {
        const char *cq = k < nin || k >= nin + nout ? "const " : "";
        switch (sp->kind[k]) {
        case GP_OPND_SCALAR:
            gp_str_printf(s, "  %s v%d;\n", ctype(sp->loop[k]), k);
            break;
        case GP_OPND_CONTIG:
            gp_str_printf(s, "  %s%s *GPK_RESTRICT p%d;\n", cq, gp_dtypes[sp->dt[k]].storage, k);
            break;
        default:
            gp_str_printf(s, "  %schar *p%d;\n  gpk_index s%d[%d];\n", cq, k, k, nd);
        }
    }
    gp_str_puts(s, "};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    if (sp->vec > 1 || sp->tiled) {
        GP_TRY(sp->tiled ? emit_tiled(s, sp, op) : emit_vector_loop(s, sp, op));
        gp_str_puts(s, "}\n");
        return check_overflow(name);
    }
    gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, i, p.n) {\n");
    char addr[GP_EW_MAX][64];
    if (nd) {
        const char *offs[GP_EW_MAX], *strides[GP_EW_MAX];
        char obuf[GP_EW_MAX][16], sbuf[GP_EW_MAX][16];
        int n = 0;
        for (int k = 0; k < nop; ++k) {
            if (sp->kind[k] != GP_OPND_STRIDED)
                continue;
            snprintf(obuf[n], sizeof obuf[n], "o%d", k);
            snprintf(sbuf[n], sizeof sbuf[n], "s%d", k);
            offs[n] = obuf[n];
            strides[n] = sbuf[n];
            gp_str_printf(s, "gpk_idx o%d = 0;\n", k);
            ++n;
        }
        emit_decompose(s, "i", nd, "shape", n, offs, strides);
    }
    for (int k = 0; k < nop; ++k)
        snprintf(addr[k], sizeof addr[k],
                 sp->kind[k] == GP_OPND_STRIDED ? "p.p%d + o%d" : "p.p%d + i", k, k);
    GP_TRY(emit_element(s, sp, op, addr));
    gp_str_puts(s, "}\n}\n");
    return check_overflow(name);
}

/* ---- fused steps (gpunp.fuse) ---------------------------------------------------- */

/* One step of a fused kernel: the statements applying `op`'s loop of dtypes
 * `loop` to the values in[k] (each held as a user kernel holds an input of
 * dtype in_dt[k]) and setting out[k] (the caller's variables, of dtypes
 * out_dt[k]) to what storing the results in arrays of out_dt and reading them
 * back would give. So a chain of steps computes, value for value, what the
 * ufunc calls it replaces store between them (a float16 is rounded at every
 * step, as its array would be). F(name) is defined again for the step's loop. */
gp_status_t gp_gen_fused_step(const gp_op_t *op, const int32_t *loop, const int32_t *in_dt,
                              const char *const *in, const int32_t *out_dt,
                              const char *const *out, gp_str_t *s)
{
    int nin = op->nin, nout = op->nout;
    char e[EXPR_MAX], v[EXPR_MAX], y[16];
    gp_str_printf(s, "#undef F\n#define F(n) gpk_##n##_%s\n", csuffix(loop[0]));
    const char *ex = op_expr(s, op, loop[0], nin > 1 ? loop[1] : -1);
    if (!ex)
        return gp_set_error(GP_ERR_UNSUPPORTED, "ufunc %s has no expression for %s", op->name,
                            gp_dtypes[loop[0]].name);
    gp_str_puts(s, "{\n");
    for (int k = 0; k < nin; ++k) {
        cast_expr(in_dt[k], loop[k], in[k], e);
        gp_str_printf(s, "const %s x%d = %s;\n", ctype(loop[k]), k, e);
    }
    for (int k = 0; k < nout; ++k)
        gp_str_printf(s, "%s y%d;\n", ctype(loop[nin + k]), k);
    if (nout == 1)
        gp_str_printf(s, "y0 = %s;\n", ex);
    else
        gp_str_printf(s, "%s\n", ex);
    for (int k = 0; k < nout; ++k) {
        snprintf(y, sizeof y, "y%d", k);
        stored_expr(out_dt[k], loop[nin + k], y, v);
        value_expr(out_dt[k], out_dt[k], v, e);
        gp_str_printf(s, "%s = %s;\n", out[k], e);
    }
    gp_str_puts(s, "}\n");
    return check_overflow("a fused step");
}

/* ---- reductions --------------------------------------------------------------- */

/* gpk_combine(x0, x1): the op's expression on accumulators. With `round16`
 * each step rounds to the 16-bit float `ld`, as NumPy's loop does where every
 * step's result is stored (accumulate, and the reductions of
 * half_reduce_rounds). */
static void emit_combine(gp_str_t *s, const char *ex, int32_t ld, bool round16)
{
    if (round16 && narrow(ld))
        gp_str_printf(s, "GPK_FN gpk_acc gpk_combine(gpk_acc x0, gpk_acc x1) "
                         "{ return gpk_%s_to_f32(gpk_f32_to_%s((gpk_f32)(%s))); }\n", sfx(ld),
                      sfx(ld), ex);
    else
        gp_str_printf(s, "GPK_FN gpk_acc gpk_combine(gpk_acc x0, gpk_acc x1) "
                         "{ return (gpk_acc)(%s); }\n", ex);
}

/* NumPy's float16 add, subtract, multiply and divide loops keep a float32
 * accumulator when they reduce; its other float16 loops store every step
 * (hypot.reduce of [65504, 65504, nan] is inf through inf, not nan).
 * bfloat16 follows the same rule (ml_dtypes' loops store every step, add's
 * too, which only a sequential sum could match: docs/differences.md). */
static bool half_reduce_rounds(const gp_op_t *op)
{
    static const char *const in_float[] = {"add", "subtract", "multiply", "true_divide"};
    for (size_t i = 0; i < sizeof in_float / sizeof *in_float; ++i)
        if (!strcmp(op->name, in_float[i]))
            return false;
    return true;
}

static const char *int_limit(int32_t dt, bool highest)
{
    static const char *const lo[] = {
        [GP_BOOL] = "0", [GP_INT8] = "(-127-1)", [GP_UINT8] = "0", [GP_INT16] = "(-32767-1)",
        [GP_UINT16] = "0", [GP_INT32] = "(-2147483647-1)", [GP_UINT32] = "0u",
        [GP_INT64] = "(-9223372036854775807LL-1)", [GP_UINT64] = "0ULL"};
    static const char *const hi[] = {
        [GP_BOOL] = "1", [GP_INT8] = "127", [GP_UINT8] = "255", [GP_INT16] = "32767",
        [GP_UINT16] = "65535", [GP_INT32] = "2147483647", [GP_UINT32] = "4294967295u",
        [GP_INT64] = "9223372036854775807LL", [GP_UINT64] = "18446744073709551615ULL"};
    return highest ? hi[dt] : lo[dt];
}

/* The neutral start value of computed values of dtype `dt`. */
static void neutral_expr(int neutral, int32_t dt, char *out)
{
    int32_t k = gp_dtype_kind(dt);
    const char *v;
    switch (neutral) {
    case GP_NEUTRAL_ONE: v = "1"; break;
    case GP_NEUTRAL_LOWEST:
        v = k == GP_KIND_FLOAT || k == GP_KIND_COMPLEX ? "-INFINITY" : int_limit(dt, false);
        break;
    case GP_NEUTRAL_HIGHEST:
        v = k == GP_KIND_FLOAT || k == GP_KIND_COMPLEX ? "INFINITY" : int_limit(dt, true);
        break;
    case GP_NEUTRAL_ALLONES: v = k == GP_KIND_BOOL ? "1" : "~0ULL"; break;
    case GP_NEUTRAL_NAN_LOWEST:
    case GP_NEUTRAL_NAN_HIGHEST:
        v = k == GP_KIND_FLOAT || k == GP_KIND_COMPLEX ? "NAN"
                                                       : int_limit(dt, neutral == GP_NEUTRAL_NAN_HIGHEST);
        break;
    default: v = "0";
    }
    if (k == GP_KIND_COMPLEX) {
        const char *t = dt == GP_COMPLEX64 ? "gpk_f32" : "gpk_f64";
        const char *im = neutral == GP_NEUTRAL_ONE ? "0" : v;
        put(out, "gpk_make_%s((%s)(%s), (%s)(%s))", csuffix(dt), t, v, t, im);
    } else {
        put(out, "(%s)(%s)", ctype(dt), v);
    }
}

/* The opening of the loop over the rest of a thread's run [kb, ke) of the
 * reduced elements, after batches of `n`: each batch loads its elements
 * (`load`, of `type`, from offset `ro`) before `use` combines v_[b_] in
 * order, so that a thread waits on memory once a batch. Left to `#pragma
 * unroll`, NVRTC 13's sm_90 code kept two or four loads in flight: an
 * output's 33 partials of sum(axis=0) of 16384x16384 float32 on the H200
 * waited nine times (four at a time), and the 16-byte reads of its first
 * stage two at a time. */
static void emit_batches(gp_str_t *s, int nred, int n, const char *type, const char *load,
                         const char *use)
{
    const char *roffs[1] = {"ro"}, *rstr[1] = {"rin"};
    gp_str_printf(s, "gpk_idx k = kb;\nfor (; k + %d <= ke; k += %d) {\n%s v_[%d];\n"
                     "GPK_UNROLL\nfor (int b_ = 0; b_ < %d; ++b_) {\ngpk_idx ro = 0;\n",
                  n, n, type, n, n);
    emit_decompose(s, "k + (gpk_idx)b_", nred, "rshape", 1, roffs, rstr);
    gp_str_printf(s, "v_[b_] = %s;\n}\nGPK_UNROLL\nfor (int b_ = 0; b_ < %d; ++b_) {\n%s\n}\n}\n"
                  "for (; k < ke; ++k) {\n", load, n, use);
}

gp_status_t gp_gen_red(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_red_spec_t *sp = vspec;
    bool arg = sp->kind == GP_RED_ARGMAX || sp->kind == GP_RED_ARGMIN;
    bool lse = sp->kind == GP_RED_LOGSUMEXP;
    char vs[8] = "";
    if (sp->vec > 1)
        snprintf(vs, sizeof vs, "_v%d", sp->vec);
    char id[64];
    const char *kind_name = sp->kind == GP_RED_ARGMAX ? "argmax"
                            : sp->kind == GP_RED_ARGMIN ? "argmin"
                            : lse                       ? "logsumexp"
                                                        : NULL;
    op_ident(id, sizeof id, kind_name ? kind_name : sp->kind == GP_RED_MEAN ? "mean"
                                                  : gp_ufuncs[sp->op].name);
    snprintf(name, name_size, "gpk_red_%s_%s_%s%s%s", id,
             gp_dtypes[sp->in_dt].suffix, gp_dtypes[sp->loop_dt].suffix,
             sp->stage == GP_STAGE_PARTIAL   ? "_p"
             : sp->stage == GP_STAGE_COMBINE ? "_c"
             : sp->stage == GP_STAGE_MERGE   ? "_m"
                                             : "",
             vs);
    const gp_op_t *op = arg || lse ? NULL : &gp_ufuncs[sp->op];
    int32_t ld = sp->loop_dt;
    bool seq = op && op->neutral == GP_NEUTRAL_NONE;
    bool bpo = sp->block_per_out;
    /* the stages after the first read accumulators; those before the last
     * write them */
    bool from_acc = sp->stage == GP_STAGE_COMBINE || sp->stage == GP_STAGE_MERGE;
    bool to_acc = sp->stage == GP_STAGE_PARTIAL || sp->stage == GP_STAGE_MERGE;
    char what[256];
    snprintf(what, sizeof what, "reduction %s", kind_name ? kind_name : op->name);
    emit_header(s, what, ld, sp->idx32);

    /* the accumulator and its combination */
    char e[EXPR_MAX], neutral[2 * EXPR_MAX];
    if (arg) {
        gp_str_printf(s, "typedef struct { %s v; long long i; } gpk_acc;\n", ctype(ld));
        int32_t k = gp_dtype_kind(ld);
        const char *gt = sp->kind == GP_RED_ARGMAX ? "gt" : "lt";
        if (k == GP_KIND_COMPLEX)
            gp_str_printf(s,
                          "GPK_FN gpk_acc gpk_combine(gpk_acc a, gpk_acc b) {\n"
                          "  int an = F(isnan)(a.v), bn = F(isnan)(b.v);\n"
                          "  if (an || bn) return (an && (!bn || a.i < b.i)) ? a : b;\n"
                          "  if (F(%s)(b.v, a.v) || (F(eq)(b.v, a.v) && b.i < a.i)) return b;\n"
                          "  return a;\n}\n",
                          gt);
        else
            gp_str_printf(s,
                          "GPK_FN gpk_acc gpk_combine(gpk_acc a, gpk_acc b) {\n"
                          "  int an = a.v != a.v, bn = b.v != b.v;\n"
                          "  if (an || bn) return (an && (!bn || a.i < b.i)) ? a : b;\n"
                          "  if (b.v %s a.v || (b.v == a.v && b.i < a.i)) return b;\n"
                          "  return a;\n}\n",
                          sp->kind == GP_RED_ARGMAX ? ">" : "<");
        neutral_expr(sp->kind == GP_RED_ARGMAX ? GP_NEUTRAL_LOWEST : GP_NEUTRAL_HIGHEST, ld,
                     e);
        put(neutral, "gpk_acc_make(%s, 9223372036854775807LL)", e);
        gp_str_puts(s, "GPK_FN gpk_acc gpk_acc_make(");
        gp_str_printf(s, "%s v, long long i) { gpk_acc a; a.v = v; a.i = i; return a; }\n",
                      ctype(ld));
    } else if (lse) {
        /* (m, s): the largest element and the sum of exp(x - m). Equal
         * maxima add without exp (inf - inf); a NaN wins; a sum of 0 is
         * the neutral (-inf, 0), which an element (-inf, 1) is not */
        gp_str_printf(s, "typedef struct { %s m, s; } gpk_acc;\n", ctype(ld));
        gp_str_printf(s, "GPK_FN gpk_acc gpk_acc_make(%s m, %s s) "
                         "{ gpk_acc a; a.m = m; a.s = s; return a; }\n", ctype(ld), ctype(ld));
        gp_str_puts(s, "GPK_FN gpk_acc gpk_combine(gpk_acc a, gpk_acc b) {\n"
                       "  if (b.m != b.m || b.m > a.m) { gpk_acc t = a; a = b; b = t; }\n"
                       "  if (a.m != a.m || b.s == 0) return a;\n"
                       "  if (b.m == a.m) return gpk_acc_make(a.m, a.s + b.s);\n"
                       "  return gpk_acc_make(a.m, a.s + b.s * F(exp)(b.m - a.m));\n}\n");
        neutral_expr(GP_NEUTRAL_LOWEST, ld, e);
        put(neutral, "gpk_acc_make(%s, (%s)0)", e, ctype(ld));
    } else {
        const char *ex = op_expr(s, op, ld, ld);
        if (!ex)
            return gp_set_error(GP_ERR_UNSUPPORTED, "ufunc %s has no expression for %s",
                                op->name, gp_dtypes[ld].name);
        gp_str_printf(s, "typedef %s gpk_acc;\n", ctype(ld));
        emit_combine(s, ex, ld, half_reduce_rounds(op));
        neutral_expr(op->neutral, ld, neutral);
    }

    gp_str_puts(s, "struct gpk_params {\n  gpk_index M, K, S, count;\n");
    if (sp->nkeep)
        gp_str_printf(s, "  gpk_index kshape[%d], kin[%d], kout[%d];\n", sp->nkeep, sp->nkeep,
                      sp->nkeep);
    gp_str_printf(s, "  gpk_index rshape[%d], rin[%d];\n", sp->nred, sp->nred);
    gp_str_puts(s, "  const char *in;\n  char *out;\n");
    if (sp->has_initial)
        gp_str_puts(s, "  gpk_acc init;\n");
    gp_str_puts(s, "};\n");

    /* the element at input offset `ib + ro`, as an accumulator */
    char elem[2 * EXPR_MAX], velem[2 * EXPR_MAX] = "";
    if (sp->vec > 1) {
        char raw[EXPR_MAX];
        gp_str_printf(s, "typedef struct { GPK_ALIGN(16) %s v[%d]; } gpk_rvec;\n",
                      gp_dtypes[sp->in_dt].storage, sp->vec);
        value_expr(sp->in_dt, ld, "r.v[j]", raw);
        if (arg)
            put(velem, "gpk_acc_make(%s, (long long)(k + j))", raw);
        else if (lse)
            put(velem, "gpk_acc_make(%s, (%s)1)", raw, ctype(ld));
        else
            put(velem, "%s", raw);
    }
    if (from_acc) {
        put(elem, "(*(const gpk_acc *)(p.in + ib + ro))");
    } else if (arg) {
        load_expr(sp->in_dt, ld, "p.in + ib + ro", e);
        put(elem, "gpk_acc_make(%s, (long long)k)", e);
    } else if (lse) {
        load_expr(sp->in_dt, ld, "p.in + ib + ro", e);
        put(elem, "gpk_acc_make(%s, (%s)1)", e, ctype(ld));
    } else {
        load_expr(sp->in_dt, ld, "p.in + ib + ro", elem);
    }

    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    /* vector reads start chunks at whole vectors */
    gp_str_printf(s, "const gpk_idx chunk = (gpk_idx)((p.K + p.S - 1) / p.S + %d) / %d * %d;\n",
                  sp->vec > 1 ? sp->vec - 1 : 0, sp->vec > 1 ? sp->vec : 1,
                  sp->vec > 1 ? sp->vec : 1);
    /* outer reductions with vectors: a thread combines `lanes` neighbouring
     * outputs, each a lane of the vectors it reads */
    int lanes = !bpo && sp->vec > 1 ? sp->vec : 1;
    if (bpo)
        gp_str_puts(s, "for (gpk_idx t = (gpk_idx)GPK_BLOCK_ID; t < (gpk_idx)(p.M * p.S); "
                       "t += (gpk_idx)GPK_NUM_BLOCKS) {\n");
    else
        gp_str_printf(s, "GPK_GRID_LOOP(gpk_idx, t, p.M / %d * p.S) {\n", lanes);
    /* t -> (output o, split part sp_): a block's parts are its own; the
     * threads of an outer reduction take neighbouring outputs, so that a
     * warp reads neighbouring memory */
    if (bpo)
        gp_str_puts(s, "const gpk_idx o = t / (gpk_idx)p.S, sp_ = t % (gpk_idx)p.S;\n");
    else
        gp_str_printf(s, "const gpk_idx o = t %% (gpk_idx)(p.M / %d) * %d, "
                         "sp_ = t / (gpk_idx)(p.M / %d);\n", lanes, lanes, lanes);
    gp_str_puts(s, "gpk_idx kb = sp_ * chunk;\n"
                   "gpk_idx ke = kb + chunk < (gpk_idx)p.K ? kb + chunk : (gpk_idx)p.K;\n"
                   "gpk_idx ib = 0, ob = 0;\n");
    const char *koffs[2] = {"ib", "ob"}, *kstr[2] = {"kin", "kout"};
    emit_decompose(s, "o", sp->nkeep, "kshape", 2, koffs, kstr);
    const char *roffs[1] = {"ro"}, *rstr[1] = {"rin"};
    if (seq) {
        /* in order, from the initial value or the first element */
        if (sp->has_initial) {
            gp_str_puts(s, "gpk_acc acc = p.init;\ngpk_idx k0 = kb;\n");
        } else {
            gp_str_puts(s, "gpk_acc acc;\n{ gpk_idx k = kb, ro = 0;\n");
            emit_decompose(s, "k", sp->nred, "rshape", 1, roffs, rstr);
            gp_str_printf(s, "acc = %s; }\ngpk_idx k0 = kb + 1;\n", elem);
        }
        gp_str_puts(s, "for (gpk_idx k = k0; k < ke; ++k) {\n");
    } else if (lanes > 1) {
        /* 16-byte reads, four a batch (a thread's run is K / S long); the
         * rest one at a time, each vector `r` combined by lanes */
        char lanes_of_r[EXPR_MAX], use[EXPR_MAX];
        put(lanes_of_r, "for (int j = 0; j < %d; ++j) accv[j] = gpk_combine(accv[j], %s);",
            lanes, velem);
        put(use, "const gpk_rvec r = v_[b_];\n%s", lanes_of_r);
        gp_str_printf(s, "gpk_acc accv[%d];\nfor (int j = 0; j < %d; ++j) accv[j] = %s;\n",
                      lanes, lanes, neutral);
        emit_batches(s, sp->nred, 4, "gpk_rvec", "*(const gpk_rvec *)(p.in + ib + ro)", use);
        gp_str_puts(s, "gpk_idx ro = 0;\n");
        emit_decompose(s, "k", sp->nred, "rshape", 1, roffs, rstr);
        gp_str_printf(s, "const gpk_rvec r = *(const gpk_rvec *)(p.in + ib + ro);\n%s\n}\n"
                         "for (int j = 0; j < %d; ++j) {\ngpk_acc acc = accv[j];\n"
                         "const gpk_idx obl = ob + (gpk_idx)j * (gpk_idx)p.kout[%d];\n",
                      lanes_of_r, lanes, sp->nkeep - 1);
    } else {
        gp_str_printf(s, "gpk_acc acc = %s;\n", neutral);
        if (sp->vec > 1) {
            /* whole vectors, then the rest of the run one element a thread */
            gp_str_printf(s, "const gpk_idx kv = ke > kb ? kb + (ke - kb) / %d * %d : kb;\n"
                             "#pragma unroll 4\n"
                             "for (gpk_idx k = kb + (gpk_idx)GPK_THREAD_ID * %d; k < kv; "
                             "k += (gpk_idx)GPK_BLOCK_SIZE * %d) {\n"
                             "const gpk_rvec r = *(const gpk_rvec *)(p.in + ib + k * %d);\n"
                             "for (int j = 0; j < %d; ++j) acc = gpk_combine(acc, %s);\n}\n",
                          sp->vec, sp->vec, sp->vec, sp->vec, gp_dtypes[sp->in_dt].itemsize,
                          sp->vec, velem);
            gp_str_puts(s, "for (gpk_idx k = kv + (gpk_idx)GPK_THREAD_ID; k < ke; "
                           "k += (gpk_idx)GPK_BLOCK_SIZE) {\n");
        } else if (bpo)
            gp_str_puts(s, "#pragma unroll 4\nfor (gpk_idx k = kb + (gpk_idx)GPK_THREAD_ID; k < ke; "
                           "k += (gpk_idx)GPK_BLOCK_SIZE) {\n");
        else if (from_acc) /* the partials, 16 a batch */
            emit_batches(s, sp->nred, 16, "gpk_acc", elem, "acc = gpk_combine(acc, v_[b_]);");
        else
            gp_str_puts(s, "#pragma unroll 4\nfor (gpk_idx k = kb; k < ke; ++k) {\n");
    }
    if (lanes == 1) {
        gp_str_puts(s, "gpk_idx ro = 0;\n");
        emit_decompose(s, "k", sp->nred, "rshape", 1, roffs, rstr);
        gp_str_printf(s, "acc = gpk_combine(acc, %s);\n}\n", elem);
    }
    if (bpo)
        gp_str_puts(s, "GPK_BLOCK_REDUCE(gpk_acc, gpk_combine, acc);\n");
    /* a block's result is in its thread 0; else every thread has its own */
    gp_str_puts(s, bpo ? "if (GPK_THREAD_ID == 0) {\n" : "{\n");
    /* the partials of output o: row o of the temporary, or its column o
     * (part-major: neighbouring threads write, and later read, neighbouring
     * partials) */
    if (lanes > 1) /* lane j's output */
        gp_str_puts(s, "const gpk_idx ob = obl;\n"
                       "const gpk_idx oj = o + (gpk_idx)j;\n");
    else
        gp_str_puts(s, "const gpk_idx oj = o;\n");
    gp_str_puts(s, sp->by_part ? "const gpk_idx pt = sp_ * (gpk_idx)p.M + oj;\n"
                               : "const gpk_idx pt = oj * (gpk_idx)p.S + sp_;\n");
    if (to_acc) {
        gp_str_puts(s, "((gpk_acc *)p.out)[pt] = acc;\n");
    } else {
        if (sp->has_initial && !seq)
            gp_str_puts(s, "acc = gpk_combine(p.init, acc);\n");
        if (arg) {
            emit_store(s, GP_INT64, GP_INT64, "p.out + ob", "acc.i");
        } else if (lse) {
            char lowest[EXPR_MAX];
            neutral_expr(GP_NEUTRAL_LOWEST, ld, lowest);
            put(e, "(acc.s == 0 ? %s : acc.m + F(log)(acc.s))", lowest);
            emit_store(s, sp->out_dt, ld, "p.out + ob", e);
        } else if (sp->kind == GP_RED_MEAN) {
            /* NumPy divides the sum by an intp count: in float64, or by
             * Smith's complex128 division (in which an infinite part makes
             * the other NaN: 0-infj over 2 is nan-infj), rounded back */
            if (gp_dtype_kind(ld) == GP_KIND_COMPLEX) {
                char z[EXPR_MAX], q[EXPR_MAX];
                cast_expr(ld, GP_COMPLEX128, "acc", z);
                put(q, "gpk_div_c128(%s, gpk_make_c128((gpk_f64)p.count, (gpk_f64)0))", z);
                cast_expr(GP_COMPLEX128, ld, q, e);
            } else {
                put(e, "(gpk_acc)((gpk_f64)acc / (gpk_f64)p.count)");
            }
            emit_store(s, sp->out_dt, ld, "p.out + ob", e);
        } else {
            emit_store(s, sp->out_dt, ld, "p.out + ob", "acc");
        }
    }
    gp_str_puts(s, lanes > 1 ? "}\n}\n}\n}\n" : "}\n}\n}\n");
    return check_overflow(name);
}

/* ---- scans ------------------------------------------------------------------------ */

/* 128 bytes of accumulators a thread (measured for float32 on the H200) */
int gp_scan_items(int32_t loop_dt) { return 128 / (gp_compute_size(loop_dt) > 4 ? gp_compute_size(loop_dt) : 4); }

/* The single-pass scan's tile (GP_SCAN_TILES): tile t of the grid is tile c
 * of line m. Its block loads the tile striped (neighbouring threads read
 * neighbouring elements) into shared memory, each thread scans E elements
 * of its own, the block scans the threads' totals, and warp 0 finds the
 * tile's prefix by decoupled look-back: it publishes the tile's aggregate,
 * then combines its predecessors' states a warp at a time, newest first,
 * down to the first one that holds its inclusive prefix (or the line's
 * first tile, which publishes its inclusive prefix at once), and publishes
 * the tile's own. Results go back through shared memory, striped. A row of
 * E elements is padded by one in shared memory, so that the threads' reads
 * of their rows fall in different banks. */
static void emit_scan_tiles(gp_str_t *s, const gp_scan_spec_t *sp, const char *neutral)
{
    const int E = gp_scan_items(sp->loop_dt), V = sp->vec > 1 ? sp->vec : 1, C = E / V;
    int32_t ld = sp->loop_dt;
    char e[EXPR_MAX];
    if (V > 1)
        gp_str_printf(s, "typedef struct { GPK_ALIGN(16) gpk_acc v[%d]; } gpk_svec;\n"
                         "GPK_SHARED gpk_svec tile_[GPK_SCAN_THREADS * %d];\n",
                      V, C);
    else
        gp_str_printf(s, "GPK_SHARED gpk_acc tile_[GPK_SCAN_THREADS * %d];\n", E + 1);
    gp_str_printf(s,
                  "GPK_SHARED gpk_index id_;\nGPK_SHARED gpk_acc pre_;\n"
                  "unsigned long long *const st = p.state + 1;\n"
                  "const int tid = (int)GPK_THREAD_ID, lane = tid %% GPK_WARP;\n"
                  "const gpk_idx T = (gpk_idx)GPK_SCAN_THREADS * %d;\n"
                  "for (;;) {\n"
                  "if (tid == 0) id_ = GPK_NEXT_TILE(p.state);\n"
                  "GPK_SYNC();\n"
                  "const gpk_index t = id_;\n"
                  "if (t >= p.M * p.NT) break;\n"
                  "const gpk_idx m = p.M == 1 ? 0 : (gpk_idx)(t / p.NT);\n"
                  "const gpk_idx c = p.M == 1 ? (gpk_idx)t : (gpk_idx)(t %% p.NT);\n"
                  "gpk_idx ib = 0, ob = 0;\n",
                  E);
    const char *offs[2] = {"ib", "ob"}, *str[2] = {"oin", "oout"};
    emit_decompose(s, "m", sp->nother, "oshape", 2, offs, str);
    gp_str_puts(s, "const gpk_idx k0 = c * T, n = (gpk_idx)p.K - k0 < T ? (gpk_idx)p.K - k0 : T;\n");
    if (V > 1) {
        /* Contiguous lines of the loop's own dtype, 16-byte aligned: the
         * tile's 64-bit base once, 32-bit offsets within it, 16-byte
         * vectors. A thread's row of E elements is C vectors; vector `c` of
         * row `r` lies at slot c ^ (r % 8) of the row, so that neither the
         * striped writes nor the threads' reads of their rows meet in a
         * bank. */
        gp_str_printf(s,
                      "const gpk_acc *const src = (const gpk_acc *)(p.in + ib) + k0;\n"
                      "gpk_acc *const dst = (gpk_acc *)(p.out + ob) + k0;\n"
                      "const int nn = (int)n;\n"
                      "if (n == T) {\n"
                      "GPK_UNROLL for (int q = 0; q < %d; ++q) {\n"
                      "const int g = q * GPK_SCAN_THREADS + tid;\n"
                      "tile_[(g & ~7) | ((g ^ (g >> 3)) & 7)] = ((const gpk_svec *)src)[g];\n}\n"
                      "} else {\n"
                      "for (int q = 0; q < %d; ++q) {\n"
                      "const int j = q * GPK_SCAN_THREADS + tid, g = j / %d;\n"
                      "tile_[(g & ~7) | ((g ^ (g >> 3)) & 7)].v[j %% %d] = j < nn ? src[j] : %s;\n}\n"
                      "}\n"
                      "GPK_SYNC();\n"
                      "gpk_acc x[%d];\n"
                      "GPK_UNROLL for (int q = 0; q < %d; ++q) {\n"
                      "const gpk_svec w = tile_[tid * 8 + (q ^ (tid & 7))];\n"
                      "GPK_UNROLL for (int l = 0; l < %d; ++l) x[q * %d + l] = w.v[l];\n}\n",
                      C, E, V, V, neutral, E, C, V, V);
    } else {
        load_expr(sp->in_dt, ld, "p.in + ib + (k0 + j) * (gpk_idx)p.ain", e);
        gp_str_printf(s,
                      "for (int q = 0; q < %d; ++q) {\n"
                      "const gpk_idx j = (gpk_idx)q * GPK_SCAN_THREADS + tid;\n"
                      "tile_[j + j / %d] = j < n ? %s : %s;\n}\n"
                      "GPK_SYNC();\n"
                      "gpk_acc x[%d];\n"
                      "for (int q = 0; q < %d; ++q) x[q] = tile_[tid * %d + q];\n",
                      E, E, e, neutral, E, E, E + 1);
    }
    gp_str_printf(s,
                  "GPK_UNROLL for (int q = 1; q < %d; ++q) x[q] = gpk_combine(x[q - 1], x[q]);\n"
                  "gpk_acc excl, total;\n"
                  "GPK_BLOCK_SCAN_EX(gpk_acc, gpk_combine, x[%d], excl, total);\n",
                  E, E - 1);
    /* the look-back: lane l of warp 0 reads tile j - l; the window ends at
     * `stop`, the newest lane holding an inclusive prefix or lying before
     * the line; its lanes up to `stop` are combined, older first, without a
     * neutral value (the lanes' `ok` flags say which values count) */
    gp_str_puts(s,
                "if (c == 0) {\n"
                "if (tid == 0) GPK_TILE_PUBLISH(st, p.agg, p.inc, t, 2, total);\n"
                "} else if (tid < GPK_WARP) {\n"
                "if (tid == 0) GPK_TILE_PUBLISH(st, p.agg, p.inc, t, 1, total);\n"
                "const gpk_index first = t - c;\n"
                "gpk_acc run = total;\nint have = 0;\n"
                "for (gpk_index j = t - 1;; j -= GPK_WARP) {\n"
                "const gpk_index i = j - lane;\n"
                "gpk_acc v = total;\nunsigned int f = 2;\n"
                "if (i >= first)\n"
                "  while ((f = GPK_TILE_PEEK(st, p.agg, p.inc, i, v)) == 0) {}\n"
                "int stop = f == 2 ? lane : GPK_WARP;\n"
                "for (int d = 1; d < GPK_WARP; d <<= 1) {\n"
                "const int o = gpk_shfl_down(stop, d);\nstop = o < stop ? o : stop;\n}\n"
                "stop = gpk_shfl_idx(stop, 0);\n"
                "int ok = i >= first && lane <= stop;\n"
                "for (int d = 1; d < GPK_WARP; d <<= 1) {\n"
                "const gpk_acc o = gpk_shfl_down(v, d);\n"
                "const int ook = gpk_shfl_down(ok, d);\n"
                "if (lane + d < GPK_WARP && ook) { v = ok ? gpk_combine(o, v) : o; ok = 1; }\n}\n"
                "if (lane == 0) { run = have ? gpk_combine(v, run) : v; have = 1; }\n"
                "if (stop < GPK_WARP) break;\n}\n"
                "if (tid == 0) {\npre_ = run;\n"
                "GPK_TILE_PUBLISH(st, p.agg, p.inc, t, 2, gpk_combine(run, total));\n}\n"
                "}\n"
                "GPK_SYNC();\n");
    /* each element from the prefix of the tile and of the thread's row */
    gp_str_puts(s,
                "const int has = c > 0 || tid > 0;\n"
                "const gpk_acc pre = c > 0 ? (tid > 0 ? gpk_combine(pre_, excl) : pre_) : excl;\n");
    if (V > 1) {
        gp_str_printf(s,
                      "GPK_UNROLL for (int q = 0; q < %d; ++q) {\n"
                      "gpk_svec w;\n"
                      "GPK_UNROLL for (int l = 0; l < %d; ++l)\n"
                      "  w.v[l] = has ? gpk_combine(pre, x[q * %d + l]) : x[q * %d + l];\n"
                      "tile_[tid * 8 + (q ^ (tid & 7))] = w;\n}\n"
                      "GPK_SYNC();\n"
                      "if (n == T) {\n"
                      "GPK_UNROLL for (int q = 0; q < %d; ++q) {\n"
                      "const int g = q * GPK_SCAN_THREADS + tid;\n"
                      "((gpk_svec *)dst)[g] = tile_[(g & ~7) | ((g ^ (g >> 3)) & 7)];\n}\n"
                      "} else {\n"
                      "for (int q = 0; q < %d; ++q) {\n"
                      "const int j = q * GPK_SCAN_THREADS + tid, g = j / %d;\n"
                      "if (j < nn) dst[j] = tile_[(g & ~7) | ((g ^ (g >> 3)) & 7)].v[j %% %d];\n}\n"
                      "}\n}\n",
                      C, V, V, V, C, E, V, V);
        return;
    }
    gp_str_printf(s,
                  "for (int q = 0; q < %d; ++q)\n"
                  "  tile_[tid * %d + q] = has ? gpk_combine(pre, x[q]) : x[q];\n"
                  "GPK_SYNC();\n"
                  "for (int q = 0; q < %d; ++q) {\n"
                  "const gpk_idx j = (gpk_idx)q * GPK_SCAN_THREADS + tid;\n"
                  "if (j < n) {\n",
                  E, E + 1, E);
    put(e, "tile_[j + j / %d]", E);
    emit_store(s, sp->out_dt, ld, "p.out + ob + (k0 + j) * (gpk_idx)p.aout", e);
    gp_str_puts(s, "}\n}\n}\n");
}

/* The scan's shapes: CUB's sm_90 tuning for primitive sums
 * (tuning_scan.cuh) is 128 threads x 24 items of 4 bytes and 224 x 24
 * nominal for 8 bytes, which CUB scales to 12 items (MemBoundScaling). For
 * 4 bytes 32 items were faster on the H200 (bench/tune.py scan, float32
 * cumsum of 2^28: 3.20 TB/s, against 2.88 with 24, 2.92 with 20, 2.95 with
 * 16, 2.93 with 256 x 24); 8 bytes keep CUB's, not measured here. */
void gp_scan_cub_shape(int32_t loop_dt, int *threads, int *items)
{
    int t = gp_tuning()->scan_cub_threads, i = gp_tuning()->scan_cub_items;
    bool wide = gp_compute_size(loop_dt) == 8;
    *threads = t ? t : wide ? 224 : 128;
    *items = i ? i : wide ? 24 : 32;
}

int gp_scan_cub_tile(const gp_scan_spec_t *sp)
{
    return 32 * sp->cub_warps * (sp->cub_items * 4 / gp_compute_size(sp->loop_dt));
}

/* CUB's single-pass scan (its AgentScan, the agent of DeviceScan) over
 * contiguous lines of a 4- or 8-byte real loop dtype, CUDA's alone: tile
 * t of the grid is tile t - m * NT of line m, and each line has its own
 * NT + GP_SCAN_CUB_PAD tile descriptors, set up by the GP_SCAN_CUB_INIT
 * kernel. The spec's block and items (gp_scan_cub_shape) go through
 * CUB's MemBoundScaling, as CUB's own policies do. */
static void emit_scan_cub(gp_str_t *s, const gp_scan_spec_t *sp, const char *name)
{
    const int isz = gp_compute_size(sp->loop_dt), threads = 32 * sp->cub_warps;
    const int fl = sp->loop_dt == GP_FLOAT32 || sp->loop_dt == GP_FLOAT64;
    const int delay[2][2] = {{648, 1245}, {632, 1290}}, fdelay[2][2] = {{688, 1140}, {576, 1215}};
    const int *d = fl ? fdelay[isz == 8] : delay[isz == 8];
    gp_str_printf(s,
                  "#if defined(GPK_CUDA)\n"
                  "typedef cub::ScanTileState<gpk_acc> gpk_ts;\n"
                  "static_assert(sizeof(typename gpk_ts::TxnWord) == %d && gpk_ts::TILE_STATUS_PADDING == %d,\n"
                  "              \"the engine sizes CUB's tile descriptors\");\n",
                  2 * isz, GP_SCAN_CUB_PAD);
    if (sp->strategy == GP_SCAN_CUB_INIT) {
        gp_str_printf(s,
                      "extern \"C\" __global__ void %s(const struct gpk_params p)\n{\n"
                      "typedef typename gpk_ts::TxnWord gpk_word;\n"
                      "const gpk_index per = p.NT + gpk_ts::TILE_STATUS_PADDING;\n"
                      "GPK_GRID_LOOP(gpk_index, i, p.M * per) {\n"
                      "gpk_word w = gpk_word();\n"
                      "reinterpret_cast<typename gpk_ts::TileDescriptor *>(&w)->status =\n"
                      "  i %% per < gpk_ts::TILE_STATUS_PADDING ? cub::SCAN_TILE_OOB : cub::SCAN_TILE_INVALID;\n"
                      "reinterpret_cast<gpk_word *>(p.state)[i] = w;\n}\n}\n",
                      name);
    } else {
        const char *offs[2] = {"ib", "ob"}, *str[2] = {"oin", "oout"};
        gp_str_printf(s,
                      "struct gpk_op {\n"
                      "  __device__ gpk_acc operator()(const gpk_acc &a, const gpk_acc &b) const\n"
                      "  { return gpk_combine(a, b); }\n};\n"
                      "typedef cub::AgentScanPolicy<%d, %d, gpk_acc, cub::BLOCK_LOAD_WARP_TRANSPOSE,\n"
                      "  cub::LOAD_DEFAULT, cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,\n"
                      "  cub::detail::MemBoundScaling<%d, %d, gpk_acc>,\n"
                      "  cub::detail::fixed_delay_constructor_t<%d, %d> > gpk_policy;\n"
                      "static_assert(gpk_policy::BLOCK_THREADS * gpk_policy::ITEMS_PER_THREAD == %d,\n"
                      "              \"the engine sizes the grid by CUB's tile\");\n"
                      "typedef cub::detail::scan::AgentScan<gpk_policy, const gpk_acc *, gpk_acc *, gpk_op,\n"
                      "  cub::NullType, long long, gpk_acc> gpk_agent;\n"
                      "extern \"C\" __global__ void __launch_bounds__(%d) %s(const struct gpk_params p)\n{\n"
                      "__shared__ typename gpk_agent::TempStorage tmp;\n"
                      "const gpk_idx m = p.M == 1 ? 0 : (gpk_idx)(GPK_BLOCK_ID / p.NT);\n"
                      "gpk_idx ib = 0, ob = 0;\n",
                      threads, sp->cub_items, threads, sp->cub_items, d[0], d[1], gp_scan_cub_tile(sp),
                      threads, name);
        emit_decompose(s, "m", sp->nother, "oshape", 2, offs, str);
        gp_str_puts(s, "gpk_ts ts;\n"
                       "ts.Init((int)p.NT, (char *)p.state + m * (p.NT + gpk_ts::TILE_STATUS_PADDING) *\n"
                       "  (gpk_index)sizeof(typename gpk_ts::TxnWord), 0);\n"
                       "gpk_agent(tmp, (const gpk_acc *)(p.in + ib), (gpk_acc *)(p.out + ob), gpk_op(),\n"
                       "  cub::NullType()).ConsumeRange((long long)p.K, ts, -(int)(m * p.NT));\n}\n");
    }
    /* onesweep's rule: the engine launches these on CUDA alone */
    gp_str_printf(s, "#else\nGPK_KERNEL(%s, struct gpk_params) { __builtin_trap(); }\n#endif\n", name);
}

gp_status_t gp_gen_scan(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_scan_spec_t *sp = vspec;
    const gp_op_t *op = &gp_ufuncs[sp->op];
    int32_t ld = sp->loop_dt;
    static const char *const tag[] = {"", "_t", "_cub", "_cubinit"};
    char id[64];
    op_ident(id, sizeof id, op->name);
    snprintf(name, name_size, "gpk_scan_%s_%s_%s%s%s", id, gp_dtypes[sp->in_dt].suffix,
             gp_dtypes[ld].suffix, tag[sp->strategy], sp->vec > 1 ? "_v" : "");
    if (sp->strategy >= GP_SCAN_CUB)
        gp_str_puts(s, "#if defined(GPK_CUDA)\n#include <cub/agent/agent_scan.cuh>\n#endif\n");
    char what[256];
    snprintf(what, sizeof what, "accumulate %s%s", op->name,
             sp->strategy == GP_SCAN_TILES      ? ", single pass over tiles"
             : sp->strategy == GP_SCAN_CUB      ? ", CUB's single pass"
             : sp->strategy == GP_SCAN_CUB_INIT ? ", CUB's tile descriptors"
                                                : ", in order");
    emit_header(s, what, ld, sp->idx32);
    const char *ex = op_expr(s, op, ld, ld);
    if (!ex)
        return gp_set_error(GP_ERR_UNSUPPORTED, "ufunc %s has no expression for %s", op->name,
                            gp_dtypes[ld].name);
    gp_str_printf(s, "typedef %s gpk_acc;\n", ctype(ld));
    emit_combine(s, ex, ld, true);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index M, K, NT;\n");
    if (sp->nother)
        gp_str_printf(s, "  gpk_index oshape[%d], oin[%d], oout[%d];\n", sp->nother, sp->nother,
                      sp->nother);
    gp_str_puts(s, "  gpk_index ain, aout;\n  const char *in;\n  char *out;\n"
                   "  unsigned long long *state;\n  gpk_acc *agg, *inc;\n};\n");
    if (sp->strategy >= GP_SCAN_CUB) {
        emit_scan_cub(s, sp, name);
        return check_overflow(name);
    }
    gp_str_printf(s, "%s(%s, struct gpk_params)\n{\n",
                  sp->strategy == GP_SCAN_TILES ? "GPK_SCAN_KERNEL" : "GPK_KERNEL", name);
    if (sp->strategy == GP_SCAN_TILES) {
        char neutral[2 * EXPR_MAX];
        neutral_expr(op->neutral, ld, neutral);
        emit_scan_tiles(s, sp, neutral);
        gp_str_puts(s, "}\n");
        return check_overflow(name);
    }
    /* in order, a thread a line */
    char e[EXPR_MAX];
    const char *offs[2] = {"ib", "ob"}, *str[2] = {"oin", "oout"};
    gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, t, p.M) {\ngpk_idx ib = 0, ob = 0;\n");
    emit_decompose(s, "t", sp->nother, "oshape", 2, offs, str);
    load_expr(sp->in_dt, ld, "p.in + ib", e);
    gp_str_printf(s, "gpk_acc acc = %s;\n", e);
    emit_store(s, sp->out_dt, ld, "p.out + ob", "acc");
    gp_str_puts(s, "for (gpk_idx k = 1; k < (gpk_idx)p.K; ++k) {\n");
    load_expr(sp->in_dt, ld, "p.in + ib + k * (gpk_idx)p.ain", e);
    gp_str_printf(s, "acc = gpk_combine(acc, %s);\n", e);
    emit_store(s, sp->out_dt, ld, "p.out + ob + k * (gpk_idx)p.aout", "acc");
    gp_str_puts(s, "}\n}\n}\n");
    return check_overflow(name);
}

/* ---- matrix products ---------------------------------------------------------------- */

gp_status_t gp_gen_gemm(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_gemm_spec_t *sp = vspec;
    int32_t ld = sp->loop_dt;
    snprintf(name, name_size, "gpk_gemm_%s_%s_%s_%s", gp_dtypes[ld].suffix,
             gp_dtypes[sp->a_dt].suffix, gp_dtypes[sp->b_dt].suffix, gp_dtypes[sp->c_dt].suffix);
    const gp_op_t *mul = &gp_ufuncs[gp_ufunc_id("multiply")], *add = &gp_ufuncs[gp_ufunc_id("add")];
    const char *emul = op_expr(s, mul, ld, ld), *eadd = op_expr(s, add, ld, ld);
    if (!emul || !eadd)
        return gp_set_error(GP_ERR_UNSUPPORTED, "no matrix product for %s", gp_dtypes[ld].name);
    emit_header(s, "matrix product", ld, sp->idx32);
    /* the sum of products from the op table's multiply and add */
    gp_str_printf(s, "GPK_FN %s gpk_mul_(%s x0, %s x1) { return (%s)(%s); }\n", ctype(ld),
                  ctype(ld), ctype(ld), ctype(ld), emul);
    gp_str_printf(s, "GPK_FN %s gpk_add_(%s x0, %s x1) { return (%s)(%s); }\n", ctype(ld),
                  ctype(ld), ctype(ld), ctype(ld), eadd);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index M, N, K, B;\n");
    if (sp->nbatch)
        gp_str_printf(s, "  gpk_index bshape[%d], ba[%d], bb[%d], bc[%d];\n", sp->nbatch,
                      sp->nbatch, sp->nbatch, sp->nbatch);
    gp_str_puts(s, "  gpk_index am, ak, bk, bn, cm, cn;\n  const char *a;\n  const char *b;\n"
                   "  char *c;\n};\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, t, p.B * p.M * p.N) {\n"
                   "gpk_idx n = t % (gpk_idx)p.N, r = t / (gpk_idx)p.N;\n"
                   "gpk_idx m = r % (gpk_idx)p.M, bi = r / (gpk_idx)p.M;\n"
                   "gpk_idx oa = m * (gpk_idx)p.am, ob = n * (gpk_idx)p.bn;\n"
                   "gpk_idx oc = m * (gpk_idx)p.cm + n * (gpk_idx)p.cn;\n");
    const char *offs[3] = {"oa", "ob", "oc"}, *str[3] = {"ba", "bb", "bc"};
    emit_decompose(s, "bi", sp->nbatch, "bshape", 3, offs, str);
    char zero[2 * EXPR_MAX], xa[EXPR_MAX], xb[EXPR_MAX];
    neutral_expr(GP_NEUTRAL_ZERO, ld, zero);
    load_expr(sp->a_dt, ld, "p.a + oa + k * (gpk_idx)p.ak", xa);
    load_expr(sp->b_dt, ld, "p.b + ob + k * (gpk_idx)p.bk", xb);
    gp_str_printf(s, "%s acc = %s;\n", ctype(ld), zero);
    gp_str_printf(s, "for (gpk_idx k = 0; k < (gpk_idx)p.K; ++k)\n"
                     "  acc = gpk_add_(acc, gpk_mul_(%s, %s));\n", xa, xb);
    emit_store(s, sp->c_dt, ld, "p.c + oc", "acc");
    gp_str_puts(s, "}\n}\n");
    return check_overflow(name);
}

/* ---- advanced indexing ---------------------------------------------------------------- */

gp_status_t gp_gen_gather(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_gather_spec_t *sp = vspec;
    int k = sp->nidx, nb = sp->nb, nr = sp->nr, nd = nb + nr;
    snprintf(name, name_size, "gpk_%s_%s_k%d_b%d_r%d_m%d%s",
             sp->check_only ? "idxcheck" : sp->scatter == 2 ? "scatteradd" :
             sp->scatter ? "scatter" : "gather",
             gp_dtypes[sp->dt].suffix, k, nb, nr, sp->mode, sp->idx32 ? "_32" : "");
    char what[64];
    snprintf(what, sizeof what, "%s", sp->scatter == 2 ? "scatter-add (a[idx] += v)" :
             sp->scatter ? "scatter (a[idx] = v)" : "gather (a[idx])");
    emit_header(s, what, sp->dt, sp->idx32);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n;\n");
    if (nd)
        gp_str_printf(s, "  gpk_index shape[%d], os[%d];\n", nd, nd);
    if (nr)
        gp_str_printf(s, "  gpk_index as[%d];\n", nr);
    gp_str_printf(s, "  gpk_index alen[%d], astr[%d], axis[%d];\n", k, k, k);
    if (nb)
        gp_str_printf(s, "  gpk_index is[%d][%d];\n", k, nb);
    gp_str_printf(s, "  const char *ip[%d];\n  %schar *o;\n  %schar *a;\n  long long *rec;\n};\n", k,
                  sp->scatter ? "const " : "", sp->scatter ? "" : "const ");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    /* a checked scatter runs after the pass that checked its indices
     * (index.c), and writes nothing once the record holds an error */
    if (sp->scatter && sp->mode == GP_TAKE_RAISE && !sp->check_only)
        gp_str_puts(s, "if (*(volatile const long long *)p.rec) return;\n");
    gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, i, p.n) {\ngpk_idx oo = 0, ao = 0;\n");
    for (int j = 0; j < k; ++j)
        gp_str_printf(s, "gpk_idx io%d = 0;\n", j);
    if (nd) {
        gp_str_puts(s, "{ gpk_idx r_ = i, c_;\n");
        for (int d = nd - 1; d >= 0; --d) {
            if (d > 0)
                gp_str_printf(s, "  c_ = r_ %% (gpk_idx)p.shape[%d]; r_ /= (gpk_idx)p.shape[%d];\n",
                              d, d);
            else
                gp_str_puts(s, "  c_ = r_;\n");
            gp_str_printf(s, "  oo += c_ * (gpk_idx)p.os[%d];\n", d);
            if (d < nb)
                for (int j = 0; j < k; ++j)
                    gp_str_printf(s, "  io%d += c_ * (gpk_idx)p.is[%d][%d];\n", j, j, d);
            else
                gp_str_printf(s, "  ao += c_ * (gpk_idx)p.as[%d];\n", d - nb);
        }
        gp_str_puts(s, "}\n");
    }
    gp_str_puts(s, "int ok = 1;\n");
    char e[EXPR_MAX], addr[64];
    for (int j = 0; j < k; ++j) {
        snprintf(addr, sizeof addr, "p.ip[%d] + io%d", j, j);
        load_expr(sp->idx_dt[j], GP_INT64, addr, e);
        gp_str_printf(s, "{\nconst long long v = (long long)(%s), n_ = (long long)p.alen[%d];\n",
                      e, j);
        switch (sp->mode) {
        case GP_TAKE_WRAP:
            gp_str_puts(s, "long long w = v % n_;\nif (w < 0) w += n_;\n");
            break;
        case GP_TAKE_CLIP:
            gp_str_puts(s, "const long long w = v < 0 ? 0 : v >= n_ ? n_ - 1 : v;\n");
            break;
        default:
            gp_str_printf(s, "const long long w = v < 0 ? v + n_ : v;\n"
                             "if (w < 0 || w >= n_) {\n"
                             "gpk_index_error(p.rec, v, (long long)p.axis[%d], n_);\nok = 0;\n}\n",
                          j);
        }
        gp_str_printf(s, "ao += (gpk_idx)w * (gpk_idx)p.astr[%d];\n}\n", j);
    }
    if (!sp->check_only) {
        gp_str_puts(s, "if (ok) {\n");
        if (sp->scatter) {
            load_expr(sp->val_dt, sp->dt, "p.o + oo", e);
            gp_str_printf(s, "const %s x = %s;\n", ctype(sp->dt), e);
            if (sp->scatter == 2 && gp_dtype_kind(sp->dt) == GP_KIND_COMPLEX) {
                const char *part = sp->dt == GP_COMPLEX64 ? "gpk_f32" : "gpk_f64";
                gp_str_printf(s, "GPK_ATOMIC_ADD((%s *)(p.a + ao), x.re);\n"
                                 "GPK_ATOMIC_ADD((%s *)(p.a + ao) + 1, x.im);\n", part, part);
            } else if (sp->scatter == 2) {
                gp_str_printf(s, "GPK_ATOMIC_ADD((%s *)(p.a + ao), x);\n",
                              gp_dtypes[sp->dt].storage);
            } else {
                emit_store(s, sp->dt, sp->dt, "p.a + ao", "x");
            }
        } else {
            const char *t = gp_dtypes[sp->dt].storage;
            gp_str_printf(s, "*(%s *)(p.o + oo) = *(const %s *)(p.a + ao);\n", t, t);
        }
        gp_str_puts(s, "}\n");
    } else {
        gp_str_puts(s, "(void)ok; (void)oo; (void)ao;\n");
    }
    gp_str_puts(s, "}\n}\n");
    return check_overflow(name);
}

gp_status_t gp_gen_nonzero(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    const gp_nonzero_spec_t *sp = vspec;
    int nd = sp->ndim;
    if (sp->stage == GP_NZ_COUNT)
        snprintf(name, name_size, "gpk_nonzero_count");
    else if (sp->stage == GP_NZ_COORDS)
        snprintf(name, name_size, "gpk_nonzero_%d%s", nd, sp->idx32 ? "_32" : "");
    else
        snprintf(name, name_size, "gpk_nonzero_values_%s", csuffix(sp->dt));
    emit_header(s, "nonzero", GP_BOOL, sp->idx32);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index n, count;\n");
    if (sp->stage == GP_NZ_COORDS)
        gp_str_printf(s, "  gpk_index shape[%d];\n", nd);
    gp_str_puts(s, "  const gpk_b *m;\n  long long *pos;\n");
    if (sp->stage == GP_NZ_COORDS)
        gp_str_puts(s, "  long long *out;\n");
    if (sp->stage == GP_NZ_VALUES) {
        const char *t = gp_dtypes[sp->dt].storage;
        gp_str_printf(s, "  const %s *GPK_RESTRICT a;\n  %s *GPK_RESTRICT out;\n", t, t);
    }
    gp_str_puts(s, "};\n");
    gp_str_puts(s, "GPK_FN long long gpk_nz_add(long long a, long long b) { return a + b; }\n");
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    /* A tile per block at a time. Warp w of a block takes the tile's w-th
     * stretch of R * GPK_WARP elements in R rounds, a lane element l of each
     * round: every load is a warp's consecutive elements, and the lanes'
     * ballot of a round ranks its true elements in C order. On the host a
     * block is one thread and a round one element. */
    gp_str_printf(s, "const gpk_index tile = %d, ntiles = (p.n + tile - 1) / tile;\n"
                     "enum { R = %d / GPK_TILE_THREADS };\n"
                     "const int lane = (int)(GPK_THREAD_ID %% GPK_WARP);\n"
                     "for (gpk_index t = GPK_BLOCK_ID; t < ntiles; t += GPK_NUM_BLOCKS) {\n"
                     "const gpk_index lo = t * tile + (GPK_THREAD_ID - lane) * R + lane;\n"
                     "long long c = 0;\n"
                     "GPK_UNROLL for (int r = 0; r < R; ++r) {\n"
                     "const gpk_index i = lo + (gpk_index)r * GPK_WARP;\n"
                     "c += i < p.n && p.m[i] != 0;\n}\n", GP_NONZERO_TILE, GP_NONZERO_TILE);
    if (sp->stage == GP_NZ_COUNT) {
        gp_str_puts(s, "GPK_BLOCK_REDUCE(long long, gpk_nz_add, c);\n"
                       "if (GPK_THREAD_ID == 0)\n  p.pos[t] = c;\n}\n}\n");
        return check_overflow(name);
    }
    /* the warp's first output: the tile's (the running count of the tiles
     * before it) and the count of the warps before it in the tile. Then G
     * rounds at a time, every load of them issued before the first store */
    gp_str_puts(s, "long long excl, total;\n"
                   "GPK_BLOCK_SCAN_EX(long long, gpk_nz_add, c, excl, total);\n"
                   "(void)total;\n"
                   "long long q = (t ? p.pos[t - 1] : 0) + "
                   "gpk_shfl_idx(GPK_THREAD_ID ? excl : 0, 0);\n"
                   "enum { G = R < 16 ? R : 16 };\n"
                   "for (int r0 = 0; r0 < R; r0 += G) {\n"
                   "int f[G];\n");
    if (sp->stage == GP_NZ_VALUES)
        gp_str_printf(s, "%s v[G];\n", gp_dtypes[sp->dt].storage);
    gp_str_puts(s, "GPK_UNROLL for (int g = 0; g < G; ++g) {\n"
                   "const gpk_index i = lo + (gpk_index)(r0 + g) * GPK_WARP;\n"
                   "f[g] = i < p.n && p.m[i] != 0;\n");
    if (sp->stage == GP_NZ_VALUES)
        gp_str_puts(s, "if (f[g])\n  v[g] = p.a[i];\n");
    gp_str_puts(s, "}\n"
                   "GPK_UNROLL for (int g = 0; g < G; ++g) {\n"
                   "const unsigned long long b = GPK_BALLOT(f[g]);\n"
                   "if (f[g]) {\n"
                   "const long long at = q + GPK_POPC64(b & GPK_LANES_BELOW);\n");
    if (sp->stage == GP_NZ_VALUES) {
        gp_str_puts(s, "p.out[at] = v[g];\n");
    } else {
        gp_str_puts(s, "gpk_idx r_ = (gpk_idx)(lo + (gpk_index)(r0 + g) * GPK_WARP), c_;\n");
        for (int d = nd - 1; d >= 0; --d) {
            if (d > 0)
                gp_str_printf(s, "c_ = r_ %% (gpk_idx)p.shape[%d]; r_ /= (gpk_idx)p.shape[%d];\n",
                              d, d);
            else
                gp_str_puts(s, "c_ = r_;\n");
            gp_str_printf(s, "p.out[%d * p.count + at] = (long long)c_;\n", d);
        }
    }
    gp_str_puts(s, "}\nq += GPK_POPC64(b);\n}\n}\n}\n}\n");
    return check_overflow(name);
}

/* ---- users' kernels --------------------------------------------------------------------- */

static void emit_user_types(gp_str_t *s, const gp_user_desc_t *d)
{
    for (int32_t k = 0; k < d->ntypes; ++k)
        gp_str_printf(s, "typedef %s %s;\n", ctype(d->type_dtypes[k]), d->type_names[k]);
    if (d->preamble && d->preamble[0])
        gp_str_printf(s, "%s\n", d->preamble);
}

static void user_name(const gp_user_desc_t *d, const char *prefix, char *name, size_t n)
{
    /* a C identifier from the user's name */
    size_t used = (size_t)snprintf(name, n, "%s", prefix);
    for (const char *c = d->name ? d->name : "kernel"; *c && used + 1 < n; ++c)
        name[used++] = (char)((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                                      (*c >= '0' && *c <= '9') ? *c : '_');
    name[used] = '\0';
}

/* The user's statements, with CuPy's `_ind.size()` (the number of
 * elements) spelled in C so that the code also builds on the host. The
 * generated names a user's code can see all start with gpk_ (the parameter
 * struct is gpk_p), so any other name is the user's. */
static void emit_user_operation(gp_str_t *s, const char *op)
{
    static const char ind_size[] = "_ind.size()";
    gp_str_puts(s, "{\n");
    for (const char *hit; (hit = strstr(op, ind_size)) != NULL; op = hit + sizeof ind_size - 1) {
        gp_str_printf(s, "%.*s", (int)(hit - op), op);
        gp_str_puts(s, "((gpk_idx)gpk_p.n)");
    }
    gp_str_printf(s, "%s;\n}\n", op);
}

gp_status_t gp_gen_user_ew(const void *vd, char *name, size_t name_size, gp_str_t *s)
{
    const gp_user_desc_t *d = vd;
    int32_t nd = d->ndim;
    user_name(d, "gpk_user_", name, name_size);
    gp_str_printf(s, "/* user elementwise kernel %s */\n", d->name ? d->name : "");
    gp_str_printf(s, "typedef %s gpk_idx;\n", d->idx32 ? "int" : "long long");
    emit_user_types(s, d);
    gp_str_printf(s, "struct gpk_params {\n  gpk_index n;\n  gpk_index shape[%d];\n", nd ? nd : 1);
    for (int32_t k = 0; k < d->nparams; ++k) {
        const gp_user_param_t *q = &d->params[k];
        const char *cq = q->output ? "" : "const ";
        if (q->kind == GP_PARAM_SCALAR)
            gp_str_printf(s, "  %s v%d;\n", ctype(q->dtype), k);
        else if (q->kind == GP_PARAM_RAW)
            gp_str_printf(s, "  %s%s *p%d;\n", cq, gp_dtypes[d->dtypes[k]].storage, k);
        else
            gp_str_printf(s, "  %schar *p%d;\n  gpk_index s%d[%d];\n", cq, k, k, nd ? nd : 1);
    }
    gp_str_puts(s, "};\n");
    gp_str_printf(s, "GPK_KERNEL_ARG(%s, struct gpk_params, gpk_p)\n{\n", name);
    /* scalars and raw arrays are the kernel's, as in CuPy: loop_prep and
     * after_loop see them too */
    for (int32_t k = 0; k < d->nparams; ++k) {
        const gp_user_param_t *q = &d->params[k];
        if (q->kind == GP_PARAM_SCALAR)
            gp_str_printf(s, "const %s %s = gpk_p.v%d;\n", ctype(q->dtype), q->name, k);
        else if (q->kind == GP_PARAM_RAW)
            gp_str_printf(s, "%s%s *const %s = gpk_p.p%d;\n", q->output ? "" : "const ",
                          gp_dtypes[d->dtypes[k]].storage, q->name, k);
    }
    if (d->loop_prep && d->loop_prep[0])
        gp_str_printf(s, "%s;\n", d->loop_prep);
    gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, i, gpk_p.n) {\n");
    const char *offs[64], *str[64];
    char ob[64][16], sb[64][16];
    int n = 0;
    for (int32_t k = 0; k < d->nparams && k < 64; ++k) {
        if (d->params[k].kind != GP_PARAM_ARRAY)
            continue;
        snprintf(ob[n], sizeof ob[n], "gpk_o%d", k);
        snprintf(sb[n], sizeof sb[n], "s%d", k);
        offs[n] = ob[n];
        str[n] = sb[n];
        gp_str_printf(s, "gpk_idx gpk_o%d = 0;\n", k);
        ++n;
    }
    emit_decompose_in(s, "gpk_p", "i", nd, "shape", n, offs, str);
    char e[EXPR_MAX], addr[64];
    for (int32_t k = 0; k < d->nparams; ++k) {
        const gp_user_param_t *q = &d->params[k];
        if (q->kind != GP_PARAM_ARRAY)
            continue;
        /* an output starts as its element's value, as CuPy's references do
         * ('T x', 'T y', 'y += x'); where the operation only writes it, the
         * load is dead code and the compiler drops it */
        snprintf(addr, sizeof addr, "gpk_p.p%d + gpk_o%d", k, k);
        load_expr(d->dtypes[k], q->dtype, addr, e);
        gp_str_printf(s, "%s%s %s = %s;\n", q->output ? "" : "const ", ctype(q->dtype), q->name, e);
    }
    emit_user_operation(s, d->operation);
    for (int32_t k = 0; k < d->nparams; ++k) {
        const gp_user_param_t *q = &d->params[k];
        if (q->kind != GP_PARAM_ARRAY || !q->output)
            continue;
        snprintf(addr, sizeof addr, "gpk_p.p%d + gpk_o%d", k, k);
        emit_store(s, d->dtypes[k], q->dtype, addr, q->name);
    }
    gp_str_puts(s, "}\n");
    if (d->after_loop && d->after_loop[0])
        gp_str_printf(s, "%s;\n", d->after_loop);
    gp_str_puts(s, "}\n");
    return check_overflow(name);
}

gp_status_t gp_gen_user_red(const void *vd, char *name, size_t name_size, gp_str_t *s)
{
    const gp_user_desc_t *d = vd;
    const gp_user_param_t *in = &d->params[0], *out = &d->params[1];
    user_name(d, "gpk_ured_", name, name_size);
    gp_str_printf(s, "/* user reduction kernel %s */\n", d->name ? d->name : "");
    gp_str_printf(s, "typedef %s gpk_idx;\n", d->idx32 ? "int" : "long long");
    emit_user_types(s, d);
    gp_str_printf(s, "typedef %s gpk_acc;\ntypedef gpk_acc _type_reduce;\n",
                  ctype(d->reduce_dtype));
    gp_str_printf(s, "GPK_FN gpk_acc gpk_combine(gpk_acc a, gpk_acc b) { return (gpk_acc)(%s); }\n",
                  d->reduce_expr);
    gp_str_puts(s, "struct gpk_params {\n  gpk_index M, K;\n");
    if (d->ndim)
        gp_str_printf(s, "  gpk_index kshape[%d], kin[%d], kout[%d];\n", d->ndim, d->ndim, d->ndim);
    gp_str_printf(s, "  gpk_index rshape[%d], rin[%d];\n  const char *in;\n  char *out;\n};\n",
                  d->nred, d->nred);
    gp_str_printf(s, "GPK_KERNEL_ARG(%s, struct gpk_params, gpk_p)\n{\n", name);
    if (d->block_per_out)
        gp_str_puts(s, "for (gpk_idx gpk_t = (gpk_idx)GPK_BLOCK_ID; gpk_t < (gpk_idx)gpk_p.M; "
                       "gpk_t += (gpk_idx)GPK_NUM_BLOCKS) {\n");
    else
        gp_str_puts(s, "GPK_GRID_LOOP(gpk_idx, gpk_t, gpk_p.M) {\n");
    gp_str_puts(s, "gpk_idx gpk_ib = 0, gpk_ob = 0;\n");
    const char *koffs[2] = {"gpk_ib", "gpk_ob"}, *kstr[2] = {"kin", "kout"};
    emit_decompose_in(s, "gpk_p", "gpk_t", d->ndim, "kshape", 2, koffs, kstr);
    gp_str_printf(s, "gpk_acc gpk_v = (gpk_acc)(%s);\n", d->identity);
    if (d->block_per_out)
        gp_str_puts(s, "for (gpk_idx gpk_k = (gpk_idx)GPK_THREAD_ID; gpk_k < (gpk_idx)gpk_p.K; "
                       "gpk_k += (gpk_idx)GPK_BLOCK_SIZE) {\n");
    else
        gp_str_puts(s, "for (gpk_idx gpk_k = 0; gpk_k < (gpk_idx)gpk_p.K; ++gpk_k) {\n");
    gp_str_puts(s, "gpk_idx gpk_ro = 0;\n");
    const char *roffs[1] = {"gpk_ro"}, *rstr[1] = {"rin"};
    emit_decompose_in(s, "gpk_p", "gpk_k", d->nred, "rshape", 1, roffs, rstr);
    char e[EXPR_MAX];
    load_expr(d->dtypes[0], in->dtype, "gpk_p.in + gpk_ib + gpk_ro", e);
    gp_str_printf(s, "const %s %s = %s;\n(void)%s;\n", ctype(in->dtype), in->name, e, in->name);
    gp_str_printf(s, "gpk_v = gpk_combine(gpk_v, (gpk_acc)(%s));\n}\n", d->operation);
    if (d->block_per_out)
        gp_str_puts(s, "GPK_BLOCK_REDUCE(gpk_acc, gpk_combine, gpk_v);\n");
    gp_str_printf(s, "%s{\nconst gpk_acc a = gpk_v;\n%s %s;\n{\n%s;\n}\n",
                  d->block_per_out ? "if (GPK_THREAD_ID == 0) " : "", ctype(out->dtype),
                  out->name, d->post_map);
    emit_store(s, d->dtypes[1], out->dtype, "gpk_p.out + gpk_ob", out->name);
    gp_str_puts(s, "}\n}\n}\n");
    return check_overflow(name);
}

/* ---- random fills --------------------------------------------------------------------- */

/* y[k] = a + b v for the float32 value `v` (a format with one %d, the
 * word): in double as NumPy's scale and shift, or, `unit` (b is 1, a a zero
 * of either sign), v + a in float, which gives the same bits (v + a keeps
 * the sign rules of 0.0 + v) without the conversions to and from double. */
static void emit_affine32(gp_str_t *s, int k, const char *T, const char *v_fmt, int word,
                          bool unit)
{
    char v[160];
    snprintf(v, sizeof v, v_fmt, word);
    if (unit)
        gp_str_printf(s, "y[%d] = (%s)((%s) + (gpk_f32)p.a);\n", k, T, v);
    else
        gp_str_printf(s, "y[%d] = (%s)(p.a + p.b * (gpk_f64)(%s));\n", k, T, v);
}

/* One grid-stride loop: a thread per counter block j, the block's words x
 * (attempt 0), the block's elements y[0..E-1] from them, stored at E*j..
 * (one vector store when the block is whole and the output aligned). */
static gp_status_t emit_random_loop(gp_str_t *s, const gp_rand_spec_t *sp, bool unit)
{
    int32_t dt = sp->out_dt, e = sp->per_block;
    const char *T = gp_dtypes[dt].storage;
    gp_str_printf(s, "GPK_GRID_LOOP(gpk_index, j, p.nblocks) {\n"
                     "const gpk_u32x4 x = gpk_philox_block(p.g, (gpk_u64)j, 0u);\n"
                     "%s y[%d];\n", T, e);
    /* the k-th 64-bit word of the block */
#define W64 "gpk_rng_u64(x.v[%d], x.v[%d])"
    for (int k = 0; k < e; ++k) {
        int w0 = sp->wide || e == 2 ? 2 * k : k;
        switch (sp->dist) {
        case GP_RANDOM_BITS:
            if (sp->wide)
                gp_str_printf(s, "y[%d] = " W64 ";\n", k, w0, w0 + 1);
            else
                gp_str_printf(s, "y[%d] = x.v[%d];\n", k, k);
            break;
        case GP_RANDOM_UNIFORM:
            if (e == 4)
                emit_affine32(s, k, T, "(gpk_f32)(x.v[%d] >> 8) * 5.9604644775390625e-08f", k, unit);
            else
                gp_str_printf(s, "y[%d] = (%s)(p.a + p.b * gpk_rng_unit53(" W64 "));\n", k, T, w0,
                              w0 + 1);
            break;
        case GP_RANDOM_INTEGERS: {
            char r[256];
            if (sp->wide)
                snprintf(r, sizeof r, "gpk_rng_bounded64(p.g, (gpk_u64)j, %d, " W64 ", p.range1)",
                         k, w0, w0 + 1);
            else
                snprintf(r, sizeof r,
                         "(gpk_u64)gpk_rng_bounded32(p.g, (gpk_u64)j, %d, x.v[%d], "
                         "(gpk_u32)p.range1)", k, k);
            if (dt == GP_BOOL)
                gp_str_printf(s, "y[%d] = (gpk_b)((p.low + %s) != 0);\n", k, r);
            else
                gp_str_printf(s, "y[%d] = (%s)(p.low + %s);\n", k, T, r);
            break;
        }
        case GP_RANDOM_NORMAL:
            if (e == 4 && k % 2 == 0) { /* float32: a pair from words k and k + 1 */
                gp_str_printf(s, "{\nconst gpk_f32 r = gpk_rng_sqrtf(2.0f * (0.0f - gpk_rng_logf("
                                 "gpk_rng_unit32_open0(x.v[%d]))));\n"
                                 "const gpk_f32x2 sc = gpk_rng_sincos2pif("
                                 "(gpk_f32)(x.v[%d] >> 8) * 5.9604644775390625e-08f);\n",
                              k, k + 1);
                emit_affine32(s, k, T, "r * sc.v[1]", 0, unit);
                emit_affine32(s, k + 1, T, "r * sc.v[0]", 0, unit);
                gp_str_puts(s, "}\n");
            } else if (e == 2 && k == 0)
                gp_str_printf(s, "{\nconst gpk_f64 r = gpk_rng_sqrt(2.0 * (0.0 - gpk_rng_log("
                                 "gpk_rng_unit53_open0(" W64 "))));\n"
                                 "const gpk_f64x2 sc = gpk_rng_sincos2pi(gpk_rng_unit53(" W64
                                 "));\n"
                                 "y[0] = (%s)(p.a + p.b * (r * sc.v[1]));\n"
                                 "y[1] = (%s)(p.a + p.b * (r * sc.v[0]));\n}\n",
                              0, 1, 2, 3, T, T);
            break;
        case GP_RANDOM_EXPONENTIAL:
            if (e == 4)
                emit_affine32(s, k, T, "0.0f - gpk_rng_logf(gpk_rng_unit32_open0(x.v[%d]))", k,
                              unit);
            else
                gp_str_printf(s, "y[%d] = (%s)(p.a + p.b * (0.0 - gpk_rng_log("
                                 "gpk_rng_unit53_open0(" W64 "))));\n", k, T, w0, w0 + 1);
            break;
        default:
            return gp_set_error(GP_ERR_VALUE, "unknown random distribution %d", sp->dist);
        }
    }
#undef W64
    gp_str_printf(s, "const gpk_index i0 = j * %d;\n", e);
    if (sp->vec)
        gp_str_printf(s, "if (i0 + %d <= p.n) {\ngpk_rvec w;\n"
                         "for (int k = 0; k < %d; ++k) w.v[k] = y[k];\n"
                         "*(gpk_rvec *)(p.out + i0) = w;\n} else\n", e, e);
    gp_str_printf(s, "for (int k = 0; k < %d; ++k)\n  if (i0 + k < p.n) p.out[i0 + k] = y[k];\n"
                     "}\n", e);
    return GP_OK;
}

gp_status_t gp_gen_random(const void *vspec, char *name, size_t name_size, gp_str_t *s)
{
    static const char *const dists[] = {"bits", "uniform", "integers", "normal", "exponential"};
    const gp_rand_spec_t *sp = vspec;
    int32_t dt = sp->out_dt, e = sp->per_block;
    const char *T = gp_dtypes[dt].storage;
    snprintf(name, name_size, "gpk_random_%s_%s%s%s", dists[sp->dist], gp_dtypes[dt].suffix,
             sp->wide ? "_w" : "", sp->vec ? "_v" : "");
    gp_str_printf(s, "/* random %s -> %s */\n", dists[sp->dist], gp_dtypes[dt].name);
    gp_str_printf(s, "struct gpk_params {\n  gpk_index n, nblocks;\n  gpk_f64 a, b;\n"
                     "  gpk_u64 low, range1;\n  gpk_philox g;\n  %s *out;\n};\n", T);
    if (sp->vec)
        gp_str_printf(s, "typedef struct { GPK_ALIGN(%d) %s v[%d]; } gpk_rvec;\n",
                      e * gp_dtypes[dt].itemsize, T, e);
    gp_str_printf(s, "GPK_KERNEL(%s, struct gpk_params)\n{\n", name);
    bool float32 = dt == GP_FLOAT32 && (sp->dist == GP_RANDOM_UNIFORM ||
                                        sp->dist == GP_RANDOM_NORMAL ||
                                        sp->dist == GP_RANDOM_EXPONENTIAL);
    if (float32) {
        /* standard_normal, random...: a loop of their own, as a branch per
         * element made the compiler compute the double path too (random
         * fell from 3.31 to 2.84 TB/s on the H200) */
        gp_str_puts(s, "if (p.b == 1.0 && p.a == 0.0) {\n");
        GP_TRY(emit_random_loop(s, sp, true));
        gp_str_puts(s, "} else {\n");
    }
    GP_TRY(emit_random_loop(s, sp, false));
    gp_str_puts(s, float32 ? "}\n}\n" : "}\n");
    return GP_OK;
}
