"""Pole placement by state feedback (scipy.signal.place_poles): the robust
methods of Kautsky, Nichols and Van Dooren (KNV, method 0) and of Tits and
Yang (YT), a small dense computation on the host with NumPy.

Both choose the closed loop's eigenvectors X (one per pole, each in the
null space that its pole allows) to make X as well conditioned as they can,
by rotating one or two columns at a time towards the orthogonal complement
of the others; the gain then follows from A + B K = X diag(poles) X^-1.
Where B has full row rank the gain is unique and found by least squares."""

from __future__ import annotations

import types
import warnings

import numpy as np

import gpunp as gp


def _host(v):
    return np.asarray(gp.asnumpy(v) if isinstance(v, gp.ndarray) else v)


def _qr(M):
    return np.linalg.qr(M, mode="complete")[0]


def _order(poles):
    """Real poles ascending, then each complex pair (negative imaginary part
    first) in ascending order of that member."""
    real = np.sort(poles[np.isreal(poles)])
    pairs = []
    for p in np.sort(poles[np.imag(poles) < 0]):
        if np.conj(p) in poles:
            pairs += [p, np.conj(p)]
    out = np.hstack((real, pairs))
    if len(out) != poles.shape[0]:
        raise ValueError("Complex poles must come with their conjugates")
    return out


def _check(A, B, poles, method, rtol, maxiter):
    poles = np.asarray(poles)
    if poles.ndim > 1:
        raise ValueError("Poles must be a 1D array like.")
    poles = _order(poles)
    if A.ndim > 2:
        raise ValueError("A must be a 2D array/matrix.")
    if B.ndim > 2:
        raise ValueError("B must be a 2D array/matrix")
    if A.shape[0] != A.shape[1]:
        raise ValueError("A must be square")
    n = A.shape[0]
    if len(poles) > n:
        raise ValueError(f"maximum number of poles is {n} but you asked for {len(poles)}")
    if len(poles) < n:
        raise ValueError(f"number of poles is {len(poles)} but you should provide {n}")
    rank = np.linalg.matrix_rank(B)
    if any(np.sum(p == poles) > rank for p in poles):
        raise ValueError("at least one of the requested pole is repeated more than rank(B) "
                         "times")
    if method not in ("KNV0", "YT"):
        raise ValueError("The method keyword must be one of 'YT' or 'KNV0'")
    if method == "KNV0" and not np.all(np.isreal(poles)):
        raise ValueError("Complex poles are not supported by KNV0")
    if maxiter < 1:
        raise ValueError("maxiter must be at least equal to 1")
    if rtol > 1:
        raise ValueError("rtol can not be greater than 1")
    return poles


def _knv_column(S, X, j):
    """KNV's step: column j of X replaced by the projection, on its pole's
    allowed space S[j], of the direction orthogonal to every other column."""
    q = _qr(np.delete(X, j, axis=1))[:, -1]
    y = (S[j] @ S[j].T) @ q  # (products in SciPy's order: ties below follow the bits)
    if not np.allclose(y, 0):
        X[:, j] = y / np.linalg.norm(y)


def _yt_real(S, X, i, j):
    """Tits and Yang's step for two real poles: the pair of columns i, j
    rotated together towards the plane orthogonal to the other columns."""
    Q = _qr(np.delete(X, (i, j), axis=1))
    u, v = Q[:, -2:-1], Q[:, -1:]
    M = S[i].T @ (u @ v.T - v @ u.T) @ S[j]
    um, sv, vmt = np.linalg.svd(M)
    mu1, mu2 = um[:, :1], um[:, 1:2]
    nu1, nu2 = vmt[:1].T, vmt[1:2].T
    n = X.shape[0]
    old = np.vstack((X[:, i:i + 1], X[:, j:j + 1]))
    if not np.allclose(sv[0], sv[1]):
        K = np.vstack((S[i] @ mu1, S[j] @ nu1))
    else:
        # a double singular value: the plane of both singular pairs
        K = np.vstack((np.hstack((S[i] @ mu1, S[i] @ mu2)), np.hstack((S[j] @ nu1, S[j] @ nu2))))
    new = (K @ K.T) @ old
    if not np.allclose(new, 0):
        new = np.sqrt(2) * new / np.linalg.norm(new)
        X[:, i], X[:, j] = new[:n, 0], new[n:, 0]
    else:
        X[:, i], X[:, j] = K[:n, 0], K[n:, 0]


def _yt_complex(S, X, i, j):
    """Tits and Yang's step for a complex pair: the columns i, j hold the
    real and imaginary parts of the pair's eigenvector."""
    Q = _qr(np.delete(X, (i, j), axis=1))
    u = np.sqrt(2) * Q[:, -2:-1] + 1j * np.sqrt(2) * Q[:, -1:]
    Si = S[i]
    M = np.conj(Si.T) @ (u @ np.conj(u).T - np.conj(u) @ u.T) @ Si
    ev, evec = np.linalg.eig(M)
    order = np.argsort(np.abs(ev))
    mu1, mu2 = evec[:, order[-1]:order[-1] + 1], evec[:, order[-2]:order[-2] + 1]
    old = X[:, i:i + 1] + 1j * X[:, j:j + 1]
    if not np.allclose(np.abs(ev[order[-1]]), np.abs(ev[order[-2]])):
        K = Si @ mu1
    else:
        K = Si @ np.hstack((mu1, mu2))
    new = (K @ np.conj(K.T)) @ old
    if not np.allclose(new, 0):
        new = new / np.linalg.norm(new)
        X[:, i], X[:, j] = np.real(new[:, 0]), np.imag(new[:, 0])
    else:
        X[:, i], X[:, j] = np.real(K[:, 0]), np.imag(K[:, 0])


def _yt_order(poles):
    """The pairs of columns Tits and Yang's sweep visits, in SciPy's order
    (0-based; (0, 0) is a KNV step on a lone real pole): each real pole
    paired in turn with others at growing distance, each complex pair with
    itself between those rounds."""
    n = len(poles)
    nr = int(np.sum(np.isreal(poles)))
    h = nr // 2
    comp = [(c, c + 1) for c in range(nr + 1, n + 1, 2)]
    lone = [(1, 1)] if h == 0 and np.isreal(poles[0]) else []
    far = range(2, h + nr % 2)
    pairs = [(nr, 1)] if nr > 0 else []
    pairs += [(2 * r, 2 * r + 1) for r in range(1, h + nr % 2)] + comp
    pairs += [(2 * r - 1, 2 * r) for r in range(1, h + 1)] + lone + comp
    pairs += [(i, i + d) for d in far for i in range(1, h + 1)] + lone + comp
    pairs += [(i, i + d if i + d <= nr else i + d - nr) for d in far
              for i in range(h + 1, nr + 1)] + lone + comp
    pairs += [(i, i + h) for i in range(1, h + 1)] + lone + comp
    return [(i - 1, j - 1) for i, j in pairs]


def _sweeps(step, S, X, maxiter, rtol):
    """Sweeps of step until |det X| changes by less than rtol relative."""
    tiny = np.sqrt(np.spacing(1))
    tries, done, change = 0, False, 0.0
    while tries < maxiter and not done:
        before = np.abs(np.linalg.det(X))
        step()
        after = max(tiny, np.abs(np.linalg.det(X)))
        change = np.abs((after - before) / after)
        done = change < rtol and after > tiny
        tries += 1
    return done, change, tries


def place_poles(A, B, poles, method="YT", rtol=1e-3, maxiter=30):
    """The gain K that places the eigenvalues of A - B K at poles, with the
    closed loop's eigenvectors made robust (well conditioned) by 'YT'
    (Tits and Yang) or 'KNV0'. Returns a namespace of gain_matrix,
    computed_poles, requested_poles, X, rtol and nb_iter."""
    A, B = _host(A), _host(B)
    poles = _check(A, B, _host(poles), method, rtol, maxiter)
    n = A.shape[0]
    u, z = np.linalg.qr(B, mode="complete")
    rank = np.linalg.matrix_rank(B)
    u0, u1, z = u[:, :rank], u[:, rank:], z[:rank]
    change, tries = 0, 0
    if rank == n:
        # B spans the state space: the closed loop is any matrix we like,
        # the real block-diagonal form of the poles
        D = np.zeros(A.shape)
        k = 0
        while k < n:
            D[k, k] = np.real(poles[k])
            if not np.isreal(poles[k]):
                D[k, k + 1], D[k + 1, k + 1], D[k + 1, k] = (-np.imag(poles[k]),
                                                               np.real(poles[k]),
                                                               np.imag(poles[k]))
                k += 1
            k += 1
        gain = np.linalg.lstsq(B, D - A, rcond=-1)[0]
        X = np.eye(n)
        change = tries = np.nan
    else:
        # each pole's eigenvector lies in the null space of u1^T (A - p I)
        S, cols = [], []
        j = 0
        while j < n:
            space = (u1.T @ (A - poles[j] * np.eye(n))).T
            basis = _qr(space)[:, space.shape[1]:]
            x = np.sum(basis, axis=1)[:, None]
            x = x / np.linalg.norm(x)
            if np.isreal(poles[j]):
                S.append(basis)
                cols.append(x)
                j += 1
            else:
                S += [basis, basis]
                cols.append(np.hstack([np.real(x), np.imag(x)]))
                j += 2
        X = np.hstack(cols)
        if rank > 1:
            if method == "KNV0":
                def sweep():
                    for j in range(n):
                        _knv_column(S, X, j)
            else:
                order = _yt_order(poles)

                def sweep():
                    for i, j in order:
                        if i == j:
                            _knv_column(S, X, i)
                        elif np.isreal(poles[i]):
                            _yt_real(S, X, i, j)
                        else:
                            _yt_complex(S, X, i, j)
            done, change, tries = _sweeps(sweep, S, X, maxiter, rtol)
            if not done and rtol > 0:
                warnings.warn("Convergence was not reached after maxiter iterations.\nYou asked "
                              f"for a tolerance of {rtol}, we got {change}.", stacklevel=2)
        X = X.astype(complex)
        k = 0
        while k < n - 1:
            if not np.isreal(poles[k]):
                re, im = X[:, k].copy(), X[:, k + 1].copy()
                X[:, k], X[:, k + 1] = re - 1j * im, re + 1j * im
                k += 1
            k += 1
        try:
            M = np.linalg.solve(X.T, np.diag(poles) @ X.T).T
            gain = np.linalg.solve(z, u0.T @ (M - A))
        except np.linalg.LinAlgError as e:
            raise ValueError("The poles you've chosen can't be placed. Check the controllability "
                             "matrix and try another set of poles") from e
    gain = np.real(-gain)
    computed = _order(np.linalg.eig(A - B @ gain)[0])
    return types.SimpleNamespace(gain_matrix=gp.asarray(gain), computed_poles=gp.asarray(computed),
                                 requested_poles=gp.asarray(poles), X=gp.asarray(X), rtol=change,
                                 nb_iter=tries)
