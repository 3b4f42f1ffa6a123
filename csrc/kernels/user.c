/*
 * user.c - users' kernels: raw modules (CUDA source through the run-time
 * compiler and its cache), elementwise kernels from expressions (through
 * the code generator, so on every backend), and graphs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../memory/memory.h"
#include "kernels.h"

#define GP_MODULE_MAGIC 0x47504d64u   /* "GPMd" */
#define GP_FUNCTION_MAGIC 0x47504675u /* "GPFu" */
#define GP_GRAPH_MAGIC 0x47504772u    /* "GPGr" */

struct gp_function {
    uint32_t magic;
    void *fn;
    struct gp_function *next;
    char name[];
};

struct gp_module {
    uint32_t magic;
    void *native;
    int32_t nnames;
    char **exprs;
    char **lowered;
    gp_function_t *funcs;
};

struct gp_graph {
    uint32_t magic;
    int32_t device;
    void *exec;
    void *retained;
};

static bool module_ok(const gp_module_t *m) { return m && m->magic == GP_MODULE_MAGIC; }
static bool function_ok(const gp_function_t *f) { return f && f->magic == GP_FUNCTION_MAGIC; }

static gp_status_t new_module(void *native, int32_t n, const char *const *exprs, char **lowered,
                              gp_module_t **out)
{
    gp_module_t *m = calloc(1, sizeof *m);
    if (!m)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a module");
    m->magic = GP_MODULE_MAGIC;
    m->native = native;
    m->nnames = n;
    m->exprs = calloc((size_t)n + 1, sizeof *m->exprs);
    m->lowered = lowered;
    if (!m->exprs) {
        free(m);
        return gp_set_error(GP_ERR_NOMEM, "out of host memory for a module");
    }
    for (int32_t k = 0; k < n; ++k)
        m->exprs[k] = strdup(exprs[k]);
    *out = m;
    return GP_OK;
}

GP_API gp_status_t gp_module_compile(const char *source, int32_t noptions,
                                     const char *const *options, int32_t nnames,
                                     const char *const *name_expressions, gp_module_t **out)
{
    if (!out || !source || (noptions > 0 && !options) || (nnames > 0 && !name_expressions) ||
        noptions < 0 || nnames < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_module_compile: invalid argument");
    *out = NULL;
    char **lowered = calloc((size_t)nnames + 1, sizeof *lowered);
    if (!lowered)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    void *native;
    gp_status_t s = gp_user_module_get(source, noptions, options, nnames, name_expressions,
                                       &native, lowered);
    if (s == GP_OK)
        s = new_module(native, nnames, name_expressions, lowered, out);
    if (s != GP_OK) {
        for (int32_t k = 0; k < nnames; ++k)
            free(lowered[k]);
        free(lowered);
    }
    return s;
}

GP_API gp_status_t gp_module_load(const void *image, int64_t size, gp_module_t **out)
{
    if (!out || !image || size <= 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_module_load: invalid argument");
    *out = NULL;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    if (!be->compile_user)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend does not load GPU modules",
                            be->name);
    /* the driver reads PTX up to its terminating NUL: give it one */
    gp_blob_t img = {malloc((size_t)size + 1), (size_t)size};
    if (!img.data)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    memcpy(img.data, image, (size_t)size);
    ((char *)img.data)[size] = '\0';
    void *native;
    gp_status_t s = be->module_load(&img, &native);
    free(img.data);
    if (s == GP_OK) {
        char **lowered = calloc(1, sizeof *lowered);
        s = lowered ? new_module(native, 0, NULL, lowered, out)
                    : gp_set_error(GP_ERR_NOMEM, "out of host memory");
    }
    return s;
}

GP_API gp_status_t gp_module_destroy(gp_module_t *m)
{
    if (!m)
        return GP_OK;
    if (!module_ok(m))
        return gp_set_error(GP_ERR_MISUSE, "invalid module handle");
    for (int32_t k = 0; k < m->nnames; ++k) {
        free(m->exprs[k]);
        free(m->lowered[k]);
    }
    free(m->exprs);
    free(m->lowered);
    for (gp_function_t *f = m->funcs, *next; f; f = next) {
        next = f->next;
        f->magic = GP_DEAD_MAGIC;
        free(f);
    }
    m->magic = GP_DEAD_MAGIC;
    free(m);
    return GP_OK;
}

GP_API gp_status_t gp_module_lowered_name(gp_module_t *m, const char *name_expression,
                                          const char **out)
{
    if (!module_ok(m) || !name_expression || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_module_lowered_name: invalid argument");
    for (int32_t k = 0; k < m->nnames; ++k)
        if (strcmp(m->exprs[k], name_expression) == 0) {
            *out = m->lowered[k];
            return GP_OK;
        }
    *out = NULL;
    return gp_set_error(GP_ERR_VALUE, "'%s' was not among the module's name expressions",
                        name_expression);
}

GP_API gp_status_t gp_module_get_function(gp_module_t *m, const char *name, gp_function_t **out)
{
    if (!module_ok(m) || !name || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_module_get_function: invalid argument");
    *out = NULL;
    for (gp_function_t *f = m->funcs; f; f = f->next)
        if (strcmp(f->name, name) == 0) {
            *out = f;
            return GP_OK;
        }
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    void *fn;
    if (be->module_function(m->native, name, &fn) != GP_OK)
        return gp_set_error(GP_ERR_VALUE, "the module has no kernel named '%s'", name);
    gp_function_t *f = malloc(sizeof *f + strlen(name) + 1);
    if (!f)
        return gp_set_error(GP_ERR_NOMEM, "out of host memory");
    f->magic = GP_FUNCTION_MAGIC;
    f->fn = fn;
    strcpy(f->name, name);
    f->next = m->funcs;
    m->funcs = f;
    *out = f;
    return GP_OK;
}

GP_API gp_status_t gp_function_get_attribute(gp_function_t *f, int32_t attr, int32_t *out)
{
    if (!function_ok(f) || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_function_get_attribute: invalid argument");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return be->function_attribute(f->fn, attr, 0, out);
}

GP_API gp_status_t gp_function_set_attribute(gp_function_t *f, int32_t attr, int32_t value)
{
    if (!function_ok(f))
        return gp_set_error(GP_ERR_MISUSE, "invalid kernel handle");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    return be->function_attribute(f->fn, attr, 1, &value);
}

GP_API gp_status_t gp_function_launch(gp_function_t *f, uint32_t grid_x, uint32_t grid_y,
                                      uint32_t grid_z, uint32_t block_x, uint32_t block_y,
                                      uint32_t block_z, uint32_t shared_mem, gp_stream_t *s,
                                      int32_t nargs, const gp_kernel_arg_t *args)
{
    const uint32_t grid[3] = {grid_x, grid_y, grid_z}, block[3] = {block_x, block_y, block_z};
    if (!function_ok(f) || (nargs > 0 && !args) || nargs < 0)
        return gp_set_error(GP_ERR_MISUSE, "gp_function_launch: invalid argument");
    if (nargs > GP_MAX_KERNEL_ARGS)
        return gp_set_error(GP_ERR_VALUE, "a kernel takes at most %d arguments",
                            GP_MAX_KERNEL_ARGS);
    for (int k = 0; k < 3; ++k)
        if (grid[k] == 0 || block[k] == 0)
            return gp_set_error(GP_ERR_VALUE, "grid and block dimensions must be positive");
    void *ptrs[GP_MAX_KERNEL_ARGS], *argv[GP_MAX_KERNEL_ARGS];
    for (int32_t k = 0; k < nargs; ++k) {
        if (args[k].array) {
            GP_CHECK_ARRAY(args[k].array);
            ptrs[k] = gp_array_data(args[k].array);
            argv[k] = &ptrs[k];
        } else {
            argv[k] = (void *)args[k].bytes;
        }
    }
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    uint64_t native = 0;
    GP_TRY(gp_stream_native(s, &native));
    void *stream = s ? (void *)(uintptr_t)native : gp_current_stream();
    return be->launch_user(f->fn, grid, block, shared_mem, stream, argv);
}

/* ---- graphs ---------------------------------------------------------------------- */

GP_API gp_status_t gp_stream_begin_capture(gp_stream_t *s)
{
    if (!s)
        return gp_set_error(GP_ERR_VALUE, "graphs are captured from a stream other than the "
                                          "default one");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    if (!be->capture_begin)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no graphs", be->name);
    uint64_t native;
    GP_TRY(gp_stream_native(s, &native));
    GP_TRY(be->capture_begin((void *)(uintptr_t)native));
    gp_pool_capture_begin(gp_current_device(), (void *)(uintptr_t)native);
    return GP_OK;
}

GP_API gp_status_t gp_stream_end_capture(gp_stream_t *s, gp_graph_t **out)
{
    if (!s || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_stream_end_capture: invalid argument");
    *out = NULL;
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    if (!be->capture_end)
        return gp_set_error(GP_ERR_UNSUPPORTED, "the %s backend has no graphs", be->name);
    uint64_t native;
    GP_TRY(gp_stream_native(s, &native));
    void *exec = NULL;
    gp_status_t st = be->capture_end((void *)(uintptr_t)native, &exec);
    void *retained = gp_pool_capture_end(gp_current_device());
    gp_graph_t *g = st == GP_OK ? malloc(sizeof *g) : NULL;
    if (st == GP_OK && !g)
        st = gp_set_error(GP_ERR_NOMEM, "out of host memory for a graph");
    if (st != GP_OK) {
        if (exec)
            be->graph_destroy(exec);
        be->device_synchronize();
        gp_pool_capture_release(gp_current_device(), retained);
        return st;
    }
    g->magic = GP_GRAPH_MAGIC;
    g->device = gp_current_device();
    g->exec = exec;
    g->retained = retained;
    *out = g;
    return GP_OK;
}

GP_API gp_status_t gp_graph_launch(gp_graph_t *g, gp_stream_t *s)
{
    if (!g || g->magic != GP_GRAPH_MAGIC)
        return gp_set_error(GP_ERR_MISUSE, "invalid graph handle");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    uint64_t native = 0;
    GP_TRY(gp_stream_native(s, &native));
    return be->graph_launch(g->exec, s ? (void *)(uintptr_t)native : gp_current_stream());
}

GP_API gp_status_t gp_graph_destroy(gp_graph_t *g)
{
    if (!g)
        return GP_OK;
    if (g->magic != GP_GRAPH_MAGIC)
        return gp_set_error(GP_ERR_MISUSE, "invalid graph handle");
    const gp_backend_i *be;
    GP_TRY(gp_backend(&be));
    gp_status_t s = be->device_synchronize(); /* the last replay is done */
    gp_status_t d = be->graph_destroy(g->exec);
    gp_pool_capture_release(g->device, g->retained);
    g->magic = GP_DEAD_MAGIC;
    free(g);
    return s != GP_OK ? s : d;
}

/* ---- elementwise kernels from expressions ---------------------------------------------- */

static gp_status_t copy_body(const void *ctx, char *name, size_t name_size, gp_str_t *body)
{
    const gp_str_t *src = ((const gp_str_t *const *)ctx)[0];
    const char *kname = ((const char *const *)ctx)[1];
    snprintf(name, name_size, "%s", kname);
    gp_str_putn(body, src->data, src->len);
    return GP_OK;
}

/* The kernel for a user kernel's generated source (which is its key). */
gp_status_t gp_user_kernel(const gp_user_desc_t *d, gp_kernel_gen_fn gen, const gp_kernel_t **k)
{
    gp_str_t body;
    gp_str_init(&body);
    char name[128];
    gp_status_t s = gen(d, name, sizeof name, &body);
    if (s == GP_OK && body.failed)
        s = gp_set_error(GP_ERR_NOMEM, "out of host memory generating a kernel");
    if (s == GP_OK) {
        const void *ctx[2] = {&body, name};
        s = gp_kernel_get(body.data, body.len, copy_body, ctx, k);
    }
    gp_str_free(&body);
    return s;
}

GP_API gp_status_t gp_elementwise_user(const char *name, const char *operation,
                                       const char *preamble, const char *loop_prep,
                                       const char *after_loop, int32_t ntypes,
                                       const char *const *type_names,
                                       const int32_t *type_dtypes, int64_t size,
                                       int32_t nparams, const gp_user_param_t *params,
                                       const gp_user_operand_t *operands)
{
    if (!operation || nparams < 1 || nparams > GP_MAX_OPERANDS || !params || !operands ||
        ntypes < 0 || (ntypes > 0 && (!type_names || !type_dtypes)))
        return gp_set_error(GP_ERR_MISUSE, "gp_elementwise_user: invalid argument");
    int32_t dts[GP_MAX_OPERANDS], ndims[GP_MAX_OPERANDS], nshapes = 0;
    const int64_t *shapes[GP_MAX_OPERANDS];
    for (int32_t k = 0; k < nparams; ++k) {
        const gp_user_param_t *q = &params[k];
        if (!q->name || !gp_dtype_valid(q->dtype))
            return gp_set_error(GP_ERR_VALUE, "parameter %d: no name or an invalid dtype", k);
        if (q->kind == GP_PARAM_SCALAR) {
            if (operands[k].array)
                return gp_set_error(GP_ERR_VALUE, "parameter '%s' takes a scalar", q->name);
            dts[k] = q->dtype;
            continue;
        }
        const gp_array_t *a = operands[k].array;
        GP_CHECK_ARRAY(a);
        dts[k] = a->dtype;
        if (q->output && !(a->flags & GP_FLAG_WRITEABLE))
            return gp_set_error(GP_ERR_VALUE, "output '%s' is read-only", q->name);
        if (q->kind == GP_PARAM_RAW) {
            if (a->dtype != q->dtype)
                return gp_set_error(GP_ERR_TYPE, "raw argument '%s' has dtype %s, not %s",
                                    q->name, gp_dtypes[a->dtype].name, gp_dtypes[q->dtype].name);
            if (!(a->flags & GP_FLAG_C_CONTIGUOUS))
                return gp_set_error(GP_ERR_VALUE, "raw argument '%s' must be C-contiguous",
                                    q->name);
            continue;
        }
        ndims[nshapes] = a->ndim;
        shapes[nshapes++] = a->shape;
    }
    int32_t nd = 0;
    int64_t shape[GP_MAXDIM];
    GP_TRY(gp_broadcast_shapes(nshapes, ndims, shapes, &nd, shape));
    if (size >= 0 && nshapes == 0) {
        nd = 1;
        shape[0] = size;
    } else if (size >= 0 && gp_shape_size(nd, shape) != size) {
        return gp_set_error(GP_ERR_VALUE, "size %lld differs from the arrays' size %lld",
                            (long long)size, (long long)gp_shape_size(nd, shape));
    } else if (size < -1) {
        return gp_set_error(GP_ERR_VALUE, "negative size %lld", (long long)size);
    }
    for (int32_t k = 0; k < nparams; ++k) {
        const gp_array_t *a = operands[k].array;
        if (params[k].kind == GP_PARAM_ARRAY && params[k].output) {
            bool same = a->ndim == nd;
            for (int32_t j = 0; j < nd && same; ++j)
                same = a->shape[j] == shape[j];
            if (!same)
                return gp_set_error(GP_ERR_VALUE, "output '%s' does not have the broadcast "
                                                  "shape", params[k].name);
        }
    }
    int64_t n = gp_shape_size(nd, shape);
    if (n == 0)
        return GP_OK;
    /* C order over the broadcast shape (`i` is the C-order index), dims
     * merged where every array steps through them contiguously */
    gp_iter_t it;
    int32_t opnd[GP_MAX_OPERANDS];
    const int64_t *oshape[GP_MAX_OPERANDS], *ostr[GP_MAX_OPERANDS];
    int32_t nop = 0;
    for (int32_t k = 0; k < nparams; ++k)
        if (params[k].kind == GP_PARAM_ARRAY) {
            opnd[nop] = operands[k].array->ndim;
            oshape[nop] = operands[k].array->shape;
            ostr[nop++] = operands[k].array->strides;
        }
    gp_iter_init(&it, nd, shape, nop, opnd, oshape, ostr);
    int32_t m = 0;
    for (int32_t d = 0; d < it.ndim; ++d) {
        bool merge = m > 0;
        for (int32_t o = 0; o < nop && merge; ++o)
            merge = gp_strides_continue(it.strides[o][m - 1], it.strides[o][d], it.shape[d]);
        if (merge) {
            it.shape[m - 1] *= it.shape[d];
            for (int32_t o = 0; o < nop; ++o)
                it.strides[o][m - 1] = it.strides[o][d];
            continue;
        }
        it.shape[m] = it.shape[d];
        for (int32_t o = 0; o < nop; ++o)
            it.strides[o][m] = it.strides[o][d];
        ++m;
    }
    it.ndim = m;
    gp_user_desc_t d = {.name = name, .operation = operation, .preamble = preamble,
                        .loop_prep = loop_prep, .after_loop = after_loop,
                        .ntypes = ntypes, .type_names = type_names, .type_dtypes = type_dtypes,
                        .nparams = nparams, .params = params, .dtypes = dts, .ndim = it.ndim};
    d.idx32 = n < ((int64_t)1 << 30);
    for (int32_t k = 0; k < nparams && d.idx32; ++k)
        if (operands[k].array)
            d.idx32 = operands[k].array->size * gp_dtype_size(dts[k]) < ((int64_t)1 << 30);
    const gp_kernel_t *kern;
    GP_TRY(gp_user_kernel(&d, gp_gen_user_ew, &kern));
    gp_params_t p;
    gp_params_init(&p);
    gp_params_index(&p, n);
    for (int32_t j = 0; j < (it.ndim ? it.ndim : 1); ++j)
        gp_params_index(&p, it.ndim ? it.shape[j] : 1);
    int32_t o = 0;
    for (int32_t k = 0; k < nparams; ++k) {
        const gp_user_param_t *q = &params[k];
        if (q->kind == GP_PARAM_SCALAR) {
            unsigned char v[16];
            int32_t sz = gp_scalar_to_compute(&operands[k].scalar, q->dtype, v);
            gp_params_put(&p, v, (size_t)sz, (size_t)gp_compute_align(q->dtype));
        } else if (q->kind == GP_PARAM_RAW) {
            gp_params_ptr(&p, gp_array_data(operands[k].array));
        } else {
            gp_params_ptr(&p, gp_array_data(operands[k].array));
            for (int32_t j = 0; j < (it.ndim ? it.ndim : 1); ++j)
                gp_params_index(&p, it.ndim ? it.strides[o][j] : 0);
            ++o;
        }
    }
    gp_launch_t cfg = gp_grid_for(n, 256);
    return gp_launch(kern, &cfg, &p);
}

static bool c_identifier(const char *n)
{
    if (!n || !(*n == '_' || (*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z')))
        return false;
    size_t len = strspn(n, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    return n[len] == '\0' && len < 64;
}

GP_API gp_status_t gp_fused_step(int32_t id, const int32_t *loop, const int32_t *in_dt,
                                 const char *const *in, const int32_t *out_dt,
                                 const char *const *out, char *text, int64_t size)
{
    if (!loop || !in_dt || !in || !out_dt || !out || !text || size < 1)
        return gp_set_error(GP_ERR_MISUSE, "gp_fused_step: invalid argument");
    int32_t count;
    GP_TRY(gp_ufunc_count(&count));
    if (id < -1 || id >= count)
        return gp_set_error(GP_ERR_VALUE, "invalid ufunc id %d", id);
    /* -1: a cast (astype's copy) to loop[0], which loop[1] repeats */
    const gp_op_t *op = id < 0 ? &gp_op_copy : &gp_ufuncs[id];
    if (id < 0 && (!gp_dtype_valid(loop[0]) || loop[1] != loop[0]))
        return gp_set_error(GP_ERR_VALUE, "gp_fused_step: a cast's loop is one dtype twice");
    int nin = op->nin, nout = op->nout;
    for (int k = 0; k < nin + nout; ++k) {
        const char *n = k < nin ? in[k] : out[k - nin];
        int32_t dt = k < nin ? in_dt[k] : out_dt[k - nin];
        if (!c_identifier(n) || !gp_dtype_valid(dt))
            return gp_set_error(GP_ERR_VALUE, "gp_fused_step: operand %d has no C name or an "
                                              "invalid dtype", k);
    }
    const gp_loops_t *loops;
    GP_TRY(gp_op_loops(op, &loops));
    int found = id < 0 ? 0 : -1;
    for (int32_t l = 0; l < loops->n && found < 0; ++l) {
        int k = 0;
        while (k < nin + nout && loops->dt[l][k] == loop[k])
            ++k;
        if (k == nin + nout)
            found = l;
    }
    if (found < 0)
        return gp_set_error(GP_ERR_VALUE, "ufunc %s has no such loop", gp_op_shown(op));
    if (op->check == GP_CHECK_INT_POWER && gp_dtype_is_int(loop[1]))
        return gp_set_error(GP_ERR_UNSUPPORTED, "ufunc %s checks its operands' values before "
                                                "it runs: not fused", gp_op_shown(op));
    gp_str_t s;
    gp_str_init(&s);
    gp_status_t st = gp_gen_fused_step(op, loop, in_dt, in, out_dt, out, &s);
    if (st == GP_OK && s.failed)
        st = gp_set_error(GP_ERR_NOMEM, "out of host memory writing a fused step");
    if (st == GP_OK && (int64_t)s.len >= size)
        st = gp_set_error(GP_ERR_VALUE, "a fused step of %zu bytes does not fit in %lld",
                          s.len, (long long)size);
    if (st == GP_OK)
        memcpy(text, s.data, s.len + 1);
    gp_str_free(&s);
    return st;
}
