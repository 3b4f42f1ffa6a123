"""Least squares of any operator: lsqr (Paige and Saunders, 1982) and lsmr
(Fong and Saunders, 2011), with scipy.sparse.linalg's arguments, stopping
tests and return tuples.

Both run Golub-Kahan bidiagonalisation: the vectors and their updates stay
on the device, and the host keeps the scalar recurrences (plane rotations,
norm and condition estimates), reading the norms each step needs."""

import numpy

import gpunp as gp

from ..csgraph._csr import device
from ._interface import aslinearoperator

__all__ = ["lsmr", "lsqr"]


def _host(*values):
    got = gp.stack([gp.asarray(v) for v in values]).get()
    return [float(v.real) for v in got]


def _sym_ortho(a, b):
    """A stable plane rotation: (c, s, r) with [c s; -s c] [a; b] = [r; 0]."""
    if b == 0:
        return numpy.sign(a), 0.0, abs(a)
    if a == 0:
        return 0.0, numpy.sign(b), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = numpy.sign(b) / numpy.sqrt(1 + tau * tau)
        return s * tau, s, b / s
    tau = b / a
    c = numpy.sign(a) / numpy.sqrt(1 + tau * tau)
    return c, c * tau, a / c


def _setup(A, b, x0):
    A = aslinearoperator(A)
    b = device(b)
    if b.ndim > 1:
        b = b.squeeze()
    m, n = A.shape
    if b.shape != (m,):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    dtype = numpy.result_type(A.dtype if A.dtype is not None else numpy.float64,
                              b.dtype, numpy.float64)
    b = b.astype(dtype)
    if x0 is None:
        x = gp.zeros(n, dtype=dtype)
        u = b.copy()
    else:
        x = device(x0).astype(dtype).ravel()
        if x.shape != (n,):
            raise ValueError(f"shapes of A {A.shape} and x0 {x.shape} are incompatible")
        u = b - A.matvec(x)
    return A, b, x, u, m, n


def _start_bidiag(A, u, n, dtype):
    beta = float(gp.linalg.norm(u))
    if beta > 0:
        u = u * (1.0 / beta)
        v = A.rmatvec(u)
        alfa = float(gp.linalg.norm(v))
    else:
        v = gp.zeros(n, dtype=dtype)
        alfa = 0.0
    if alfa > 0:
        v = v * (1.0 / alfa)
    return u, v, alfa, beta


def _stop(itn, limit, test1, test2, test3, t1, rtol, atol, ctol):
    """The istop code of LSQR's and LSMR's shared tests, the last that holds
    winning (1: Ax = b, 2: least squares, 3: conlim, 4-6: eps-level, 7: limit)."""
    istop = 0
    if itn >= limit:
        istop = 7
    if 1 + test3 <= 1:
        istop = 6
    if 1 + test2 <= 1:
        istop = 5
    if 1 + t1 <= 1:
        istop = 4
    if test3 <= ctol:
        istop = 3
    if test2 <= atol:
        istop = 2
    if test1 <= rtol:
        istop = 1
    return istop


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False,
         calc_var=False, x0=None):
    """Least-squares solution of ``A x = b`` (with Tikhonov ``damp``), as
    scipy.sparse.linalg.lsqr: returns ``(x, istop, itn, r1norm, r2norm,
    anorm, acond, arnorm, xnorm, var)``."""
    A, b, x, u, m, n = _setup(A, b, x0)
    dtype = x.dtype
    eps = numpy.finfo(numpy.float64).eps
    if iter_lim is None:
        iter_lim = 2 * n
    var = gp.zeros(n, dtype=dtype)
    bnorm = float(gp.linalg.norm(b))
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    u, v, alfa, beta = _start_bidiag(A, u, n, dtype)
    w = v.copy()
    rhobar, phibar = alfa, beta
    rnorm = r1norm = r2norm = beta
    anorm = acond = ddnorm = res2 = xnorm = xxnorm = z = 0.0
    cs2, sn2 = -1.0, 0.0
    dampsq = damp * damp
    arnorm = alfa * beta
    itn = istop = 0
    if arnorm == 0:
        return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var
    while itn < iter_lim:
        itn += 1
        u = A.matvec(v) - alfa * u
        beta = float(gp.linalg.norm(u))
        wnorm = None
        if beta > 0:
            u = u * (1.0 / beta)
            anorm = numpy.sqrt(anorm ** 2 + alfa ** 2 + beta ** 2 + dampsq)
            v = A.rmatvec(u) - beta * v
            alfa, wnorm = _host(gp.linalg.norm(v), gp.linalg.norm(w))
            if alfa > 0:
                v = v * (1.0 / alfa)
        if wnorm is None:
            wnorm = float(gp.linalg.norm(w))
        # the damping row, then the rotation that keeps the bidiagonal upper
        if damp > 0:
            rhobar1 = numpy.sqrt(rhobar ** 2 + dampsq)
            cs1, sn1 = rhobar / rhobar1, damp / rhobar1
            psi = sn1 * phibar
            phibar = cs1 * phibar
        else:
            rhobar1, psi = rhobar, 0.0
        cs, sn, rho = _sym_ortho(rhobar1, beta)
        theta = sn * alfa
        rhobar = -cs * alfa
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi
        x = x + (phi / rho) * w
        if calc_var:
            var = var + (w / rho) ** 2
        w = v - (theta / rho) * w
        ddnorm += (wnorm / rho) ** 2
        # estimates of norm(x) from the second rotation
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = numpy.sqrt(xxnorm + zbar ** 2)
        gamma = numpy.sqrt(gambar ** 2 + theta ** 2)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z ** 2
        acond = anorm * numpy.sqrt(ddnorm)
        res2 += psi ** 2
        rnorm = numpy.sqrt(phibar ** 2 + res2)
        arnorm = alfa * abs(tau)
        r1sq = rnorm ** 2 - dampsq * xxnorm
        r1norm = numpy.copysign(numpy.sqrt(abs(r1sq)), r1sq)
        r2norm = rnorm
        test1 = rnorm / bnorm
        test2 = arnorm / (anorm * rnorm + eps)
        test3 = 1 / (acond + eps)
        t1 = test1 / (1 + anorm * xnorm / bnorm)
        rtol = btol + atol * anorm * xnorm / bnorm
        istop = _stop(itn, iter_lim, test1, test2, test3, t1, rtol, atol, ctol)
        if show:
            print(f"lsqr {itn:6d} {r1norm:12.5e} {test1:10.3e} {test2:10.3e}")
        if istop != 0:
            break
    return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None, show=False,
         x0=None):
    """Least-squares solution of ``A x = b`` (with ``damp``) by LSMR, as
    scipy.sparse.linalg.lsmr: returns ``(x, istop, itn, normr, normar,
    norma, conda, normx)``."""
    A, b, x, u, m, n = _setup(A, b, x0)
    dtype = x.dtype
    if maxiter is None:
        maxiter = min(m, n)
    normb = float(gp.linalg.norm(b))
    u, v, alpha, beta = _start_bidiag(A, u, n, dtype)
    itn = istop = 0
    zetabar = alpha * beta
    alphabar = alpha
    rho = rhobar = cbar = 1.0
    sbar = 0.0
    h = v.copy()
    hbar = gp.zeros(n, dtype=dtype)
    betadd, betad = beta, 0.0
    rhodold, tautildeold, thetatilde, zeta, d = 1.0, 0.0, 0.0, 0.0, 0.0
    norma2 = alpha ** 2
    maxrbar, minrbar = 0.0, 1e100
    norma = numpy.sqrt(norma2)
    conda, normx = 1.0, 0.0
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    normr = beta
    normar = alpha * beta
    if normar == 0:
        return x, istop, itn, normr, normar, norma, conda, normx
    if normb == 0:
        return gp.zeros_like(x), istop, itn, normr, normar, norma, conda, normx
    while itn < maxiter:
        itn += 1
        u = A.matvec(v) - alpha * u
        beta = float(gp.linalg.norm(u))
        if beta > 0:
            u = u * (1.0 / beta)
            v = A.rmatvec(u) - beta * v
            alpha = float(gp.linalg.norm(v))
            if alpha > 0:
                v = v * (1.0 / alpha)
        # rotations: the damping, the bidiagonal, then the second bidiagonal
        chat, shat, alphahat = _sym_ortho(alphabar, damp)
        rhoold = rho
        c, s, rho = _sym_ortho(alphahat, beta)
        thetanew = s * alpha
        alphabar = c * alpha
        rhobarold, zetaold = rhobar, zeta
        thetabar = sbar * rho
        rhotemp = cbar * rho
        cbar, sbar, rhobar = _sym_ortho(cbar * rho, thetanew)
        zeta = cbar * zetabar
        zetabar = -sbar * zetabar
        hbar = h - (thetabar * rho / (rhoold * rhobarold)) * hbar
        x = x + (zeta / (rho * rhobar)) * hbar
        h = v - (thetanew / rho) * h
        # the residual norm estimate
        betaacute = chat * betadd
        betacheck = -shat * betadd
        betahat = c * betaacute
        betadd = -s * betaacute
        thetatildeold = thetatilde
        ctildeold, stildeold, rhotildeold = _sym_ortho(rhodold, thetabar)
        thetatilde = stildeold * rhobar
        rhodold = ctildeold * rhobar
        betad = -stildeold * betad + ctildeold * betahat
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold
        taud = (zeta - thetatilde * tautildeold) / rhodold
        d += betacheck ** 2
        normr = numpy.sqrt(d + (betad - taud) ** 2 + betadd ** 2)
        # norm(A), cond(A) and norm(x) estimates
        norma2 += beta ** 2
        norma = numpy.sqrt(norma2)
        norma2 += alpha ** 2
        maxrbar = max(maxrbar, rhobarold)
        if itn > 1:
            minrbar = min(minrbar, rhobarold)
        conda = max(maxrbar, rhotemp) / min(minrbar, rhotemp)
        normar = abs(zetabar)
        normx = float(gp.linalg.norm(x))
        test1 = normr / normb
        test2 = normar / (norma * normr) if norma * normr != 0 else numpy.inf
        test3 = 1 / conda
        t1 = test1 / (1 + norma * normx / normb)
        rtol = btol + atol * norma * normx / normb
        istop = _stop(itn, maxiter, test1, test2, test3, t1, rtol, atol, ctol)
        if show:
            print(f"lsmr {itn:6d} {normr:12.5e} {test1:10.3e} {test2:10.3e}")
        if istop > 0:
            break
    return x, istop, itn, normr, normar, norma, conda, normx
