/*
 * ufunc.c - ufunc loop resolution (NumPy 2's type resolvers with NEP 50
 * weak scalars) and the ufunc call: broadcasting, output allocation,
 * overlap handling, value checks, launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static const char *casting_name(int32_t c)
{
    static const char *const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    return c >= 0 && c <= 4 ? names[c] : "?";
}

static bool is_intlike(int32_t dt)
{
    int32_t k = gp_dtype_kind(dt);
    return k == GP_KIND_BOOL || k == GP_KIND_INT || k == GP_KIND_UINT;
}

/* The first loop whose inputs are exactly `want` (and whose outputs are
 * `want_out` where that is not -1), or -1. */
static int32_t find_exact(const gp_loops_t *loops, int nin, int nout, const int32_t *want,
                          const int32_t *want_out)
{
    for (int32_t l = 0; l < loops->n; ++l) {
        bool ok = true;
        for (int k = 0; k < nin && ok; ++k)
            ok = loops->dt[l][k] == want[k];
        for (int k = 0; k < nout && ok; ++k)
            ok = want_out[k] < 0 || loops->dt[l][nin + k] == want_out[k];
        if (ok)
            return l;
    }
    return -1;
}

/* NumPy's search for a loop under a signature: the first loop (of one
 * input dtype in comparisons: the search does not know the mixed
 * int64/uint64 comparison loops; ldexp's mixed loops are legacy ones it
 * finds) that has every fixed dtype, into which the other inputs cast safely and
 * whose outputs cast to the given outputs under `casting`. A signature that fixes only the outputs, all to one
 * dtype X (what dtype=X means), is tried again with X for every free input
 * too, so that dtype=X finds the X loop even when the inputs only cast to
 * it unsafely (the call's casting check then decides). Fixed inputs are
 * checked by that casting check, not here. */
static int32_t find_signature(const gp_op_t *op, const gp_loops_t *loops, const int32_t *eff,
                              const int32_t *outs, const int32_t *signature, int32_t casting)
{
    int nin = op->nin, nout = op->nout;
    int32_t fixed[GP_MAX_LOOP_ARGS];
    memcpy(fixed, signature, (size_t)(nin + nout) * sizeof *fixed);
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            int32_t h = fixed[nin];
            for (int k = 1; k < nout; ++k)
                if (fixed[nin + k] != h)
                    h = -1;
            if (h < 0)
                break;
            for (int k = 0; k < nin; ++k)
                if (fixed[k] < 0)
                    fixed[k] = h;
        }
        for (int32_t c = 0; c < loops->n; ++c) {
            bool ok = true;
            for (int k = 1; k < nin && ok && gp_op_resolver(op) == GP_RES_COMPARE; ++k)
                ok = loops->dt[c][k] == loops->dt[c][0];
            for (int k = 0; k < nin + nout && ok; ++k)
                ok = fixed[k] < 0 || loops->dt[c][k] == fixed[k];
            for (int k = 0; k < nin && ok; ++k)
                ok = fixed[k] >= 0 || gp_can_cast(eff[k], loops->dt[c][k], GP_CASTING_SAFE);
            for (int k = 0; k < nout && ok; ++k)
                ok = outs[k] < 0 || gp_can_cast(loops->dt[c][nin + k], outs[k], casting);
            if (ok)
                return c;
        }
    }
    return -1;
}

/* NumPy's binary logical ufuncs: the loop of the inputs' own dtype (the
 * signature's where it fixes one; a Python scalar has none) when the table
 * has it; otherwise every free operand is bool. -1 if neither loop exists. */
static int32_t find_logical(const gp_loops_t *loops, int nin, int nout, const int32_t *dtypes,
                            const int32_t *weak, const int32_t *sig)
{
    int32_t want[GP_MAX_LOOP_ARGS] = {0}, want_out[GP_MAX_LOOP_ARGS] = {0};
    bool own = true;
    for (int k = 0; k < nin; ++k) {
        want[k] = sig && sig[k] >= 0 ? sig[k] : (weak && weak[k] ? -1 : dtypes[k]);
        own = own && want[k] >= 0;
    }
    for (int k = 0; k < nout; ++k)
        want_out[k] = sig ? sig[nin + k] : -1;
    int32_t l = own ? find_exact(loops, nin, nout, want, want_out) : -1;
    if (l >= 0)
        return l;
    for (int k = 0; k < nin; ++k)
        want[k] = sig && sig[k] >= 0 ? sig[k] : GP_BOOL;
    for (int k = 0; k < nout; ++k)
        want_out[k] = sig && sig[nin + k] >= 0 ? sig[nin + k] : GP_BOOL;
    return find_exact(loops, nin, nout, want, want_out);
}

/* The loop of `op` for inputs of effective dtypes `eff` without a
 * signature (NumPy's type resolvers), or -1 with the error set. */
static int32_t natural_loop(const gp_op_t *op, const gp_loops_t *loops, const int32_t *eff)
{
    int nin = op->nin, nout = op->nout;
    if (gp_op_resolver(op) == GP_RES_DEFAULT || gp_op_resolver(op) == GP_RES_EXACT) {
        for (int32_t c = 0; c < loops->n; ++c) {
            bool ok = true;
            for (int k = 0; k < nin && ok; ++k)
                ok = gp_can_cast(eff[k], loops->dt[c][k], GP_CASTING_SAFE);
            if (ok)
                return c;
        }
        gp_set_error(GP_ERR_TYPE_NO_LOOP,
                     "ufunc '%s' not supported for the input types, and the inputs could not "
                     "be safely coerced to any supported types according to the casting rule "
                     "''safe''",
                     gp_op_shown(op));
        return -1;
    }
    int32_t want[GP_MAX_LOOP_ARGS], free_out[GP_MAX_LOOP_ARGS], u = eff[0];
    for (int k = 1; k < nin; ++k)
        u = gp_promote(u, eff[k]);
    if (gp_op_resolver(op) == GP_RES_TRUEDIV) {
        bool ints = true;
        for (int k = 0; k < nin; ++k)
            ints = ints && is_intlike(eff[k]);
        if (ints)
            u = GP_FLOAT64;
    }
    for (int k = 0; k < nin; ++k)
        want[k] = u;
    for (int k = 0; k < nout; ++k)
        free_out[k] = -1;
    if (gp_op_resolver(op) == GP_RES_COMPARE && nin == 2) {
        int32_t k0 = gp_dtype_kind(eff[0]), k1 = gp_dtype_kind(eff[1]);
        if (k0 == GP_KIND_INT && k1 == GP_KIND_UINT && u == GP_FLOAT64) {
            want[0] = GP_INT64, want[1] = GP_UINT64;
        } else if (k0 == GP_KIND_UINT && k1 == GP_KIND_INT && u == GP_FLOAT64) {
            want[0] = GP_UINT64, want[1] = GP_INT64;
        }
    }
    int32_t l = find_exact(loops, nin, nout, want, free_out);
    if (l < 0) {
        if (u == GP_BOOL && op->bool_msg)
            gp_set_error(GP_ERR_TYPE_NO_LOOP, "%s", op->bool_msg);
        else
            gp_set_error(GP_ERR_TYPE_NO_LOOP,
                         "ufunc '%s' did not contain a loop with signature matching types %s "
                         "-> None",
                         gp_op_shown(op), gp_dtypes[u].name);
    }
    return l;
}

static bool loop_fits_signature(const gp_loops_t *loops, int32_t l, int nargs,
                                const int32_t *signature)
{
    for (int k = 0; k < nargs; ++k)
        if (signature[k] >= 0 && loops->dt[l][k] != signature[k])
            return false;
    return true;
}

/* NumPy's legacy loop search with Python scalars (its default resolver's
 * linear search, should_use_min_scalar_weak_literals): when no
 * weak scalar is of a higher kind than the arrays (a Python int counts as
 * unsigned), a Python int fits any integer or inexact loop input, a float
 * any inexact one, a complex any complex one (the value is checked later);
 * otherwise each weak scalar is its default dtype (int64, float64,
 * complex128). -1 if no loop takes them. */
static int32_t weak_scalar_loop(const gp_op_t *op, const gp_loops_t *loops,
                                const int32_t *dtypes, const int32_t *weak)
{
    static const int rank[] = {[GP_KIND_BOOL] = 0, [GP_KIND_UINT] = 1, [GP_KIND_INT] = 2,
                               [GP_KIND_FLOAT] = 3, [GP_KIND_COMPLEX] = 4};
    int nin = op->nin, max_arr = -1, max_weak = -1;
    for (int k = 0; k < nin; ++k) {
        int r = rank[gp_dtype_kind(dtypes[k])];
        if (weak[k] && dtypes[k] != GP_BOOL) {
            int wr = r < 3 ? 1 : 3; /* an int counts as unsigned, a complex as a float */
            if (wr > max_weak)
                max_weak = wr;
        } else if (r > max_arr)
            max_arr = r;
    }
    bool by_kind = max_arr >= 0 && max_arr >= max_weak;
    for (int32_t c = 0; c < loops->n; ++c) {
        bool ok = true;
        for (int k = 0; k < nin && ok; ++k) {
            int32_t to = loops->dt[c][k], tk = gp_dtype_kind(to), fk = gp_dtype_kind(dtypes[k]);
            if (weak[k] && dtypes[k] != GP_BOOL && by_kind)
                ok = fk == GP_KIND_COMPLEX ? tk == GP_KIND_COMPLEX
                     : fk == GP_KIND_FLOAT ? (tk == GP_KIND_FLOAT || tk == GP_KIND_COMPLEX)
                                           : tk != GP_KIND_BOOL;
            else
                ok = gp_can_cast(weak[k] && fk == GP_KIND_UINT ? GP_INT64 : dtypes[k], to,
                                 GP_CASTING_SAFE);
        }
        if (ok)
            return c;
    }
    return -1;
}

/* Chooses the loop of `op` for inputs of `dtypes` (nin, then nout entries
 * with -1 for outputs not given) and `weak` flags; check_casting then
 * checks the operands' casts to it. */
static gp_status_t choose_loop(const gp_op_t *op, const int32_t *dtypes, const int32_t *weak,
                               const int32_t *signature, int32_t casting, int32_t *chosen)
{
    int nin = op->nin, nout = op->nout;
    const gp_loops_t *loops;
    GP_TRY(gp_op_loops(op, &loops));

    /* NEP 50: a weak scalar takes the operands' result type. A Python int
     * is an int64 there whatever its value (one past int64 is held as
     * uint64); the value is checked against the loop afterwards. */
    int32_t strong = -1, all, eff[GP_MAX_LOOP_ARGS] = {0}, kinds[GP_MAX_LOOP_ARGS];
    for (int k = 0; k < nin; ++k) {
        bool w = weak && weak[k];
        kinds[k] = w && dtypes[k] == GP_UINT64 ? GP_INT64 : dtypes[k];
        if (!w)
            strong = strong < 0 ? dtypes[k] : gp_promote(strong, dtypes[k]);
    }
    GP_TRY(gp_dtype_result_type(nin, kinds, weak, &all));
    for (int k = 0; k < nin; ++k)
        eff[k] = (weak && weak[k] && strong >= 0) ? all : kinds[k];

    if (gp_op_resolver(op) == GP_RES_COMPARE && strong < 0) {
        bool ints = true;
        for (int k = 0; k < nin; ++k)
            ints = ints && gp_dtype_is_int(dtypes[k]);
        if (ints)
            return gp_set_error(GP_ERR_TYPE_NO_LOOP,
                                "ufunc '%s': NumPy compares Python integers as objects, and "
                                "gpunp has no object dtype; make one of them an array",
                                op->name);
    }

    int32_t l;
    bool has_sig = false, fixes_input = false;
    for (int k = 0; signature && k < nin + nout; ++k) {
        has_sig = has_sig || signature[k] >= 0;
        fixes_input = fixes_input || (k < nin && signature[k] >= 0);
    }
    if (gp_op_resolver(op) == GP_RES_LOGICAL) {
        l = find_logical(loops, nin, nout, dtypes, weak, has_sig ? signature : NULL);
    } else if (has_sig) {
        /* with only outputs fixed, NumPy's promoters run first: the loop the
         * operands promote to, if it has those outputs; else (and whenever
         * an input is fixed) NumPy's signature search */
        l = -1;
        if (!fixes_input) {
            l = natural_loop(op, loops, eff);
            gp_clear_error();
        }
        if (l < 0 || !loop_fits_signature(loops, l, nin + nout, signature))
            l = find_signature(op, loops, eff, dtypes + nin, signature, casting);
    } else {
        /* NumPy's default resolver searches the loops with the weak scalars
         * as they are, not as the operands' result type: that differs for
         * loops of mixed inputs (ldexp(-2**100, int16) is "ei->e",
         * ldexp(uint32, 5) "di->d"), and agrees for loops of one dtype */
        bool any_weak = false;
        for (int k = 0; weak && k < nin; ++k)
            any_weak = any_weak || weak[k];
        l = gp_op_resolver(op) == GP_RES_DEFAULT && any_weak
                ? weak_scalar_loop(op, loops, dtypes, weak) : -1;
        if (gp_op_resolver(op) == GP_RES_EXACT) {
            /* NumPy 2 dispatches a ufunc of SciPy's (loops in no order of
             * size: "d->d f->f") to the loop of exactly its operands' dtypes
             * before its legacy search, which takes Python scalars as their
             * default dtypes (beta(float32, 3.0) is "dd->d") */
            for (int k = 0; k < nin; ++k)
                eff[k] = !(weak && weak[k]) ? dtypes[k]
                         : gp_dtype_kind(dtypes[k]) == GP_KIND_COMPLEX ? GP_COMPLEX128
                         : gp_dtype_kind(dtypes[k]) == GP_KIND_FLOAT   ? GP_FLOAT64
                         : dtypes[k] == GP_BOOL                        ? GP_BOOL
                                                                       : GP_INT64;
            int32_t none[GP_MAX_LOOP_ARGS];
            for (int k = 0; k < GP_MAX_LOOP_ARGS; ++k)
                none[k] = -1;
            l = find_exact(loops, nin, nout, eff, none);
            /* the legacy search then takes a weak scalar by its kind, in
             * the loops' order: poch(float32, 3.0) is "ff->f" (its loops
             * "ff->f dd->d"), beta(float32, 3.0) "dd->d" ("dd->d ff->f") */
            if (l < 0 && any_weak)
                l = weak_scalar_loop(op, loops, dtypes, weak);
        }
        if (l < 0)
            l = natural_loop(op, loops, eff);
        if (l < 0)
            return GP_ERR_TYPE_NO_LOOP;
    }
    if (l < 0)
        return gp_set_error(GP_ERR_TYPE_NO_LOOP, "No loop matching the specified signature and "
                                                 "casting was found for ufunc %s",
                            gp_op_shown(op));
    *chosen = l;
    return GP_OK;
}

/* The casts of the actual inputs to loop `l` and from it to the given
 * outputs under `casting`; the bool loop of a logical ufunc reads any input
 * as a truth value, whatever the rule (NumPy). */
static gp_status_t check_casting(const gp_op_t *op, int32_t l, const int32_t *dtypes,
                                 const int32_t *weak, int32_t casting)
{
    int nin = op->nin, nout = op->nout;
    const gp_loops_t *loops;
    GP_TRY(gp_op_loops(op, &loops));
    bool truth_values = gp_op_resolver(op) == GP_RES_LOGICAL;
    for (int k = 0; k < nin; ++k)
        truth_values = truth_values && loops->dt[l][k] == GP_BOOL;
    for (int k = 0; k < nin && !truth_values; ++k) {
        if (weak && weak[k])
            continue; /* a weak scalar's value is checked instead */
        if (!gp_can_cast(dtypes[k], loops->dt[l][k], casting))
            return gp_set_error(GP_ERR_TYPE_CASTING,
                                "Cannot cast ufunc '%s' input %d from dtype('%s') to "
                                "dtype('%s') with casting rule '%s'",
                                gp_op_shown(op), k, gp_dtypes[dtypes[k]].name,
                                gp_dtypes[loops->dt[l][k]].name, casting_name(casting));
    }
    for (int k = 0; k < nout; ++k) {
        int32_t od = dtypes[nin + k];
        if (od >= 0 && !gp_can_cast(loops->dt[l][nin + k], od, casting))
            return gp_set_error(GP_ERR_TYPE_CASTING,
                                "Cannot cast ufunc '%s' output from dtype('%s') to "
                                "dtype('%s') with casting rule '%s'",
                                gp_op_shown(op), gp_dtypes[loops->dt[l][nin + k]].name,
                                gp_dtypes[od].name, casting_name(casting));
    }
    return GP_OK;
}

static gp_status_t resolve_loop(const gp_op_t *op, const int32_t *dtypes, const int32_t *weak,
                                const int32_t *signature, int32_t casting, int32_t *chosen)
{
    GP_TRY(choose_loop(op, dtypes, weak, signature, casting, chosen));
    return check_casting(op, *chosen, dtypes, weak, casting);
}

static gp_status_t check_ufunc(int32_t id, int32_t casting)
{
    if (id < 0 || id >= gp_nufuncs)
        return gp_set_error(GP_ERR_VALUE, "invalid ufunc id %d", id);
    if (casting < GP_CASTING_NO || casting > GP_CASTING_UNSAFE)
        return gp_set_error(GP_ERR_VALUE, "invalid casting rule %d", casting);
    return GP_OK;
}

GP_API gp_status_t gp_ufunc_resolve(int32_t id, const int32_t *dtypes, const int32_t *weak,
                                    const int32_t *signature, int32_t casting,
                                    int32_t *loop_dtypes)
{
    GP_TRY(check_ufunc(id, casting));
    if (!dtypes || !loop_dtypes)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_resolve: NULL argument");
    const gp_op_t *op = &gp_ufuncs[id];
    for (int k = 0; k < op->nin + op->nout; ++k)
        if (k < op->nin ? !gp_dtype_valid(dtypes[k])
                        : (dtypes[k] != -1 && !gp_dtype_valid(dtypes[k])))
            return gp_set_error(GP_ERR_TYPE, "invalid dtype code %d", dtypes[k]);
    int32_t l;
    GP_TRY(resolve_loop(op, dtypes, weak, signature, casting, &l));
    return gp_ufunc_get_loop(id, l, loop_dtypes);
}

/* ---- the call ----------------------------------------------------------------- */

/* Strides of `a` seen over `nd` dims of the broadcast shape (0 where it is
 * broadcast). */
static void full_strides(const gp_array_t *a, int32_t nd, int64_t *st)
{
    int32_t off = nd - a->ndim;
    for (int32_t d = 0; d < nd; ++d)
        st[d] = d < off || a->shape[d - off] == 1 ? 0 : a->strides[d - off];
}

/* 1 if any element of integer array `a` is negative where `where` (may be
 * NULL; broadcast with `a`) is true. */
static gp_status_t any_negative(const gp_array_t *a, const gp_array_t *where, bool *out)
{
    *out = false;
    if (gp_dtype_kind(a->dtype) != GP_KIND_INT || a->size == 0)
        return GP_OK;
    int32_t less = gp_ufunc_id("less"), lor = gp_ufunc_id("logical_or");
    int32_t land = gp_ufunc_id("logical_and");
    gp_operand_t ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].array = (gp_array_t *)a;
    ops[1].scalar.dtype = GP_INT64;
    ops[1].scalar.weak = 1;
    gp_array_t *neg = NULL, *any = NULL;
    GP_TRY(gp_ufunc_call(less, ops, &neg, NULL, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K));
    gp_status_t s = GP_OK;
    if (where) {
        gp_array_t *masked = NULL;
        ops[0].array = neg;
        ops[1].array = (gp_array_t *)where;
        s = gp_ufunc_call(land, ops, &masked, NULL, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K);
        gp_array_release(neg);
        neg = masked;
    }
    if (s == GP_OK)
        s = gp_ufunc_reduce(lor, neg, 0, NULL, 0, -1, NULL, &any);
    unsigned char v = 0;
    if (s == GP_OK)
        s = gp_array_to_host(any, &v, 1, GP_ORDER_C);
    gp_array_release(neg);
    gp_array_release(any);
    *out = v != 0;
    return s;
}

/* Weak Python ints must fit the loop's dtypes (NumPy's OverflowError); one
 * read as a truth value must fit int64, the C long NumPy converts it to. */
static gp_status_t scalar_checks(const gp_op_t *op, const int8_t *loop, const gp_operand_t *in)
{
    for (int k = 0; k < op->nin; ++k)
        if (!in[k].array && in[k].scalar.weak)
            GP_TRY(gp_scalar_check_fits(&in[k].scalar, loop[k] == GP_BOOL ? GP_INT64 : loop[k]));
    return GP_OK;
}

/* Whether scalar `v`, cast to integer dtype `dt`, is negative. */
static bool scalar_negative_as(const gp_scalar_t *v, int32_t dt)
{
    if (gp_dtype_kind(dt) != GP_KIND_INT)
        return false;
    unsigned char buf[16];
    gp_scalar_to_storage(v, dt, buf);
    /* the sign bit of the value's top byte (little-endian storage) */
    return (buf[gp_dtype_size(dt) - 1] & 0x80) != 0;
}

/* As NumPy's loop meets them: no integer may be raised to a negative power
 * in an element that is computed (none if the result is empty, none where
 * `where` is false). */
static gp_status_t value_checks(const gp_op_t *op, const int8_t *loop, const gp_operand_t *in,
                                int64_t size, const gp_array_t *where)
{
    if (op->check == GP_CHECK_INT_POWER && gp_dtype_is_int(loop[1]) && size > 0) {
        bool neg;
        if (in[1].array) {
            /* the exponents as the loop reads them (a float input cast to
             * the integer loop may turn negative, -0.5 does not) */
            const gp_array_t *e = in[1].array;
            gp_array_t *cast = NULL;
            if (e->dtype != loop[1]) {
                GP_TRY(gp_copy_new(e, loop[1], GP_ORDER_K, &cast));
                e = cast;
            }
            gp_status_t s = any_negative(e, where, &neg);
            gp_array_release(cast);
            GP_TRY(s);
        } else {
            neg = scalar_negative_as(&in[1].scalar, loop[1]);
            if (neg && where) {
                int32_t lor = gp_ufunc_id("logical_or");
                gp_array_t *any = NULL;
                unsigned char b = 0;
                GP_TRY(gp_ufunc_reduce(lor, where, 0, NULL, 0, -1, NULL, &any));
                gp_status_t s = gp_array_to_host(any, &b, 1, GP_ORDER_C);
                gp_array_release(any);
                GP_TRY(s);
                neg = b != 0;
            }
        }
        if (neg)
            return gp_set_error(GP_ERR_VALUE, "Integers to negative integer powers are not "
                                              "allowed.");
    }
    return GP_OK;
}

GP_API gp_status_t gp_ufunc_call(int32_t id, const gp_operand_t *in, gp_array_t **out,
                                 const gp_array_t *where, const int32_t *signature,
                                 int32_t casting, int32_t order)
{
    GP_TRY(check_ufunc(id, casting));
    if (!in || !out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_call: NULL argument");
    const gp_op_t *op = &gp_ufuncs[id];
    int nin = op->nin, nout = op->nout;
    bool given[GP_MAX_LOOP_ARGS] = {false};
    for (int k = 0; k < nout; ++k) {
        given[k] = out[k] != NULL;
        if (given[k])
            GP_CHECK_ARRAY(out[k]);
    }
    for (int k = 0; k < nin; ++k) {
        if (in[k].array)
            GP_CHECK_ARRAY(in[k].array);
        else if (!gp_dtype_valid(in[k].scalar.dtype))
            return gp_set_error(GP_ERR_TYPE, "invalid scalar dtype %d", in[k].scalar.dtype);
    }
    if (where)
        GP_CHECK_ARRAY(where);
    if (where && where->dtype != GP_BOOL)
        return gp_set_error(GP_ERR_TYPE, "the 'where' array must be of dtype bool");
    if (order != GP_ORDER_C && order != GP_ORDER_F && order != GP_ORDER_A && order != GP_ORDER_K)
        return gp_set_error(GP_ERR_VALUE, "order must be one of 'C', 'F', 'A', or 'K'");

    /* dtypes and weak flags; in comparisons a Python int outside the other
     * operand's range is compared exactly rather than rejected */
    int32_t dtypes[GP_MAX_LOOP_ARGS], weak[GP_MAX_LOOP_ARGS];
    int32_t strong = -1;
    for (int k = 0; k < nin; ++k) {
        dtypes[k] = in[k].array ? in[k].array->dtype : in[k].scalar.dtype;
        /* NEP 50 makes Python int, float and complex weak; NumPy takes a
         * Python bool as a numpy.bool_ (ldexp(False, int16) is float16) */
        weak[k] = !in[k].array && in[k].scalar.weak && dtypes[k] != GP_BOOL;
        if (!weak[k])
            strong = strong < 0 ? dtypes[k] : gp_promote(strong, dtypes[k]);
    }
    if (gp_op_resolver(op) == GP_RES_COMPARE && strong >= 0 && gp_dtype_is_int(strong)) {
        for (int k = 0; k < nin; ++k)
            if (weak[k] && (dtypes[k] == GP_INT64 || dtypes[k] == GP_UINT64) &&
                gp_scalar_check_fits(&in[k].scalar, strong) != GP_OK)
                weak[k] = 0;
        gp_clear_error();
    }
    for (int k = 0; k < nout; ++k)
        dtypes[nin + k] = given[k] ? out[k]->dtype : -1;
    /* NumPy converts Python ints to the loop before it checks the casts */
    int32_t l;
    GP_TRY(choose_loop(op, dtypes, weak, signature, casting, &l));
    const gp_loops_t *loops;
    GP_TRY(gp_op_loops(op, &loops));
    const int8_t *loop = loops->dt[l];
    GP_TRY(scalar_checks(op, loop, in));
    GP_TRY(check_casting(op, l, dtypes, weak, casting));

    /* broadcast shape of inputs, where and given outputs */
    int32_t nshapes = 0, ndims[2 * GP_MAX_LOOP_ARGS + 1];
    const int64_t *shapes[2 * GP_MAX_LOOP_ARGS + 1];
    for (int k = 0; k < nin; ++k)
        if (in[k].array) {
            ndims[nshapes] = in[k].array->ndim;
            shapes[nshapes++] = in[k].array->shape;
        }
    if (where) {
        ndims[nshapes] = where->ndim;
        shapes[nshapes++] = where->shape;
    }
    for (int k = 0; k < nout; ++k)
        if (given[k]) {
            ndims[nshapes] = out[k]->ndim;
            shapes[nshapes++] = out[k]->shape;
        }
    int32_t nd = 0;
    int64_t shape[GP_MAXDIM], size = 1;
    GP_TRY(gp_broadcast_shapes(nshapes, ndims, shapes, &nd, shape));
    for (int32_t d = 0; d < nd; ++d)
        size *= shape[d];
    GP_TRY(value_checks(op, loop, in, size, where));
    for (int k = 0; k < nout; ++k) {
        if (!given[k])
            continue;
        bool same = out[k]->ndim == nd;
        for (int32_t d = 0; d < nd && same; ++d)
            same = out[k]->shape[d] == shape[d];
        if (!same) {
            char a[512], b[512];
            gp_shape_format(out[k]->ndim, out[k]->shape, a, sizeof a);
            gp_shape_format(nd, shape, b, sizeof b);
            return gp_set_error(GP_ERR_VALUE, "non-broadcastable output operand with shape %s "
                                              "doesn't match the broadcast shape %s", a, b);
        }
        if (!(out[k]->flags & GP_FLAG_WRITEABLE))
            return gp_set_error(GP_ERR_VALUE, "output array is read-only");
    }

    /* new outputs, laid out like the inputs (order K) */
    int32_t ord = order;
    if (ord == GP_ORDER_A) {
        bool allf = true, any = false;
        for (int k = 0; k < nin; ++k)
            if (in[k].array) {
                any = true;
                allf = allf && (in[k].array->flags & GP_FLAG_F_CONTIGUOUS) &&
                       !(in[k].array->flags & GP_FLAG_C_CONTIGUOUS);
            }
        ord = any && allf ? GP_ORDER_F : GP_ORDER_C;
    } else if (ord == GP_ORDER_K) {
        /* NumPy: inputs all C- (or all F-) contiguous, none broadcast, give
         * that order, which also settles the strides of length-one dims */
        bool allc = true, allf = true, any = false;
        for (int k = 0; k < nin; ++k)
            if (in[k].array) {
                const gp_array_t *a = in[k].array;
                any = true;
                allc = allc && a->ndim == nd && (a->flags & GP_FLAG_C_CONTIGUOUS);
                allf = allf && a->ndim == nd && (a->flags & GP_FLAG_F_CONTIGUOUS);
            }
        if (any && (allc || allf))
            ord = allc ? GP_ORDER_C : GP_ORDER_F;
    }
    int64_t like[GP_MAX_LOOP_ARGS][GP_MAXDIM];
    const int64_t *likep[GP_MAX_LOOP_ARGS];
    int32_t nlike = 0;
    for (int k = 0; k < nin; ++k)
        if (in[k].array && in[k].array->ndim > 0) {
            full_strides(in[k].array, nd, like[nlike]);
            likep[nlike] = like[nlike];
            ++nlike;
        }
    gp_status_t s = GP_OK;
    for (int k = 0; k < nout && s == GP_OK; ++k)
        if (!given[k])
            s = gp_array_alloc_like(loop[nin + k], nd, shape, nlike, likep, ord, &out[k]);

    /* an input overlapping an output (other than exactly in place) is read
     * from a copy, as NumPy does. In place counts only without casts: the
     * kernel's pointers are restrict, so a part of the output that does
     * not depend on the input (the imaginary 0 of equal's bool cast to
     * complex) may be stored before that part of the input is read */
    gp_operand_t ins[GP_MAX_LOOP_ARGS];
    gp_array_t *temps[GP_MAX_LOOP_ARGS] = {NULL};
    memcpy(ins, in, (size_t)nin * sizeof *in);
    for (int k = 0; k < nin && s == GP_OK; ++k) {
        const gp_array_t *a = in[k].array;
        if (!a)
            continue;
        for (int j = 0; j < nout; ++j) {
            if (!given[j])
                continue;
            int32_t share = 0;
            gp_array_may_share_memory(a, out[j], &share);
            if (!share)
                continue;
            int64_t st[GP_MAXDIM];
            full_strides(a, nd, st);
            bool same = gp_array_data(a) == gp_array_data(out[j]) && a->dtype == out[j]->dtype &&
                        loop[k] == a->dtype && loop[nin + j] == out[j]->dtype;
            for (int32_t d = 0; d < nd && same; ++d)
                same = shape[d] == 1 || st[d] == out[j]->strides[d];
            if (!same) {
                s = gp_copy_new(a, a->dtype, GP_ORDER_K, &temps[k]);
                ins[k].array = temps[k];
                break;
            }
        }
    }
    if (s == GP_OK)
        s = gp_ew_run(op, 0, id, loop, ins, out, where);
    for (int k = 0; k < nin; ++k)
        gp_array_release(temps[k]);
    if (s != GP_OK)
        for (int k = 0; k < nout; ++k)
            if (!given[k]) {
                gp_array_release(out[k]);
                out[k] = NULL;
            }
    return s;
}

/* ---- the operators' shortcuts ------------------------------------------------------ */

/* The shortcuts hold `nin` operands and one output: a ufunc of another arity
 * would read or write past them. */
static gp_status_t check_arity(const char *who, int32_t id, int nin)
{
    GP_TRY(check_ufunc(id, GP_CASTING_SAME_KIND));
    const gp_op_t *op = &gp_ufuncs[id];
    if (op->nin != nin || op->nout != 1)
        return gp_set_error(GP_ERR_MISUSE, "%s takes a ufunc of %d input%s and 1 output; %s "
                                           "has %d and %d", who, nin, nin == 1 ? "" : "s",
                            op->name, op->nin, op->nout);
    return GP_OK;
}

GP_API gp_status_t gp_ufunc_call_aa(int32_t id, gp_array_t *a, gp_array_t *b, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_call_aa: out is NULL");
    *out = NULL;
    GP_TRY(check_arity("gp_ufunc_call_aa", id, 2));
    gp_operand_t in[2];
    in[0].array = a;
    in[1].array = b;
    *out = NULL;
    return gp_ufunc_call(id, in, out, NULL, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K);
}

GP_API gp_status_t gp_ufunc_call_as(int32_t id, gp_array_t *a, int32_t dtype, int32_t weak,
                                    int64_t i, double re, double im, int32_t scalar_first,
                                    gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_call_as: out is NULL");
    *out = NULL;
    GP_TRY(check_arity("gp_ufunc_call_as", id, 2));
    gp_operand_t in[2];
    gp_operand_t *arr = &in[scalar_first ? 1 : 0], *sc = &in[scalar_first ? 0 : 1];
    arr->array = a;
    sc->array = NULL;
    sc->scalar.dtype = dtype;
    sc->scalar.weak = weak;
    sc->scalar.i = i;
    sc->scalar.re = re;
    sc->scalar.im = im;
    *out = NULL;
    return gp_ufunc_call(id, in, out, NULL, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K);
}

GP_API gp_status_t gp_ufunc_call_a(int32_t id, gp_array_t *a, gp_array_t **out)
{
    if (!out)
        return gp_set_error(GP_ERR_MISUSE, "gp_ufunc_call_a: out is NULL");
    *out = NULL;
    GP_TRY(check_arity("gp_ufunc_call_a", id, 1));
    gp_operand_t in[1];
    in[0].array = a;
    *out = NULL;
    return gp_ufunc_call(id, in, out, NULL, NULL, GP_CASTING_SAME_KIND, GP_ORDER_K);
}
