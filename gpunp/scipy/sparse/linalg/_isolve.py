"""Krylov solvers of square systems: cg, cgs, bicg, bicgstab, gmres, minres.

Each follows scipy.sparse.linalg's algorithm, stopping rule
(``norm(r) < max(atol, rtol * norm(b))``), return value ``(x, info)`` and
info codes (0 converged, ``maxiter`` not converged, negative on breakdown).
Vectors and their dot products stay on the device; the host reads only the
few scalars a decision needs, one transfer for each decision point
(``_host``), and gmres's small Hessenberg problem."""

import math
import warnings

import numpy

import gpunp as gp
from gpunp.scipy._version import scipy_version

from ..csgraph._csr import device
from ._interface import IdentityOperator, LinearOperator, aslinearoperator

__all__ = ["bicg", "bicgstab", "cg", "cgs", "gmres", "minres", "qmr", "tfqmr"]


def _host(*values):
    """Device scalars (0-d arrays) as host numbers, in one transfer."""
    got = gp.stack([gp.asarray(v) for v in values]).get()
    return [v.item() for v in got]


def _inner_all(basis, w):
    """The inner products <v_i, w> with every row v_i of basis. Conjugating
    the vector, not the basis, spares a copy of the basis each step."""
    if basis.dtype.kind != "c":
        return basis @ w
    return gp.conj(basis @ gp.conj(w))


def _float_type(char):
    return char if char in "fdFD" else "d"


def make_system(A, M, x0, b):
    """(A, M, x, b) as the solvers use them: A and M operators, x the initial
    guess and b the right-hand side, both 1-d of the solve's dtype (float32,
    float64, complex64 or complex128, from A's and b's)."""
    A_ = A
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix, but got shape={(A.shape,)}")
    n = A.shape[0]
    b = device(b)
    if not (b.shape == (n, 1) or b.shape == (n,)):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    if b.dtype.char not in "fdFD":
        b = b.astype(gp.float64)
    a_char = A.dtype.char if A.dtype is not None else A.matvec(b).dtype.char
    xtype = numpy.result_type(_float_type(a_char), _float_type(b.dtype.char))
    b = b.astype(xtype, copy=False).ravel()

    if M is None:
        psolve = getattr(A_, "psolve", None)
        rpsolve = getattr(A_, "rpsolve", None)
        if psolve is None and rpsolve is None:
            M = IdentityOperator(shape=A.shape, dtype=A.dtype)
        else:
            M = LinearOperator(A.shape, matvec=psolve or (lambda v: v),
                               rmatvec=rpsolve or (lambda v: v), dtype=A.dtype)
    else:
        M = aslinearoperator(M)
        if A.shape != M.shape:
            raise ValueError("matrix and preconditioner have different shapes")

    if x0 is None:
        x = gp.zeros(n, dtype=xtype)
    elif isinstance(x0, str):
        if x0 != "Mb":
            raise ValueError(f"x0 must be None, 'Mb' or an array, not {x0!r}")
        x = gp.asarray(M.matvec(b.copy())).astype(xtype, copy=False)
    else:
        x = device(x0).astype(xtype)
        if not (x.shape == (n, 1) or x.shape == (n,)):
            raise ValueError(f"shapes of A {A.shape} and x0 {x.shape} are incompatible")
        x = x.ravel()
    return A, M, x, b


def _start(name, A, b, x0, rtol, atol, maxiter, M):
    """The set-up every solver shares: the system, ``norm(b)``, the absolute
    tolerance, maxiter, the dot product and the first residual."""
    A, M, x, b = make_system(A, M, x0, b)
    bnrm2 = float(gp.linalg.norm(b))
    if atol is None or isinstance(atol, str) or not atol >= 0:
        raise ValueError(f"'scipy.sparse.linalg.{name}' called with invalid `atol`={atol}; "
                         "if set, `atol` must be a real, non-negative number.")
    atol = max(float(atol), float(rtol) * bnrm2)
    if maxiter is None:
        maxiter = 10 * len(b)
    dot = gp.vdot if x.dtype.kind == "c" else gp.dot
    return A, M, x, b, bnrm2, atol, maxiter, dot


def _residual(A, x, b):
    return b - A.matvec(x) if bool(x.any()) else b.copy()


# cg's vector updates, one pass over each vector: eager, z + beta * p wrote
# beta * p first, and gpunp.fusion() cost more Python time an iteration than
# the passes it saved (cg ran at 0.73x CuPy's on the H100 with it)
_DIRECTION = gp.ElementwiseKernel("T z, T beta", "T p", "p = z + beta * p", "gp_cg_direction")
_STEP = gp.ElementwiseKernel("T p, T q, T alpha", "T x, T r",
                             "x = x + alpha * p; r = r - alpha * q", "gp_cg_step")


def _one_real_dtype(*arrays):
    """Whether the kernels above take these (users' kernels give complex
    parameters no operators; T binds one dtype)."""
    return arrays[0].dtype.kind == "f" and all(a.dtype == arrays[0].dtype for a in arrays)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Conjugate gradients for a Hermitian positive definite ``A``; as
    scipy.sparse.linalg.cg, returns ``(x, info)``. x, r and p are updated in
    place, as SciPy's are."""
    A, M, x, b, bnrm2, atol, maxiter, dot = _start("cg", A, b, x0, rtol, atol, maxiter, M)
    if bnrm2 == 0:
        return b, 0
    r = _residual(A, x, b)
    identity = isinstance(M, IdentityOperator)
    rho_prev = p = None
    for it in range(maxiter):
        z = r if identity else M.matvec(r)
        rho = dot(r, z)
        # without a preconditioner rho is r . r, and NumPy's norm of a vector
        # is its square root: one reduction and one transfer an iteration
        rnorm = math.sqrt(float(rho.real)) if identity else float(gp.linalg.norm(r))
        if rnorm < atol:
            return x, 0
        if it == 0:
            p = z.copy()
        elif _one_real_dtype(p, z, rho):
            _DIRECTION(z, rho / rho_prev, p)
        else:
            p *= rho / rho_prev
            p += z
        q = A.matvec(p)
        alpha = rho / dot(p, q)
        if _one_real_dtype(p, q, alpha, x, r):
            _STEP(p, q, alpha, x, r)
        else:
            x += alpha * p
            r -= alpha * q
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def _tiny(dtype):
    # SciPy's breakdown threshold (eps squared, from the Fortran templates)
    return numpy.finfo(dtype).eps ** 2


def bicg(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Biconjugate gradients; as scipy.sparse.linalg.bicg, returns ``(x, info)``
    (info -10 or -11 on breakdown)."""
    A, M, x, b, bnrm2, atol, maxiter, dot = _start("bicg", A, b, x0, rtol, atol, maxiter, M)
    if bnrm2 == 0:
        return b, 0
    rhotol = _tiny(x.dtype)
    r = _residual(A, x, b)
    rt = r.copy()
    rho_prev = p = pt = None
    for it in range(maxiter):
        z = M.matvec(r)
        zt = M.rmatvec(rt)
        rho = dot(rt, z)
        rnorm, rho_abs = _host(gp.linalg.norm(r), gp.abs(rho))
        if rnorm < atol:
            return x, 0
        if rho_abs < rhotol:
            return x, -10
        if it == 0:
            p, pt = z.copy(), zt.copy()
        else:
            beta = rho / rho_prev
            p = z + beta * p
            pt = zt + gp.conj(beta) * pt
        q = A.matvec(p)
        qt = A.rmatvec(pt)
        rv = dot(pt, q)
        if _host(rv)[0] == 0:
            return x, -11
        alpha = rho / rv
        x += alpha * p
        r -= alpha * q
        rt -= gp.conj(alpha) * qt
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """BiCGSTAB; as scipy.sparse.linalg.bicgstab, returns ``(x, info)``
    (info -10 or -11 on breakdown)."""
    A, M, x, b, bnrm2, atol, maxiter, dot = _start("bicgstab", A, b, x0, rtol, atol,
                                                   maxiter, M)
    if bnrm2 == 0:
        return b, 0
    rhotol = omegatol = _tiny(x.dtype)
    r = _residual(A, x, b)
    rt = r.copy()
    rho_prev = omega = alpha = p = v = None
    for it in range(maxiter):
        rho = dot(rt, r)
        checks = [gp.linalg.norm(r), gp.abs(rho)] + ([gp.abs(omega)] if it else [])
        got = _host(*checks)
        if got[0] < atol:
            return x, 0
        if got[1] < rhotol:
            return x, -10
        if it == 0:
            p = r.copy()
        else:
            if got[2] < omegatol:
                return x, -11
            beta = (rho / rho_prev) * (alpha / omega)
            p = r + beta * (p - omega * v)
        phat = M.matvec(p)
        v = A.matvec(phat)
        rv = dot(rt, v)
        if _host(rv)[0] == 0:
            return x, -11
        alpha = rho / rv
        r -= alpha * v
        if float(gp.linalg.norm(r)) < atol:
            x += alpha * phat
            return x, 0
        shat = M.matvec(r)
        t = A.matvec(shat)
        omega = dot(t, r) / dot(t, t)
        x += alpha * phat
        x += omega * shat
        r -= omega * t
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Conjugate gradients squared; as scipy.sparse.linalg.cgs, returns
    ``(x, info)`` (info -10 or -11 on breakdown)."""
    A, M, x, b, bnrm2, atol, maxiter, dot = _start("cgs", A, b, x0, rtol, atol, maxiter, M)
    if bnrm2 == 0:
        return b, 0
    rhotol = _tiny(x.dtype)
    r = _residual(A, x, b)
    rt = r.copy()
    rho_prev = p = u = q = None
    for it in range(maxiter):
        rho = dot(rt, r)
        rnorm, rho_abs = _host(gp.linalg.norm(r), gp.abs(rho))
        if rnorm < atol:
            return x, 0
        if rho_abs < rhotol:
            return x, -10
        if it == 0:
            p, u = r.copy(), r.copy()
        else:
            beta = rho / rho_prev
            u = r + beta * q
            p = u + beta * (q + beta * p)
        phat = M.matvec(p)
        vhat = A.matvec(phat)
        rv = dot(rt, vhat)
        if _host(rv)[0] == 0:
            return x, -11
        alpha = rho / rv
        q = u - alpha * vhat
        uhat = M.matvec(u + q)
        x += alpha * uhat
        # the true residual, as SciPy: the recurrence drifts
        r = b - A.matvec(x)
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def _givens(f, g):
    """(c, s, r) with c real, [[c, s], [-conj(s), c]] @ [f, g] = [r, 0] (LAPACK's lartg)."""
    if g == 0:
        return 1.0, 0.0 * g, f
    if f == 0:
        return 0.0, numpy.conj(g) / abs(g), abs(g)
    d = numpy.hypot(abs(f), abs(g))
    phase = f / abs(f)
    return abs(f) / d, phase * numpy.conj(g) / d, phase * d


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0., restart=None, maxiter=None, M=None,
          callback=None, callback_type=None):
    """Restarted GMRES; as scipy.sparse.linalg.gmres, returns ``(x, info)``.

    ``maxiter`` counts restart cycles, or inner iterations with
    ``callback_type='legacy'`` (SciPy's default when a callback is given).
    The Arnoldi basis is on the device, orthogonalised by classical
    Gram-Schmidt done twice (two matrix products a step instead of one dot
    per basis vector); the Hessenberg least-squares problem (restart x
    restart) is solved on the host with Givens rotations."""
    if callback is not None and callback_type is None:
        warnings.warn("scipy.sparse.linalg.gmres called without specifying `callback_type`. "
                      "The default value will be changed in a future release. For "
                      "compatibility, specify a value for `callback_type` explicitly, e.g., "
                      "``gmres(..., callback_type='pr_norm')``, or to retain the old "
                      "behavior ``gmres(..., callback_type='legacy')``",
                      category=DeprecationWarning, stacklevel=2)
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    if callback is None:
        callback_type = None
    A, M, x, b, bnrm2, atol, maxiter, _ = _start("gmres", A, b, x0, rtol, atol, maxiter, M)
    if bnrm2 == 0:
        return b, 0
    n = len(b)
    dtype = x.dtype
    eps = numpy.finfo(dtype).eps
    restart = min(20 if restart is None else restart, n)
    Mb_nrm2 = float(gp.linalg.norm(M.matvec(b)))
    # gh-8400's rule, as SciPy: the inner (preconditioned) tolerance adapts
    # to how well the last cycle's inner estimate matched the true residual
    ptol_max_factor = 1.0
    ptol = Mb_nrm2 * min(ptol_max_factor, atol / bnrm2)
    presid = 0.0
    V = gp.empty((restart + 1, n), dtype=dtype)
    inner_iter = 0
    r = _residual(A, x, b)
    rnorm = float(gp.linalg.norm(r))
    if rnorm < atol:
        return x, 0
    for _ in range(maxiter):
        v0 = M.matvec(r)
        beta = float(gp.linalg.norm(v0))
        V[0] = v0 / beta
        H = numpy.zeros((restart + 1, restart), dtype=dtype)  # column j: step j
        rot = []
        S = numpy.zeros(restart + 1, dtype=dtype)
        S[0] = beta
        breakdown = False
        for col in range(restart):
            w = M.matvec(A.matvec(V[col]))
            basis = V[:col + 1]
            h = _inner_all(basis, w)
            w = w - h @ basis
            h2 = _inner_all(basis, w)
            w = w - h2 @ basis
            h = h + h2
            hw = gp.concatenate([h, gp.linalg.norm(w).reshape(1).astype(dtype)]).get()
            h1 = abs(hw[-1])
            H[:col + 2, col] = hw
            if h1 <= eps * numpy.linalg.norm(hw):
                H[col + 1, col] = 0
                breakdown = True
            else:
                V[col + 1] = w / h1
            for k, (c, s) in enumerate(rot):
                a0, a1 = H[k, col], H[k + 1, col]
                H[k, col], H[k + 1, col] = c * a0 + s * a1, -numpy.conj(s) * a0 + c * a1
            c, s, mag = _givens(H[col, col], H[col + 1, col])
            rot.append((c, s))
            H[col, col], H[col + 1, col] = mag, 0
            S[col], S[col + 1] = c * S[col], -numpy.conj(s) * S[col]
            presid = abs(S[col + 1])
            inner_iter += 1
            if callback_type in ("legacy", "pr_norm"):
                callback(presid / bnrm2)
            if callback_type == "legacy" and inner_iter == maxiter:
                break
            if presid <= ptol or breakdown:
                break
        k = col + 1
        y = S[:k].copy()
        # back substitution, skipping a zero pivot as SciPy does (singular H)
        for i in range(k - 1, -1, -1):
            y[i] = 0 if H[i, i] == 0 else (y[i] - H[i, i + 1:k] @ y[i + 1:k]) / H[i, i]
        x += gp.asarray(y) @ V[:k]
        r = b - A.matvec(x)
        rnorm = float(gp.linalg.norm(r))
        if callback_type == "legacy" and inner_iter == maxiter:
            return x, 0 if rnorm <= atol else maxiter
        if callback_type == "x":
            callback(x)
        if rnorm <= atol or breakdown:
            break
        if presid <= ptol:
            ptol_max_factor = max(eps, 0.25 * ptol_max_factor)
        else:
            ptol_max_factor = min(1.0, 1.5 * ptol_max_factor)
        ptol = presid * min(ptol_max_factor, atol / rnorm)
    return x, 0 if rnorm <= atol else maxiter


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None,
           show=False, check=False):
    """MINRES (Paige and Saunders) for a Hermitian, possibly indefinite,
    ``A - shift*I``, with a positive definite preconditioner ``M``; as
    scipy.sparse.linalg.minres, returns ``(x, info)``. The Lanczos vectors
    are on the device; the three scalars of each step (two inner products
    and the norm of x) come to the host for the rotations and the stopping
    tests."""
    A, M, x, b = make_system(A, M, x0, b)
    n = A.shape[0]
    if maxiter is None:
        maxiter = 5 * n
    dot = gp.vdot if x.dtype.kind == "c" else gp.dot
    eps = float(numpy.finfo(x.dtype).eps)
    # the step's scalars are Python floats, so x keeps its dtype, as in
    # SciPy 1.18; before, SciPy's float64 rotations promoted x to double
    wtype = x.dtype if scipy_version() >= 11800 else numpy.result_type(x.dtype, numpy.float64)
    r1 = _residual(A, x, b) if x0 is not None else b.copy()
    y = M.matvec(r1)
    beta1 = _host(dot(r1, y))[0].real
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    if beta1 == 0:
        return x, 0
    if float(gp.linalg.norm(b)) == 0:
        return b, 0
    beta1 = math.sqrt(beta1)
    if check:
        # A and M must be Hermitian: y'(A x) == x'(A y) for two vectors
        for op, what in ((A, "non-symmetric matrix"), (M, "non-symmetric preconditioner")):
            w = op.matvec(y)
            r2 = op.matvec(w)
            s, t = _host(dot(w, w), dot(y, r2))
            if abs(s - t) > (abs(s) + eps) * eps ** (1.0 / 3.0):
                raise ValueError(what)

    istop = 0
    itn = 0
    oldb, beta, dbar, epsln = 0.0, beta1, 0.0, 0.0
    phibar, rhs1, rhs2 = beta1, beta1, 0.0
    tnorm2, gmax, gmin = 0.0, 0.0, float(numpy.finfo(numpy.float64).max)
    cs, sn = -1.0, 0.0
    w = gp.zeros(n, dtype=x.dtype)
    w2 = gp.zeros(n, dtype=x.dtype)
    r2 = r1
    while itn < maxiter:
        itn += 1
        v = y * (1.0 / beta)
        y = A.matvec(v)
        if shift != 0:
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / oldb) * r1
        alfa = _host(dot(v, y))[0].real
        y = y - (alfa / beta) * r2
        r1, r2 = r2, y
        y = M.matvec(r2)
        oldb = beta
        beta = _host(dot(r2, y))[0].real
        if beta < 0:
            raise ValueError("non-symmetric matrix")
        beta = math.sqrt(beta)
        tnorm2 += alfa ** 2 + oldb ** 2 + beta ** 2
        if itn == 1 and beta / beta1 <= 10 * eps:
            istop = -1  # b is an eigenvector: x is exact after one step

        # the previous rotation on the new column, and a new rotation
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        root = math.hypot(gbar, dbar)
        gamma = max(math.hypot(gbar, beta), eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar

        w1, w2 = w2, w
        w = ((v - oldeps * w1 - delta * w2) * (1.0 / gamma)).astype(wtype, copy=False)
        x = x + phi * w
        gmax, gmin = max(gmax, gamma), min(gmin, gamma)
        z = rhs1 / gamma
        rhs1 = rhs2 - delta * z
        rhs2 = -epsln * z

        anorm = math.sqrt(tnorm2)
        ynorm = float(gp.linalg.norm(x))
        epsx = anorm * ynorm * eps
        rnorm = phibar
        test1 = numpy.inf if ynorm == 0 or anorm == 0 else rnorm / (anorm * ynorm)
        test2 = numpy.inf if anorm == 0 else root / anorm
        acond = gmax / gmin
        if istop == 0:
            if 1 + test2 <= 1:
                istop = 2
            if 1 + test1 <= 1:
                istop = 1
            if itn >= maxiter:
                istop = 6
            if acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        if show:
            print(f"minres {itn:6d} {float(rnorm):12.5e} {test1:10.3e} {test2:10.3e}")
        if callback is not None:
            callback(x)
        if istop != 0:
            break
    return x, (maxiter if istop == 6 else 0)


def qmr(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M1=None, M2=None,
        callback=None):
    """Quasi-minimal residual with left and right preconditioners M1, M2; as
    scipy.sparse.linalg.qmr, returns ``(x, info)`` (info -10 to -15 on the
    breakdowns SciPy names)."""
    A_ = A
    A, _, x, b, bnrm2, atol, maxiter, dot = _start("qmr", A, b, x0, rtol, atol, maxiter, None)
    if bnrm2 == 0:
        return b, 0
    ident = lambda v: v  # noqa: E731
    if M1 is None and M2 is None:
        if hasattr(A_, "psolve"):
            M1 = LinearOperator(A.shape, matvec=lambda v: A_.psolve(v, "left"),
                                rmatvec=lambda v: A_.rpsolve(v, "left"))
            M2 = LinearOperator(A.shape, matvec=lambda v: A_.psolve(v, "right"),
                                rmatvec=lambda v: A_.rpsolve(v, "right"))
        else:
            M1 = LinearOperator(A.shape, matvec=ident, rmatvec=ident, dtype=A.dtype)
            M2 = LinearOperator(A.shape, matvec=ident, rmatvec=ident, dtype=A.dtype)
    else:
        M1 = aslinearoperator(M1) if M1 is not None else \
            LinearOperator(A.shape, matvec=ident, rmatvec=ident, dtype=A.dtype)
        M2 = aslinearoperator(M2) if M2 is not None else \
            LinearOperator(A.shape, matvec=ident, rmatvec=ident, dtype=A.dtype)
    tol = numpy.finfo(x.dtype).eps
    r = _residual(A, x, b)
    vt = r.copy()
    y = M1.matvec(vt)
    wt = r.copy()
    z = M2.rmatvec(wt)
    rho, xi = _host(gp.linalg.norm(y), gp.linalg.norm(z))
    gamma, eta, theta = 1.0, -1.0, 0.0
    epsilon = p = q = d = s = None
    for it in range(maxiter):
        if float(gp.linalg.norm(r)) < atol:
            return x, 0
        if abs(rho) < tol:
            return x, -10
        if abs(xi) < tol:
            return x, -15
        v = vt * (1 / rho)
        y = y * (1 / rho)
        w = wt * (1 / xi)
        z = z * (1 / xi)
        delta = dot(z, y)
        if abs(_host(delta)[0]) < tol:
            return x, -13
        yt = M2.matvec(y)
        zt = M1.rmatvec(z)
        if it == 0:
            p, q = yt, zt
        else:
            p = yt - (xi * delta / epsilon) * p
            q = zt - (rho * gp.conj(delta / epsilon)) * q
        pt = A.matvec(p)
        epsilon = dot(q, pt)
        eps_h = _host(epsilon)[0]
        if abs(eps_h) < tol:
            return x, -14
        beta = epsilon / delta
        beta_h = _host(beta)[0]
        if abs(beta_h) < tol:
            return x, -11
        vt = pt - beta * v
        y = M1.matvec(vt)
        rho_prev = rho
        wt = A.rmatvec(q) - gp.conj(beta) * w
        z = M2.rmatvec(wt)
        rho, xi = _host(gp.linalg.norm(y), gp.linalg.norm(z))
        gamma_prev, theta_prev = gamma, theta
        theta = rho / (gamma_prev * abs(beta_h))
        gamma = 1 / numpy.sqrt(1 + theta ** 2)
        if abs(gamma) < tol:
            return x, -12
        eta = -eta * (rho_prev / beta_h) * (gamma / gamma_prev) ** 2
        if it == 0:
            d, s = eta * p, eta * pt
        else:
            scale = (theta_prev * gamma) ** 2
            d = scale * d + eta * p
            s = scale * s + eta * pt
        x += d.astype(x.dtype, copy=False)
        r -= s.astype(r.dtype, copy=False)
        if callback:
            callback(x)
    return x, maxiter


def tfqmr(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None,
          show=False):
    """Transpose-free QMR; as scipy.sparse.linalg.tfqmr, returns ``(x, info)``
    (info -1 on breakdown). As SciPy, the tolerance is relative to the first
    residual and maxiter defaults to min(10000, 10 n)."""
    A, M, x, b = make_system(A, M, x0, b)
    if float(gp.linalg.norm(b)) == 0:
        return b.copy(), 0
    n = A.shape[0]
    if maxiter is None:
        maxiter = min(10000, n * 10)
    dot = gp.vdot if x.dtype.kind == "c" else gp.dot
    r = b.copy() if x0 is None else b - A.matvec(x)
    u, w, rstar = r, r.copy(), r
    v = M.matvec(A.matvec(r))
    uhat = v
    d = gp.zeros_like(x)
    theta = eta = 0.0
    rho = dot(rstar, r).real
    rho_last = rho
    tau = float(gp.sqrt(rho))
    if tau == 0:
        return x, 0
    if atol is None or isinstance(atol, str) or not atol >= 0:
        raise ValueError(f"'scipy.sparse.linalg.tfqmr' called with invalid `atol`={atol}; "
                         "if set, `atol` must be a real, non-negative number.")
    atol = max(float(atol), float(rtol) * tau)
    alpha = u_next = None
    for it in range(maxiter):
        even = it % 2 == 0
        if even:
            vr = dot(rstar, v)
            if _host(vr)[0] == 0:
                return x, -1
            alpha = rho / vr
            u_next = u - alpha * v
        w = w - alpha * uhat
        d = u + (theta ** 2 / alpha) * eta * d
        theta = float(gp.linalg.norm(w)) / tau
        c = numpy.sqrt(1.0 / (1 + theta ** 2))
        tau *= theta * c
        eta = (c ** 2) * alpha
        x += (eta * M.matvec(d)).astype(x.dtype, copy=False)
        if callback is not None:
            callback(x)
        if tau * numpy.sqrt(it + 1) < atol:
            if show:
                print(f"TFQMR: Linear solve converged due to reach TOL iterations {it + 1}")
            return x, 0
        if not even:
            rho = dot(rstar, w)
            beta = rho / rho_last
            u = w + beta * u
            v = beta * uhat + (beta ** 2) * v
            uhat = M.matvec(A.matvec(u))
            v = v + uhat
        else:
            uhat = M.matvec(A.matvec(u_next))
            u = u_next
            rho_last = rho
    if show:
        print(f"TFQMR: Linear solve not converged due to reach MAXIT iterations {maxiter}")
    return x, maxiter
