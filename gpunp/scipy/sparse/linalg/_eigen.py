"""Eigenvalues and singular values of Hermitian operators: eigsh (thick
restart Lanczos), svds (through eigsh) and lobpcg.

SciPy calls ARPACK (implicitly restarted Lanczos) on the host. gpunp runs
Lanczos with full reorthogonalisation and thick restarts (Wu and Simon,
2000): the basis V (ncv vectors of length n) and every product stay on the
device; the host holds the small projected matrix (ncv x ncv), its
eigendecomposition and the convergence test. Eigenvalues converge to the
same values as ARPACK's; eigenvectors agree up to a unit factor."""

import warnings

import numpy

import gpunp as gp
from gpunp.scipy._version import scipy_version

from ..csgraph._csr import as_dense, device, is_sparse
from ._dsolve import splu
from ._interface import LinearOperator, aslinearoperator
from ._isolve import _inner_all

__all__ = ["ArpackError", "ArpackNoConvergence", "eigs", "eigsh", "lobpcg", "svds"]


class ArpackError(RuntimeError):
    """An ARPACK-style failure (kept for SciPy's name; gpunp's Lanczos is
    not ARPACK)."""

    def __init__(self, info, infodict=None):
        super().__init__(f"ARPACK error {info}: {infodict or ''}")
        self.info = info


class ArpackNoConvergence(ArpackError):
    """Not all requested eigenpairs converged; ``eigenvalues`` and
    ``eigenvectors`` hold those that did."""

    def __init__(self, msg, eigenvalues, eigenvectors):
        RuntimeError.__init__(self, msg)
        self.eigenvalues = eigenvalues
        self.eigenvectors = eigenvectors


_WHICH = ("LM", "SM", "LA", "SA", "BE")


def _converged(b, S, theta, idx, tol, eps) -> bool:
    """ARPACK's test on the wanted Ritz pairs (residual b * |last row of
    S|), floored where rounding stops the residual falling (about
    eps * norm(A) with a reorthogonalised basis)."""
    resid = numpy.abs(b * S[-1, idx])
    bound = numpy.maximum(tol * numpy.maximum(numpy.abs(theta[idx]), eps ** (2.0 / 3.0)),
                          10 * eps * numpy.abs(theta).max())
    return bool(numpy.all(resid <= bound))


def _wanted(theta, which, k):
    """Indices of the k wanted Ritz values, most wanted first."""
    if which == "LM":
        return numpy.argsort(-numpy.abs(theta), kind="stable")[:k]
    if which == "SM":
        return numpy.argsort(numpy.abs(theta), kind="stable")[:k]
    if which == "LA":
        return numpy.argsort(-theta, kind="stable")[:k]
    if which == "SA":
        return numpy.argsort(theta, kind="stable")[:k]
    # BE: alternately from the high and the low end, the high end first
    order = numpy.argsort(theta, kind="stable")
    hi, lo, picked = len(order) - 1, 0, []
    while len(picked) < k:
        picked.append(order[hi])
        hi -= 1
        if len(picked) < k:
            picked.append(order[lo])
            lo += 1
    return numpy.array(picked)


def _arpack_order(w, which):
    """The order eigsh(..., return_eigenvectors=False) lists eigenvalues in:
    ARPACK's, the most wanted last."""
    if which == "LM":
        return numpy.argsort(numpy.abs(w), kind="stable")
    if which == "SM":
        return numpy.argsort(-numpy.abs(w), kind="stable")
    if which == "SA":
        return numpy.argsort(-w, kind="stable")
    return numpy.argsort(w, kind="stable")


def _random_unit(rng, n, dtype):
    v = rng.uniform(-1, 1, n)
    if numpy.dtype(dtype).kind == "c":
        v = v + 1j * rng.uniform(-1, 1, n)
    return gp.asarray(v.astype(dtype))


def _lanczos(op, k, which, v0, ncv, maxiter, tol, dtype, rng):
    """(theta, Y, converged): the k wanted Ritz pairs of a Hermitian operator."""
    n = op.shape[0]
    real = numpy.dtype(dtype).kind != "c"
    V = gp.zeros((ncv + 1, n), dtype=dtype)
    v = device(v0).astype(dtype) if v0 is not None else _random_unit(rng, n, dtype)
    V[0] = v / gp.linalg.norm(v)
    T = numpy.zeros((ncv, ncv), dtype=dtype)
    start = 0
    eps = numpy.finfo(dtype).eps
    tol = eps if tol == 0 else tol
    theta = S = None
    for _cycle in range(maxiter):
        for j in range(start, ncv):
            w = op.matvec(V[j])
            basis = V[:j + 1]
            h = _inner_all(basis, w)
            w = w - h @ basis
            h2 = _inner_all(basis, w)  # the second pass keeps V orthonormal
            w = w - h2 @ basis
            h = h + h2
            hb = gp.concatenate([h, gp.linalg.norm(w).reshape(1).astype(dtype)]).get()
            col, b = hb[:-1], hb[-1].real
            T[:j + 1, j] = col
            T[j, :j + 1] = numpy.conj(col)
            if real:
                T[j, j] = T[j, j].real
            scale = max(numpy.abs(col).max(), 1.0)
            if b <= eps * scale * n:
                # an invariant subspace: continue from a fresh orthogonal direction
                r = _random_unit(rng, n, dtype)
                for _ in range(2):
                    r = r - _inner_all(V[:j + 1], r) @ V[:j + 1]
                V[j + 1] = r / gp.linalg.norm(r)
                b = 0.0
            else:
                V[j + 1] = w / b
            if j + 1 < ncv:
                T[j + 1, j] = T[j, j + 1] = b
        theta, S = numpy.linalg.eigh(T)
        idx = _wanted(theta, which, k)
        if _converged(b, S, theta, idx, tol, eps):
            return theta[idx], gp.asarray(S[:, idx].T.copy()) @ V[:ncv], True
        # thick restart: keep the wanted Ritz vectors and a few more, plus
        # the residual direction; the projected matrix becomes an arrow
        keep = min(ncv - 1, k + (ncv - k) // 2)
        kidx = _wanted(theta, which, keep)
        V[:keep] = gp.asarray(S[:, kidx].T.copy()) @ V[:ncv]
        V[keep] = V[ncv]
        T[:] = 0
        T[numpy.arange(keep), numpy.arange(keep)] = theta[kidx]
        T[:keep, keep] = b * S[-1, kidx]
        T[keep, :keep] = numpy.conj(T[:keep, keep])
        start = keep
    idx = _wanted(theta, which, k)
    return theta[idx], gp.asarray(S[:, idx].T.copy()) @ V[:ncv], False


def _operator(A, kind):
    """A as a LinearOperator; an n-d array (n > 2) gets the running SciPy's
    ValueError (SciPy 1.18 reworded it for each of ARPACK and svds)."""
    if not (isinstance(A, LinearOperator) or is_sparse(A)):
        A = device(A)
        if A.ndim > 2:
            new = scipy_version() >= 11800
            if kind == "svds":
                raise ValueError("Only 2-D input is supported for `A` (a single matrix)"
                                 if new else "array must have ndim <= 2")
            raise ValueError(f"{A.ndim}-dimensional `A` is unsupported, expected 2-D." if new
                             else f"expected square matrix (shape={A.shape})")
    return aslinearoperator(A)


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal", rng=None):
    """k eigenvalues (and eigenvectors) of a Hermitian matrix or operator,
    as scipy.sparse.linalg.eigsh: which in LM, SM, LA, SA, BE; eigenvalues
    ascending (ARPACK's order without eigenvectors). Runs thick-restart
    Lanczos on the device; with ``sigma``, on (A - sigma I)^-1 (OPinv, or
    the dense LU of splu). The generalized problem (M) and the modes
    'buckling' and 'cayley' are not implemented yet (NotImplementedError)."""
    op = _operator(A, "eigs")
    n = op.shape[0]
    if op.shape[0] != op.shape[1]:
        raise ValueError(f"expected square matrix (shape={op.shape})")
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if which not in _WHICH:
        raise ValueError("which must be one of LM SM LA SA BE")
    if M is not None or Minv is not None:
        raise NotImplementedError("gpunp's eigsh solves standard problems only: the "
                                  "generalized problem (M) is not implemented yet")
    if mode != "normal":
        raise NotImplementedError(f"gpunp's eigsh: mode={mode!r} is not implemented yet")
    dtype = numpy.result_type(op.dtype if op.dtype is not None else numpy.float64,
                              numpy.float32)
    if dtype.kind not in "fc":
        dtype = numpy.dtype(numpy.float64)
    if k >= n:
        warnings.warn("k >= N for N * N square matrix. Attempting to use "
                      "scipy.linalg.eigh instead.", RuntimeWarning, stacklevel=2)
        if is_sparse(A):
            raise TypeError("Cannot use scipy.linalg.eigh for sparse A with k >= N. Use "
                            "scipy.linalg.eigh(A.toarray()) or reduce k.")
        if isinstance(A, LinearOperator):
            raise TypeError("Cannot use scipy.linalg.eigh for LinearOperator A with k >= N.")
        a = device(A)
        return gp.linalg.eigh(a) if return_eigenvectors else gp.linalg.eigvalsh(a)
    if ncv is None:
        ncv = min(max(2 * k + 1, 20), n)
    elif not k < ncv <= n:
        raise ValueError(f"ncv must be k<ncv<=n, ncv={ncv}")
    if maxiter is None:
        maxiter = n * 10
    if isinstance(rng, numpy.random.Generator):
        gen = rng
    else:
        gen = numpy.random.default_rng(rng)
    if sigma is not None:
        # shift-invert: Lanczos on (A - sigma I)^-1, whose eigenvalues
        # nu = 1 / (lambda - sigma) are largest for lambda nearest sigma
        op = _shift_invert(A, op, sigma, OPinv, dtype)
    theta, Y, ok = _lanczos(op, k, which, v0, ncv, maxiter, tol, dtype, gen)
    if sigma is not None:
        theta = sigma + 1.0 / theta
    if not ok:
        raise ArpackNoConvergence(f"ARPACK error -1: No convergence ({maxiter} iterations, "
                                  f"0/{k} eigenvectors converged)", gp.asarray(theta),
                                  Y.T)
    if not return_eigenvectors:
        order = numpy.argsort(theta, kind="stable") if sigma is not None else \
            _arpack_order(theta, which)
        return gp.asarray(theta[order])
    order = numpy.argsort(theta, kind="stable")
    return gp.asarray(theta[order]), Y[gp.asarray(order)].T


_WHICH_GENERAL = {"LM": lambda t: -numpy.abs(t), "SM": numpy.abs, "LR": lambda t: -t.real,
                  "SR": lambda t: t.real, "LI": lambda t: -t.imag, "SI": lambda t: t.imag}


def _arnoldi(op, k, which, v0, ncv, maxiter, tol, rng):
    """(theta, Y, converged): the k wanted Ritz pairs of a general operator,
    by Arnoldi with Krylov-Schur-style restarts in complex arithmetic: the
    kept vectors are an orthonormal basis of the wanted Ritz vectors of the
    projected matrix (an invariant subspace of it), so the Arnoldi relation
    survives the restart."""
    n = op.shape[0]
    dtype = numpy.complex128 if numpy.dtype(op.dtype or numpy.float64).itemsize > 8 or \
        numpy.dtype(op.dtype or numpy.float64) == numpy.float64 else numpy.complex64
    key = _WHICH_GENERAL[which]
    if which in ("LI", "SI") and numpy.dtype(op.dtype or numpy.float64).kind != "c":
        # ARPACK's real driver ranks imaginary parts by magnitude (conjugate pairs)
        key = (lambda t: -numpy.abs(t.imag)) if which == "LI" else (lambda t: numpy.abs(t.imag))
    V = gp.zeros((ncv + 1, n), dtype=dtype)
    v = device(v0).astype(dtype) if v0 is not None else _random_unit(rng, n, dtype)
    V[0] = v / gp.linalg.norm(v)
    H = numpy.zeros((ncv, ncv), dtype=dtype)
    start, b = 0, 0.0
    eps = numpy.finfo(dtype).eps
    tol = eps if tol == 0 else tol
    for _cycle in range(maxiter):
        for j in range(start, ncv):
            w = op.matvec(V[j]).astype(dtype)
            basis = V[:j + 1]
            h = _inner_all(basis, w)
            w = w - h @ basis
            h2 = _inner_all(basis, w)
            w = w - h2 @ basis
            hb = gp.concatenate([h + h2, gp.linalg.norm(w).reshape(1).astype(dtype)]).get()
            H[:j + 1, j] = hb[:-1]
            b = hb[-1].real
            if b <= eps * max(numpy.abs(hb[:-1]).max(), 1.0) * n:
                r = _random_unit(rng, n, dtype)
                for _ in range(2):
                    r = r - _inner_all(V[:j + 1], r) @ V[:j + 1]
                V[j + 1] = r / gp.linalg.norm(r)
                b = 0.0
            else:
                V[j + 1] = w / b
            if j + 1 < ncv:
                H[j + 1, :] = 0
                H[j + 1, j] = b
        theta, S = numpy.linalg.eig(H)
        S = S / numpy.linalg.norm(S, axis=0)
        order = numpy.argsort(key(theta), kind="stable")
        idx = order[:k]
        if _converged(b, S, theta, idx, tol, eps):
            return theta[idx], gp.asarray(S[:, idx].T.copy()) @ V[:ncv], True
        keep = min(ncv - 1, k + (ncv - k) // 2)
        Q, _ = numpy.linalg.qr(S[:, order[:keep]])
        V[:keep] = gp.asarray(Q.T.copy()) @ V[:ncv]
        V[keep] = V[ncv]
        G = Q.conj().T @ H @ Q
        H[:] = 0
        H[:keep, :keep] = G
        H[keep, :keep] = b * Q[-1, :]
        start = keep
    idx = numpy.argsort(key(theta), kind="stable")[:k]
    return theta[idx], gp.asarray(S[:, idx].T.copy()) @ V[:ncv], False


def eigs(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
         return_eigenvectors=True, Minv=None, OPinv=None, OPpart=None, rng=None):
    """k eigenvalues (and eigenvectors) of a square matrix or operator, as
    scipy.sparse.linalg.eigs: which in LM, SM, LR, SR, LI, SI; complex
    results. Runs restarted Arnoldi on the device (complex arithmetic), not
    ARPACK: the same eigenvalues, listed most wanted first (ARPACK's order
    differs), eigenvectors of unit norm up to a phase. M, sigma and OPpart
    raise NotImplementedError."""
    op = _operator(A, "eigs")
    n = op.shape[0]
    if op.shape[0] != op.shape[1]:
        raise ValueError(f"expected square matrix (shape={op.shape})")
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if which not in _WHICH_GENERAL:
        raise ValueError("which must be one of LM SM LR SR LI SI")
    if M is not None or Minv is not None or sigma is not None or OPinv is not None \
            or OPpart is not None:
        raise NotImplementedError("gpunp's eigs solves standard problems only: M and "
                                  "shift-invert (sigma) are not implemented yet")
    if k >= n - 1:
        warnings.warn("k >= N - 1 for N * N square matrix. Attempting to use "
                      "scipy.linalg.eig instead.", RuntimeWarning, stacklevel=2)
        if is_sparse(A):
            raise TypeError("Cannot use scipy.linalg.eig for sparse A with k >= N - 1. Use "
                            "scipy.linalg.eig(A.toarray()) or reduce k.")
        if isinstance(A, LinearOperator):
            raise TypeError("Cannot use scipy.linalg.eig for LinearOperator A with k >= N - 1.")
        w, v = gp.linalg.eig(device(A))
        return (w, v) if return_eigenvectors else w
    if ncv is None:
        ncv = min(max(2 * k + 1, 20), n)
    elif not k < ncv <= n:
        raise ValueError(f"ncv must be k<ncv<=n, ncv={ncv}")
    if maxiter is None:
        maxiter = n * 10
    gen = rng if isinstance(rng, numpy.random.Generator) else numpy.random.default_rng(rng)
    theta, Y, ok = _arnoldi(op, k, which, v0, ncv, maxiter, tol, gen)
    if not ok:
        raise ArpackNoConvergence(f"ARPACK error -1: No convergence ({maxiter} iterations, "
                                  f"0/{k} eigenvectors converged)", gp.asarray(theta), Y.T)
    w = gp.asarray(theta)
    return (w, Y.T) if return_eigenvectors else w


def _shift_invert(A, op, sigma, OPinv, dtype):
    """The operator (A - sigma I)^-1: OPinv when given, else solves with the
    LU of A - sigma I (splu's dense LU, see _dsolve)."""
    if OPinv is not None:
        return aslinearoperator(OPinv if isinstance(OPinv, LinearOperator) or
                                is_sparse(OPinv) else device(OPinv))
    if isinstance(A, LinearOperator):
        raise NotImplementedError("gpunp's eigsh: shift-invert of a LinearOperator needs "
                                  "OPinv")
    n = op.shape[0]
    shifted = as_dense(A).astype(numpy.result_type(dtype, type(sigma))) - \
        sigma * gp.eye(n, dtype=numpy.result_type(dtype, type(sigma)))
    solve = splu(shifted).solve
    return LinearOperator((n, n), matvec=solve, dtype=dtype)


class _Gram(LinearOperator):
    """A^H A (or A A^H), the Hermitian operator svds decomposes."""

    def __init__(self, op, left):
        n = op.shape[0] if left else op.shape[1]
        super().__init__(op.dtype, (n, n))
        self.op, self.left = op, left

    def _matvec(self, x):
        if self.left:
            return self.op.matvec(self.op.rmatvec(x))
        return self.op.rmatvec(self.op.matvec(x))

    def _adjoint(self):
        return self


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None,
         return_singular_vectors=True, solver="arpack", rng=None, options=None, *,
         random_state=None):
    """k largest (or smallest) singular values and vectors, as
    scipy.sparse.linalg.svds: s ascending, ``u`` (m, k), ``vh`` (k, n).
    Every solver name runs gpunp's Lanczos (eigsh) on A^H A when A is tall
    or square, on A A^H when it is wide."""
    op = _operator(A, "svds")
    m, n = op.shape
    if not (isinstance(k, (int, numpy.integer)) and 0 < k < min(m, n)):
        raise ValueError("`k` must be an integer satisfying `0 < k < min(A.shape)`.")
    if which not in ("LM", "SM"):
        raise ValueError("`which` must be either 'LM' or 'SM'.")
    if solver not in ("arpack", "propack", "lobpcg"):
        raise ValueError("solver must be one of {'arpack', 'propack', 'lobpcg'}.")
    if return_singular_vectors not in (True, False, "u", "vh"):
        raise ValueError("`return_singular_vectors` must be either True, False, 'u', "
                         "or 'vh'.")
    left = m < n
    gram = _Gram(op, left)
    gen = rng if rng is not None else random_state
    w, X = eigsh(gram, k=k, which="LA" if which == "LM" else "SA", v0=v0, ncv=ncv,
                 maxiter=maxiter, tol=tol, rng=gen)
    s = gp.sqrt(gp.maximum(w, 0))
    if not return_singular_vectors:
        return s
    # the other side's vectors from one product: A v / s (or A^H u / s)
    other = (op.H.matmat(X) if left else op.matmat(X)) / gp.where(s == 0, 1, s)
    u, v = (X, other) if left else (other, X)
    vh = gp.conj(v).T
    if return_singular_vectors == "u":
        return u, s, None
    if return_singular_vectors == "vh":
        return None, s, vh
    return u, s, vh


def _orthonormal_basis(S, BS, drop):
    """Coefficients C with (S C)^H B (S C) = I, from the Gram matrix
    (directions with eigenvalues below `drop` of the largest are dropped)."""
    G = (gp.conj(S).T @ BS).get()
    G = (G + G.conj().T) / 2
    d, U = numpy.linalg.eigh(G)
    keep = d > drop * max(d.max(), 0)
    return U[:, keep] / numpy.sqrt(d[keep])


def lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True,
           verbosityLevel=0, retLambdaHistory=False, retResidualNormsHistory=False,
           restartControl=20):
    """The block of ``X.shape[1]`` largest (or smallest) eigenpairs of the
    Hermitian pencil (A, B) by LOBPCG (Knyazev, 2001), as
    scipy.sparse.linalg.lobpcg: returns ``(w, v)`` (w descending for
    largest, ascending otherwise) and the histories when asked. The block
    products run on the device; each step's Rayleigh-Ritz problem (at most
    3 blocks wide) is solved on the host."""
    opA = aslinearoperator(A if isinstance(A, LinearOperator) or is_sparse(A) or
                           not callable(A) else LinearOperator(None, A))
    X = device(X)
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    n, k = X.shape
    if opA.shape != (n, n):
        raise ValueError(f"The shape {opA.shape} of the primary matrix A does not match "
                         f"the shape {X.shape} of the initial approximation")
    dtype = numpy.result_type(X.dtype, opA.dtype if opA.dtype is not None else numpy.float64,
                              numpy.float32)
    opB = None if B is None else aslinearoperator(B if isinstance(B, LinearOperator) or
                                                  is_sparse(B) else device(B))
    opM = None if M is None else aslinearoperator(M if isinstance(M, LinearOperator) or
                                                  is_sparse(M) else device(M))
    if maxiter is None:
        maxiter = 20
    if tol is None:
        tol = numpy.sqrt(numpy.finfo(dtype).eps) * n
    eps = numpy.finfo(dtype).eps
    Yc = None if Y is None else device(Y).astype(dtype)
    applyB = (lambda Z: Z) if opB is None else opB.matmat

    def constrain(Z):
        if Yc is None:
            return Z
        BY = applyB(Yc)
        G = (gp.conj(Yc).T @ BY)
        return Z - Yc @ gp.linalg.solve(G, gp.conj(BY).T @ Z)

    if 5 * k > n:
        # SciPy solves small problems densely; the dense eigh runs on the device
        a = opA.matmat(gp.eye(n, dtype=dtype))
        if opB is not None:
            raise NotImplementedError("gpunp's lobpcg: a dense small problem with B")
        w, v = gp.linalg.eigh(a)
        sel = gp.arange(n - 1, n - k - 1, -1) if largest else gp.arange(k)
        return w[sel], v[:, sel]

    def ritz(Q):
        """The k wanted Ritz vectors of the B-orthonormal basis Q."""
        H = (gp.conj(Q).T @ opA.matmat(Q)).get()
        theta, Z = numpy.linalg.eigh((H + H.conj().T) / 2)
        sel = numpy.arange(len(theta) - 1, len(theta) - k - 1, -1) if largest else \
            numpy.arange(k)
        return Q @ gp.asarray(Z[:, sel].astype(dtype))

    X = constrain(X.astype(dtype))
    X = ritz(X @ gp.asarray(_orthonormal_basis(X, applyB(X), eps).astype(dtype)))
    P = None
    lam_hist, res_hist = [], []
    for it in range(maxiter + 1):
        AX = opA.matmat(X)
        BX = applyB(X)
        lam = gp.real(gp.sum(gp.conj(X) * AX, axis=0))
        R = AX - BX * lam.astype(dtype)
        got = gp.concatenate([lam, gp.linalg.norm(R, axis=0)]).get()
        lam, rnorm = got[:k], got[k:]
        lam_hist.append(lam)
        res_hist.append(rnorm)
        if numpy.all(rnorm <= tol) or it == maxiter:
            break
        W = constrain(opM.matmat(R) if opM is not None else R)
        # unit columns: W and P shrink as X converges, and the Gram matrix
        # must not read them as rank loss
        S = gp.concatenate([X] + [Z / gp.maximum(gp.linalg.norm(Z, axis=0), 1e-300)
                                  for Z in ([W] if P is None else [W, P])], axis=1)
        Q = S @ gp.asarray(_orthonormal_basis(S, applyB(S), 1e3 * eps).astype(dtype))
        Xn = ritz(Q)
        # the new search direction: the part of the update not along the old X
        P = Xn - X @ (gp.conj(X).T @ applyB(Xn))
        X = Xn
    order = numpy.argsort(-lam if largest else lam, kind="stable")
    w = gp.asarray(lam[order])
    v = X[:, gp.asarray(order)]
    out = (w, v)
    if retLambdaHistory:
        out += ([gp.asarray(h) for h in lam_hist],)
    if retResidualNormsHistory:
        out += ([gp.asarray(h) for h in res_hist],)
    return out
