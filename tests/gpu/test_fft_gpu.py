"""gpunp.fft on the GPU: the plan cache's statistics and limit, plans per
stream and thread, large transforms, and the layouts cuFFT reads in place
(strided, interleaved columns) against NumPy."""

import threading

import numpy as np
import pytest

import gpunp as gp
from gpunp import cuda
from gpunp.fft import config


@pytest.fixture
def cache():
    c = config.get_plan_cache()
    old = c.get_size()
    c.set_size(16)
    c.clear()
    yield c
    c.set_size(old)
    c.clear()


def _close(got, want, dt):
    eps = np.finfo(np.dtype(dt).char.lower() if np.dtype(dt).kind == "c" else dt).eps
    scale = np.abs(want).max() if want.size else 0.0
    n = max(want.size, 2)
    np.testing.assert_allclose(got.get(), want, rtol=0, atol=8 * eps * np.log2(n) * scale)


def test_plan_cache_counts_hits_and_misses(cache):
    x = gp.asarray(np.random.default_rng(0).standard_normal((8, 64)).astype(np.complex64))
    for _ in range(3):
        gp.fft.fft(x)
    assert (cache.misses, cache.hits, cache.get_curr_size()) == (1, 2, 1)
    gp.fft.ifft(x)  # the same plan, run backwards
    assert (cache.misses, cache.hits) == (1, 3)
    gp.fft.fft(x, axis=0)  # another layout
    assert (cache.misses, cache.get_curr_size()) == (2, 2)
    assert cache.get_memsize() >= 0
    cache.set_size(1)
    assert cache.get_curr_size() == 1
    cache.set_size(0)
    assert cache.get_curr_size() == 0
    gp.fft.fft(x)
    assert cache.get_curr_size() == 0
    cache.set_size(4)
    cache.clear()
    assert (cache.misses, cache.hits, len(cache)) == (0, 0, 0)
    with pytest.raises(ValueError):
        cache.set_size(-1)


def test_show_info(cache, capsys):
    gp.fft.fft(gp.ones(16, dtype=np.complex64))
    cache.show_info()
    out = capsys.readouterr().out
    assert "1 of at most 16 plans" in out and "1 misses" in out


def test_plans_are_per_stream(cache):
    # a plan's work area serves one stream at a time: each stream gets its own
    h = np.random.default_rng(1).standard_normal((4, 1 << 16)).astype(np.complex64)
    x = gp.asarray(h)
    gp.cuda.Device().synchronize()
    streams = [cuda.Stream(non_blocking=True) for _ in range(2)]
    results = []
    for s in streams:
        with s:
            results.append(gp.fft.fft(x))
    for s in streams:
        s.synchronize()
    assert cache.misses == 2
    want = np.fft.fft(h)
    for r in results:
        _close(r, want, np.complex64)


def test_threads_have_their_own_cache():
    # by the thread's place, not its ident: a thread that ends before the
    # next one starts may pass its ident on (the H100 suite at 2d1b0c8)
    seen, errors = [None] * 4, []

    def work(k):
        try:
            c = config.get_plan_cache()
            c.clear()
            gp.fft.fft(gp.ones(32, dtype=np.complex128))
            seen[k] = (c.misses, c.get_curr_size())
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert seen == [(1, 1)] * 4


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_large_1d(dt):
    h = np.random.default_rng(2).standard_normal(1 << 22).astype(dt)
    _close(gp.fft.fft(gp.asarray(h)), np.fft.fft(h), dt)
    _close(gp.fft.ifft(gp.asarray(h), norm="ortho"), np.fft.ifft(h, norm="ortho"), dt)


def test_layouts_read_in_place():
    rng = np.random.default_rng(3)
    h = rng.standard_normal((6, 10, 12)) + 1j * rng.standard_normal((6, 10, 12))
    g = gp.asarray(h)
    for axis in (0, 1, 2):
        _close(gp.fft.fft(g, axis=axis), np.fft.fft(h, axis=axis), np.complex128)
        _close(gp.fft.fft(g[:, ::2], axis=axis), np.fft.fft(h[:, ::2], axis=axis),
               np.complex128)
        _close(gp.fft.fft(g[::-1], axis=axis), np.fft.fft(h[::-1], axis=axis), np.complex128)
    _close(gp.fft.fftn(g), np.fft.fftn(h), np.complex128)
    _close(gp.fft.fftn(g.T), np.fft.fftn(h.T), np.complex128)
    _close(gp.fft.fft2(g, axes=(0, 2)), np.fft.fft2(h, axes=(0, 2)), np.complex128)
    r = h.real.copy()
    _close(gp.fft.rfftn(gp.asarray(r)), np.fft.rfftn(r), np.complex128)
    _close(gp.fft.rfft2(gp.asarray(r), axes=(2, 0)), np.fft.rfft2(r, axes=(2, 0)),
           np.complex128)
    spec = np.fft.rfftn(r)
    _close(gp.fft.irfftn(gp.asarray(spec), r.shape), np.fft.irfftn(spec, r.shape), np.float64)


def test_irfft_of_a_non_hermitian_input():
    # NumPy ignores the imaginary parts of the zero and Nyquist terms
    h = np.array([1 + 5j, 2 - 1j, 3 + 2j, 4 + 7j, -1 - 3j])
    for n in (8, 9):
        _close(gp.fft.irfft(gp.asarray(h), n), np.fft.irfft(h, n), np.float64)
    h2 = np.outer(h, h)
    _close(gp.fft.irfft2(gp.asarray(h2)), np.fft.irfft2(h2), np.float64)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_one_point_transforms_are_the_identity(dt):
    """One point on every transformed axis (the engine writes it, not cuFFT:
    a one-point C2R gave 0.0 for -1.27e31 on the H200): NumPy's values,
    dtypes and shapes, on garbage-filled pool memory."""
    rng = np.random.default_rng(3)
    for _ in range(3):  # recycle pool blocks that held other values
        gp.asarray(rng.standard_normal(4096) * 1e30)
    h = ((rng.standard_normal((3, 1)) + 1j * rng.standard_normal((3, 1))) * 1e31).astype(dt)
    cases = [(np.fft.fft, gp.fft.fft, h, {}), (np.fft.ifft, gp.fft.ifft, h, {}),
             (np.fft.irfft, gp.fft.irfft, h, {"n": 1}),
             (np.fft.rfft, gp.fft.rfft, h.real.copy(), {}),
             (np.fft.fftn, gp.fft.fftn, h[:1], {})]
    for np_fn, gp_fn, x, kw in cases:
        want = np_fn(x, **kw)
        got = gp_fn(gp.asarray(x), **kw)
        assert got.dtype == want.dtype and got.shape == want.shape, np_fn.__name__
        np.testing.assert_allclose(got.get(), want, rtol=1e-6, err_msg=np_fn.__name__)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("start", [1, 2, 3])
def test_rfft_of_views_at_any_element(dt, start):
    """cuFFT's R2C refused real input not aligned to the complex type (a
    view starting at an odd element): such input is copied first."""
    h = np.random.default_rng(start).standard_normal((5, 40)).astype(dt)
    g = gp.asarray(h)
    for index in ((slice(None), slice(start, None)), (slice(start, None),),
                  (slice(None), slice(start, 3 * start + 4, 2))):
        for axis in (-1, 0):
            want = np.fft.rfft(h[index], axis=axis)
            got = gp.fft.rfft(g[index], axis=axis)
            assert got.dtype == want.dtype
            _close(got, want, dt)


@pytest.mark.parametrize("name", ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"])
@pytest.mark.parametrize("dt", [np.float32, np.complex64, np.complex128])
def test_repeated_calls_and_outputs(name, dt):
    """A call's second time skips its checks (_ONE_CALLS, _ND_CALLS); out= of the
    result's shape and dtype takes the fused transform, another dtype goes
    pass by pass, and out= may be the input: each as NumPy."""
    rng = np.random.default_rng(3)
    h = rng.standard_normal((6, 10, 12))
    if np.dtype(dt).kind == "c":
        h = h + 1j * rng.standard_normal(h.shape)
    h = h.astype(dt)
    fn, ref = getattr(gp.fft, name), getattr(np.fft, name)
    x = gp.asarray(h)
    for norm in (None, "ortho", "forward", None, "ortho", "forward", "backward"):
        _close(fn(x, norm=norm), ref(h, norm=norm), dt)
    want = ref(h)
    other = np.complex64 if want.dtype == np.complex128 else np.complex128
    for out_dt in (want.dtype, other):
        twin = np.empty(want.shape, out_dt)
        honoured = ref(h, out=twin) is twin
        out = gp.empty(want.shape, out_dt)
        got = fn(x, out=out)
        assert (got is out) == honoured
        _close(got, want, min(dt, out_dt, key=lambda d: np.dtype(d).itemsize))
    if h.dtype == want.dtype:
        y = gp.asarray(h)
        got = fn(y, out=y)
        _close(got, want, dt)
    with pytest.raises(ValueError, match="norm"):
        fn(x, norm="sideways")
    if honoured:  # NumPy 2.4's ifft2 drops out=, and with it the check
        with pytest.raises(ValueError):
            fn(x, out=gp.empty(want.shape[:-1] + (3,), want.dtype))
