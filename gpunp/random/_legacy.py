"""NumPy's legacy functions (``numpy.random.rand``, ``seed``...) on a
module-level :class:`RandomState`: the names and argument conventions of
``numpy.random.RandomState`` over gpunp's Philox4x32-10 streams (NumPy's
RandomState is a Mersenne Twister; the numbers differ, the semantics not)."""

from __future__ import annotations

import operator
import warnings

import numpy

from gpunp._ndarray import ndarray
from gpunp.random._generator import BitGenerator, Generator, Philox


def _legacy_seed(seed):
    """NumPy's legacy seed check: None, an integer in [0, 2^32), or a 1-d
    sequence of such."""
    if seed is None:
        return None
    try:
        s = operator.index(seed)
        if not 0 <= s < 1 << 32:
            raise ValueError("Seed must be between 0 and 2**32 - 1")
        return s
    except TypeError:
        pass
    a = numpy.asarray(seed)
    if a.ndim != 1 or a.size == 0 or a.dtype.kind not in "iu":
        raise TypeError("Cannot cast array data from its dtype to int64 according to the "
                        "rule 'safe'" if a.dtype.kind == "f" else
                        "seed must be an integer or a 1-d sequence of integers")
    if (a < 0).any() or (a >= 1 << 32).any():
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    return [int(v) for v in a]


class RandomState:
    """A legacy-API generator: ``seed``, ``rand``, ``randn``, ``randint``,
    ``random_sample``... over a Philox4x32-10 stream seeded through
    SeedSequence(seed)."""

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None) -> None:
        """Re-seeds (None: fresh entropy); a bit generator is used as it is."""
        self._gen = Generator(seed if isinstance(seed, BitGenerator) else
                              Philox(_legacy_seed(seed)))

    def get_generator(self) -> Generator:
        return self._gen

    def get_state(self, legacy=True) -> dict:
        """The bit generator's state as NumPy gives a RandomState's that is
        not a Mersenne Twister: a dict (``legacy=True`` warns, as NumPy's)."""
        if legacy:
            warnings.warn("get_state and legacy can only be used with the MT19937 BitGenerator. "
                          "To silence this warning, set `legacy` to False.", RuntimeWarning,
                          stacklevel=2)
        return {**self._gen.bit_generator.state, "has_gauss": 0, "gauss": 0.0}

    def set_state(self, state) -> None:
        """Restores a state from get_state (NumPy's errors for another
        generator's state)."""
        if isinstance(state, tuple):
            if not state or state[0] != "MT19937":
                raise ValueError("set_state can only be used with legacy MT19937 state "
                                 "instances.")
            raise ValueError("state must be for a Philox4x32 PRNG")
        if not isinstance(state, dict):
            raise TypeError("state must be a dict or a tuple.")
        if state.get("bit_generator") != "Philox4x32":
            raise ValueError("state must be for a Philox4x32 PRNG")
        self._gen.bit_generator.state = {"bit_generator": "Philox4x32",
                                         "state": state["state"]}

    def random_sample(self, size=None):
        """float64 in [0, 1)."""
        return self._gen.random(size)

    random = ranf = sample = random_sample

    def rand(self, *args):
        """float64 in [0, 1) of shape `args`."""
        return self._gen.random(args if args else None)

    def randn(self, *args):
        """Standard normal float64 of shape `args`."""
        return self._gen.standard_normal(args if args else None)

    def standard_normal(self, size=None):
        return self._gen.standard_normal(size)

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers in [low, high) (high None: [0, low)); dtype int is
        int64, as on NumPy's 64-bit platforms."""
        return self._gen.integers(low, high, size, dtype=numpy.dtype(dtype))

    def random_integers(self, low, high=None, size=None):
        """Integers in [low, high] (high None: [1, low]), with NumPy's
        DeprecationWarning: randint(low, high + 1) is the same."""
        if high is None:
            warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) "
                          "instead".format(low=low), DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            warnings.warn("This function is deprecated. Please call randint({low}, {high} + 1) "
                          "instead".format(low=low, high=high), DeprecationWarning, stacklevel=2)
        return self.randint(low, _plus_one(high), size)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._gen.uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._gen.normal(loc, scale, size)

    def standard_exponential(self, size=None):
        return self._gen.standard_exponential(size)

    def exponential(self, scale=1.0, size=None):
        return self._gen.exponential(scale, size)

    def __repr__(self):
        return f"RandomState(Philox) at {id(self):#x}"


#: RandomState methods that are the Generator's of the same name (NumPy's
#: legacy signatures take the same arguments in the same order)
DELEGATED = (
    "beta", "binomial", "chisquare", "dirichlet", "f", "gamma", "geometric", "gumbel",
    "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial",
    "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f",
    "pareto", "poisson", "power", "rayleigh", "standard_cauchy", "standard_gamma",
    "standard_t", "triangular", "vonmises", "wald", "weibull", "zipf",
    "choice", "permutation", "shuffle", "bytes",
)


def _delegate(name):
    def method(self, *args, **kwargs):
        return getattr(self._gen, name)(*args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"numpy.random.RandomState.{name}: Generator.{name} of the Philox stream."
    return method


for _name in DELEGATED:
    setattr(RandomState, _name, _delegate(_name))


_state = RandomState()


def get_random_state() -> RandomState:
    """The module-level RandomState the legacy functions use."""
    return _state


def seed(seed=None) -> None:
    _state.seed(seed)


def rand(*args):
    return _state.rand(*args)


def get_state(legacy=True) -> dict:
    return _state.get_state(legacy)


def set_state(state) -> None:
    _state.set_state(state)


def randn(*args):
    return _state.randn(*args)


def randint(low, high=None, size=None, dtype=int):
    return _state.randint(low, high, size, dtype)


def random_sample(size=None):
    return _state.random_sample(size)


def random_integers(low, high=None, size=None):
    return _state.random_integers(low, high, size)


def _plus_one(high):
    # an array bound stays on the device
    return high + 1 if isinstance(high, ndarray) else numpy.asarray(high) + 1


random = ranf = sample = random_sample


def uniform(low=0.0, high=1.0, size=None):
    return _state.uniform(low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return _state.normal(loc, scale, size)


def standard_normal(size=None):
    return _state.standard_normal(size)


def standard_exponential(size=None):
    return _state.standard_exponential(size)


def exponential(scale=1.0, size=None):
    return _state.exponential(scale, size)


def _module_function(name):
    def function(*args, **kwargs):
        return getattr(_state, name)(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"numpy.random.{name} on the module-level RandomState."
    return function


for _name in DELEGATED:
    globals()[_name] = _module_function(_name)
del _name
