"""State-space forms of linear systems and their conversions to transfer
functions and zeros-poles-gain: small matrices on the host, as SciPy's."""

from __future__ import annotations

import numpy as np

import gpunp as gp
from gpunp.scipy._version import scipy_version

from ._design import _host, _normalize, _tf2zpk, _zpk2tf


def _abcd(A=None, B=None, C=None, D=None):
    if A is None and B is None and C is None:
        raise ValueError("Dimension n is undefined for parameters A = B = C = None!")
    if B is None and D is None:
        raise ValueError("Dimension p is undefined for parameters B = D = None!")
    if C is None and D is None:
        raise ValueError("Dimension q is undefined for parameters C = D = None!")
    dtype = None
    if scipy_version() >= 11800:
        # SciPy 1.18 promotes the four to one floating dtype (integers give
        # float64, a Python or NumPy scalar promotes as a scalar); before,
        # each kept its own dtype and the missing ones were float64.
        given = [M if np.isscalar(M) else _host(M) for M in (A, B, C, D) if M is not None]
        dtype = np.result_type(*given, 1.0)
    A, B, C, D = (np.atleast_2d(np.asarray(_host(M), dtype)) if M is not None
                  else np.zeros((0, 0), dtype) for M in (A, B, C, D))
    n = A.shape[0] or B.shape[0] or C.shape[1] or 0
    p = B.shape[1] or D.shape[1] or 0
    q = C.shape[0] or D.shape[0] or 0
    A = np.zeros((n, n), dtype) if A.size == 0 else A
    B = np.zeros((n, p), dtype) if B.size == 0 else B
    C = np.zeros((q, n), dtype) if C.size == 0 else C
    D = np.zeros((q, p), dtype) if D.size == 0 else D
    for name, M, want in (("A", A, (n, n)), ("B", B, (n, p)), ("C", C, (q, n)),
                          ("D", D, (q, p))):
        if M.shape != want:
            raise ValueError(f"Parameter {name} has shape {M.shape} but should be {want}!")
    return A, B, C, D


def abcd_normalize(A=None, B=None, C=None, D=None):
    """The state-space matrices A, B, C, D made 2-D and consistent in size
    (missing ones as zeros)."""
    return tuple(gp.asarray(M) for M in _abcd(A, B, C, D))


def _tf2ss(num, den):
    num, den = _normalize(num, den)
    if num.ndim == 1:
        num = np.asarray([num], num.dtype)
    M, K = num.shape[1], len(den)
    if M > K:
        raise ValueError("Improper transfer function. `num` is longer than `den`.")
    if M == 0 or K == 0:
        e = np.array([], float)
        return e, e, e, e
    num = np.hstack((np.zeros((num.shape[0], K - M), dtype=num.dtype), num))
    D = np.atleast_2d(num[:, 0]) if num.shape[-1] > 0 else np.array([[0]], float)
    if K == 1:
        D = D.reshape(num.shape)
        return np.zeros((1, 1)), np.zeros((1, D.shape[1])), np.zeros((D.shape[0], 1)), D
    A = np.r_[-np.array([den[1:]]), np.eye(K - 2, K - 1)]
    B = np.eye(K - 1, 1)
    C = num[:, 1:] - np.outer(num[:, 0], den[1:])
    return A, B, C, D.reshape((C.shape[0], B.shape[1]))


def tf2ss(num, den):
    """The controller canonical state space of the transfer function."""
    return tuple(gp.asarray(M) for M in _tf2ss(_host(num), _host(den)))


def _ss2tf(A, B, C, D, input=0):
    A, B, C, D = _abcd(A, B, C, D)
    nout, nin = D.shape
    if input >= nin:
        raise ValueError("System does not have the input specified.")
    B, D = B[:, input:input + 1], D[:, input:input + 1]
    try:
        den = np.poly(A)
    except ValueError:
        den = 1
    if B.size == 0 and C.size == 0:
        num = np.ravel(D)
        if D.size == 0 and A.size == 0:
            den = []
        return num, den
    n = A.shape[0]
    kind = A[:, 0] + B[:, 0] + C[0, :] + D + 0.0
    num = np.empty((nout, n + 1), kind.dtype)
    for k in range(nout):
        # the numerator from det(sI - A + B C_k): the zeros of output k
        num[k] = np.poly(A - np.dot(B, np.atleast_2d(C[k, :]))) + (D[k] - 1) * den
    return num, den


def ss2tf(A, B, C, D, input=0):
    """The transfer function (numerators of each output, denominator) of the
    state space from one input."""
    num, den = _ss2tf(A, B, C, D, input)
    return gp.asarray(np.asarray(num)), gp.asarray(np.asarray(den))


def zpk2ss(z, p, k):
    """The state space of the system of zeros z, poles p, gain k."""
    return tf2ss(*_zpk2tf(_host(z), _host(p), _host(k)))


def ss2zpk(A, B, C, D, input=0):
    """Zeros, poles and gain of the state space from one input."""
    z, p, k = _tf2zpk(*_ss2tf(A, B, C, D, input))
    return gp.asarray(z), gp.asarray(p), k
