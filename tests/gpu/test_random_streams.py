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
