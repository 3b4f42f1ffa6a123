"""Einstein sums (numpy.einsum, einsum_path) and the block products built
like them from views (kron, block). An einsum is parsed on the host into
one list of labels per operand; repeated labels become diagonal views,
labels of one operand alone are summed away, and the operands are
contracted two at a time, each contraction one batched matmul (cuBLAS on a
GPU) of the operands transposed to (batch, free, summed) order. Only
shapes and dtypes reach NumPy (einsum_path's stand-ins)."""

from __future__ import annotations

import string
import warnings

import numpy

from gpunp import _lib
from gpunp._creation import _array, zeros
from gpunp._joining import concatenate
from gpunp._matrices import diagonal
from gpunp._ndarray import ndarray
from gpunp._products import matmul
from gpunp._reduction import sum as _sum
from gpunp._ufunc import UFUNCS

_LETTERS = frozenset(string.ascii_letters)


def _sublist_term(sub) -> str:
    """One sublist of NumPy's interleaved form as subscripts: label k is
    the k-th of 'A'..'Z', 'a'..'z'."""
    out = []
    for x in sub:
        if x is Ellipsis:
            out.append("...")
            continue
        try:
            k = _lib.index(x)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") \
                from None
        if not 0 <= k < 52:
            raise ValueError(f"subscript is not within the valid range [0, 52), got {x}")
        out.append(string.ascii_letters[k + 26 if k < 26 else k - 26])
    return "".join(out)


def _split_args(subscripts, operands) -> tuple[str, list]:
    """The subscripts string and the operands, from either calling form:
    (subscripts, op0, op1, ...) or (op0, sublist0, op1, sublist1, ...,
    [sublist_out])."""
    if isinstance(subscripts, str):
        return subscripts, list(operands)
    args = [subscripts, *operands]
    pairs = args[:len(args) - len(args) % 2]
    spec = ",".join(_sublist_term(s) for s in pairs[1::2])
    if len(args) % 2:  # an odd count ends with the output sublist
        spec += "->" + _sublist_term(args[-1])
    return spec, pairs[0::2]


def _term(term: str, ndim: int, which: int) -> list:
    """One operand's labels, its ellipsis expanded into the integer labels
    of broadcast dimensions counted from the right (-1 the last)."""
    if term.count(".") not in (0, 3) or (term.count(".") == 3 and "..." not in term):
        raise ValueError("einstein sum subscripts string contains a '.' that is not part "
                         "of an ellipsis ('...')")
    head, dots, tail = term.partition("...")
    for c in head + tail:
        if c not in _LETTERS:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                             "subscripts must be letters")
    explicit = len(head) + len(tail)
    if not dots:
        if explicit != ndim:
            raise ValueError(f"operand {which} has {ndim} dimensions but {explicit} "
                             "subscripts in einstein sum")
        return list(head)
    n_ell = ndim - explicit
    if n_ell < 0:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                         f"for operand {which}")
    return list(head) + list(range(-n_ell, 0)) + list(tail)


def _parse(spec: str, shapes) -> tuple[list, list]:
    """Labels of each operand and of the output, NumPy's rules and errors."""
    spec = spec.replace(" ", "")
    if spec.count("->") > 1 or spec.count("-") != spec.count("->") or \
            spec.count(">") != spec.count("->"):
        raise ValueError("einstein sum subscript string does not contain proper '->' "
                         "output specified")
    ins, arrow, out = spec.partition("->")
    terms = ins.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"{'more' if len(shapes) > len(terms) else 'fewer'} operands "
                         "provided to einstein sum function than specified in the "
                         "subscripts string")
    labels = [_term(t, len(s), k) for k, (t, s) in enumerate(zip(terms, shapes))]
    n_ell = max([-min([x for x in ls if isinstance(x, int)], default=0) for ls in labels],
                default=0)
    if not arrow:
        counts: dict = {}
        for ls in labels:
            for x in ls:
                counts[x] = counts.get(x, 0) + 1
        once = sorted(x for x, n in counts.items() if isinstance(x, str) and n == 1)
        return labels, list(range(-n_ell, 0)) + once
    if "..." not in out and n_ell:
        raise ValueError("output has more dimensions than subscripts given in einstein "
                         "sum, but no '...' ellipsis provided to broadcast the extra "
                         "dimensions.")
    out_labels = _term(out, n_ell + len(out.replace("...", "")), -1)
    seen = {x for ls in labels for x in ls}
    for x in out_labels:
        if out_labels.count(x) > 1:
            raise ValueError(f"einstein sum subscripts string includes output subscript "
                             f"'{x}' multiple times")
        if x not in seen and isinstance(x, str):
            raise ValueError(f"einstein sum subscripts string included output subscript "
                             f"'{x}' which never appeared in an input")
    return labels, out_labels


def _sizes(labels, shapes) -> dict:
    """Each label's size: equal in every operand, or 1 there (broadcast)."""
    sizes: dict = {}
    for k, (ls, shape) in enumerate(zip(labels, shapes)):
        for x, n in zip(ls, shape):
            if ls.count(x) > 1 and n != shape[ls.index(x)]:
                raise ValueError(f"dimensions in operand {k} for collapsing index '{x}' "
                                 f"don't match ({shape[ls.index(x)]} != {n})")
            m = sizes.get(x, 1)
            if m != n and 1 not in (m, n):
                raise ValueError(f"operands could not be broadcast together: label '{x}' "
                                 f"has sizes {m} and {n}")
            sizes[x] = n if m == 1 else m
    return sizes


def _diagonals(a: ndarray, ls: list) -> tuple[ndarray, list]:
    """A repeated label becomes the diagonal view of its axes (last)."""
    while len(set(ls)) < len(ls):
        x = next(x for x in ls if ls.count(x) > 1)
        p = ls.index(x)
        q = ls.index(x, p + 1)
        a = diagonal(a, 0, p, q)
        ls = [y for k, y in enumerate(ls) if k not in (p, q)] + [x]
    return a, ls


def _sum_away(a: ndarray, ls: list, keep) -> tuple[ndarray, list]:
    """Sums over the labels not in `keep` (in the operand's own dtype, as
    einsum: int8 stays int8, bool is an or of the terms)."""
    axes = tuple(k for k, x in enumerate(ls) if x not in keep)
    if not axes:
        return a, ls
    return _sum(a, axis=axes, dtype=a.dtype), [x for x in ls if x in keep]


def _squeeze(a: ndarray, ls: list, drop) -> tuple[ndarray, list]:
    axes = tuple(k for k, x in enumerate(ls) if x in drop)
    if not axes:
        return a, ls
    return a.squeeze(axes), [x for x in ls if x not in drop]


def _prod(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _contract(a, la, b, lb, keep) -> tuple[ndarray, list]:
    """The product of two operands summed over their shared labels not in
    `keep`: a batched matmul, or a broadcast multiply when nothing is summed."""
    shared = [x for x in la if x in lb]
    # a shared label of size 1 on one side is that side's broadcast: the
    # label then belongs to the other side alone
    size_a, size_b = dict(zip(la, a.shape)), dict(zip(lb, b.shape))
    a, la = _squeeze(a, la, {x for x in shared if size_a[x] == 1 != size_b[x]})
    b, lb = _squeeze(b, lb, {x for x in shared if size_b[x] == 1 != size_a[x]})
    shared = [x for x in la if x in lb]
    a, la = _sum_away(a, la, set(keep) | set(lb))
    b, lb = _sum_away(b, lb, set(keep) | set(la))
    batch = [x for x in shared if x in keep]
    summed = [x for x in shared if x not in keep]
    left = [x for x in la if x not in lb]
    right = [x for x in lb if x not in la]
    size = dict(zip(la, a.shape)) | dict(zip(lb, b.shape))
    bshape = [size[x] for x in batch]
    lshape = [size[x] for x in left]
    rshape = [size[x] for x in right]
    at = a.transpose([la.index(x) for x in batch + left + summed])
    bt = b.transpose([lb.index(x) for x in batch + summed + right])
    if not summed:
        at = at.reshape(bshape + lshape + [1] * len(right))
        bt = bt.reshape(bshape + [1] * len(left) + rshape)
        return UFUNCS["multiply"](at, bt), batch + left + right
    k = _prod(size[x] for x in summed)
    at = at.reshape(bshape + [_prod(lshape), k])
    bt = bt.reshape(bshape + [k, _prod(rshape)])
    return matmul(at, bt).reshape(bshape + lshape + rshape), batch + left + right


def _standins(shapes, dtypes) -> list:
    """Shape-only NumPy arrays (one element, zero strides) for einsum_path."""
    return [numpy.broadcast_to(numpy.empty((), d), s) for s, d in zip(shapes, dtypes)]


def _path(spec, ops, optimize) -> list:
    """The pairwise order: NumPy's einsum_path on stand-ins when asked to
    optimize, else left to right."""
    if optimize is False or optimize is None:
        return [(0, 1)] * (len(ops) - 1)
    stand = _standins([o.shape for o in ops], [o.dtype for o in ops])
    return [tuple(p) for p in numpy.einsum_path(spec, *stand, optimize=optimize)[0][1:]]


def _numpy_dtype(spec, ops, out, dtype, casting, optimize) -> numpy.dtype:
    """The dtype NumPy computes in, and NumPy's casting errors: its own
    einsum on one-element stand-ins (every dimension 1, so any label
    fits), along the same path. With optimize NumPy promotes pair by pair
    (int8, uint8, float16 gives float32), not all at once."""
    tiny = [numpy.zeros((1,) * o.ndim, o.dtype) for o in ops]
    kw = {"dtype": dtype, "casting": casting, "optimize": optimize}
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if out is not None:
            numpy.einsum(spec, *tiny, out=numpy.zeros((1,) * out.ndim, out.dtype), **kw)
        res = numpy.einsum(spec, *tiny, **kw)
    if out is not None and dtype is None and optimize in (False, None):
        # one loop over all operands and out (NumPy's common dtype)
        return numpy.result_type(*[o.dtype for o in ops], out.dtype)
    return numpy.asarray(res).dtype


def einsum(subscripts, *operands, out=None, dtype=None, order="K", casting="safe",
           optimize=False):
    """numpy.einsum: the Einstein summation over the operands' labels
    (explicit and implicit output, ellipsis, diagonals, broadcasting, the
    sublist form), contracted pairwise by matmul."""
    spec, ops = _split_args(subscripts, operands)
    if not ops:
        raise ValueError("must specify the einstein sum subscripts string and at least "
                         "one operand")
    _lib.order_code(order)  # NumPy's checks; einsum's layout is its own
    ops = [_array(o) for o in ops]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("einsum: out must be a gpunp array")
    labels, out_labels = _parse(spec, [o.shape for o in ops])
    sizes = _sizes(labels, [o.shape for o in ops])
    if len(ops) == 1 and out is None and set(labels[0]) <= set(out_labels):
        # nothing summed: NumPy answers with a view of the operand, in its
        # own dtype, whatever dtype= and casting= say
        a, ls = _diagonals(ops[0], labels[0])
        return a.transpose([ls.index(x) for x in out_labels])
    path = _path(spec, ops, optimize)
    work = _numpy_dtype(spec, ops, out, dtype, casting,
                        ["einsum_path", *path] if optimize not in (False, None) else optimize)
    if out is not None:
        want = tuple(sizes.get(x, 1) for x in out_labels)
        if out.shape != want:
            raise ValueError(f"einsum: out has shape {out.shape}, the result {want}")
    shape = tuple(sizes.get(x, 1) for x in out_labels)
    if any(n == 0 for x, n in sizes.items() if x not in out_labels):
        # every element is a sum of no terms; summing a factor early would
        # give 0 * NaN instead
        return _finish(zeros(shape, work), out, order)
    # labels of one operand alone are summed before any product: with
    # optimize NumPy 2.4 and later sum them in the operand's own dtype before
    # they promote (int8 100 + 100 wraps to -56, bool terms are or'ed,
    # whatever dtype= says); without it, and in any case before 2.4, in the
    # computation's dtype
    own = optimize not in (False, None) and _lib._numpy_version() >= 20400
    terms = []
    for o, ls in zip(ops, labels):
        a, ls = _diagonals(o if own else o.astype(work, copy=False), ls)
        terms.append([a, ls])
    for t in terms:
        elsewhere = {x for u in terms if u is not t for x in u[1]} | set(out_labels)
        t[0], t[1] = _sum_away(t[0], t[1], elsewhere)
        t[0] = t[0].astype(work, copy=False)
    for step in path:
        group = [terms[k] for k in sorted(step)]
        terms = [t for k, t in enumerate(terms) if k not in step]
        a, la = group[0]
        for n, (b, lb) in enumerate(group[1:], 2):
            keep = set(out_labels) | {x for t in terms + group[n:] for x in t[1]}
            a, la = _contract(a, la, b, lb, keep)
        terms.append([a, la])
    (res, ls), = terms
    res, ls = _sum_away(res, ls, set(out_labels))
    res = res.transpose([ls.index(x) for x in out_labels if x in ls])
    # an output label every operand had at size 1 was squeezed away above
    return _finish(res.reshape(shape), out, order)


def _finish(res, out, order):
    if out is not None:
        out[...] = res
        return out
    return res.copy(order=order.upper()) if order.upper() in "CF" else res


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path: NumPy's own answer (the path and its report),
    computed on shape-only stand-ins of the operands."""
    if isinstance(subscripts, str):
        args = [subscripts] + [_standin(o) for o in operands]
    else:
        args = [_standin(x) if k % 2 == 0 else x
                for k, x in enumerate([subscripts, *operands])]
    return numpy.einsum_path(*args, optimize=optimize, einsum_call=einsum_call)


def _standin(x):
    # only the shape and dtype are read, so a host operand is not moved
    a = x if isinstance(x, ndarray) else numpy.asarray(x)
    return _standins([a.shape], [a.dtype])[0]


def kron(a, b) -> ndarray:
    """numpy.kron: every element of `a` times all of `b`, as the product of
    two broadcast views reshaped (the shorter shape padded with leading ones)."""
    a, b = _array(a), _array(b)
    if a.ndim == 0 or b.ndim == 0:
        return UFUNCS["multiply"](a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    av = a.reshape([d for s in sa for d in (s, 1)])
    bv = b.reshape([d for s in sb for d in (1, s)])
    return UFUNCS["multiply"](av, bv).reshape([p * q for p, q in zip(sa, sb)])


def _block_depth(x, index: list) -> tuple[int, int]:
    """(list depth, largest ndim) of a nested block list, NumPy's errors."""
    if type(x) is tuple:
        raise TypeError(f"arrays{''.join(f'[{i}]' for i in index)} is a tuple. Only lists "
                        "can be used to arrange blocks, and np.block does not allow implicit "
                        "conversion from tuple to list.")
    if type(x) is not list:
        return len(index), _array(x).ndim
    if not x:
        raise ValueError(f"List at arrays{''.join(f'[{i}]' for i in index)} cannot be empty")
    found = [_block_depth(e, index + [k]) for k, e in enumerate(x)]
    if any(d != found[0][0] for d, _ in found):
        raise ValueError("List depths are mismatched. All lists must be nested to the "
                         "same depth.")
    return found[0][0], max(n for _, n in found)


def _assemble(x, level: int, ndim: int) -> ndarray:
    if type(x) is not list:
        a = _array(x)
        return a.reshape((1,) * (ndim - a.ndim) + a.shape)
    return concatenate([_assemble(e, level - 1, ndim) for e in x], axis=-level)


def block(arrays) -> ndarray:
    """numpy.block: nested lists of arrays joined along the last axes, the
    innermost lists along the last one, by concatenate."""
    depth, ndim = _block_depth(arrays, [])
    res = _assemble(arrays, depth, max(depth, ndim))
    return res.copy() if type(arrays) is not list else res
