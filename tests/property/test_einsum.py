"""einsum, einsum_path, kron and block against NumPy: random subscripts
(explicit, implicit, ellipses, diagonals, broadcast size-1 dimensions,
scalars) over random shapes, dtypes and layouts; NumPy's dtypes, casting
rules and kinds of error."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gpunp as gp
from property.outcome import quiet, same_outcome
from property.strategies import ALL_DTYPES, assert_same, bounded_values, device_arrays

LABELS = "abcdA"
BOUND = 3.0


@st.composite
def einsum_cases(draw):
    """(subscripts, operand shapes), the output explicit or implicit: each label has
    one size, which an operand may hold as 1 (broadcast); an ellipsis
    stands for trailing-aligned broadcast dimensions."""
    sizes = {x: draw(st.integers(0, 4)) for x in LABELS}
    nops = draw(st.integers(1, 4))
    ellipsis = draw(st.booleans())
    ell_shape = draw(st.lists(st.integers(0, 3), max_size=2)) if ellipsis else []
    terms, shapes = [], []
    for _ in range(nops):
        ls = draw(st.lists(st.sampled_from(LABELS), max_size=4 if nops < 3 else 3))
        shape = []
        for x in ls:
            # a repeated label (a diagonal) must keep one size in its operand
            if x in ls[:len(shape)]:
                shape.append(shape[ls.index(x)])
            else:
                shape.append(1 if draw(st.integers(0, 5)) == 0 else sizes[x])
        term = "".join(ls)
        if ellipsis and draw(st.booleans()):
            cut = draw(st.integers(0, len(ls)))
            ell = ell_shape[len(ell_shape) - draw(st.integers(0, len(ell_shape))):]
            ell = [1 if draw(st.integers(0, 4)) == 0 else n for n in ell]
            term = term[:cut] + "..." + term[cut:]
            shape = shape[:cut] + ell + shape[cut:]
        terms.append(term)
        shapes.append(tuple(shape))
    used = sorted({x for t in terms for x in t if x != "."})
    spec = ",".join(terms)
    if draw(st.booleans()):
        out = draw(st.permutations(used))[:draw(st.integers(0, len(used)))]
        out = "".join(out)
        if any("..." in t for t in terms):
            cut = draw(st.integers(0, len(out)))
            out = out[:cut] + "..." + out[cut:]
        spec += "->" + out
    return spec, shapes


def _values(dt, specials):
    # NaN only: with infinities, whether a sum of products is inf or NaN
    # depends on the order of its terms (docs/differences.md)
    real = specials and np.dtype(dt).kind == "f"
    return bounded_values(dt, BOUND, specials=(np.nan, 1.0, 0.0) if real else ())


def _tol(dt, length, nops):
    """Pairwise contraction rounds its intermediates: an error of a few eps
    of the largest partial sum (terms up to BOUND**nops, `length` of them)."""
    dt = np.dtype(dt)
    if dt.kind not in "fc":
        return None, 0.0
    eps = float(np.finfo(dt).eps)
    rtol = 16 * eps * max(length, 1) * nops
    return rtol, rtol * BOUND ** nops


def _summed_length(spec, shapes):
    """At most the number of terms of an output element: the product of
    the largest dimensions of the labels outside the output."""
    ins, arrow, out = spec.partition("->")
    letters = [x for x in ins if x.isalpha()]
    if not arrow:
        out = "".join(x for x in letters if letters.count(x) == 1)
    largest = max((n for s in shapes for n in s), default=1)
    return largest ** len(set(letters) - set(out)) * (largest if "..." in ins else 1) ** 2


@st.composite
def operands(draw, shapes, specials=False):
    one = draw(st.booleans())
    dts = [draw(st.sampled_from(ALL_DTYPES))] * len(shapes) if one else \
        [draw(st.sampled_from(ALL_DTYPES)) for _ in shapes]
    pairs = [draw(device_arrays(dt, s, values=_values(dt, specials))) for dt, s in
             zip(dts, shapes)]
    return [g for g, _ in pairs], [h for _, h in pairs]


@given(st.data(), st.sampled_from([False, True, "greedy", "optimal"]))
def test_einsum(data, optimize):
    spec, shapes = data.draw(einsum_cases())
    gs, hs = data.draw(operands(shapes))
    got, want = same_outcome(lambda: np.einsum(spec, *hs, optimize=optimize),
                             lambda: gp.einsum(spec, *gs, optimize=optimize))
    if want is None:
        return
    dt = np.asarray(want).dtype
    if optimize is not False and dt.kind in "fc":
        # NumPy contracts a pair in the pair's own dtype: an intermediate of
        # float16 operands is rounded to float16 before a float64 one joins it
        dt = max([dt] + [h.dtype for h in hs if h.dtype.kind in "fc"],
                 key=lambda d: np.finfo(d).eps)
    rtol, atol = _tol(dt, _summed_length(spec, shapes), len(shapes))
    assert_same(got, want, rtol=rtol, atol=atol)


@given(st.data(), st.sampled_from([d for d in ALL_DTYPES if d.kind in "biu"]),
       st.sampled_from([False, True]))
def test_einsum_integers_wrap_as_numpy(data, dt, optimize):
    # any values: integer sums of products wrap alike in every order
    spec, shapes = data.draw(einsum_cases())
    pairs = [data.draw(device_arrays(dt, s)) for s in shapes]
    gs, hs = [g for g, _ in pairs], [h for _, h in pairs]
    got, want = same_outcome(lambda: np.einsum(spec, *hs, optimize=optimize),
                             lambda: gp.einsum(spec, *gs, optimize=optimize))
    if want is not None:
        assert_same(got, want)


@given(st.data())
def test_einsum_nan(data):
    spec, shapes = data.draw(einsum_cases())
    gs, hs = data.draw(operands(shapes, specials=True))
    got, want = same_outcome(lambda: np.einsum(spec, *hs), lambda: gp.einsum(spec, *gs))
    if want is None:
        return
    w = np.asarray(want)
    rtol, atol = _tol(w.dtype, _summed_length(spec, shapes), len(shapes))
    assert_same(got, want, rtol=rtol, atol=atol)


def _sublists(spec):
    def sub(term):
        return [Ellipsis if x == "." else (ord(x) - 65 if x.isupper() else ord(x) - 71)
                for x in term.replace("...", ".")]
    ins, arrow, out = spec.partition("->")
    return [sub(t) for t in ins.split(",")], (sub(out) if arrow else None)


@given(st.data())
def test_einsum_sublist_form(data):
    spec, shapes = data.draw(einsum_cases())
    gs, hs = data.draw(operands(shapes))
    subs, out = _sublists(spec)
    g_args = [x for pair in zip(gs, subs) for x in pair] + ([out] if out is not None else [])
    h_args = [x for pair in zip(hs, subs) for x in pair] + ([out] if out is not None else [])
    got, want = same_outcome(lambda: np.einsum(*h_args), lambda: gp.einsum(*g_args))
    if want is None:
        return
    rtol, atol = _tol(np.asarray(want).dtype, _summed_length(spec, shapes), len(shapes))
    assert_same(got, want, rtol=rtol, atol=atol)


@given(st.text(alphabet="ij.,->A1 ", max_size=10),
       st.lists(st.lists(st.integers(1, 3), max_size=3), min_size=0, max_size=3))
def test_einsum_bad_subscripts(spec, shapes):
    hs = [np.arange(math.prod(s), dtype=np.float64).reshape(s) for s in shapes]
    gs = [gp.asarray(h) for h in hs]
    got, want = same_outcome(lambda: np.einsum(spec, *hs), lambda: gp.einsum(spec, *gs))
    if want is not None:
        assert_same(got, want, rtol=1e-12)


@given(st.data(), st.sampled_from(ALL_DTYPES),
       st.sampled_from(["no", "equiv", "safe", "same_kind", "unsafe"]))
def test_einsum_dtype_and_casting(data, dt, casting):
    spec, shapes = data.draw(einsum_cases())
    gs, hs = data.draw(operands(shapes))
    got, want = same_outcome(
        lambda: np.einsum(spec, *hs, dtype=dt, casting=casting),
        lambda: gp.einsum(spec, *gs, dtype=dt, casting=casting))
    if want is None:
        return
    rtol, atol = _tol(dt, _summed_length(spec, shapes), len(shapes))
    assert_same(got, want, rtol=rtol, atol=atol)


@given(st.data(), st.sampled_from(ALL_DTYPES), st.sampled_from(["safe", "same_kind", "unsafe"]))
def test_einsum_out(data, dt, casting):
    spec, shapes = data.draw(einsum_cases())
    gs, hs = data.draw(operands(shapes))
    with quiet():
        try:
            shape = np.einsum(spec, *hs).shape
        except ValueError:
            return
    h_out = np.zeros(shape, dt)
    g_out = gp.zeros(shape, dt)
    # NumPy's reference from C-ordered operands: with a Fortran-ordered one
    # its buffered loop casts each partial sum into `out` (0.25 summed four
    # times into int8 gives 0, where C order and gpunp give 1)
    hs = [h.copy(order="C") for h in hs]
    got, want = same_outcome(lambda: np.einsum(spec, *hs, out=h_out, casting=casting),
                             lambda: gp.einsum(spec, *gs, out=g_out, casting=casting))
    if want is None:
        return
    assert got is g_out
    rtol, atol = _tol(dt, _summed_length(spec, shapes), len(shapes))
    assert_same(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("scalar", [2, 2.5, 1 + 2j, True])
def test_einsum_python_scalars(scalar):
    h = np.arange(4, dtype=np.int8)
    for spec in (",i", ",i->", "i,", ","):
        ops = (scalar, h) if spec[0] == "," else (h, scalar)
        if spec == ",":
            ops = (scalar, scalar)
        want = np.einsum(spec, *ops)
        got = gp.einsum(spec, *[gp.asarray(x) if isinstance(x, np.ndarray) else x for x in ops])
        assert_same(got, want)


def test_einsum_known_errors():
    a = gp.asarray(np.arange(3, dtype=np.int64))
    f = gp.asarray(np.ones(3))
    with pytest.raises(TypeError):
        gp.einsum("i,i", a, f, dtype=int)
    assert gp.einsum("i,i", a, f, dtype=int, casting="unsafe").dtype == np.int64
    with pytest.raises(ValueError):
        gp.einsum("i,i", a)
    with pytest.raises(ValueError):
        gp.einsum("i", a, a)
    with pytest.raises(ValueError):
        gp.einsum("i,i", a, gp.ones(4))
    with pytest.raises(ValueError):
        gp.einsum("ii", gp.ones((2, 3)))
    with pytest.raises(TypeError):
        gp.einsum("i->", f, out=gp.zeros((), np.int64))
    with pytest.raises(ValueError):
        gp.einsum("i->i", f, out=gp.zeros(4))


def test_einsum_large_contractions():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((4, 64, 96)), rng.standard_normal((4, 96, 80))
    for spec in ("bij,bjk->bik", "bij,bjk->ik", "bij,bjk", "bij,bjk->kbi"):
        for optimize in (False, True):
            got = gp.einsum(spec, gp.asarray(a), gp.asarray(b), optimize=optimize)
            assert_same(got, np.einsum(spec, a, b), rtol=1e-11, atol=1e-11)


@given(st.data(), st.sampled_from(["greedy", "optimal", True, False]))
def test_einsum_path(data, optimize):
    spec, shapes = data.draw(einsum_cases())
    gs, hs = data.draw(operands(shapes))
    got, want = same_outcome(lambda: np.einsum_path(spec, *hs, optimize=optimize),
                             lambda: gp.einsum_path(spec, *gs, optimize=optimize))
    if want is not None:
        assert got[0] == want[0]
        assert got[1] == want[1]


@given(st.data(), st.sampled_from(ALL_DTYPES), st.sampled_from(ALL_DTYPES))
def test_kron(data, dt_a, dt_b):
    sa = data.draw(st.lists(st.integers(0, 3), max_size=3))
    sb = data.draw(st.lists(st.integers(0, 3), max_size=3))
    ga, ha = data.draw(device_arrays(dt_a, sa))
    gb, hb = data.draw(device_arrays(dt_b, sb))
    got, want = same_outcome(lambda: np.kron(ha, hb), lambda: gp.kron(ga, gb))
    w = np.asarray(want)
    # one product an element; complex products may round differently
    assert_same(got, want, rtol=1e-6 if w.dtype.kind == "c" else None,
                atol=0.0)


@st.composite
def block_cases(draw):
    """Nested lists of NumPy arrays, joinable when `broken` is None, else
    with one fault NumPy raises on: a depth mismatch, a tuple, an empty
    list, a mismatched shape."""
    depth = draw(st.integers(1, 3))
    lead = draw(st.lists(st.integers(1, 2), max_size=2))
    counts = [draw(st.integers(1, 3)) for _ in range(depth)]
    sizes = [[draw(st.integers(0, 2)) for _ in range(c)] for c in counts]
    dt = draw(st.sampled_from(ALL_DTYPES))

    def build(level, index):
        if level == depth:
            shape = tuple(lead) + tuple(sizes[k][i] for k, i in enumerate(index))
            # leading ones may be left off: block prepends them
            while shape and shape[0] == 1 and draw(st.booleans()):
                shape = shape[1:]
            return np.arange(math.prod(shape), dtype=np.int64).reshape(shape).astype(dt)
        return [build(level + 1, index + [k]) for k in range(counts[level])]

    nested = build(0, [])
    broken = draw(st.sampled_from([None, None, None, "depth", "tuple", "empty", "shape"]))
    inner = nested
    while isinstance(inner[0], list):
        inner = inner[0]
    if broken == "depth":
        inner[0] = [inner[0]]
    elif broken == "tuple":
        inner[0] = (inner[0],)
    elif broken == "empty":
        inner.append([])
    elif broken == "shape":
        inner[0] = np.zeros(inner[0].shape + (2,), dt)
    return nested


def _on_device(x):
    if isinstance(x, list):
        return [_on_device(e) for e in x]
    if isinstance(x, tuple):
        return tuple(_on_device(e) for e in x)
    return gp.asarray(x)


@given(block_cases())
def test_block(nested):
    got, want = same_outcome(lambda: np.block(nested), lambda: gp.block(_on_device(nested)))
    if want is not None:
        assert_same(got, want)


@given(st.sampled_from(ALL_DTYPES), st.lists(st.integers(0, 3), max_size=3))
def test_block_of_one_array(dt, shape):
    h = np.arange(math.prod(shape)).reshape(shape).astype(dt)
    g = gp.asarray(h)
    assert_same(gp.block(g), np.block(h))
    assert_same(gp.block([g]), np.block([h]))
    assert_same(gp.block([[g, g]]), np.block([[h, h]]))


def test_numpy_functions_route_to_gpunp():
    a = gp.asarray(np.arange(6.0).reshape(2, 3))
    assert isinstance(np.einsum("ij->ji", a), gp.ndarray)
    assert isinstance(np.kron(a, a), gp.ndarray)
    assert isinstance(np.block([[a, a]]), gp.ndarray)


@pytest.mark.parametrize("optimize", [False, True])
def test_lone_labels_summed_in_the_operands_dtype_with_optimize(optimize):
    """With optimize NumPy 2.4 and later sum a label only one operand has in
    that operand's dtype before they promote (int8 wraps, bool terms are
    or'ed); without it, and in NumPy 2.2 and 2.3 with it too, in the
    computation's dtype (a Hypothesis find on the H200)."""
    cases = [(",caab", np.array(1, np.int8), np.ones((1, 2, 2, 1), bool)),
             ("i,->", np.array([100, 100], np.int8), np.array(1.0)),
             ("ii,", np.full((2, 2), 100, np.int8), np.array(1.0)),
             ("ij,j", np.ones((2, 2), bool), np.array([1, 1], np.int8))]
    for spec, x, y in cases:
        want = np.einsum(spec, x, y, optimize=optimize)
        assert_same(gp.einsum(spec, gp.asarray(x), gp.asarray(y), optimize=optimize), want)
    want = np.einsum("i,->", cases[1][1], cases[1][2], optimize=optimize, dtype=np.float64)
    assert_same(gp.einsum("i,->", gp.asarray(cases[1][1]), gp.asarray(cases[1][2]),
                          optimize=optimize, dtype=np.float64), want)
