"""A short CuPy program run unchanged but for its imports (``import gpunp as
cupy``, ``import gpunp.x as cupyx``), compared with the same program on
NumPy: k-means written once for both through get_array_module, an
ElementwiseKernel with loop_prep, copies back on two streams with
blocking=False, cupyx.scatter_add and cupyx.profiler.benchmark."""

import numpy

import gpunp as cupy
import gpunp.x as cupyx

# squared distance of each point to one centre, the centre's norm kept
# per thread in loop_prep (CuPy's idiom for per-thread set-up)
sqdist = cupy.ElementwiseKernel(
    "raw T pts, raw T c, int32 d", "T out",
    """
    T s = 0;
    for (int k = 0; k < d; ++k) {
        T t = pts[i * d + k] - c[k];
        s += t * t;
    }
    out = s + cnorm * 0;
    """,
    "kmeans_sqdist", loop_prep="T cnorm = 0; for (int k = 0; k < d; ++k) cnorm += c[k] * c[k]")


def distances(x, centres):
    xp = cupy.get_array_module(x)
    if xp is cupy:
        n, d = x.shape
        return xp.stack([sqdist(x, centres[j], numpy.int32(d), size=n)
                         for j in range(centres.shape[0])], axis=1)
    return ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)


def kmeans(x, k, iters):
    xp = cupy.get_array_module(x)
    centres = x[:k].copy()
    for _ in range(iters):
        labels = xp.argmin(distances(x, centres), axis=1)
        sums = xp.zeros_like(centres)
        counts = xp.zeros(k, dtype=x.dtype)
        if xp is cupy:
            cupyx.scatter_add(sums, labels, x)
            cupyx.scatter_add(counts, labels, 1.0)
        else:
            numpy.add.at(sums, labels, x)
            numpy.add.at(counts, labels, 1.0)
        centres = sums / xp.maximum(counts, 1)[:, None]
    return centres, labels


def test_kmeans_program_matches_numpy():
    rng = numpy.random.default_rng(0)
    blobs = [rng.normal(loc, 0.3, size=(40, 2)) for loc in ((0, 0), (3, 3), (0, 4))]
    x = numpy.concatenate(blobs)[rng.permutation(120)]
    want_c, want_l = kmeans(x, 3, 5)

    xd = cupy.asarray(x)
    got_c, got_l = kmeans(xd, 3, 5)
    s1, s2 = cupy.cuda.Stream(), cupy.cuda.Stream()
    host_c = cupy.asnumpy(got_c, stream=s1, blocking=False)
    host_l = got_l.get(stream=s2, blocking=False)
    s1.synchronize()
    s2.synchronize()
    numpy.testing.assert_array_equal(host_l, want_l)
    numpy.testing.assert_allclose(host_c, want_c, rtol=1e-12)

    result = cupyx.profiler.benchmark(kmeans, (xd, 3, 1), n_repeat=2, n_warmup=1)
    assert result.cpu_times.shape == (2,) and "kmeans" in str(result)
