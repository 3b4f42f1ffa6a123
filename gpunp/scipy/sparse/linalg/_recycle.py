"""The Krylov solvers that carry vectors from one restart to the next:
``lgmres`` (GMRES augmented with the last corrections) and ``gcrotmk``
(flexible GCROT(m, k), which keeps a truncated subspace ``C = A U``); and
``use_solver``.

Both are built on one flexible Arnoldi process (``_fgmres``) as in SciPy,
with SciPy's stopping rules, return values and info codes. The vectors live on
the device; each Arnoldi step orthogonalises by classical Gram-Schmidt done
twice (two matrix products instead of one dot per basis vector, as
``gmres``) and reads its new Hessenberg column in one transfer. The small
Hessenberg problem ((m+1) x m) is factored on the host with NumPy."""

import numpy

import gpunp as gp

from ._isolve import _inner_all, make_system

__all__ = ["gcrotmk", "lgmres", "use_solver"]


def _norm(v):
    return gp.linalg.norm(v).reshape(1)


def _dotc(a, b):
    """<a, b>, the first argument conjugated (BLAS's dotc, what SciPy uses)."""
    return gp.vdot(a, b) if a.dtype.kind == "c" else gp.dot(a, b)


def _fgmres(matvec, v0, m, atol, lpsolve=None, rpsolve=None, cs=(), outer_v=(),
            prepend_outer_v=False):
    """Flexible GMRES from the unit vector `v0`: at most `m` steps plus one per
    augmentation pair (z, A z) of `outer_v`, each new vector made orthogonal to
    the columns `cs` first (GCROT's C). Returns (Q, R, B, V, zs, y, res): the QR
    factors of the Hessenberg matrix H, the projections B of A z on `cs`, the
    Arnoldi vectors (rows of V), the search directions, the least-squares
    coefficients of ``min |H y - e1|`` and its residual."""
    lpsolve = lpsolve or (lambda v: v)
    rpsolve = rpsolve or (lambda v: v)
    dtype = v0.dtype
    eps = numpy.finfo(dtype).eps
    m = m + len(outer_v)
    C = gp.stack(list(cs)) if len(cs) else None
    B = numpy.zeros((len(cs), m), dtype=dtype)
    H = numpy.zeros((m + 1, m), dtype=dtype)
    V = gp.empty((m + 1, v0.size), dtype=dtype)
    V[0] = v0
    zs = []
    res = numpy.nan
    first_outer = 0 if prepend_outer_v else m - len(outer_v)
    for j in range(m):
        w = None
        if first_outer <= j < first_outer + len(outer_v):
            z, w = outer_v[j - first_outer]
        elif prepend_outer_v and j == len(outer_v):
            z = rpsolve(v0)
        else:
            z = rpsolve(V[j])
        w = lpsolve(matvec(z)) if w is None else w.copy()
        parts = [_norm(w)]
        if C is not None:
            proj = _inner_all(C, w)
            w = w - proj @ C
            parts.append(proj)
        basis = V[:j + 1]
        h = _inner_all(basis, w)
        w = w - h @ basis
        h2 = _inner_all(basis, w)
        w = w - h2 @ basis
        h = h + h2
        hnorm = _norm(w)
        got = gp.concatenate([p.astype(dtype) for p in parts + [h, hnorm]]).get()
        w_norm, hcol = abs(got[0]), got[1 + len(cs):]
        B[:, j] = got[1:1 + len(cs)]
        H[:j + 2, j] = hcol
        last = abs(hcol[-1])
        with numpy.errstate(over="ignore", divide="ignore"):
            inv = 1 / last
        V[j + 1] = w * inv if numpy.isfinite(inv) else w
        breakdown = not last > eps * w_norm
        zs.append(z)
        Q, R = numpy.linalg.qr(H[:j + 2, :j + 1], mode="complete")
        res = abs(Q[0, -1])
        if res < atol or breakdown:
            break
    if not numpy.isfinite(R[j, j]):
        raise numpy.linalg.LinAlgError("non-finite Hessenberg factor")
    y = numpy.linalg.lstsq(R[:j + 1, :j + 1], Q[0, :j + 1].conj(), rcond=None)[0]
    return Q, R, B[:, :j + 1], V[:j + 2], zs, y, res


def _combine(coefs, vectors):
    """sum_i coefs[i] * vectors[i] on the device (vectors: a list or the rows of a matrix)."""
    mat = vectors if isinstance(vectors, gp.ndarray) else gp.stack(list(vectors))
    return gp.asarray(numpy.ascontiguousarray(coefs)).astype(mat.dtype) @ mat


def _check_rhs(b, name, atol):
    if not bool(gp.isfinite(b).all()):
        raise ValueError("RHS must contain only finite numbers")
    if atol is None or isinstance(atol, str) or not atol >= 0:
        raise ValueError(f"'scipy.sparse.linalg.{name}' called with invalid `atol`={atol}; "
                         "if set, `atol` must be a real, non-negative number.")


def lgmres(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=1000, M=None, callback=None,
           inner_m=30, outer_k=3, outer_v=None, store_outer_Av=True, prepend_outer_v=False):
    """LGMRES: restarted GMRES whose Krylov space is augmented with the last
    `outer_k` corrections; as scipy.sparse.linalg.lgmres, returns ``(x, info)``
    (info: 0 converged, `maxiter` not converged, the outer step on a breakdown).
    `outer_v` (a list of (v, A v) pairs, A v possibly None) is kept and
    extended in place, as SciPy's."""
    A, M, x, b = make_system(A, M, x0, b)
    _check_rhs(b, "lgmres", atol)
    if outer_v is None:
        outer_v = []
    b_norm = float(gp.linalg.norm(b))
    atol = max(float(atol), float(rtol) * b_norm)
    if b_norm == 0:
        return b, 0
    tol = max(atol, rtol * b_norm)
    ptol_max_factor = 1.0
    for k_outer in range(maxiter):
        r_outer = A.matvec(x) - b
        if callback is not None:
            callback(x)
        r_norm = float(gp.linalg.norm(r_outer))
        if r_norm <= tol:
            return x, 0
        v0 = -M.matvec(r_outer)
        inner_res_0 = float(gp.linalg.norm(v0))
        if inner_res_0 == 0:
            raise RuntimeError(f"Preconditioner returned a zero vector; |v| ~ {r_norm:.1g}, "
                               "|M v| = 0")
        v0 = v0 * (1.0 / inner_res_0)
        ptol = min(ptol_max_factor, tol / r_norm)
        try:
            Q, R, B, V, zs, y, pres = _fgmres(A.matvec, v0, inner_m, lpsolve=M.matvec,
                                              atol=ptol, outer_v=outer_v,
                                              prepend_outer_v=prepend_outer_v)
            y = y * inner_res_0
            if not numpy.isfinite(y).all():
                raise numpy.linalg.LinAlgError()
        except numpy.linalg.LinAlgError:
            return x, k_outer + 1
        # the inner tolerance adapts to how the last cycle did (SciPy's rule)
        if pres > ptol:
            ptol_max_factor = min(1.0, 1.5 * ptol_max_factor)
        else:
            ptol_max_factor = max(1e-16, 0.25 * ptol_max_factor)
        dx = _combine(y, zs)
        nx = float(gp.linalg.norm(dx))
        if nx > 0:
            ax = _combine(Q @ (R @ y), V) / nx if store_outer_Av else None
            outer_v.append((dx / nx, ax))
        while len(outer_v) > outer_k:
            del outer_v[0]
        x = x + dx
    return x, maxiter


def _start_cu(A, CU, r_dtype):
    """SciPy's preparation of given (c, u) pairs: missing c = A u, then C made
    orthonormal by a QR factorisation and U changed to match (C = A U stays true);
    columns whose R diagonal is negligible are dropped. gpunp factors without
    column pivoting (gpunp.linalg.qr has none)."""
    CU.sort(key=lambda cu: cu[0] is not None)
    cs, us = [], []
    for c, u in CU:
        cs.append(A.matvec(u) if c is None else gp.asarray(c).astype(r_dtype))
        us.append(gp.asarray(u).astype(r_dtype))
    Q, R = gp.linalg.qr(gp.stack(cs, axis=1))
    R = R.get()
    new = []
    for j in range(len(cs)):
        if abs(R[j, j]) < 1e-12 * abs(R[0, 0]):
            break
        u = us[j]
        if j:
            u = u - _combine(R[:j, j], us[:j])
        new.append((Q[:, j].copy(), u / R[j, j]))
    CU[:] = new[::-1]


def gcrotmk(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=1000, M=None, callback=None,
            m=20, k=None, CU=None, discard_C=False, truncate="oldest"):
    """Flexible GCROT(m, k); as scipy.sparse.linalg.gcrotmk, returns ``(x, info)``
    (info: 0 converged, else the number of outer iterations done). `CU`, a list
    of (c, u) pairs with c = A u (c may be None), is used and updated in place."""
    A, M, x, b = make_system(A, M, x0, b)
    _check_rhs(b, "gcrotmk", atol)
    if truncate not in ("oldest", "smallest"):
        raise ValueError(f"Invalid value for 'truncate': {truncate!r}")
    if CU is None:
        CU = []
    if k is None:
        k = m
    r = b.copy() if x0 is None else b - A.matvec(x)
    b_norm = float(gp.linalg.norm(b))
    atol = max(float(atol), float(rtol) * b_norm)
    if b_norm == 0:
        return b, 0
    if discard_C:
        CU[:] = [(None, u) for c, u in CU]
    if CU:
        _start_cu(A, CU, r.dtype)
        for c, u in CU:
            yc = _dotc(c, r)
            x = x + yc * u
            r = r - yc * c
    tol = max(atol, rtol * b_norm)
    j_outer = 0
    for j_outer in range(maxiter):
        if callback is not None:
            callback(x)
        beta = float(gp.linalg.norm(r))
        if beta <= tol and (j_outer > 0 or CU):
            r = b - A.matvec(x)  # the updated residual may have drifted: recompute
            beta = float(gp.linalg.norm(r))
        if beta <= tol:
            j_outer = -1
            break
        ml = m + max(k - len(CU), 0)
        cs = [c for c, u in CU]
        try:
            Q, R, B, V, zs, y, pres = _fgmres(A.matvec, r / beta, ml, rpsolve=M.matvec,
                                              atol=tol / beta, cs=cs)
            y = y * beta
        except numpy.linalg.LinAlgError:
            break
        # the new direction pair: ux with A ux = cx, cx orthogonal to C
        ux = _combine(y, zs)
        if CU:
            ux = ux - _combine(B @ y, [u for c, u in CU])
        with numpy.errstate(invalid="ignore"):
            hy = Q @ (R @ y)
        cx = _combine(hy, V)
        with numpy.errstate(divide="ignore"):
            alpha = 1 / float(gp.linalg.norm(cx))
        if not numpy.isfinite(alpha):
            continue
        cx, ux = cx * alpha, ux * alpha
        gamma = _dotc(cx, r)
        r = r - gamma * cx
        x = x + gamma * ux
        if truncate == "oldest":
            while len(CU) >= k and CU:
                del CU[0]
        elif len(CU) >= k and CU:
            # keep the k - 1 combinations of C that B R^-1 weighs most (its SVD)
            D = numpy.linalg.solve(R[:-1, :].T, B.T).T
            W = numpy.linalg.svd(D)[0]
            cmat = gp.stack([c for c, u in CU])
            umat = gp.stack([u for c, u in CU])
            new = []
            for w in W[:, :k - 1].T:
                c, u = _combine(w, cmat), _combine(w, umat)
                for cp, up in new:
                    a = _dotc(cp, c)
                    c, u = c - a * cp, u - a * up
                nc = gp.linalg.norm(c)
                new.append((c / nc, u / nc))
            CU[:] = new
        CU.append((cx, ux))
    CU.append((None, x.copy()))
    if discard_C:
        CU[:] = [(None, u) for c, u in CU]
    return x, j_outer + 1


def use_solver(**kwargs):
    """SciPy's switch between UMFPACK and SuperLU for ``spsolve``. gpunp has
    one direct solver (see ``spsolve``), so this takes SciPy's keywords
    (``useUmfpack``, ``assumeSortedIndices``; others are ignored, as SciPy
    ignores them) and changes nothing."""
