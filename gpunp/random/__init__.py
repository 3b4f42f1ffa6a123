"""gpunp.random: NumPy's random API over Philox4x32-10 streams made on the
device by the engine's generated kernels. The host backend and every GPU
give the same numbers, bit for bit, for the same seed.

``default_rng(seed)`` gives a :class:`Generator` (``random``, ``integers``,
``standard_normal``, ``normal``, ``uniform``, ``standard_exponential``,
``exponential`` and NumPy's other distributions, ``gamma`` to ``zipf``,
``dirichlet``, ``multinomial``, ``multivariate_normal``...); the legacy functions (``seed``, ``rand``, ``randn``,
``randint``, ``random_sample``...) use a module-level :class:`RandomState`.
``size=None`` gives a 0-d array, as in CuPy.
"""

from gpunp.random import _legacy
from gpunp.random._generator import BitGenerator, Generator, Philox, SeedSequence, default_rng
from gpunp.random._legacy import (
    RandomState, exponential, get_random_state, get_state, normal, rand, randint, randn, random,
    random_integers, random_sample, ranf, sample, seed, set_state, standard_exponential,
    standard_normal, uniform)

# the legacy distributions (numpy.random.gamma...), made from one table
globals().update({name: getattr(_legacy, name) for name in _legacy.DELEGATED})

__all__ = [
    "BitGenerator", "Generator", "Philox", "RandomState", "SeedSequence", "default_rng",
    "exponential", "get_random_state", "get_state", "normal", "rand", "randint", "randn",
    "random", "random_integers", "random_sample", "ranf", "sample", "seed", "set_state",
    "standard_exponential", "standard_normal", "uniform",
    *_legacy.DELEGATED,
]
