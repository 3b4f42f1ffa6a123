"""ABCPolyBase: the six convenience classes' common body (NumPy's
numpy.polynomial._polybase.ABCPolyBase), over gpunp.polynomial._series.

The coefficients are a gpunp array; the domain and window are NumPy arrays
of two numbers, host data like a shape, since all they feed is the affine
map off + scl * x. Printing goes through NumPy's own class on a host copy
of the coefficients."""

from __future__ import annotations

import numbers
import sys

import numpy

import gpunp as gp
from gpunp.polynomial import _series, polyutils as pu


def _host2(v):
    v = gp.asnumpy(v) if isinstance(v, gp.ndarray) else numpy.asarray(v)
    [v] = pu._host_series(v)
    return v


class ABCPolyBase:
    """A series in one basis with a domain mapped onto its window."""

    __hash__ = None
    __array_ufunc__ = None
    maxpower = 100
    _prefix = None
    basis_name = None

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        [coef] = _series.as_series([coef], trim=False)
        self.coef = coef
        if domain is not None:
            domain = _host2(domain)
            if len(domain) != 2:
                raise ValueError("Domain has wrong number of elements.")
            self.domain = domain
        if window is not None:
            window = _host2(window)
            if len(window) != 2:
                raise ValueError("Window has wrong number of elements.")
            self.window = window
        try:
            if not symbol.isidentifier():
                raise ValueError("Symbol string must be a valid Python identifier")
        except AttributeError:
            raise TypeError("Symbol must be a non-empty string") from None
        self._symbol = symbol

    @classmethod
    def _fn(cls, name):
        """The module function `name` of the class's basis (chebval...)."""
        return getattr(sys.modules[cls.__module__], cls._prefix + name)

    @property
    def symbol(self):
        return self._symbol

    def has_samecoef(self, other):
        return (len(self.coef) == len(other.coef)
                and bool(gp.all(self.coef == other.coef)))

    def has_samedomain(self, other):
        return bool(numpy.all(self.domain == other.domain))

    def has_samewindow(self, other):
        return bool(numpy.all(self.window == other.window))

    def has_sametype(self, other):
        return isinstance(other, self.__class__)

    def _get_coefficients(self, other):
        if isinstance(other, ABCPolyBase):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not numpy.all(self.domain == other.domain):
                raise TypeError("Domains differ")
            if not numpy.all(self.window == other.window):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self.symbol)

    # printing, by NumPy's class on a host copy
    def _host(self):
        cls = getattr(numpy.polynomial, self.__class__.__name__)
        return cls(gp.asnumpy(self.coef), self.domain, self.window, self.symbol)

    def __repr__(self):
        return repr(self._host())

    def __str__(self):
        return str(self._host())

    def __format__(self, fmt_str):
        return format(self._host(), fmt_str)

    def _repr_latex_(self):
        return self._host()._repr_latex_()

    # evaluation and the arithmetic of series
    def __call__(self, arg):
        arg = pu.mapdomain(arg, self.domain, self.window)
        return self._fn("val")(arg, self.coef)

    def __iter__(self):
        return iter(self.coef)

    def __len__(self):
        return len(self.coef)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def _binary(self, name, a, b):
        try:
            coef = self._fn(name)(a, b)
        except Exception:
            return NotImplemented
        return self._new(coef)

    def __add__(self, other):
        return self._binary("add", self.coef, self._get_coefficients(other))

    def __sub__(self, other):
        return self._binary("sub", self.coef, self._get_coefficients(other))

    def __mul__(self, other):
        return self._binary("mul", self.coef, self._get_coefficients(other))

    def __radd__(self, other):
        return self._binary("add", other, self.coef)

    def __rsub__(self, other):
        return self._binary("sub", other, self.coef)

    def __rmul__(self, other):
        return self._binary("mul", other, self.coef)

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: "
                            f"'{type(self)}', '{type(other)}'")
        return self.__floordiv__(other)

    def __rtruediv__(self, other):
        return NotImplemented

    def _divmod(self, a, b):
        try:
            quo, rem = self._fn("div")(a, b)
        except ZeroDivisionError:
            raise
        except Exception:
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __divmod__(self, other):
        return self._divmod(self.coef, self._get_coefficients(other))

    def __rdivmod__(self, other):
        return self._divmod(other, self.coef)

    def __floordiv__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[1]

    def __rfloordiv__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[1]

    def __pow__(self, other):
        return self._new(self._fn("pow")(self.coef, other, maxpower=self.maxpower))

    def __eq__(self, other):
        return (isinstance(other, self.__class__)
                and bool(numpy.all(self.domain == other.domain))
                and bool(numpy.all(self.window == other.window))
                and self.coef.shape == other.coef.shape
                and bool(gp.all(self.coef == other.coef))
                and self.symbol == other.symbol)

    def __ne__(self, other):
        return not self.__eq__(other)

    # methods
    def copy(self):
        return self.__class__(self.coef.copy(), self.domain, self.window, self.symbol)

    def degree(self):
        return len(self) - 1

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def trim(self, tol=0):
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size):
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef if isize >= len(self.coef) else self.coef[:isize])

    def convert(self, domain=None, kind=None, window=None):
        if kind is None:
            kind = self.__class__
        if domain is None:
            domain = kind.domain
        if window is None:
            window = kind.window
        return self(kind.identity(domain, window=window, symbol=self.symbol))

    def mapparms(self):
        return pu.mapparms(self.domain, self.window)

    def integ(self, m=1, k=[], lbnd=None):
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._fn("int")(self.coef, m, k, lbnd, 1. / scl))

    def deriv(self, m=1):
        off, scl = self.mapparms()
        return self._new(self._fn("der")(self.coef, m, scl))

    def roots(self):
        return pu.mapdomain(self._fn("roots")(self.coef), self.window, self.domain)

    def linspace(self, n=100, domain=None):
        if domain is None:
            domain = self.domain
        x = gp.linspace(domain[0], domain[1], n)
        return x, self(x)

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None,
            symbol="x"):
        if domain is None:
            domain = pu.getdomain(x)
            if domain[0] == domain[1]:
                domain[0] -= 1
                domain[1] += 1
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        xnew = pu.mapdomain(gp.asarray(x), domain, window)
        res = cls._fn("fit")(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):
        [roots] = _series.as_series([roots], trim=False)
        if domain is None:
            domain = pu.getdomain(roots)
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        deg = len(roots)
        off, scl = pu.mapparms(_host2(domain), _host2(window))
        rnew = off + scl * roots
        coef = cls._fn("fromroots")(rnew) / scl**deg
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        off, scl = pu.mapparms(_host2(window), _host2(domain))
        return cls(cls._fn("line")(off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series, domain=None, window=None):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        return series.convert(domain, cls, window)

