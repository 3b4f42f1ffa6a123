"""gpunp.fft's module surface: the plan cache's API (on the host backend it
stays empty: NumPy computes there), device= of fftfreq and rfftfreq, lazy
loading, and out= arguments that are not gpunp arrays."""

import subprocess
import sys
import tempfile

import numpy as np
import pytest

import gpunp as gp
from gpunp.fft import config


def test_plan_cache_api():
    c = config.get_plan_cache()
    assert c is config.get_plan_cache()
    old = c.get_size()
    try:
        c.set_size(3)
        assert c.get_size() == c.size == config.get_plan_cache_size() == 3
        config.set_plan_cache_size(5)
        assert c.get_size() == 5
        with pytest.raises(ValueError):
            c.set_size(-1)
        with pytest.raises(TypeError):
            c.set_size(2.5)
        gp.fft.fft(gp.ones(8))
        if gp.backend() == "host":  # NumPy computes: no plan is made
            assert (len(c), c.hits, c.misses, c.get_memsize()) == (0, 0, 0, 0)
        else:
            assert c.misses >= 1
        config.clear_plan_cache()
        assert (len(c), c.hits, c.misses) == (0, 0, 0)
    finally:
        c.set_size(old)


def test_show_info(capsys):
    config.get_plan_cache().show_info()
    assert "plan cache" in capsys.readouterr().out


@pytest.mark.parametrize("fn", [gp.fft.fftfreq, gp.fft.rfftfreq])
def test_frequencies_device(fn):
    want = (np.fft.fftfreq if fn is gp.fft.fftfreq else np.fft.rfftfreq)(7, 0.5)
    for device in (None, gp.cuda.Device()):
        np.testing.assert_array_equal(fn(7, 0.5, device=device).get(), want)
    with pytest.raises(ValueError):
        fn(7, device="elsewhere")


@pytest.mark.parametrize("fn", [gp.fft.fftfreq, gp.fft.rfftfreq])
def test_frequencies_dtype(fn):
    """The array API's dtype= (NumPy's helpers give float64 only)."""
    want = (np.fft.fftfreq if fn is gp.fft.fftfreq else np.fft.rfftfreq)(9, 0.25)
    got = fn(9, d=0.25, dtype=np.float32)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.get(), want.astype(np.float32))
    assert fn(9).dtype == np.float64
    with pytest.raises(ValueError):
        fn(9, dtype=np.int32)


def test_out_must_be_a_gpunp_array():
    with pytest.raises(TypeError):
        gp.fft.fft(gp.ones(4), out=np.empty(4, complex))


def test_loaded_lazily():
    code = ("import sys, gpunp; assert 'gpunp.fft' not in sys.modules; "
            "import gpunp as g; g.fft.fft(g.ones(2)); print('ok')")
    # from the repository root the child would import the source tree, which
    # has no compiled engine: it starts in a neutral folder
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tempfile.gettempdir())
    assert r.stdout.strip() == "ok", r.stderr
