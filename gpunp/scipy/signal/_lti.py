"""Linear time-invariant systems: SciPy's class family (lti, dlti and the
transfer function, zeros-poles-gain and state-space forms, continuous and
discrete), their simulation, responses and discretisation.

The systems' matrices and polynomials are small and live as gpunp arrays
(the conversions between forms run on the host, as SciPy's do). What
scales with the signal, the simulation of lsim and dlsim, runs on the
device: the state recursion x[k] = x[k-1] M + f[k] is a blocked scan
(_state_scan), never a loop per sample."""

from __future__ import annotations

import copy

import numpy as np

import gpunp as gp

from ._design import (_host, _normalize, _tf2zpk, _zpk2tf, freqs, freqs_zpk, freqz,
                      freqz_zpk)
from ._ltiforms import _abcd, _ss2tf, _tf2ss


def _expm(M):
    """The matrix exponential of a small host matrix (gpunp.scipy.linalg's)."""
    from gpunp.scipy.linalg import expm
    M = np.asarray(M)
    if M.size == 0:
        return np.zeros(M.shape, np.result_type(M.dtype, np.float64))
    return gp.asnumpy(expm(gp.asarray(M)))


class LinearTimeInvariant:
    """What every system form shares: its inputs, outputs and sampling
    interval, and conversion to the other forms."""

    def __new__(cls, *system, **kwargs):
        if cls is LinearTimeInvariant:
            raise NotImplementedError("The LinearTimeInvariant class is not meant to be used "
                                      "directly, use `lti` or `dlti` instead.")
        return super().__new__(cls)

    def __init__(self):
        super().__init__()
        self.inputs = None
        self.outputs = None
        self._dt = None

    @property
    def dt(self):
        return self._dt

    @property
    def _dt_dict(self):
        return {} if self.dt is None else {"dt": self.dt}

    @property
    def zeros(self):
        return self.to_zpk().zeros

    @property
    def poles(self):
        return self.to_zpk().poles

    def _as_ss(self):
        return self if isinstance(self, StateSpace) else self.to_ss()

    def _as_zpk(self):
        return self if isinstance(self, ZerosPolesGain) else self.to_zpk()

    def _as_tf(self):
        return self if isinstance(self, TransferFunction) else self.to_tf()


class lti(LinearTimeInvariant):
    """A continuous-time system: lti(num, den), lti(zeros, poles, gain) or
    lti(A, B, C, D) makes the form of that many arguments."""

    def __new__(cls, *system):
        if cls is lti:
            form = {2: TransferFunctionContinuous, 3: ZerosPolesGainContinuous,
                    4: StateSpaceContinuous}.get(len(system))
            if form is None:
                raise ValueError("`system` needs to be an instance of `lti` or have 2, 3 or 4 "
                                 "arguments.")
            return form.__new__(form, *system)
        return super().__new__(cls)

    def __init__(self, *system):
        super().__init__(*system)

    def impulse(self, X0=None, T=None, N=None):
        return impulse(self, X0=X0, T=T, N=N)

    def step(self, X0=None, T=None, N=None):
        return step(self, X0=X0, T=T, N=N)

    def output(self, U, T, X0=None):
        return lsim(self, U, T, X0=X0)

    def bode(self, w=None, n=100):
        return bode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000):
        return freqresp(self, w=w, n=n)

    def to_discrete(self, dt, method="zoh", alpha=None):
        raise NotImplementedError("to_discrete is not implemented for this system class.")


class dlti(LinearTimeInvariant):
    """A discrete-time system of sampling interval dt (True: unspecified),
    made as lti makes its forms."""

    def __new__(cls, *system, dt=None):
        if cls is dlti:
            form = {2: TransferFunctionDiscrete, 3: ZerosPolesGainDiscrete,
                    4: StateSpaceDiscrete}.get(len(system))
            if form is None:
                raise ValueError("`system` needs to be an instance of `dlti` or have 2, 3 or 4 "
                                 "arguments.")
            return form.__new__(form, *system, dt=dt)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        dt = kwargs.pop("dt", True)
        super().__init__(*system, **kwargs)
        self.dt = dt

    @property
    def dt(self):
        return self._dt

    @dt.setter
    def dt(self, dt):
        self._dt = dt

    def impulse(self, x0=None, t=None, n=None):
        return dimpulse(self, x0=x0, t=t, n=n)

    def step(self, x0=None, t=None, n=None):
        return dstep(self, x0=x0, t=t, n=n)

    def output(self, u, t, x0=None):
        return dlsim(self, u, t, x0=x0)

    def bode(self, w=None, n=100):
        return dbode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000, whole=False):
        return dfreqresp(self, w=w, n=n, whole=whole)


def _form_new(cls, base, continuous, discrete, system, dt):
    """The __new__ the three forms share: a system given whole is
    converted; the base class picks its continuous or discrete kind by dt."""
    if cls is base:
        if dt is None:
            return continuous.__new__(continuous, *system)
        return discrete.__new__(discrete, *system, dt=dt)
    return super(base, cls).__new__(cls)


class TransferFunction(LinearTimeInvariant):
    """A system as numerator and denominator polynomials (descending
    powers of s, or of z for a discrete system)."""

    def __new__(cls, *system, dt=None):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_tf()
        return _form_new(cls, TransferFunction, TransferFunctionContinuous,
                         TransferFunctionDiscrete, system, dt)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._num = self._den = None
        self.num, self.den = _normalize(_host(system[0]), _host(system[1]))

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.num!r},\n{self.den!r},\n"
                f"dt: {self.dt!r}\n)")

    @property
    def num(self):
        return self._num

    @num.setter
    def num(self, num):
        self._num = gp.atleast_1d(gp.asarray(_host(num)))
        self.outputs, self.inputs = self._num.shape if self._num.ndim > 1 else (1, 1)

    @property
    def den(self):
        return self._den

    @den.setter
    def den(self, den):
        self._den = gp.atleast_1d(gp.asarray(_host(den)))

    def _copy(self, system):
        self.num, self.den = system.num, system.den

    def to_tf(self):
        return copy.deepcopy(self)

    def to_zpk(self):
        return ZerosPolesGain(*_tf2zpk(_host(self.num), _host(self.den)), **self._dt_dict)

    def to_ss(self):
        return StateSpace(*_tf2ss(_host(self.num), _host(self.den)), **self._dt_dict)

    def __deepcopy__(self, memo):
        out = object.__new__(type(self))
        out.__dict__.update({k: (gp.array(v, copy=True) if isinstance(v, gp.ndarray)
                                 else copy.deepcopy(v, memo)) for k, v in self.__dict__.items()})
        return out

    @staticmethod
    def _z_to_zinv(num, den):
        """Polynomials in z made polynomials in z^-1: the shorter padded in
        front."""
        d = len(num) - len(den)
        if d > 0:
            den = np.hstack((np.zeros(d), den))
        elif d < 0:
            num = np.hstack((np.zeros(-d), num))
        return num, den

    @staticmethod
    def _zinv_to_z(num, den):
        """Polynomials in z^-1 made polynomials in z: the shorter padded
        behind."""
        d = len(num) - len(den)
        if d > 0:
            den = np.hstack((den, np.zeros(d)))
        elif d < 0:
            num = np.hstack((num, np.zeros(-d)))
        return num, den


class TransferFunctionContinuous(TransferFunction, lti):
    """A continuous-time transfer function."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        return TransferFunction(*cont2discrete((self.num, self.den), dt, method=method,
                                               alpha=alpha)[:-1], dt=dt)


class TransferFunctionDiscrete(TransferFunction, dlti):
    """A discrete-time transfer function."""


class ZerosPolesGain(LinearTimeInvariant):
    """A system as its zeros, poles and gain."""

    def __new__(cls, *system, dt=None):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_zpk()
        return _form_new(cls, ZerosPolesGain, ZerosPolesGainContinuous,
                         ZerosPolesGainDiscrete, system, dt)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._zeros = self._poles = self._gain = None
        self.zeros, self.poles, self.gain = system

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.zeros!r},\n{self.poles!r},\n"
                f"{self.gain!r},\ndt: {self.dt!r}\n)")

    @property
    def zeros(self):
        return self._zeros

    @zeros.setter
    def zeros(self, zeros):
        self._zeros = gp.atleast_1d(gp.asarray(_host(zeros)))
        self.outputs, self.inputs = self._zeros.shape if self._zeros.ndim > 1 else (1, 1)

    @property
    def poles(self):
        return self._poles

    @poles.setter
    def poles(self, poles):
        self._poles = gp.atleast_1d(gp.asarray(_host(poles)))

    @property
    def gain(self):
        return self._gain

    @gain.setter
    def gain(self, gain):
        self._gain = gain

    def _copy(self, system):
        self.poles, self.zeros, self.gain = system.poles, system.zeros, system.gain

    def to_tf(self):
        return TransferFunction(*_zpk2tf(_host(self.zeros), _host(self.poles),
                                         _host(self.gain)), **self._dt_dict)

    def to_zpk(self):
        return copy.deepcopy(self)

    def to_ss(self):
        num, den = _zpk2tf(_host(self.zeros), _host(self.poles), _host(self.gain))
        return StateSpace(*_tf2ss(num, den), **self._dt_dict)

    __deepcopy__ = TransferFunction.__deepcopy__


class ZerosPolesGainContinuous(ZerosPolesGain, lti):
    """A continuous-time system as zeros, poles and gain."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        return ZerosPolesGain(*cont2discrete((self.zeros, self.poles, self.gain), dt,
                                             method=method, alpha=alpha)[:-1], dt=dt)


class ZerosPolesGainDiscrete(ZerosPolesGain, dlti):
    """A discrete-time system as zeros, poles and gain."""


def _is_operand(other):
    return isinstance(other, (StateSpace, np.ndarray, gp.ndarray, float, complex, np.number,
                              int))


class StateSpace(LinearTimeInvariant):
    """A system as its state-space matrices: x' = A x + B u, y = C x + D u
    (x[k+1] = A x[k] + B u[k] for a discrete one). Systems of the same kind
    and dt multiply (in series), add (in parallel) and subtract; a matrix or
    scalar multiplies the input (on the right) or the output (on the left)."""

    __array_priority__ = 100.0
    __array_ufunc__ = None

    def __new__(cls, *system, dt=None):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_ss()
        return _form_new(cls, StateSpace, StateSpaceContinuous, StateSpaceDiscrete,
                         system, dt)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._A = self._B = self._C = self._D = None
        self.A, self.B, self.C, self.D = _abcd(*system)

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.A!r},\n{self.B!r},\n{self.C!r},\n"
                f"{self.D!r},\ndt: {self.dt!r}\n)")

    def _abcd_host(self):
        return tuple(_host(M) for M in (self._A, self._B, self._C, self._D))

    def _new(self, a, b, c, d):
        dt = np.result_type(a.dtype, b.dtype, c.dtype, d.dtype)
        return StateSpace(*(np.asarray(M, dtype=dt) for M in (a, b, c, d)), **self._dt_dict)

    def __mul__(self, other):
        if not _is_operand(other):
            return NotImplemented
        A, B, C, D = self._abcd_host()
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                return NotImplemented
            if self.dt != other.dt:
                raise TypeError("Cannot multiply systems with different `dt`.")
            A2, B2, C2, D2 = other._abcd_host()
            n1, n2 = A.shape[0], A2.shape[0]
            # other feeds self: the states of both, other's output into B
            a = np.vstack((np.hstack((A, B @ C2)), np.hstack((np.zeros((n2, n1)), A2))))
            return self._new(a, np.vstack((B @ D2, B2)), np.hstack((C, D @ C2)), D @ D2)
        other = _host(other)
        return self._new(A, np.dot(B, other), C, np.dot(D, other))

    def __rmul__(self, other):
        if not _is_operand(other) or isinstance(other, StateSpace):
            return NotImplemented
        A, B, C, D = self._abcd_host()
        other = _host(other)
        return self._new(A, B, np.dot(other, C), np.dot(other, D))

    def __neg__(self):
        A, B, C, D = self._abcd_host()
        return StateSpace(A, B, -C, -D, **self._dt_dict)

    def __add__(self, other):
        if not _is_operand(other):
            return NotImplemented
        A, B, C, D = self._abcd_host()
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                raise TypeError(f"Cannot add {type(self)} and {type(other)}")
            if self.dt != other.dt:
                raise TypeError("Cannot add systems with different `dt`.")
            A2, B2, C2, D2 = other._abcd_host()
            n1, n2 = A.shape[0], A2.shape[0]
            a = np.zeros((n1 + n2, n1 + n2), np.result_type(A, A2))
            a[:n1, :n1], a[n1:, n1:] = A, A2
            return self._new(a, np.vstack((B, B2)), np.hstack((C, C2)), D + D2)
        other = np.atleast_2d(_host(other))
        if D.shape != other.shape:
            raise ValueError(f"Cannot add systems with incompatible dimensions ({D.shape} "
                             f"and {other.shape})")
        return self._new(A, B, C, D + other)

    def __sub__(self, other):
        if not _is_operand(other):
            return NotImplemented
        return self.__add__(-other)

    def __radd__(self, other):
        if not _is_operand(other):
            return NotImplemented
        return self.__add__(other)

    def __rsub__(self, other):
        if not _is_operand(other):
            return NotImplemented
        return (-self).__add__(other)

    def __truediv__(self, other):
        if not _is_operand(other) or isinstance(other, StateSpace):
            return NotImplemented
        if isinstance(other, (np.ndarray, gp.ndarray)) and other.ndim > 0:
            raise ValueError("Cannot divide StateSpace by non-scalar numpy arrays")
        return self.__mul__(1 / other)

    @property
    def A(self):
        return self._A

    @A.setter
    def A(self, A):
        self._A = gp.atleast_2d(gp.asarray(_host(A)))

    @property
    def B(self):
        return self._B

    @B.setter
    def B(self, B):
        self._B = gp.atleast_2d(gp.asarray(_host(B)))
        self.inputs = self._B.shape[-1]

    @property
    def C(self):
        return self._C

    @C.setter
    def C(self, C):
        self._C = gp.atleast_2d(gp.asarray(_host(C)))
        self.outputs = self._C.shape[0]

    @property
    def D(self):
        return self._D

    @D.setter
    def D(self, D):
        self._D = gp.atleast_2d(gp.asarray(_host(D)))

    def _copy(self, system):
        self.A, self.B, self.C, self.D = system.A, system.B, system.C, system.D

    def to_tf(self, **kwargs):
        return TransferFunction(*_ss2tf(*self._abcd_host(), **kwargs), **self._dt_dict)

    def to_zpk(self, **kwargs):
        return ZerosPolesGain(*_tf2zpk(*_ss2tf(*self._abcd_host(), **kwargs)),
                              **self._dt_dict)

    def to_ss(self):
        return copy.deepcopy(self)

    __deepcopy__ = TransferFunction.__deepcopy__


class StateSpaceContinuous(StateSpace, lti):
    """A continuous-time state space."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        return StateSpace(*cont2discrete(self._abcd_host(), dt, method=method,
                                         alpha=alpha)[:-1], dt=dt)


class StateSpaceDiscrete(StateSpace, dlti):
    """A discrete-time state space."""


# ---- the state recursion on the device ---------------------------------------------------

def _block_len(n):
    """Samples a block of the scan: one (L n) x (L n) product per block, so
    fewer for many states."""
    return max(2, min(64, 256 // max(n, 1)))


def _state_scan(F, M):
    """x[k] = x[k-1] @ M + F[k] for the rows of F (N x n, on the device),
    x[-1] = 0.

    Blocks of L steps are run on their own by one product with the block
    lower-triangular matrix of powers M^(j - i); the blocks' last states are
    then a recurrence of matrix M^L over the blocks (solved the same way, L
    times shorter), and row j of each block adds the state carried into it
    times M^(j + 1). The powers are formed on the host by repeated products
    (not squaring, whose rounding grows with |M|^L)."""
    N, n = F.shape
    L = min(_block_len(n), max(N, 1))
    B = -(-N // L)
    P = np.empty((L + 1, n, n), M.dtype)
    P[0] = np.eye(n)
    for j in range(1, L + 1):
        P[j] = P[j - 1] @ M
    i = np.arange(L)
    d = i[None, :] - i[:, None]  # j - i for row block i, column block j
    T = np.where((d >= 0)[:, :, None, None], P[np.clip(d, 0, L)], 0)
    T = T.transpose(0, 2, 1, 3).reshape(L * n, L * n)
    Fp = gp.pad(F, [(0, B * L - N), (0, 0)]) if B * L != N else F
    dt = F.dtype
    Y = gp.matmul(gp.ascontiguousarray(Fp).reshape(B, L * n), gp.asarray(T.astype(dt)))
    Y = Y.reshape(B, L, n)
    if B > 1:
        carry = _state_scan(gp.ascontiguousarray(Y[:, L - 1, :]), P[L])
        G = P[1:].transpose(1, 0, 2).reshape(n, L * n)
        Y[1:] = Y[1:] + gp.matmul(carry[:-1], gp.asarray(G.astype(dt))).reshape(B - 1, L, n)
    return Y.reshape(B * L, n)[:N]


def _recurrence(x0, f, M, dt):
    """The states x[0] = x0, x[k] = x[k-1] @ M + f[k-1] for k = 1..N-1
    (f: N - 1 rows on the device)."""
    n = M.shape[0]
    F = gp.concatenate([gp.asarray(np.asarray(x0, dt).reshape(1, n)), f.astype(dt)], axis=0)
    if n == 0:
        return F
    return _state_scan(F, M.astype(dt))


def _squeeze(a):
    return gp.squeeze(a) if isinstance(a, gp.ndarray) else np.squeeze(a)


# ---- continuous-time simulation and responses --------------------------------------------

def _continuous(system, name):
    if isinstance(system, lti):
        return system._as_ss()
    if isinstance(system, dlti):
        raise AttributeError(f"{name} can only be used with continuous-time systems.")
    return lti(*system)._as_ss()


def lsim(system, U, T, X0=None, interp=True):
    """The response of a continuous-time system to the input U at the
    equally spaced times T (linear interpolation between samples, or a
    zero-order hold): T, the outputs and the states."""
    sys = _continuous(system, "lsim")
    T = _host(T)
    A, B, C, D = sys._abcd_host()
    if T.ndim != 1:
        raise ValueError("T must be a rank-1 array.")
    n, m = A.shape[0], B.shape[1]
    N = T.size
    dt = np.result_type(A.dtype, np.float64)
    x0 = np.zeros(n, dt) if X0 is None else np.asarray(_host(X0), dt).reshape(-1)
    if T[0] == 0:
        first = x0
    elif T[0] > 0:
        # the state at the first time: the initial state run with no input
        first = x0 @ _expm(A.T * T[0])
    else:
        raise ValueError("Initial time must be nonnegative")
    no_input = (U is None or (isinstance(U, (int, float)) and U == 0.0)
                or not bool(gp.any(gp.asarray(_host(U)) if not isinstance(U, gp.ndarray)
                                   else U)))
    Ud = None if no_input else (U if isinstance(U, gp.ndarray) else gp.asarray(_host(U)))
    Cd, Dd = gp.asarray(C.T.astype(dt)), gp.asarray(D.T.astype(dt))
    if N == 1:
        xout = gp.asarray(first.reshape(1, n))
        yout = _squeeze(gp.matmul(xout, Cd))
        if Ud is not None:
            yout = yout + _squeeze(gp.matmul(Ud.astype(dt), Dd))
        return gp.asarray(T), yout, _squeeze(xout)
    h = T[1] - T[0]
    if not np.allclose(np.diff(T), h):
        raise ValueError("Time steps are not equally spaced.")
    if Ud is None:
        xout = _recurrence(first, gp.zeros((N - 1, n), dt), _expm(A.T * h), dt)
        return gp.asarray(T), _squeeze(gp.matmul(xout, Cd)), _squeeze(xout)
    if Ud.ndim == 1:
        Ud = Ud[:, None]
    if Ud.shape[0] != N:
        raise ValueError("U must have the same number of rows as elements in T.")
    if Ud.shape[1] != m:
        raise ValueError("System does not define that many inputs.")
    Ud = Ud.astype(dt)
    if not interp:
        # the input held over a step: exp([[A h, B h], [0, 0]]) carries (x, u)
        E = np.zeros((n + m, n + m), dt)
        E[:n, :n], E[:n, n:] = A * h, B * h
        E = _expm(E.T)
        Ad, Bd = E[:n, :n], E[n:, :n]
        f = gp.matmul(Ud[:-1], gp.asarray(Bd.astype(dt)))
    else:
        # the input a ramp over a step: (x, u, its slope) under one exponential
        E = np.zeros((n + 2 * m, n + 2 * m), dt)
        E[:n, :n], E[:n, n:n + m] = A * h, B * h
        E[n:n + m, n + m:] = np.eye(m)
        E = _expm(E.T)
        Ad, Bd1 = E[:n, :n], E[n + m:, :n]
        Bd0 = E[n:n + m, :n] - Bd1
        f = (gp.matmul(Ud[:-1], gp.asarray(Bd0.astype(dt)))
             + gp.matmul(Ud[1:], gp.asarray(Bd1.astype(dt))))
    xout = _recurrence(first, f, Ad, dt)
    yout = _squeeze(gp.matmul(xout, Cd)) + _squeeze(gp.matmul(Ud, Dd))
    return gp.asarray(T), yout, _squeeze(xout)


def _response_times(A, n):
    """n times up to 7 time constants of the slowest pole (SciPy's default)."""
    r = np.min(np.abs(np.real(np.linalg.eigvals(A))))
    return np.linspace(0.0, 7.0 / (1.0 if r == 0.0 else r), n)


def impulse(system, X0=None, T=None, N=None):
    """The impulse response of a continuous-time system: T and the output."""
    sys = _continuous(system, "impulse")
    A, B, _, _ = sys._abcd_host()
    X = np.squeeze(B) if X0 is None else np.squeeze(B + _host(X0))
    T = _response_times(A, 100 if N is None else N) if T is None else np.asarray(_host(T))
    _, h, _ = lsim(sys, 0.0, T, X, interp=False)
    return gp.asarray(T), h


def step(system, X0=None, T=None, N=None):
    """The step response of a continuous-time system: T and the output."""
    sys = _continuous(system, "step")
    A = _host(sys.A)
    T = _response_times(A, 100 if N is None else N) if T is None else np.asarray(_host(T))
    U = gp.ones(T.shape, np.result_type(A.dtype, np.float64))
    T, y, _ = lsim(sys, U, T, X0=X0, interp=False)
    return T, y


def freqresp(system, w=None, n=10000):
    """The complex frequency response of a continuous-time SISO system at
    the frequencies w (rad/s; n chosen ones if None)."""
    if isinstance(system, lti):
        sys = system if isinstance(system, (TransferFunction, ZerosPolesGain)) \
            else system._as_zpk()
    elif isinstance(system, dlti):
        raise AttributeError("freqresp can only be used with continuous-time systems.")
    else:
        sys = lti(*system)._as_zpk()
    if sys.inputs != 1 or sys.outputs != 1:
        raise ValueError("freqresp() requires a SISO (single input, single output) system.")
    worN = n if w is None else w
    if isinstance(sys, TransferFunction):
        return freqs(_host(sys.num).ravel(), _host(sys.den), worN=worN)
    return freqs_zpk(sys.zeros, sys.poles, sys.gain, worN=worN)


def _mag_phase(h):
    h = gp.asnumpy(h)
    return (gp.asarray(20.0 * np.log10(np.abs(h))),
            gp.asarray(np.rad2deg(np.unwrap(np.arctan2(h.imag, h.real)))))


def bode(system, w=None, n=100):
    """Bode magnitude (dB) and phase (degrees) of a continuous-time system."""
    w, h = freqresp(system, w=w, n=n)
    return (w,) + _mag_phase(h)


# ---- discrete-time simulation and responses ----------------------------------------------

def _discrete(system, name):
    if isinstance(system, dlti):
        return system
    if isinstance(system, lti):
        raise AttributeError(f"{name} can only be used with discrete-time dlti systems.")
    return dlti(*system[:-1], dt=system[-1])


def _lerp(t, u, tout):
    """u (rows at times t) linearly interpolated at tout, extrapolated
    beyond t by the end segments."""
    k = np.clip(np.searchsorted(t, tout, side="right") - 1, 0, max(len(t) - 2, 0))
    w = (tout - t[k]) / (t[np.minimum(k + 1, len(t) - 1)] - t[k])
    lo, hi = u[gp.asarray(k)], u[gp.asarray(np.minimum(k + 1, len(t) - 1))]
    w = gp.asarray(w.astype(u.dtype))[:, None]
    return lo + w * (hi - lo)


def dlsim(system, u, t=None, x0=None):
    """The response of a discrete-time system to the input u (sampled every
    dt, or given at times t and linearly interpolated): t, the outputs, and
    the states where the system is a state space."""
    if isinstance(system, lti):
        raise AttributeError("dlsim can only be used with discrete-time dlti systems.")
    if not isinstance(system, dlti):
        system = dlti(*system[:-1], dt=system[-1])
    state_space = isinstance(system, StateSpace)
    sys = system._as_ss()
    A, B, C, D = sys._abcd_host()
    h = system.dt
    u = gp.atleast_1d(u if isinstance(u, gp.ndarray) else gp.asarray(_host(u)))
    if u.ndim == 1:
        u = u[:, None]
    if t is None:
        N = u.shape[0]
        stop = (N - 1) * h
    else:
        t = np.asarray(_host(t), np.float64)
        stop = t[-1]
        N = int(np.floor(stop / h)) + 1
    tout = np.linspace(0.0, stop, num=N)
    dt = np.result_type(A.dtype, B.dtype, C.dtype, D.dtype, u.dtype, np.float64)
    u = u.astype(dt)
    if t is not None:
        u = _lerp(t, u, tout)
    x0 = np.zeros(A.shape[1], dt) if x0 is None else np.asarray(_host(x0), dt)
    f = gp.matmul(u[:N - 1], gp.asarray(B.T.astype(dt)))
    xout = _recurrence(x0, f, A.T, dt)
    yout = gp.matmul(xout, gp.asarray(C.T.astype(dt))) + gp.matmul(u[:N],
                                                                  gp.asarray(D.T.astype(dt)))
    if state_space:
        return gp.asarray(tout), yout, xout
    return gp.asarray(tout), yout


def _dresponse(system, x0, t, n, name, impulse):
    sys = _discrete(system, name)._as_ss()
    n = 100 if n is None else n
    t = np.linspace(0, n * sys.dt, n, endpoint=False) if t is None else np.asarray(_host(t))
    out, tout = (), None
    for i in range(sys.inputs):
        u = np.zeros((t.shape[0], sys.inputs))
        if impulse:
            u[0, i] = 1.0
        else:
            u[:, i] = 1.0
        r = dlsim(sys, gp.asarray(u), t=t, x0=x0)
        out, tout = out + (r[1],), r[0]
    return tout, out


def dimpulse(system, x0=None, t=None, n=None):
    """The impulse response of a discrete-time system from each input: t and
    a tuple of the outputs."""
    return _dresponse(system, x0, t, n, "dimpulse", True)


def dstep(system, x0=None, t=None, n=None):
    """The step response of a discrete-time system from each input: t and a
    tuple of the outputs."""
    return _dresponse(system, x0, t, n, "dstep", False)


def dfreqresp(system, w=None, n=10000, whole=False):
    """The complex frequency response of a discrete-time SISO system at the
    frequencies w (radians per sample)."""
    if not isinstance(system, dlti):
        if isinstance(system, lti):
            raise AttributeError("dfreqresp can only be used with discrete-time systems.")
        system = dlti(*system[:-1], dt=system[-1])
    if isinstance(system, StateSpace):
        system = system._as_tf()
    if system.inputs != 1 or system.outputs != 1:
        raise ValueError("dfreqresp requires a SISO (single input, single output) system.")
    worN = n if w is None else w
    if isinstance(system, TransferFunction):
        num, den = TransferFunction._z_to_zinv(_host(system.num).ravel(), _host(system.den))
        return freqz(num, den, worN=worN, whole=whole)
    return freqz_zpk(system.zeros, system.poles, system.gain, worN=worN, whole=whole)


def dbode(system, w=None, n=100):
    """Bode magnitude (dB) and phase (degrees) of a discrete-time system,
    at frequencies in rad/s (radians per sample over dt)."""
    w, h = dfreqresp(system, w=w, n=n)
    dt = system.dt if isinstance(system, dlti) else system[-1]
    return (w / dt,) + _mag_phase(h)


# ---- discretisation ----------------------------------------------------------------------

_GBT_ALPHA = {"bilinear": 0.5, "tustin": 0.5, "euler": 0.0, "forward_diff": 0.0,
              "backward_diff": 1.0}


def _c2d_ss(a, b, c, d, dt, method, alpha):
    n, m = a.shape[0], b.shape[1]
    if method in _GBT_ALPHA:
        method, alpha = "gbt", _GBT_ALPHA[method]
    elif method == "gbt":
        if alpha is None:
            raise ValueError("Alpha parameter must be specified for the generalized bilinear "
                             "transform (gbt) method")
        if alpha < 0 or alpha > 1:
            raise ValueError("Alpha parameter must be within the interval [0,1] for the gbt "
                             "method")
    if method == "gbt":
        ima = np.eye(n) - alpha * dt * a
        ad = np.linalg.solve(ima, np.eye(n) + (1.0 - alpha) * dt * a)
        bd = np.linalg.solve(ima, dt * b)
        cd = np.linalg.solve(ima.T, c.T).T
        return ad, bd, cd, d + alpha * (c @ bd)
    if method == "zoh":
        E = np.zeros((n + m, n + m), np.result_type(a, b, np.float64))
        E[:n, :n], E[:n, n:] = a, b
        E = _expm(dt * E)[:n]
        return E[:, :n], E[:, n:], c, d
    if method == "foh":
        E = np.zeros((n + 2 * m, n + 2 * m), np.result_type(a, b, np.float64))
        E[:n, :n], E[:n, n:n + m] = a * dt, b * dt
        E[n:n + m, n + m:] = np.eye(m)
        E = _expm(E)
        e11, e12, e13 = E[:n, :n], E[:n, n:n + m], E[:n, n + m:]
        return e11, e12 - e13 + e11 @ e13, c, d + c @ e13
    if method == "impulse":
        if not np.allclose(d, 0):
            raise ValueError("Impulse method is only applicable to strictly proper systems")
        ad = _expm(a * dt)
        return ad, ad @ b * dt, c, c @ b * dt
    raise ValueError(f"Unknown transformation method '{method}'")


def cont2discrete(system, dt, method="zoh", alpha=None):
    """A continuous-time system (tuple or lti) made discrete with sampling
    interval dt: 'gbt' (with alpha), 'bilinear'/'tustin', 'euler'/
    'forward_diff', 'backward_diff', 'zoh', 'foh' or 'impulse'. Returns the
    tuple of the same form with dt appended, or a dlti for an lti."""
    if hasattr(system, "to_discrete") and callable(system.to_discrete):
        return system.to_discrete(dt=dt, method=method, alpha=alpha)
    if len(system) == 2:
        ad, bd, cd, dd = _c2d_ss(*_tf2ss(_host(system[0]), _host(system[1])), dt, method,
                                 alpha)
        num, den = _ss2tf(ad, bd, cd, dd)
        return gp.asarray(np.asarray(num)), gp.asarray(np.asarray(den)), dt
    if len(system) == 3:
        num, den = _zpk2tf(_host(system[0]), _host(system[1]), _host(system[2]))
        ad, bd, cd, dd = _c2d_ss(*_tf2ss(num, den), dt, method, alpha)
        z, p, k = _tf2zpk(*_ss2tf(ad, bd, cd, dd))
        return gp.asarray(z), gp.asarray(p), k, dt
    if len(system) != 4:
        raise ValueError("First argument must either be a tuple of 2 (tf), 3 (zpk), or 4 (ss) "
                         "arrays.")
    a, b, c, d = (np.atleast_2d(_host(M)) for M in system)
    return tuple(gp.asarray(M) for M in _c2d_ss(a, b, c, d, dt, method, alpha)) + (dt,)
