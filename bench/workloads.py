"""The workloads: each a row of the table below. A workload's `make(lib, n)`
returns the callable to time (or None where the library lacks the
operation); `unit` says what the number is (us per call, TB/s, TFLOP/s,
GB/s, ms)."""

from __future__ import annotations

import functools
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np


@dataclass
class Workload:
    name: str
    unit: str                      # "us", "TB/s", "TFLOP/s", "GB/s", "ms"
    size: int                      # elements (or matrix side)
    make: Callable                 # (lib, size) -> callable or None
    amount: Callable = None        # size -> bytes moved or flops (for rates)
    higher_is_better: bool = False
    gpu_only: bool = False
    calls: int = 0                 # calls per timing of a "us" workload (0: the default)


@functools.lru_cache(maxsize=2)
def _host_f32(shape, seed):
    # shared by the libraries measured one after another (2^28 floats take
    # a second to draw)
    return np.random.default_rng(seed).random(shape, dtype=np.float32)


def _f32(lib, shape, seed=0):
    return lib.asarray(_host_f32(shape, seed))


def _binary_add(lib, n):
    a, b = _f32(lib, n), _f32(lib, n, 1)
    return lambda: a + b


def _sum(lib, n):
    a = _f32(lib, n)
    return lambda: a.sum()


def _sin(lib, n):
    a = _f32(lib, n)
    xp = lib.xp
    return lambda: xp.sin(a)


def _slice(lib, n):
    a = _f32(lib, n)
    return lambda: a[1:]


def _zeros(lib, n):
    xp = lib.xp
    if lib.name == "torch":
        return lambda: xp.zeros(n, device="cuda")
    return lambda: xp.zeros(n, dtype=np.float32)


def _mul_scalar(lib, n):
    a = _f32(lib, n)
    return lambda: a * 2.0


def _np_add(lib, n):
    if lib.name == "torch":
        return None
    a, b = _f32(lib, n), _f32(lib, n, 1)
    return lambda: np.add(a, b)


def _np_sum(lib, n):
    if lib.name == "torch":
        return None
    a = _f32(lib, n)
    return lambda: np.sum(a)


def _exp(lib, n):
    a = _f32(lib, n)
    xp = lib.xp
    return lambda: xp.exp(a)


def _copy(lib, n):
    a = _f32(lib, n)
    return (lambda: a.clone()) if lib.name == "torch" else (lambda: a.copy())


def _astype16(lib, n):
    a = _f32(lib, n)
    if lib.name == "torch":
        return lambda: a.to(lib.xp.float16)
    return lambda: a.astype(np.float16)


def _sum_axis(axis):
    def make(lib, n):
        a = _f32(lib, (n, n))
        if axis is None:
            return lambda: a.sum()
        return (lambda: a.sum(dim=axis)) if lib.name == "torch" else (lambda: a.sum(axis=axis))
    return make


def _argmax(lib, n):
    a = _f32(lib, (n, n))
    xp = lib.xp
    return lambda: xp.argmax(a)


def _transpose_copy(lib, n):
    a = _f32(lib, (n, n))
    return (lambda: a.T.contiguous()) if lib.name == "torch" else (lambda: a.T.copy())


def _cumsum(lib, n):
    a = _f32(lib, n)
    xp = lib.xp
    if lib.name == "torch":
        return lambda: xp.cumsum(a, 0)
    if not hasattr(xp, "cumsum"):
        return (lambda: xp.add.accumulate(a)) if hasattr(xp, "add") else None
    return lambda: xp.cumsum(a)


def _sort(lib, n):
    a = _f32(lib, n)
    xp = lib.xp
    return (lambda: xp.sort(a)) if hasattr(xp, "sort") else None


def _unique(lib, n):
    # 2^20 distinct values at most: runs of equal ones, as real data has
    a = lib.asarray(np.floor(_host_f32(n, 0) * (1 << 20)))
    xp = lib.xp
    return (lambda: xp.unique(a)) if hasattr(xp, "unique") else None


def _mask_select(lib, n):
    a = _f32(lib, n)
    return lambda: a[a > 0.5]


def _take(count):
    """take of `count` random indices (int64) from n float32: gpunp checks
    every index (IndexError at the next synchronisation), CuPy wraps them
    round, torch.take checks them with a device assertion."""
    def make(lib, n):
        a = _f32(lib, n)
        idx = lib.asarray(np.random.default_rng(2).integers(0, n, count))
        return lambda: lib.xp.take(a, idx)
    return make


def _median(lib, n):
    # torch.median is the lower of the two middle values, not NumPy's median
    if lib.name == "torch":
        return None
    a = _f32(lib, n)
    return lambda: lib.xp.median(a)


def _random(method):
    """A random fill of float32 (written once: 4 bytes an element): gpunp's
    and CuPy's Generator, torch.rand/randn (each library's own generator;
    gpunp's is Philox4x32-10 with exact transformations, the same bits as
    the host backend's)."""
    def make(lib, n):
        xp = lib.xp
        if lib.name == "torch":
            fn = xp.rand if method == "random" else xp.randn
            return lambda: fn(n, device="cuda", dtype=xp.float32)
        if not hasattr(xp, "random") or not hasattr(xp.random, "default_rng"):
            return None
        g = xp.random.default_rng(0)
        fn = getattr(g, method)
        return lambda: fn(n, dtype=np.float32)
    return make


def _matmul(dtype):
    def make(lib, n):
        h = np.random.default_rng(0).random((n, n)).astype(dtype)
        a, b = lib.asarray(h), lib.asarray(h.T.copy())
        return lambda: a @ b
    return make


def _factorization(name):
    """A dense factorization of an n x n float64 matrix that has one
    (well-conditioned: diagonally dominant, symmetric for eigh)."""
    def make(lib, n):
        h = np.random.default_rng(0).random((n, n)) + n * np.eye(n)
        a = lib.asarray(h + h.T if name == "eigh" else h)
        b = lib.asarray(np.ones((n, 1)))
        linalg = lib.xp.linalg
        if name == "solve":
            return lambda: linalg.solve(a, b)
        return lambda: getattr(linalg, name)(a)
    return make


def _fft(two_d):
    # the transform as a GPU time per call (cuFFT's plan made in the warm-up)
    def make(lib, n):
        shape = (n, n) if two_d else (n,)
        rng = np.random.default_rng(0)
        h = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
        a = lib.asarray(h)
        fn = lib.xp.fft.fft2 if two_d else lib.xp.fft.fft
        return lambda: fn(a)
    return make


def _scipy(lib, sub):
    """The library's scipy.<sub>: gpunp.scipy's, cupyx.scipy's, or SciPy's
    own for NumPy (the CPU's reference); None where there is none."""
    import importlib
    mod = {"gpunp": "gpunp.scipy.", "cupy": "cupyx.scipy.", "numpy": "scipy."}.get(lib.name)
    return None if mod is None else importlib.import_module(mod + sub)


def _checked(lib, fn, want, rtol):
    """fn, once its answer has been compared with `want` (SciPy's, on the host)."""
    got = _to_host(lib, fn())
    scale = float(np.abs(want).max())
    if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=rtol * scale):
        raise AssertionError(f"{lib.name}'s answer differs from SciPy's")
    return fn


def _dct(nd):
    # DCT type 2 of float32, one axis of n or both axes of n x n
    def make(lib, n):
        sfft = _scipy(lib, "fft")
        if sfft is None:
            return None
        import scipy.fft
        h = _host_f32((n, n) if nd else (n,), 0)
        a = lib.asarray(h)
        fn = (lambda: sfft.dctn(a)) if nd else (lambda: sfft.dct(a))
        want = scipy.fft.dctn(h) if nd else scipy.fft.dct(h)
        return _checked(lib, fn, want, 1e-4)
    return make


def _expm(lib, n):
    linalg = _scipy(lib, "linalg")
    if linalg is None:
        return None
    import scipy.linalg
    h = np.random.default_rng(0).standard_normal((n, n)) / np.sqrt(n)
    a = lib.asarray(h)
    return _checked(lib, lambda: linalg.expm(a), scipy.linalg.expm(h), 1e-10)


def _lu_factor(lib, n):
    linalg = _scipy(lib, "linalg")
    if linalg is None:
        return None
    h = np.random.default_rng(0).random((n, n))
    a = lib.asarray(h)
    fn = lambda: linalg.lu_factor(a)  # noqa: E731
    # the answer: P A x = L (U x) for a random x, on the device (O(n^2))
    lu, piv = fn()
    xp = np if lib.name == "numpy" else lib.xp
    x = lib.asarray(np.random.default_rng(1).random((n, 1)))
    ux = xp.triu(lu) @ x
    lux = xp.tril(lu, -1) @ ux + ux
    perm = np.arange(n)
    for j, p in enumerate(_to_host(lib, piv)):
        perm[j], perm[p] = perm[p], perm[j]
    ax = _to_host(lib, a @ x)[perm]
    if not np.allclose(_to_host(lib, lux), ax, rtol=1e-8, atol=1e-8 * n):
        raise AssertionError(f"{lib.name}'s LU factors do not give back the matrix")
    return fn
# ---- scipy.special ---------------------------------------------------------------------

def _special_module(lib):
    """The library's scipy.special: gpunp.scipy.special, cupyx.scipy.special,
    torch.special, SciPy's own for NumPy."""
    if lib.name == "gpunp":
        import gpunp.scipy.special as m
    elif lib.name == "cupy":
        import cupyx.scipy.special as m
    elif lib.name == "torch":
        m = lib.xp.special
    else:
        import scipy.special as m
    return m


def _to_host(lib, x):
    if lib.name == "torch":
        return x.cpu().numpy()
    return x.get() if hasattr(x, "get") else np.asarray(x)


# name -> (torch's name or None, host inputs from the row's uniform floats, SciPy's call)
_SPECIAL = {
    "gamma": (None, lambda u: (4 * u[0] + 0.1,)),
    "erf": ("erf", lambda u: (4 * u[0] - 2,)),
    "j0": ("bessel_j0", lambda u: (40 * u[0],)),
    "gammainc": ("gammainc", lambda u: (10 * u[0] + 0.5, 10 * u[1])),
}


def _special(name):
    """scipy.special.<name> elementwise on n float32: each library's answer
    is compared with SciPy's on the first 4096 elements before it is timed."""
    torch_name, inputs = _SPECIAL[name]

    def make(lib, n):
        import scipy.special
        mod = _special_module(lib)
        fname = torch_name if lib.name == "torch" else name
        if fname is None or not hasattr(mod, fname):
            return None
        f = getattr(mod, fname)
        hosts = inputs([_host_f32(n, k) for k in range(2)])
        hosts = [h.astype(np.float32) for h in hosts]
        args = [lib.asarray(h) for h in hosts]
        got = _to_host(lib, f(*args)).ravel()[:4096]
        want = getattr(scipy.special, name)(*[h.ravel()[:4096] for h in hosts])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{lib.name}'s {name}")
        return lambda: f(*args)
    return make


def _logsumexp(lib, n):
    """logsumexp(axis=1) of n float32 as a square matrix, checked against
    SciPy's on its first rows."""
    import scipy.special
    side = int(round(n ** 0.5))
    h = _host_f32(n, 0).reshape(side, side)
    a = lib.asarray(h)
    if lib.name == "torch":
        f = lambda: lib.xp.logsumexp(a, dim=1)  # noqa: E731
    else:
        mod = _special_module(lib)
        f = lambda: mod.logsumexp(a, axis=1)  # noqa: E731
    got = _to_host(lib, f())[:64]
    np.testing.assert_allclose(got, scipy.special.logsumexp(h[:64], axis=1), rtol=1e-5,
                               err_msg=f"{lib.name}'s logsumexp")
    return f


def _h2d(lib, n):
    if not lib.gpu:
        return None
    h = np.random.default_rng(0).random(n // 4, dtype=np.float32)
    return lambda: lib.asarray(h)


def _d2h(lib, n):
    if not lib.gpu:
        return None
    a = _f32(lib, n // 4)
    if lib.name == "torch":
        return lambda: a.cpu().numpy()
    if lib.name == "cupy":
        return lambda: lib.xp.asnumpy(a)
    return lambda: a.get()


def _small_ops(a, b):
    for _ in range(50):
        a *= 0.999
        a += b


def _loop(lib, n):
    """100 small in-place elementwise ops, launched one by one."""
    if lib.name == "numpy":
        return None
    a, b = _f32(lib, n), _f32(lib, n, 1)
    return lambda: _small_ops(a, b)


_SCALE = r'''
extern "C" __global__ void scale(float *x, float s, long long n) {
    long long i = (long long)blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) x[i] *= s;
}
'''


def _raw_kernel(lib, n):
    """A user's kernel launched with an array and two scalars (CuPy's
    RawKernel interface; gpunp and CuPy only)."""
    if lib.name not in ("gpunp", "cupy"):
        return None
    a = _f32(lib, n)
    k = lib.xp.RawKernel(_SCALE, "scale")
    grid, s, size = ((n + 255) // 256,), np.float32(1.0), np.int64(n)
    return lambda: k(grid, (256,), (a, s, size))


def _loop_graph(lib, n):
    """The same 100 ops captured once into a graph, replayed by one launch."""
    a, b = _f32(lib, n), _f32(lib, n, 1)
    if lib.name == "torch":
        torch = lib.xp
        g, s = torch.cuda.CUDAGraph(), torch.cuda.Stream()
        with torch.cuda.stream(s):
            _small_ops(a, b)
            with torch.cuda.graph(g, stream=s):
                _small_ops(a, b)
        torch.cuda.synchronize()
        return g.replay
    if lib.name not in ("gpunp", "cupy"):
        return None
    s = lib.xp.cuda.Stream(non_blocking=True)
    with s:
        _small_ops(a, b)  # compile and allocate outside the capture
        s.begin_capture()
        _small_ops(a, b)
        g = s.end_capture()
    s.synchronize()
    return lambda: g.launch(s)


# ---- scipy.sparse: gpunp.scipy.sparse, cupyx.scipy.sparse, SciPy on the host ------------
# Each row computes its answer once per library and checks it against
# SciPy's before it is timed; a wrong answer is an exception (the row then
# has no value for that library). PyTorch is left out (its sparse CSR
# tensors are another API). gpunp goes through gpunp.scipy.sparse.csr_array
# where that exists, else through the engine's products directly
# (gpunp.scipy.sparse._device).

@functools.lru_cache(maxsize=2)
def _host_csr(rows, per_row, seed):
    """A rows x rows float32 CSR matrix with `per_row` stored elements in
    every row, at random sorted columns (int32 indices)."""
    import scipy.sparse as sps
    rng = np.random.default_rng(seed)
    cols = np.sort(rng.integers(0, rows, (rows, per_row), dtype=np.int32), axis=1)
    data = rng.random(rows * per_row, dtype=np.float32)
    indptr = np.arange(0, rows * per_row + 1, per_row, dtype=np.int32)
    return sps.csr_matrix((data, cols.ravel(), indptr), shape=(rows, rows))


@functools.lru_cache(maxsize=2)
def _host_poisson(side):
    """The 2-D Poisson matrix (5-point Laplacian, Dirichlet) of a side x side
    grid, float64 CSR."""
    import scipy.sparse as sps
    t = sps.diags_array([-np.ones(side - 1), 2 * np.ones(side), -np.ones(side - 1)],
                        offsets=[-1, 0, 1])
    i = sps.identity(side)
    return sps.csr_matrix(sps.kron(i, t) + sps.kron(t, i))


def _gpunp_sparse():
    """gpunp.scipy.sparse, and whether it has its own csr_array yet."""
    import gpunp.scipy.sparse as gsp
    return gsp, hasattr(gsp, "csr_array")


def _to_lib(lib, h):
    """The host SciPy CSR matrix `h` as `lib`'s sparse matrix: gpunp's
    csr_array (or the tuple of its device arrays), CuPy's csr_matrix,
    SciPy's own; None where the library has none."""
    if lib.name == "gpunp":
        gsp, own = _gpunp_sparse()
        if own:
            return gsp.csr_array(h)
        return (h.shape, lib.asarray(h.indptr), lib.asarray(h.indices), lib.asarray(h.data))
    if lib.name == "cupy":
        import cupyx.scipy.sparse as csp
        return csp.csr_matrix(h)
    if lib.name == "numpy":
        return h
    return None


def _matmul_fn(lib, a, b):
    """A callable of a @ b for `lib`'s sparse `a` and dense or sparse `b`."""
    if lib.name == "gpunp" and isinstance(a, tuple):
        from gpunp.scipy.sparse import _device as dev
        if isinstance(b, tuple):
            return lambda: dev.csr_spgemm(*a, *b)
        return lambda: dev.csr_matvec(*a, b)
    return lambda: a @ b


def _host_result(lib, r):
    """A library's answer on the host: an ndarray, or a canonical SciPy CSR."""
    import scipy.sparse as sps
    if isinstance(r, tuple):  # gpunp's engine products: (indptr, indices, data)
        indptr, indices, data = (lib.xp.asnumpy(v) for v in r)
        return sps.csr_matrix((data, indices, indptr), shape=(len(indptr) - 1, len(indptr) - 1))
    if hasattr(r, "get") and lib.name != "numpy":
        r = r.get()
    if sps.issparse(r):
        r = sps.csr_matrix(r)
        r.sum_duplicates()
        return r
    return np.asarray(r)


def _check(lib, got, want, rtol):
    import scipy.sparse as sps
    got = _host_result(lib, got)
    if sps.issparse(want):
        want = sps.csr_matrix(want)
        want.sum_duplicates()
        ok = (got.shape == want.shape and np.array_equal(got.indptr, want.indptr)
              and np.array_equal(got.indices, want.indices)
              and np.allclose(got.data, want.data, rtol=rtol))
    else:
        ok = np.allclose(got, want, rtol=rtol, atol=rtol * np.abs(want).max(initial=0))
    if not ok:
        raise AssertionError(f"{lib.name}'s answer differs from SciPy's")


def _spmv(lib, rows):
    h = _host_csr(rows, 8, 0)
    a = _to_lib(lib, h)
    if a is None:
        return None
    x_host = np.random.default_rng(1).random(rows, dtype=np.float32)
    fn = _matmul_fn(lib, a, x_host if lib.name == "numpy" else lib.asarray(x_host))
    _check(lib, fn(), h @ x_host, 1e-5)
    return fn


def spmv_bytes(rows):
    """The bytes a CSR SpMV of `rows` rows and 8 elements a row must move at
    least: data and indices (4 + 4 a stored element), indptr, x and y read
    or written once."""
    nnz = 8 * rows
    return 8 * nnz + 4 * (rows + 1) + 4 * rows + 4 * rows


def _spgemm(lib, rows):
    h = _host_csr(rows, 8, 0)
    g = _host_csr(rows, 8, 1)
    a, b = _to_lib(lib, h), _to_lib(lib, g)
    if a is None:
        return None
    fn = _matmul_fn(lib, a, b)
    _check(lib, fn(), h @ g, 1e-5)
    return fn


def _linalg_of(lib, side):
    """The library's scipy.sparse.linalg, or None. SciPy on the host only at
    the quick sizes: at the full ones its cg and ARPACK take minutes a call."""
    if lib.name == "gpunp":
        gsp, own = _gpunp_sparse()
        return getattr(gsp, "linalg", None) if own else None
    if lib.name == "cupy":
        import cupyx.scipy.sparse.linalg as cl
        return cl
    if lib.name == "numpy" and side <= 256:
        import scipy.sparse.linalg as sl
        return sl
    return None


def _poisson(lib, side, linalg_side):
    """lib's sparse.linalg (for a problem of linalg_side: _linalg_of), the 2-D
    Poisson matrix of side^2 rows on the host and in lib, and a right-hand
    side of ones on both; None where lib cannot take them."""
    linalg = _linalg_of(lib, linalg_side)
    h = _host_poisson(side)
    a = _to_lib(lib, h)
    if linalg is None or a is None:
        return None
    b_host = np.ones(side * side)
    return linalg, h, a, b_host, b_host if lib.name == "numpy" else lib.asarray(b_host)


def _cg(lib, side):
    """cg on the 2-D Poisson matrix to rtol 1e-6 from x0 = 0, b = 1."""
    case = _poisson(lib, side, side)
    if case is None:
        return None
    linalg, h, a, b_host, b = case

    def run():
        try:
            return linalg.cg(a, b, rtol=1e-6, maxiter=20 * side)
        except TypeError:  # CuPy names it tol
            return linalg.cg(a, b, tol=1e-6, maxiter=20 * side)
    x = _host_result(lib, run()[0])
    if np.linalg.norm(h @ x - b_host) > 1.01e-6 * np.linalg.norm(b_host):
        raise AssertionError(f"{lib.name}'s cg did not reach rtol=1e-6")
    return run


def _eigsh(lib, side):
    """The 6 largest eigenvalues of the 2-D Poisson matrix of side^2 rows
    (known in closed form), eigenvalues only."""
    case = _poisson(lib, side, side)
    if case is None:
        return None
    linalg, _, a = case[:3]
    run = lambda: linalg.eigsh(a, k=6, which="LM", return_eigenvectors=False)
    c = 2 - 2 * np.cos(np.arange(1, side + 1) * np.pi / (side + 1))
    want = np.sort(np.add.outer(c, c).ravel())[-6:]
    got = np.sort(_host_result(lib, run()))
    if not np.allclose(got, want, rtol=1e-6):
        raise AssertionError(f"{lib.name}'s eigsh differs from the closed form")
    return run


def _spsolve(lib, side):
    """spsolve of the 2-D Poisson matrix of side^2 rows, b = 1 (gpunp:
    cuSOLVER's sparse QR on CUDA; CuPy: the same library; SciPy: SuperLU)."""
    # SciPy's SuperLU takes these sizes in well under a second: no size limit
    case = _poisson(lib, side, 0)
    if case is None:
        return None
    linalg, h, a, b_host, b = case
    x = _host_result(lib, linalg.spsolve(a, b))
    if np.linalg.norm(h @ x - b_host) > 1e-8 * np.linalg.norm(b_host) * side * side:
        raise AssertionError(f"{lib.name}'s spsolve is off")
    return lambda: linalg.spsolve(a, b)


def bytes_moved(arrays, itemsize=4):
    return lambda n: arrays * n * itemsize


OVERHEAD = [
    ("a + b", _binary_add), ("a.sum()", _sum), ("sin(a)", _sin), ("a[1:]", _slice),
    ("zeros(n)", _zeros), ("a * 2.0", _mul_scalar), ("np.add(a, b)", _np_add),
    ("np.sum(a)", _np_sum), ("a.copy()", _copy),
]


# ---- scipy.signal: gpunp.scipy.signal, cupyx.scipy.signal, SciPy on the host ------------
# Each answer is checked against SciPy's on the host before it is timed
# (SciPy's own answer computed once per row and size). SciPy is timed on the
# host at the quick sizes only (at the full ones a call takes seconds).
# PyTorch is left out (no scipy.signal).

def _signal_of(lib, n, quick_n):
    if lib.name == "gpunp":
        import gpunp.scipy.signal as gsig
        return gsig
    if lib.name == "cupy":
        import cupyx.scipy.signal as csig
        return csig
    if lib.name == "numpy" and n <= quick_n:
        import scipy.signal as ssig
        return ssig
    return None


@functools.lru_cache(maxsize=1)
def _scipy_answer(name, n):
    """SciPy's answer of a signal row (kept while the row is measured)."""
    import scipy.signal as ssig
    return _SIGNAL_ROWS[name][1](ssig, *_signal_inputs(name, n))


def _signal_inputs(name, n):
    return _SIGNAL_ROWS[name][0](n)


def _signal_check(lib, got, want, rtol):
    def host(v):
        return v if isinstance(v, np.ndarray) else (v.get() if hasattr(v, "get") else
                                                   np.asarray(v))
    got = [host(g) for g in (got if isinstance(got, tuple) else (got,))]
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want):
        w = np.asarray(w)
        if g.shape != w.shape or not np.allclose(g, w, rtol=rtol,
                                                 atol=rtol * np.abs(w).max(initial=0)):
            raise AssertionError(f"{lib.name}'s answer differs from SciPy's")


def _iir8():
    import scipy.signal as ssig
    return ssig.butter(8, 0.125), ssig.butter(8, 0.125, output="sos")


# row name -> (inputs of a size n (host arrays and parameters), the call on
# a scipy.signal-like module, rtol of the check)
_SIGNAL_ROWS = {
    "fftconvolve": (lambda n: (_host_f32(n, 0), _host_f32(n >> 8, 1)),
                    lambda sig, a, b: sig.fftconvolve(a, b), 1e-3),
    "lfilter": (lambda n: (_host_f64((16, n), 2), *_iir8()[0]),
                lambda sig, x, b, a: sig.lfilter(b, a, x, axis=-1), 1e-6),
    "sosfiltfilt": (lambda n: (_host_f64((16, n), 2), _iir8()[1]),
                    lambda sig, x, sos: sig.sosfiltfilt(sos, x, axis=-1), 1e-6),
    "welch": (lambda n: (_host_f32(n, 3),),
              lambda sig, x: sig.welch(x, nperseg=1024), 1e-3),
    "stft": (lambda n: (_host_f32(n, 3),),
             lambda sig, x: sig.stft(x, nperseg=1024), 1e-3),
    "resample_poly": (lambda n: (_host_f32(n, 4),),
                      lambda sig, x: sig.resample_poly(x, 3, 2), 1e-3),
    "find_peaks": (lambda n: (_host_f32(n, 5),),
                   lambda sig, x: sig.find_peaks(x)[0], 0),
}


@functools.lru_cache(maxsize=2)
def _host_f64(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def _signal(name, quick_n):
    def make(lib, n):
        sig = _signal_of(lib, n, quick_n)
        if sig is None:
            return None
        inputs, call, rtol = _SIGNAL_ROWS[name]
        args = [lib.asarray(a) if isinstance(a, np.ndarray) and lib.name != "numpy" else a
                for a in inputs(n)]

        def fn():
            return call(sig, *args)
        _signal_check(lib, fn(), _scipy_answer(name, n), rtol)
        return fn
    return make


#: modules of bench/ whose rows(quick) add an area's workloads
AREA_ROWS = ("scipy_signal_lti", "scipy_ndimage", "scipy_ndimage_morph", "scipy_spatial_distance",
             "scipy_spatial_tree", "scipy_interpolate", "scipy_stats", "fusion", "e2e")


def workloads(quick: bool) -> list:
    big = 1 << (22 if quick else 28)
    side = 2048 if quick else 16384
    mside = 1024 if quick else 8192
    gib = (64 if quick else 1024) << 20
    out = []
    for n in (1, 1000):
        for label, fn in OVERHEAD:
            out.append(Workload(f"{label}, {n} float32, per call", "us", n, fn))
    out += [
        Workload("RawKernel launch (array and 2 scalars), 1000 float32, per call", "us", 1000,
                 _raw_kernel, gpu_only=True),
        Workload("100 small ops (1000 float32), op by op, per loop", "us", 1000, _loop,
                 gpu_only=True, calls=300),
        Workload("100 small ops (1000 float32), graph replay, per loop", "us", 1000,
                 _loop_graph, gpu_only=True, calls=300),
    ]
    out += [
        Workload(f"a + b, {big} float32",
                 "TB/s", big, _binary_add, bytes_moved(3), True),
        Workload(f"exp(a), {big} float32", "TB/s", big, _exp, bytes_moved(2), True),
        Workload(f"a.copy(), {big} float32", "TB/s", big, _copy, bytes_moved(2), True),
        Workload(f"a.astype(float16), {big} float32", "TB/s", big, _astype16,
                 lambda n: n * 6, True),
        Workload(f"cumsum, {big} float32", "TB/s", big, _cumsum, bytes_moved(2), True),
        Workload(f"sum(), {side}x{side} float32", "TB/s", side, _sum_axis(None),
                 lambda n: n * n * 4, True),
        Workload(f"sum(axis=0), {side}x{side} float32", "TB/s", side, _sum_axis(0),
                 lambda n: n * n * 4, True),
        Workload(f"sum(axis=1), {side}x{side} float32", "TB/s", side, _sum_axis(1),
                 lambda n: n * n * 4, True),
        Workload(f"argmax, {side}x{side} float32", "TB/s", side, _argmax,
                 lambda n: n * n * 4, True),
        Workload(f"transpose copy, {side}x{side} float32", "TB/s", side, _transpose_copy,
                 lambda n: 2 * n * n * 4, True),
        Workload(f"random({big}, dtype=float32)", "TB/s", big, _random("random"),
                 bytes_moved(1), True, gpu_only=True),
        Workload(f"standard_normal({big}, dtype=float32)", "TB/s", big,
                 _random("standard_normal"), bytes_moved(1), True, gpu_only=True),
    ]
    nsort = 10 ** (6 if quick else 8)
    ntake = 10 ** (5 if quick else 7)
    out += [
        Workload(f"sort, {nsort} float32", "ms", nsort, _sort),
        Workload(f"unique, {nsort} float32", "ms", nsort, _unique),
        Workload(f"median, {nsort} float32", "ms", nsort, _median),
        Workload(f"a[a > 0.5], {big} float32", "ms", big, _mask_select),
        Workload(f"take of {ntake} indices from {big} float32", "ms", big, _take(ntake)),
    ]
    for dt in ("float16", "float32", "float64"):
        out.append(Workload(f"matmul {mside}x{mside} {dt}", "TFLOP/s", mside, _matmul(dt),
                            lambda n: 2 * n ** 3, True, gpu_only=True))
    lside = 1024 if quick else 4096
    out += [
        Workload(f"solve {lside}x{lside} float64", "ms", lside, _factorization("solve"),
                 gpu_only=True),
        Workload(f"eigh {lside}x{lside} float64", "ms", lside, _factorization("eigh"),
                 gpu_only=True),
        Workload(f"svd {lside // 2}x{lside // 2} float64", "ms", lside // 2,
                 _factorization("svd"), gpu_only=True),
    ]
    # SciPy's own on the CPU at the quick sizes only: at the full ones its
    # calls took most of a device run (450 s for three special rows)
    host_too = quick
    for name in ("gamma", "erf", "j0"):
        out.append(Workload(f"scipy.special.{name}, {big} float32", "TB/s", big,
                            _special(name), bytes_moved(2), True, not host_too))
    out += [
        Workload(f"scipy.special.gammainc, {big} float32", "TB/s", big, _special("gammainc"),
                 bytes_moved(3), True, not host_too),
        Workload(f"scipy.special.logsumexp(axis=1), {big} float32", "TB/s", big, _logsumexp,
                 bytes_moved(1), True, not host_too),
    ]
    fside, flen = (1024, 1 << 20) if quick else (4096, 1 << 24)
    # SciPy's (gpunp.scipy, cupyx.scipy; SciPy's own on the CPU)
    out += [
        Workload(f"scipy.fft.dct type 2, {flen} float32", "ms", flen, _dct(False),
                 gpu_only=not host_too),
        Workload(f"scipy.fft.dctn type 2, {fside}x{fside} float32", "ms", fside, _dct(True),
                 gpu_only=not host_too),
        Workload(f"scipy.linalg.expm {lside // 4}x{lside // 4} float64", "ms", lside // 4,
                 _expm, gpu_only=not host_too),
        Workload(f"scipy.linalg.lu_factor {mside}x{mside} float64", "ms", mside, _lu_factor,
                 gpu_only=not host_too),
    ]
    out += [
        Workload(f"fft complex64 {flen}", "ms", flen, _fft(False), gpu_only=True),
        Workload(f"fft2 complex64 {fside}x{fside}", "ms", fside, _fft(True), gpu_only=True),
    ]
    srows, grows, pside, eside, dside = ((1 << 14, 1 << 12, 64, 32, 32) if quick else
                                         (1 << 24, 1 << 20, 2048, 1024, 128))
    out += [
        Workload(f"sparse CSR SpMV, {srows} rows, {8 * srows} nonzeros float32 (bytes implied)",
                 "TB/s", srows, _spmv, spmv_bytes, True, not host_too),
        Workload(f"sparse CSR SpGEMM, two {grows}-row float32 matrices of 8 nonzeros a row",
                 "ms", grows, _spgemm, gpu_only=not host_too),
        Workload(f"sparse cg, 2-D Poisson {pside}x{pside} float64 to rtol=1e-6", "ms", pside,
                 _cg),
        Workload(f"sparse eigsh, 6 largest of a {eside * eside}-row 2-D Laplacian float64",
                 "ms", eside, _eigsh),
        Workload(f"sparse spsolve, 2-D Poisson {dside}x{dside} float64, one right-hand side",
                 "ms", dside, _spsolve),
    ]
    sig = 1 << (16 if quick else 24)
    sig26 = 1 << (18 if quick else 26)
    quick_n = 1 << 18
    out += [
        Workload(f"signal fftconvolve, {sig} by {sig >> 8} float32", "ms", sig,
                 _signal("fftconvolve", quick_n)),
        Workload(f"signal lfilter, order-8 IIR over 16 x {sig} float64", "ms", sig,
                 _signal("lfilter", quick_n)),
        Workload(f"signal sosfiltfilt, order-8 IIR over 16 x {sig} float64", "ms", sig,
                 _signal("sosfiltfilt", quick_n)),
        Workload(f"signal welch, {sig26} float32, nperseg 1024", "ms", sig26,
                 _signal("welch", quick_n)),
        Workload(f"signal stft, {sig26} float32, nperseg 1024", "ms", sig26,
                 _signal("stft", quick_n)),
        Workload(f"signal resample_poly 3/2, {sig} float32", "ms", sig,
                 _signal("resample_poly", quick_n)),
        Workload(f"signal find_peaks, {sig} float32", "ms", sig, _signal("find_peaks", quick_n)),
    ]
    for name in AREA_ROWS:  # they import this module: loaded only now
        out += importlib.import_module(f"bench.{name}").rows(quick)
    out += [
        Workload(f"host->device {gib >> 20} MiB pageable", "GB/s", gib, _h2d, lambda n: n,
                 True, gpu_only=True),
        Workload(f"device->host {gib >> 20} MiB pageable", "GB/s", gib, _d2h, lambda n: n,
                 True, gpu_only=True),
    ]
    return out


# ---- workloads measured in fresh processes -------------------------------------------

_FIRST_CALL = """
import time, numpy, gpunp
from gpunp._config import cache_stats
a = gpunp.asarray(numpy.arange(1000, dtype=numpy.float32))
(a + 1).sum().item()
s = cache_stats()
t = time.perf_counter()
gpunp.tanh(a).get()
t = time.perf_counter() - t
e = cache_stats()
print(t, e["compile_seconds"] - s["compile_seconds"], e["pack_hits"] - s["pack_hits"])
"""

# NVRTC's floor on this host: an empty kernel with the engine's options, in a
# process of its own (the first call's process goes on compiling its twins
# in the background, and NVRTC serializes part of two concurrent compiles),
# after another empty kernel has loaded the compiler
_FLOOR = """
import gpunp
from gpunp._config import cache_stats
def compile_s(name):
    s = cache_stats()["compile_seconds"]
    gpunp.RawKernel('extern "C" __global__ void %s() {}' % name, name, options=(
        "-std=c++17", "-fmad=false", "-default-device", "-minimal")).num_regs
    return cache_stats()["compile_seconds"] - s
if gpunp.backend() == "host":  # which compiles no raw CUDA
    print("nan")
else:
    compile_s("gpk_load")
    print(compile_s("gpk_floor"))
"""


def first_call_ms(env, repeats: int = 3) -> tuple:
    """A new elementwise kernel's first call in a fresh process, with an
    empty disk cache and then with that cache warm: the medians of `repeats`
    such pairs (the first process on a machine also reads the compiler's
    libraries from disk, which is not the cache's cost), of the cold
    call's time inside the compiler, and of NVRTC's time for an empty kernel
    with the engine's options (the compiler's floor on that host, whatever
    the prelude). These run without the kernel pack, which would serve the
    kernel; the fifth is the same cold call with the installed wheel's pack
    (NaN where the pack did not serve it: no pack for this target, or one
    made by another NVRTC)."""
    def run(code, e, d):
        out = subprocess.run([sys.executable, "-c", code], env=e, cwd=d,
                             capture_output=True, text=True, check=True).stdout.split()
        return [float(x) * 1e3 for x in out]
    cold, warm, compiling, floor, packed = [], [], [], [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as d:
            # NVRTC 12.9 and later keep their output in the driver's cache
            # (~/.nv/ComputeCache, shared by processes) and run only their
            # front end for a source met before: a cold call gets an empty one
            e = dict(os.environ, GPUNP_CACHE_DIR=d, CUDA_CACHE_PATH=os.path.join(d, "nv"), **env)
            with_pack = dict(e, GPUNP_CACHE_DIR=os.path.join(d, "p"))
            e["GPUNP_KERNEL_PACK"] = ""
            t, c, _ = run(_FIRST_CALL, e, d)
            cold.append(t)
            compiling.append(c)
            warm.append(run(_FIRST_CALL, e, d)[0])
            floor.append(run(_FLOOR, e, d)[0])
            t, _, hits = run(_FIRST_CALL, with_pack, d)
            packed.append(t if hits > 0 else float("nan"))
    return (statistics.median(cold), statistics.median(warm), statistics.median(compiling),
            statistics.median(floor), statistics.median(packed))


@functools.lru_cache(maxsize=None)
def _import_env() -> dict:
    """The environment of the import rows' interpreters: each module's
    bytecode written under a prefix of its own, as a user's installation has
    it beside the sources (pip compiles them). The lent GPU machine's
    interpreter may not write bytecode and its NumPy came without any, so a
    plain import there compiles NumPy's sources every time (226 against
    77 ms, on an H100 machine on 2026-12-05)."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="bench-pyc-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run_with_bytecode(code: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], check=True, cwd=tempfile.gettempdir(),
                          env=_import_env(), **kw)


def _wall_ms(code: str) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        _run_with_bytecode(code)
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def import_ms(module="gpunp", after="") -> float:
    """The wall time `import module` adds to a fresh interpreter, or, with
    `after`, the time of `import module` alone, timed inside a fresh
    interpreter that has imported `after` already (gpunp's own share,
    NumPy's apart: a difference of two process times, each best of five,
    came out negative on the H200). A first, untimed import writes the
    bytecode (_import_env)."""
    _run_with_bytecode(f"import {after or 'sys'}, {module}")
    if not after:
        return _wall_ms(f"import {module}") - _wall_ms("pass")
    code = (f"import time, {after}; t = time.perf_counter(); import {module}; "
            "print(time.perf_counter() - t)")
    return min(float(_run_with_bytecode(code, capture_output=True, text=True).stdout.split()[-1])
               for _ in range(5)) * 1e3


_ALLOCATOR = """
import sys, numpy
sys.path.append(%r)  # after the installed gpunp
from bench.libs import Gpunp
lib = Gpunp()
gp = lib.xp
a = gp.zeros(1000, numpy.float32)
print(lib.overhead_us(lambda: gp.empty(1000, numpy.float32), 20000),
      lib.overhead_us(lambda: a + a, 20000),
      lib.overhead_us(lambda: gp.empty(1 << 26, numpy.float32), 2000))
"""

ALLOCATOR_ROWS = ("empty(1000) float32, per call", "a + b, 1000 float32 (allocates), per call",
                  "empty(2**26) float32 (256 MiB), per call")


def allocator_us(kind: str) -> list:
    """Per-call times of allocating workloads in a fresh process whose device
    memory comes from `kind`: gpunp's pool ("pool") or the driver's
    stream-ordered pool ("driver", cuMemAllocAsync), GPUNP_ALLOCATOR."""
    e = dict(os.environ, GPUNP_ALLOCATOR=kind)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", _ALLOCATOR % root], env=e,
                       cwd=tempfile.gettempdir(), capture_output=True, text=True, check=True)
    return [float(x) for x in r.stdout.split()[-3:]]
