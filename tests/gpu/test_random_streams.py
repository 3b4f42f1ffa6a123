"""gpunp.random on the GPU against the host backend, bit for bit.

Every distribution is made here on the GPU and, with the same seed, by a
child process running the host backend (GPUNP_BACKEND=host), which writes
its results as .npy files; the two must be the same bits. The sizes spread
each stream over many blocks of threads (and grid-stride loops), leave
partial counter blocks at the end, and include an output that is not
aligned to a block's vector store.
"""

import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import gpunp as gp

# Children start in a neutral folder: from the repository root, `import
# gpunp` would find the source tree (without its compiled engine) first.
NEUTRAL = tempfile.gettempdir()

# Run by the test and by the host child alike: make(name) is case `name`.
SCRIPT = r'''
import numpy as np
import gpunp as gp

SEED = 8675309
N = 3_000_001          # many blocks of 256 threads; a partial last counter block


def _unaligned(g, dtype):
    buf = gp.zeros(N + 1, dtype=dtype)
    g.random(out=buf[1:], dtype=dtype)
    return buf


def _sequence(g):
    parts = [g.random(1001), g.standard_normal(999), g.integers(-9, 9, 5).astype(np.float64),
             g.exponential(3.0, 7), g.random(N)]
    return gp.concatenate(parts)


def _legacy():
    gp.random.seed(SEED)
    return gp.concatenate([gp.random.rand(1000), gp.random.randn(1001),
                           gp.random.uniform(-1.0, 1.0, 999), gp.random.normal(2.0, 3.0, 77),
                           gp.random.random_sample(5)])


CASES = {
    "raw": lambda g: g.bit_generator.random_raw(N),
    "random64": lambda g: g.random(N),
    "random32": lambda g: g.random(N, dtype=np.float32),
    "uniform": lambda g: g.uniform(-2.5, 7.0, N),
    "integers_small": lambda g: g.integers(0, 10, N),
    "integers_rejecting": lambda g: g.integers(0, 2 ** 31 + 1, N),
    "integers_int8": lambda g: g.integers(-128, 128, N, dtype=np.int8),
    "integers_uint16": lambda g: g.integers(0, 60000, N, dtype=np.uint16),
    "integers_bool": lambda g: g.integers(0, 2, N, dtype=bool),
    "integers_uint32_full": lambda g: g.integers(0, 2 ** 32, N, dtype=np.uint32),
    "integers_wide": lambda g: g.integers(0, 3 * 2 ** 62, N, dtype=np.uint64),
    "integers_wide_rejecting": lambda g: g.integers(0, 2 ** 63 + 1, N, dtype=np.uint64),
    "integers_int64_full": lambda g: g.integers(-2 ** 63, 2 ** 63, N),
    "standard_normal": lambda g: g.standard_normal(N),
    "standard_normal32": lambda g: g.standard_normal(N, dtype=np.float32),
    "normal": lambda g: g.normal(3.0, 0.5, N),
    "normal_array_params": lambda g: g.normal(gp.arange(1000.0), 2.0, size=(N // 1000, 1000)),
    "standard_exponential": lambda g: g.standard_exponential(N),
    "standard_exponential32": lambda g: g.standard_exponential(N, dtype=np.float32),
    "exponential": lambda g: g.exponential(2.0, N),
    "unaligned64": lambda g: _unaligned(g, np.float64),
    "unaligned32": lambda g: _unaligned(g, np.float32),
    "sequence": _sequence,
    "legacy": lambda g: _legacy(),
}

# The distributions of one element a counter block (rejection samplers with
# their own streams of attempts): every sampler's branches, scalar and array
# parameters. M elements each: many blocks of threads, cheap for the host child.
M = 200_003
_ARR = "gp.asarray(np.linspace(0.05, 40.0, M))"
DISTS = {
    "standard_gamma_small": "g.standard_gamma(0.3, M)",
    "standard_gamma_one": "g.standard_gamma(1.0, M)",
    "standard_gamma32": "g.standard_gamma(4.5, M, dtype=np.float32)",
    "gamma_array": f"g.gamma({_ARR}, 2.0)",
    "beta_johnk": "g.beta(0.3, 0.6, M)",
    "beta_tiny": "g.beta(1e-3, 2e-3, M)",
    "beta_gammas": "g.beta(2.0, 5.0, M)",
    "chisquare": "g.chisquare(3.0, M)",
    "noncentral_chisquare": "g.noncentral_chisquare(3.0, 2.0, M)",
    "noncentral_chisquare_small_df": "g.noncentral_chisquare(0.5, 2.0, M)",
    "f": "g.f(3.0, 7.0, M)",
    "noncentral_f": "g.noncentral_f(3.0, 7.0, 2.5, M)",
    "standard_t": "g.standard_t(4.0, M)",
    "standard_cauchy": "g.standard_cauchy(M)",
    "laplace": "g.laplace(1.0, 2.0, M)",
    "logistic": "g.logistic(-1.0, 0.5, M)",
    "gumbel": "g.gumbel(2.0, 3.0, M)",
    "weibull": "g.weibull(1.7, M)",
    "pareto": "g.pareto(3.0, M)",
    "power": "g.power(2.5, M)",
    "rayleigh": "g.rayleigh(2.0, M)",
    "lognormal": "g.lognormal(0.5, 0.75, M)",
    "wald": "g.wald(2.0, 3.0, M)",
    "triangular": "g.triangular(-1.0, 0.5, 3.0, M)",
    "vonmises": "g.vonmises(0.5, 2.0, M)",
    "vonmises_branches": "g.vonmises(1.0, gp.asarray(np.tile([1e-9, 5e-6, 3.0, 4e6], M // 4)))",
    "poisson_small": "g.poisson(3.5, M)",
    "poisson_ptrs": "g.poisson(1234.5, M)",
    "poisson_array": f"g.poisson({_ARR})",
    "binomial_inversion": "g.binomial(20, 0.3, M)",
    "binomial_btrs": "g.binomial(100000, 0.77, M)",
    "geometric": "g.geometric(0.01, M)",
    "negative_binomial": "g.negative_binomial(3.5, 0.4, M)",
    "hypergeometric_urn": "g.hypergeometric(10, 20, 5, M)",
    "hypergeometric_hrua": "g.hypergeometric(1000, 3000, 700, M)",
    "logseries": "g.logseries(0.99, M)",
    "zipf": "g.zipf(1.3, M)",
    "dirichlet": "g.dirichlet([1.0, 2.5, 0.5], M // 3)",
    "dirichlet_stick": "g.dirichlet([0.05, 0.02, 0.08], M // 3)",
    "multinomial": "g.multinomial(1000, [0.1, 0.25, 0.4, 0.25], M // 4)",
    "multivariate_hypergeometric": "g.multivariate_hypergeometric([6, 30, 14, 50], 25, M // 4)",
    "multivariate_normal": "g.multivariate_normal([1.0, -2.0], [[2.0, 0.6], [0.6, 1.0]], M // 2)",
    "permutation": "g.permutation(M)",
    "permuted": "g.permuted(gp.arange(M - 3).reshape(-1, 100), axis=1)",
    "choice": "g.choice(1000, M, p=np.full(1000, 1e-3))",
    "choice_no_replace": "g.choice(M, 5000, replace=False, p=np.full(M, 1.0 / M))",
    "legacy_gamma": "(gp.random.seed(SEED), gp.random.gamma(0.5, 2.0, M))[1]",
}
CASES.update({name: eval("lambda g: " + code) for name, code in DISTS.items()})


def make(name):
    g = gp.random.default_rng(SEED)
    return gp.asnumpy(CASES[name](g))
'''

_ns = {}
exec(SCRIPT, _ns)
CASES = sorted(_ns["CASES"])


@pytest.fixture(scope="module")
def host_results(tmp_path_factory):
    """Every case made by the host backend in a child process: name -> array."""
    d = tmp_path_factory.mktemp("host_random")
    code = SCRIPT + (
        "\nimport os, sys\n"
        "assert gp.backend() == 'host', gp.backend()\n"
        "for name in CASES:\n"
        "    np.save(os.path.join(sys.argv[1], name + '.npy'), make(name))\n")
    env = dict(os.environ, GPUNP_BACKEND="host")
    r = subprocess.run([sys.executable, "-c", code, str(d)], capture_output=True, text=True,
                       env=env, cwd=NEUTRAL)
    assert r.returncode == 0, f"host child failed ({r.returncode})\n{r.stdout}\n{r.stderr}"
    return {name: np.load(d / (name + ".npy")) for name in CASES}


@pytest.mark.parametrize("name", CASES)
def test_gpu_stream_is_the_host_stream(name, host_results):
    assert gp.backend() != "host"
    got = _ns["make"](name)
    want = host_results[name]
    assert got.dtype == want.dtype and got.shape == want.shape
    # the same bits (NaN payloads and signed zeros included), then the values
    bits = f"u{got.dtype.itemsize}" if got.dtype != np.bool_ else "u1"
    np.testing.assert_array_equal(got.view(bits), want.view(bits))
    np.testing.assert_array_equal(got, want)
