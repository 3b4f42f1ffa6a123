"""LAPACK (through SciPy) in place of the engine's dense solvers, so that the
GPU road of gpunp.linalg (gpunp/linalg/_device.py: the column-major copies,
pivots, info words, QR assembly, the SVD of wide matrices, LAPACK's real
eigenvector pairs) runs on the host backend too. It follows the contract of
gp_solver_run (csrc/include/gp_linalg.h) on the arrays' host memory: the
same routines, arguments, flags and info words, written in place. The C
engine and cuSOLVER themselves are tested on the GPU (tests/gpu/)."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from scipy.linalg import lapack

import gpunp as gp
from gpunp._lib import lib
from gpunp.linalg import _device, _linalg
from gpunp.linalg._common import host_view


def _fn(name: str, dt: np.dtype):
    prefix = {"f4": "s", "f8": "d", "c8": "c", "c16": "z"}[f"{dt.kind}{dt.itemsize}"]
    if dt.kind == "c":
        name = {"orgqr": "ungqr", "syevd": "heevd"}.get(name, name)
    return getattr(lapack, prefix + name)


def run(routine, flags, *args):
    views = [None if a is None else host_view(a) for a in args]
    a0 = views[0]
    dt = a0.dtype
    info = views[-1]
    batch = info.shape
    vectors = bool(flags & lib.GP_SOLVER_VECTORS)
    lower = not flags & lib.GP_SOLVER_UPPER
    for b in np.ndindex(*batch):
        v = [None if x is None else x[b + (Ellipsis,)] for x in views]
        A = v[0]
        if A.size == 0:
            v[-1][...] = 0
            continue
        if routine == lib.GP_SOLVER_GETRF:
            lu, piv, inf = _fn("getrf", dt)(A)
            A[...] = lu
            v[1][...] = piv + 1
        elif routine == lib.GP_SOLVER_GETRS:
            if v[2].size == 0:
                inf = 0
            else:
                x, inf = _fn("getrs", dt)(A, v[1] - 1, v[2])
                v[2][...] = x
        elif routine == lib.GP_SOLVER_POTRF:
            c, inf = _fn("potrf", dt)(A, lower=lower, clean=0)
            A[...] = c
        elif routine == lib.GP_SOLVER_GEQRF:
            qr, tau, _, inf = _fn("geqrf", dt)(A)
            A[...] = qr
            v[1][...] = tau
        elif routine == lib.GP_SOLVER_ORGQR:
            q, _, inf = _fn("orgqr", dt)(A, v[1])
            A[...] = q
        elif routine in (lib.GP_SOLVER_SYEVD, lib.GP_SOLVER_SYEVJ):
            w, z, inf = _fn("syevd", dt)(A, compute_v=vectors, lower=lower)
            v[1][...] = w
            if vectors:
                A[...] = z
            if routine == lib.GP_SOLVER_SYEVJ and not jacobi_converges:
                v[1][...] = np.nan
                inf = A.shape[0] + 1
        elif routine == lib.GP_SOLVER_GESVD:
            full = bool(flags & lib.GP_SOLVER_FULL)
            u, s, vt, inf = _fn("gesvd", dt)(A, compute_uv=vectors, full_matrices=full)
            v[1][...] = s
            if vectors:
                v[2][...] = u
                v[3][...] = vt
        elif routine == lib.GP_SOLVER_GESVDJ:  # U and V always
            full = bool(flags & lib.GP_SOLVER_FULL)
            u, s, vt, inf = _fn("gesvd", dt)(A, compute_uv=True, full_matrices=full)
            v[1][...] = s
            v[2][...] = u
            v[3][...] = vt.conj().T
            if not jacobi_converges:  # as cuSOLVER reports it: min(m, n) + 1
                v[1][...] = np.nan
                inf = min(A.shape) + 1
        elif routine == lib.GP_SOLVER_GEEV:
            if dt.kind == "c":
                w, _, vr, inf = _fn("geev", dt)(A, compute_vl=0, compute_vr=vectors)
            else:
                wr, wi, _, vr, inf = _fn("geev", dt)(A, compute_vl=0, compute_vr=vectors)
                w = wr + 1j * wi
            v[1][...] = w
            if vectors:
                v[2][...] = vr
        else:
            raise AssertionError(f"routine {routine}")
        v[-1][...] = max(int(inf), 0)


calls = 0
routines = []  # of every call, in order
jacobi_converges = True  # False: gesvdj and syevj report no convergence for every matrix


def _counted(routine, *args):
    global calls
    calls += 1
    routines.append(routine)
    run(routine, *args)


@contextlib.contextmanager
def device_road():
    """gpunp.linalg takes its GPU road, with LAPACK standing in for the engine."""
    assert gp.backend() == "host"
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_device, "run", _counted)
        m.setattr(_device, "available", lambda routine: True)
        m.setattr(_linalg, "on_host", lambda: False)
        yield
