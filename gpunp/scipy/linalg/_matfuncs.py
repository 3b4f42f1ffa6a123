"""scipy.linalg's matrix functions and structured products.

expm is the scaling and squaring method with a Pade approximant of degree
3 to 13 chosen from the 1-norm (Higham 2005), all matrix products and the
one solve on the device; cosm and sinm come from expm of i A; sqrtm and
logm are the Denman-Beavers iteration and inverse scaling and squaring on
the device. The Schur-based functions (schur, solve_sylvester, ldl, and
sqrtm/logm where the iteration cannot answer) have no device routine
(cuSOLVER has no Schur decomposition): they run SciPy's on a host copy and
return gpunp arrays, which needs SciPy installed."""

from __future__ import annotations

import math

import numpy

import gpunp
import gpunp.linalg as _la

from gpunp.scipy._version import scipy_version
from gpunp.scipy.linalg._batch import as_device, over_batch
from gpunp.scipy.linalg._decomp import (_scipy_on_host, asarray_validated, require_square,
                                        svd_needs_matrix)

# Pade coefficients b_k of degree 13 and the 1-norm bounds theta_m under
# which degree m meets double precision (Higham 2005, table 2.3)
_B13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
        129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
        40840800., 960960., 16380., 182., 1.)
_PADE = {3: (120., 60., 12., 1.), 5: (30240., 15120., 3360., 420., 30., 1.),
         7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
         9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
             3960., 90., 1.)}
_THETA = {3: 1.495585217958292e-2, 5: 2.539398330063230e-1, 7: 9.504178996162932e-1,
          9: 2.097847961257068, 13: 5.371920351148152}


def _pade(a, m):
    """(U, V) of the degree-m approximant: exp(A) ~ (V - U)^-1 (V + U)."""
    n = a.shape[-1]
    eye = gpunp.eye(n, dtype=a.dtype)
    a2 = a @ a
    if m != 13:
        b = _PADE[m]
        powers = [eye, a2]
        for _ in range(2, m // 2 + 1):
            powers.append(powers[-1] @ a2)
        u = sum(b[2 * k + 1] * powers[k] for k in range(m // 2 + 1))
        v = sum(b[2 * k] * powers[k] for k in range(m // 2 + 1))
        return a @ u, v
    b = _B13
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2)
             + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 \
        + b[0] * eye
    return u, v


def expm(A):
    """The matrix exponential of each matrix of A (scipy.linalg.expm)."""
    a = as_device(A)
    require_square(a, "expm")
    if a.dtype.kind in "biu":
        a = a.astype(numpy.float64)
    elif a.dtype == numpy.float16:
        a = a.astype(numpy.float32)
    n = a.shape[-1]
    if a.size == 0:
        return gpunp.empty(a.shape, a.dtype)
    if n == 1:
        return gpunp.exp(a)
    t = a.dtype
    work = a.astype(numpy.complex128 if t.kind == "c" else numpy.float64, copy=False)
    # the 1-norm of the worst matrix of the batch picks one degree for all
    norm1 = float(gpunp.max(gpunp.sum(gpunp.abs(work), axis=-2)))
    if not math.isfinite(norm1):
        return gpunp.full(a.shape, numpy.nan, t)
    for m in (3, 5, 7, 9):
        if norm1 <= _THETA[m]:
            u, v = _pade(work, m)
            s = 0
            break
    else:
        s = max(0, math.ceil(math.log2(norm1 / _THETA[13]))) if norm1 > 0 else 0
        u, v = _pade(work / (2.0 ** s), 13)
    r = _la.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return gpunp.ascontiguousarray(r.astype(t, copy=False))


def cosm(A):
    """The matrix cosine (scipy.linalg.cosm), from expm of i A."""
    a = asarray_validated(A, check_finite=False)
    require_square(a, "trig")
    if a.dtype.kind == "c":
        return 0.5 * (expm(1j * a) + expm(-1j * a))
    return gpunp.ascontiguousarray(expm(1j * a).real)


def sinm(A):
    """The matrix sine (scipy.linalg.sinm), from expm of i A."""
    a = asarray_validated(A, check_finite=False)
    require_square(a, "trig")
    if a.dtype.kind == "c":
        return -0.5j * (expm(1j * a) - expm(-1j * a))
    return gpunp.ascontiguousarray(expm(1j * a).imag)


@over_batch(2, 2)
def khatri_rao(a, b):
    """The column-wise Kronecker product (scipy.linalg.khatri_rao)."""
    a, b = as_device(a), as_device(b)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("The both arrays should be 2-dimensional.")
    if a.shape[1] != b.shape[1]:
        raise ValueError("The number of columns for both arrays should be equal.")
    return (a[:, None, :] * b[None, :, :]).reshape(-1, a.shape[1])


def kron(a, b):
    """The Kronecker product (scipy.linalg.kron, which SciPy 1.17 dropped;
    cupyx keeps it): numpy's kron."""
    return gpunp.kron(a, b)


@over_batch(2, variadic=True)
def block_diag(*arrs):
    """The block diagonal matrix of the arrays (scipy.linalg.block_diag)."""
    if not arrs:
        arrs = ([],)
    mats = [gpunp.atleast_2d(as_device(x)) for x in arrs]
    bad = [k for k, m in enumerate(mats) if m.ndim > 2]
    if bad:
        raise ValueError(f"arguments in the following positions have dimension greater than "
                         f"2: {bad}")
    shapes = numpy.array([m.shape for m in mats])
    dt = numpy.result_type(*[m.dtype for m in mats])
    out = gpunp.zeros(tuple(int(v) for v in shapes.sum(axis=0)), dt)
    r = c = 0
    for m, (rr, cc) in zip(mats, shapes):
        out[r:r + rr, c:c + cc] = m
        r, c = r + rr, c + cc
    return out


# ---- the Schur family: SciPy's, on a host copy -------------------------------------------

def _on_host(name, *arrays, **kwargs):
    return _scipy_on_host(name, *[as_device(a) for a in arrays], **kwargs)


def schur(a, output="real", lwork=None, overwrite_a=False, sort=None, check_finite=True):
    """(T, Z) with a = Z T Z^H (scipy.linalg.schur; computed by SciPy on the host)."""
    return _on_host("schur", a, output=output, sort=sort, check_finite=check_finite)


def _fro(x):
    """The largest Frobenius norm of a batch of matrices (one scalar read)."""
    return float(gpunp.max(gpunp.sqrt(gpunp.sum(gpunp.abs(x) ** 2, axis=(-2, -1)))))


def _db_sqrt(a, tol):
    """The principal square root of each matrix of a (double precision) by
    the scaled product form of the Denman-Beavers iteration (Higham,
    Functions of Matrices, 6.29): inverses and products on the device. None
    when it does not converge (an eigenvalue on the closed negative real
    axis of a real matrix, or one near zero), or when the root it reached
    does not square back to a: SciPy's Schur method answers those."""
    n = a.shape[-1]
    eye = gpunp.eye(n, dtype=a.dtype)
    y, m = a, a
    scale = True
    for _ in range(60):
        try:
            minv = _la.inv(m)
        except numpy.linalg.LinAlgError:
            return None
        if scale:
            # determinant scaling brings the iterates' eigenvalues near 1 fast
            _, logdet = _la.slogdet(m)
            mu = gpunp.exp(logdet / (-2.0 * n))[..., None, None]
            if not bool(gpunp.all(gpunp.isfinite(mu))):
                return None
        else:
            mu = 1.0
        y = 0.5 * mu * (y @ (eye + minv / (mu * mu)))
        m = 0.5 * (eye + 0.5 * (mu * mu * m + minv / (mu * mu)))
        change = _fro(m - eye)
        if not math.isfinite(change):
            return None
        scale = change > 1e-2
        if change <= tol:
            break
    else:
        return None
    if _fro(y @ y - a) > 1e3 * tol * max(_fro(a), 1.0):
        return None
    return y


# Gauss-Legendre nodes and weights on [0, 1]: log(I + E) is the sum of
# w_j E (I + x_j E)^-1, the [m/m] Pade approximant (Higham 2001)
_GL_NODES, _GL_WEIGHTS = numpy.polynomial.legendre.leggauss(8)
_GL_NODES, _GL_WEIGHTS = (_GL_NODES + 1) / 2, _GL_WEIGHTS / 2


def _iss_log(a, tol):
    """log(a) by inverse scaling and squaring: square roots until a is near
    I, then the Pade approximant, scaled back by 2^k. None where a square
    root fails (SciPy answers those)."""
    n = a.shape[-1]
    eye = gpunp.eye(n, dtype=a.dtype)
    x, k = a, 0
    while _fro(x - eye) > 0.25:
        x = _db_sqrt(x, tol)
        k += 1
        if x is None or k > 40:
            return None
    e = x - eye
    r = sum(w * _la.solve(eye + t * e, e) for t, w in zip(_GL_NODES, _GL_WEIGHTS))
    return r * (2.0 ** k)


def _square_input(A, kind):
    a = asarray_validated(A, check_finite=True)
    require_square(a, kind)
    return a


def sqrtm(A, disp=True, blocksize=64):
    """The principal matrix square root (scipy.linalg.sqrtm): the
    Denman-Beavers iteration on the device; where it cannot answer
    (eigenvalues on the negative real axis of a real matrix, a singular
    matrix) SciPy's Schur method on a host copy."""
    a = _square_input(A, "expm")
    t = a.dtype
    if a.size and a.shape[-1] > 0:
        w = a.astype(numpy.complex128 if t.kind == "c" else numpy.float64)
        r = _db_sqrt(w, a.shape[-1] * numpy.finfo(numpy.float64).eps * 4)
        if r is not None:
            return gpunp.ascontiguousarray(r.astype(t, copy=False))
    return _on_host("sqrtm", a)


def logm(A, disp=True):
    """The principal matrix logarithm (scipy.linalg.logm): inverse scaling
    and squaring on the device (Denman-Beavers square roots, then a Pade
    approximant by Gauss-Legendre quadrature); SciPy's on a host copy
    where a square root cannot be taken there."""
    a = _square_input(A, "logm")
    if a.size and a.shape[-1] > 0:
        w = a.astype(numpy.complex128 if a.dtype.kind == "c" else numpy.float64)
        r = _iss_log(w, a.shape[-1] * numpy.finfo(numpy.float64).eps * 4)
        if r is not None:
            return gpunp.ascontiguousarray(r)
    return _on_host("logm", a)


def solve_sylvester(a, b, q):
    """X with A X + X B = Q (scipy.linalg.solve_sylvester; Bartels-Stewart
    by SciPy on the host)."""
    return _on_host("solve_sylvester", a, b, q)


def ldl(A, lower=True, hermitian=True, overwrite_a=False, check_finite=True):
    """(lu, d, perm) of scipy.linalg.ldl (SciPy's, on the host)."""
    return _on_host("ldl", A, lower=lower, hermitian=hermitian, check_finite=check_finite)


# ---- built on the SVD ----------------------------------------------------------------------

@over_batch(2)
def polar(a, side="right"):
    """(u, p) with a = u p (right) or p u (left) (scipy.linalg.polar)."""
    if side not in ("right", "left"):
        raise ValueError("`side` must be either 'right' or 'left'")
    a = asarray_validated(a, check_finite=False)
    if a.ndim != 2:
        raise ValueError("`a` must be a 2-D array.")
    w, s, vh = _la.svd(a, full_matrices=False)
    u = w @ vh
    if side == "right":
        p = (gpunp.conj(vh.T) * s) @ vh
    else:
        p = (w * s) @ gpunp.conj(w.T)
    return u, p


def _rank_cut(s, rcond, shape):
    if rcond is None:
        rcond = numpy.finfo(s.dtype).eps * max(shape)
    top = float(gpunp.max(s)) if s.size else 0.0
    return int(gpunp.count_nonzero(s > top * rcond))


@over_batch(2)
def orth(A, rcond=None):
    """An orthonormal basis of A's range (scipy.linalg.orth)."""
    a = asarray_validated(A)
    svd_needs_matrix(a)
    u, s, _ = _la.svd(a, full_matrices=False)
    return gpunp.ascontiguousarray(u[:, :_rank_cut(s, rcond, a.shape)])


@over_batch(2)
def null_space(A, rcond=None, *, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """An orthonormal basis of A's null space (scipy.linalg.null_space)."""
    a = asarray_validated(A, check_finite)
    svd_needs_matrix(a)
    _, s, vh = _la.svd(a, full_matrices=True)
    rank = _rank_cut(s, rcond, a.shape)
    return gpunp.ascontiguousarray(gpunp.conj(vh[rank:, :].T))


# ---- more matrix functions from expm --------------------------------------------------------

def _real_if_real(a, b):
    """b, real when a is (the hyperbolic functions of a real matrix are)."""
    return gpunp.ascontiguousarray(b.real) if a.dtype.kind != "c" and b.dtype.kind == "c" else b


def coshm(A):
    """The matrix hyperbolic cosine (scipy.linalg.coshm)."""
    a = asarray_validated(A, check_finite=False)
    require_square(a, "trig")
    return _real_if_real(a, 0.5 * (expm(a) + expm(-a)))


def sinhm(A):
    """The matrix hyperbolic sine (scipy.linalg.sinhm)."""
    a = asarray_validated(A, check_finite=False)
    require_square(a, "trig")
    return _real_if_real(a, 0.5 * (expm(a) - expm(-a)))


def tanm(A):
    """The matrix tangent, cosm(A)^-1 sinm(A) (scipy.linalg.tanm)."""
    a = asarray_validated(A, check_finite=False)
    require_square(a, "trig")
    return _la.solve(cosm(a), sinm(a))


def tanhm(A):
    """The matrix hyperbolic tangent, coshm(A)^-1 sinhm(A) (scipy.linalg.tanhm)."""
    a = asarray_validated(A, check_finite=False)
    require_square(a, "trig")
    return _la.solve(coshm(a), sinhm(a))


# ---- products and solves with structured matrices, by FFT ----------------------------------

def solve_circulant(c, b, singular="raise", tol=None, caxis=-1, baxis=0, outaxis=0):
    """x with C x = b for the circulant matrix C of first column c
    (scipy.linalg.solve_circulant): C's eigenvalues are fft(c), so x is
    ifft(fft(b) / fft(c)); near-zero eigenvalues raise, or with "lstsq"
    their terms are dropped (the least-squares solution)."""
    c, b = as_device(c), as_device(b)
    if singular not in ("raise", "lstsq"):
        raise ValueError("singular must be 'raise' or 'lstsq'")
    c = gpunp.moveaxis(c, caxis, -1)
    b = gpunp.moveaxis(b, baxis, -1) if b.ndim > 1 else b
    n = c.shape[-1]
    if b.shape[-1] != n:
        raise ValueError(f"Shapes of c {c.shape} and b {b.shape} are incompatible")
    if b.ndim > 1 and c.ndim == 1:
        # b's columns, each solved with the same c
        b = gpunp.moveaxis(gpunp.moveaxis(b, -1, 0), 0, -1)
    fc = gpunp.fft.fft(c)
    mag = gpunp.abs(fc)
    if tol is None:
        tol = float(gpunp.max(mag)) * n * numpy.finfo(numpy.float64).eps
    small = mag <= tol
    if bool(gpunp.any(small)):
        if singular == "raise":
            raise numpy.linalg.LinAlgError("near singular circulant matrix.")
        fc = gpunp.where(small, 1, fc)
    fb = gpunp.fft.fft(b)
    q = fb / (fc[..., None, :] if b.ndim > c.ndim else fc)
    if bool(gpunp.any(small)):
        q = gpunp.where(small[..., None, :] if b.ndim > c.ndim else small, 0, q)
    x = gpunp.fft.ifft(q)
    if c.dtype.kind != "c" and b.dtype.kind != "c":
        x = x.real
    return gpunp.ascontiguousarray(gpunp.moveaxis(x, -1, outaxis))


def matmul_toeplitz(c_or_cr, x, check_finite=False, workers=None):
    """T @ x for the Toeplitz matrix T of first column c (and first row r)
    (scipy.linalg.matmul_toeplitz): T embedded in a circulant matrix of
    order m + n - 1, whose product is a convolution done by FFT."""
    if isinstance(c_or_cr, tuple):
        c, r = (gpunp.ravel(as_device(v)) for v in c_or_cr)
    else:
        c = gpunp.ravel(as_device(c_or_cr))
        r = gpunp.conj(c)
    x = asarray_validated(x, check_finite)
    m, n = c.size, r.size
    vector = x.ndim == 1
    xm = x[:, None] if vector else x
    if xm.shape[0] != n:
        raise ValueError(f"Incompatible dimensions: T is {m} x {n}, x has {xm.shape[0]} rows")
    size = m + n - 1
    v = gpunp.concatenate([c, r[:0:-1]]) if n > 1 else c
    cplx = v.dtype.kind == "c" or x.dtype.kind == "c"
    f = gpunp.fft.fft if cplx else gpunp.fft.rfft
    fv = f(v, size)
    fx = f(xm, size, axis=0)
    y = (gpunp.fft.ifft(fv[:, None] * fx, size, axis=0) if cplx else
         gpunp.fft.irfft(fv[:, None] * fx, size, axis=0))[:m]
    y = gpunp.ascontiguousarray(y)
    return y[:, 0] if vector else y


# ---- small helpers of scipy.linalg ----------------------------------------------------------

@over_batch(2)
def bandwidth(a):
    """(lower, upper): how many sub- and super-diagonals hold a nonzero
    (scipy.linalg.bandwidth), by one masked reduction each."""
    a = as_device(a)
    new = scipy_version() >= 11800  # SciPy 1.18 reworded both errors
    if a.ndim != 2:
        raise ValueError("Input array must be at least 2D." if new
                         else "Input array must be a 2D NumPy array.")
    if a.dtype == numpy.float16:
        raise TypeError("Input array with float16 dtype is not supported." if new
                        else "No matching signature found")
    if a.size == 0:
        return 0, 0
    m, n = a.shape
    offset = gpunp.arange(m)[:, None] - gpunp.arange(n)[None, :]
    nz = a != 0
    lower = int(gpunp.max(gpunp.where(nz, offset, 0)))
    upper = int(gpunp.max(gpunp.where(nz, -offset, 0)))
    return lower, upper


def _is_sym(a, atol, rtol, conj):
    a = as_device(a)
    if a.ndim != 2:
        raise ValueError("Input array must be a 2D NumPy array.")
    if a.shape[0] != a.shape[1]:
        return False
    t = a.T
    if conj and a.dtype.kind == "c":
        t = gpunp.conj(t)
    if atol is None and rtol is None:
        return bool(gpunp.all(a == t))
    return bool(gpunp.all(gpunp.abs(a - t) <= (atol or 0) + (rtol or 0) * gpunp.abs(t)))


@over_batch(2)
def issymmetric(a, atol=None, rtol=None):
    """Whether a equals its transpose, exactly or within atol + rtol |a^T|
    (scipy.linalg.issymmetric)."""
    return _is_sym(a, atol, rtol, False)


@over_batch(2)
def ishermitian(a, atol=None, rtol=None):
    """Whether a equals its conjugate transpose (scipy.linalg.ishermitian)."""
    return _is_sym(a, atol, rtol, True)


@over_batch(1)
def diagsvd(s, M, N):
    """The M x N matrix with s on its diagonal (scipy.linalg.diagsvd)."""
    s = as_device(s)
    if s.size not in (M, N):
        raise ValueError("Length of s must be M or N.")
    out = gpunp.zeros((M, N), s.dtype)
    k = s.size
    out[gpunp.arange(k), gpunp.arange(k)] = s
    return out


@over_batch(2, 2)
def orthogonal_procrustes(A, B, check_finite=True):
    """(R, scale): the unitary R nearest to mapping A onto B and the sum of
    the singular values (scipy.linalg.orthogonal_procrustes)."""
    a = asarray_validated(A, check_finite)
    b = asarray_validated(B, check_finite)
    if a.ndim != 2:
        raise ValueError(f"expected ndim to be 2, but observed {a.ndim}")
    if a.shape != b.shape:
        raise ValueError(f"the shapes of A and B differ ({a.shape} vs {b.shape})")
    u, w, vt = _la.svd((b.T @ gpunp.conj(a)).T)
    return u @ vt, gpunp.sum(w)


def pinvh(a, atol=None, rtol=None, lower=True, return_rank=False, check_finite=True):
    """The pseudo-inverse of a Hermitian matrix from its eigendecomposition
    (scipy.linalg.pinvh), eigenvalues up to atol + rtol max|w| dropped."""
    a = asarray_validated(a, check_finite)
    require_square(a, "eigh")
    if a.size == 0:
        b = gpunp.empty(a.shape, a.dtype)
        return (b, 0) if return_rank else b
    w, v = _la.eigh(a, UPLO="L" if lower else "U")
    t = w.dtype
    atol = 0.0 if atol is None else atol
    rtol = max(a.shape[-2:]) * numpy.finfo(t).eps if rtol is None else rtol
    if atol < 0 or rtol < 0:
        raise ValueError("atol and rtol values must be positive.")
    top = gpunp.max(gpunp.abs(w), axis=-1, keepdims=True)
    keep = gpunp.abs(w) > atol + top * rtol
    winv = gpunp.where(keep, 1 / gpunp.where(keep, w, 1), 0).astype(t)
    b = gpunp.ascontiguousarray((v * winv[..., None, :]) @ gpunp.conj(gpunp.swapaxes(v, -1, -2)))
    if return_rank:
        rank = gpunp.count_nonzero(keep, axis=-1)
        return b, (int(rank) if rank.ndim == 0 else rank)
    return b


# ---- Lyapunov equations ------------------------------------------------------------------------

def solve_continuous_lyapunov(a, q):
    """X with A X + X A^H = Q (scipy.linalg.solve_continuous_lyapunov): the
    Sylvester equation with B = A^H (Bartels-Stewart by SciPy on a host
    copy, as solve_sylvester)."""
    a = asarray_validated(a)
    return solve_sylvester(a, gpunp.conj(a.T) if a.dtype.kind == "c" else a.T, q)


solve_lyapunov = solve_continuous_lyapunov


def solve_discrete_lyapunov(a, q, method=None):
    """X with A X A^H - X + Q = 0 (scipy.linalg.solve_discrete_lyapunov):
    "direct" solves (I - A (x) conj(A)) vec X = vec Q on the device (for
    orders below 10 by default: it is n^2 x n^2); "bilinear" maps it to a
    continuous equation."""
    a, q = asarray_validated(a), asarray_validated(q)
    if method is None:
        method = "bilinear" if a.shape[0] >= 10 else "direct"
    if method == "direct":
        n = a.shape[0]
        lhs = gpunp.eye(n * n, dtype=numpy.result_type(a.dtype, q.dtype)) - gpunp.kron(
            a, gpunp.conj(a))
        return _la.solve(lhs, q.reshape(-1)).reshape(q.shape)
    if method == "bilinear":
        eye = gpunp.eye(a.shape[0], dtype=a.dtype)
        ah = gpunp.conj(a.T)
        inv_ah = _la.inv(ah + eye)
        b = (ah - eye) @ inv_ah
        c = 2 * (_la.inv(a + eye) @ q @ inv_ah)
        return solve_continuous_lyapunov(gpunp.conj(b.T), -c)
    raise ValueError(f"Unknown solver {method}")
