/*
 * gp_user.h - users' own kernels: raw CUDA modules compiled at run time,
 * elementwise and reduction kernels written as expressions (run through the
 * engine's code generator, so on every backend), and captured graphs.
 */
#ifndef GP_USER_H
#define GP_USER_H

#include "gp_interop.h"
#include "gp_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_module gp_module_t;
typedef struct gp_function gp_function_t;
typedef struct gp_graph gp_graph_t;

/* ---- raw modules (GPU backends) --------------------------------------------- */

/* Compiles CUDA C++ `source` with the backend's compiler (NVRTC) for the
 * current device, with `options` and the C++ `name_expressions` (template
 * instantiations) whose mangled names gp_module_lowered_name gives; through
 * the kernel cache. GP_ERR_COMPILE with the compiler's log;
 * GP_ERR_UNSUPPORTED on the host backend. The caller owns *out. */
GP_API gp_status_t gp_module_compile(const char *source, int32_t noptions,
                                     const char *const *options, int32_t nnames,
                                     const char *const *name_expressions, gp_module_t **out);

/* Loads a compiled image (cubin, PTX or fatbin bytes) on the current device. */
GP_API gp_status_t gp_module_load(const void *image, int64_t size, gp_module_t **out);

/* Forgets a module handle; NULL is a no-op. Its code stays loaded (kernels
 * already obtained from it keep working). */
GP_API gp_status_t gp_module_destroy(gp_module_t *m);

/* The mangled name of a name expression given at compilation. Borrowed:
 * valid while the module handle lives. GP_ERR_VALUE for an unknown one. */
GP_API gp_status_t gp_module_lowered_name(gp_module_t *m, const char *name_expression,
                                          const char **out);

/* The kernel `name` (a mangled name for templates) of a module. Borrowed:
 * valid while the module handle lives. GP_ERR_VALUE if there is none. */
GP_API gp_status_t gp_module_get_function(gp_module_t *m, const char *name,
                                          gp_function_t **out);

/* Kernel attributes, with CUDA's numbering. */
enum gp_function_attribute {
    GP_FUNC_MAX_THREADS_PER_BLOCK = 0,
    GP_FUNC_SHARED_SIZE_BYTES = 1,
    GP_FUNC_CONST_SIZE_BYTES = 2,
    GP_FUNC_LOCAL_SIZE_BYTES = 3,
    GP_FUNC_NUM_REGS = 4,
    GP_FUNC_PTX_VERSION = 5,
    GP_FUNC_BINARY_VERSION = 6,
    GP_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
};

GP_API gp_status_t gp_function_get_attribute(gp_function_t *f, int32_t attr, int32_t *out);
GP_API gp_status_t gp_function_set_attribute(gp_function_t *f, int32_t attr, int32_t value);

/* One argument of a user's kernel: an array, passed as the address of its
 * first element, or (array NULL) a value in the first bytes of `bytes`, of
 * which the kernel's parameter takes as many as its size. */
typedef struct gp_kernel_arg {
    gp_array_t *array;
    uint64_t bytes[2];
} gp_kernel_arg_t;

/* Launches `f` on a grid[3] of block[3] threads with `shared_mem` bytes of
 * dynamic shared memory on `s` (NULL: the current stream) with `nargs`
 * arguments (at most GP_MAX_KERNEL_ARGS). */
#define GP_MAX_KERNEL_ARGS 256
GP_API gp_status_t gp_function_launch(gp_function_t *f, uint32_t grid_x, uint32_t grid_y,
                                      uint32_t grid_z, uint32_t block_x, uint32_t block_y,
                                      uint32_t block_z, uint32_t shared_mem, gp_stream_t *s,
                                      int32_t nargs, const gp_kernel_arg_t *args);

/* ---- elementwise and reduction kernels from expressions (every backend) ---- */

/* Kinds of a user kernel's parameter. */
enum gp_param_kind {
    GP_PARAM_ARRAY = 0,  /* broadcast with the others: one element per index */
    GP_PARAM_RAW = 1,    /* the whole array as a pointer `name`, indexed by the code */
    GP_PARAM_SCALAR = 2  /* a value passed by value */
};

/* A parameter of a user kernel: its name in the code, dtype, kind, and
 * whether it is written. */
typedef struct gp_user_param {
    const char *name;
    int32_t dtype;
    int32_t kind;
    int32_t output;
} gp_user_param_t;

/* An operand for a parameter: an array, or (for GP_PARAM_SCALAR) a value
 * converted to the parameter's dtype. */
typedef gp_operand_t gp_user_operand_t;

/* Runs `operation` (C statements reading the inputs and `i`, the C-order
 * index of the element, and assigning the outputs) over the broadcast shape
 * of the GP_PARAM_ARRAY operands, or over `size` elements when there are
 * none (`size` is -1 or that shape's size otherwise); `type_names` (ntypes) names dtypes the code
 * may use (typedef'd from `type_dtypes`), `preamble` is code placed before
 * the kernel, `loop_prep` (or NULL) statements each thread runs before its
 * elements and `after_loop` (or NULL) after them; both see the scalar and
 * raw parameters, and the kernel's own names all start with gpk_. Outputs must be allocated by the caller, with the broadcast
 * shape. Kernels are cached by their full text. */
GP_API gp_status_t gp_elementwise_user(const char *name, const char *operation,
                                       const char *preamble, const char *loop_prep,
                                       const char *after_loop, int32_t ntypes,
                                       const char *const *type_names,
                                       const int32_t *type_dtypes, int64_t size,
                                       int32_t nparams, const gp_user_param_t *params,
                                       const gp_user_operand_t *operands);

/* Reduces the one input array `in` (parameter `in_param`) over `naxes` axes
 * (NULL: all) into `out` (parameter `out_param`, already allocated with the
 * reduced shape, keepdims applied by the caller): each element is mapped by
 * `map_expr` (an expression of the input's name), accumulated in
 * `reduce_dtype` from `identity` by `reduce_expr` (an expression of `a` and
 * `b`), and the result given to `post_map` (statements reading `a`,
 * assigning the output's name). */
GP_API gp_status_t gp_reduction_user(const char *name, const char *map_expr,
                                     const char *reduce_expr, const char *post_map,
                                     const char *identity, const char *preamble,
                                     int32_t ntypes, const char *const *type_names,
                                     const int32_t *type_dtypes, int32_t reduce_dtype,
                                     const gp_user_param_t *in_param, const gp_array_t *in,
                                     const gp_user_param_t *out_param, gp_array_t *out,
                                     int32_t naxes, const int32_t *axes);

/* One step of a fused elementwise kernel (gpunp.fuse): C statements, for
 * gp_elementwise_user's `operation`, applying the loop of dtypes `loop`
 * (nin + nout, one of the ufunc's loops) of ufunc `id` to the variables
 * in[k], which hold values as that kernel holds an input of dtype in_dt[k],
 * and assigning the caller's variables out[k] what storing the results in
 * arrays of dtypes out_dt[k] and reading them back would give, so that a
 * chain of steps computes what the unfused calls store between them. Names
 * are C identifiers; `id` -1 is a cast to loop[0] (loop[1] the same), as
 * astype's copy casts. The text goes into `text` (`size` bytes with its NUL);
 * GP_ERR_VALUE if it does not fit, GP_ERR_UNSUPPORTED for a ufunc whose
 * loop needs a look at the data first (integer power). */
GP_API gp_status_t gp_fused_step(int32_t id, const int32_t *loop, const int32_t *in_dt,
                                 const char *const *in, const int32_t *out_dt,
                                 const char *const *out, char *text, int64_t size);

/* ---- graphs ------------------------------------------------------------------ */

/* Starts capturing the work queued on `s` (not the default stream) into a
 * graph instead of running it. Memory freed while capturing stays reserved
 * for the graph until it is destroyed. */
GP_API gp_status_t gp_stream_begin_capture(gp_stream_t *s);

/* Ends the capture and instantiates what was captured; the caller owns *out. */
GP_API gp_status_t gp_stream_end_capture(gp_stream_t *s, gp_graph_t **out);

/* Runs a captured graph on `s` (NULL: the current stream). */
GP_API gp_status_t gp_graph_launch(gp_graph_t *g, gp_stream_t *s);

/* Destroys a graph (after its queued launches); NULL is a no-op. */
GP_API gp_status_t gp_graph_destroy(gp_graph_t *g);

#ifdef __cplusplus
}
#endif
#endif /* GP_USER_H */
