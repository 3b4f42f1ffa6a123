"""gaussian_kde: the data whitened once by the Cholesky factor of the
kernel covariance, then one kernel thread per evaluation point summing the
weighted Gaussians of every data point (an ElementwiseKernel: one pass over
the data per point, no (points x data) matrix)."""

from __future__ import annotations

import math

import gpunp
from gpunp.scipy._host import as_device

# out[i] = sum_j w[j] exp(-|pts[:, i] - data[:, j]|^2 / 2), pts (d, m) and data (d, n)
# row-major
_SUM_CODE = """
double acc = 0.0;
long long j, k;
for (j = 0; j < n; j++) {
    double r2 = 0.0;
    for (k = 0; k < d; k++) {
        double t = (double)pts[k * m + i] - (double)data[k * n + j];
        r2 += t * t;
    }
    acc += (double)w[j] * exp(-0.5 * r2);
}
out = (T)acc;
"""

# the same sum's logarithm, by the largest term first: log sum w e^-r2/2
# = top + log sum w e^(-r2/2 - top), so that far points do not underflow to -inf
_LOGSUM_CODE = """
double top = -INFINITY, acc = 0.0;
long long j, k;
for (j = 0; j < n; j++) {
    double r2 = 0.0;
    for (k = 0; k < d; k++) {
        double t = (double)pts[k * m + i] - (double)data[k * n + j];
        r2 += t * t;
    }
    double e = log((double)w[j]) - 0.5 * r2;
    if (e > top) { acc = acc * exp(top - e) + 1.0; top = e; }
    else acc += exp(e - top);
}
out = (T)(top + log(acc));
"""

_PARAMS = "raw T pts, raw T data, raw T w, int64 n, int64 d, int64 m"
_KERNELS = {}


def _kernel(log):
    if log not in _KERNELS:
        _KERNELS[log] = gpunp.ElementwiseKernel(
            _PARAMS, "T out", _LOGSUM_CODE if log else _SUM_CODE,
            "gp_scipy_stats_kde_logsum" if log else "gp_scipy_stats_kde_sum")
    return _KERNELS[log]


class gaussian_kde:
    """Kernel density estimate with Gaussian kernels; dataset is (d, n), or
    (n,) for one dimension; bw_method 'scott' (default), 'silverman', a
    scalar or a function of the estimate."""

    def __init__(self, dataset, bw_method=None, weights=None):
        self.dataset = gpunp.atleast_2d(as_device(dataset))
        if self.dataset.dtype.kind not in "fc":
            self.dataset = self.dataset.astype(gpunp.float64)
        if not self.dataset.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        self.d, self.n = self.dataset.shape
        if weights is not None:
            w = gpunp.atleast_1d(as_device(weights)).astype(gpunp.float64)
            if w.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if w.shape[0] != self.n:
                raise ValueError("`weights` input should be of length n")
            self._weights = w / gpunp.sum(w)
            self._neff = float(1 / gpunp.sum(self._weights ** 2))
        else:
            self._weights = gpunp.full(self.n, 1.0 / self.n)
            self._neff = float(self.n)
        if self.d > self.n:
            raise ValueError("Number of dimensions is greater than number of samples. This "
                             "results in a singular data covariance matrix, which cannot be "
                             "treated using the algorithms implemented in `gaussian_kde`. "
                             "Note that `gaussian_kde` interprets each *column* of `dataset` "
                             "to be a point; consider transposing the input to `dataset`.")
        self.set_bandwidth(bw_method)

    @property
    def weights(self):
        return self._weights

    @property
    def neff(self):
        return self._neff

    def scotts_factor(self):
        return self.neff ** (-1.0 / (self.d + 4))

    def silverman_factor(self):
        return (self.neff * (self.d + 2.0) / 4.0) ** (-1.0 / (self.d + 4))

    covariance_factor = scotts_factor

    def set_bandwidth(self, bw_method=None):
        if bw_method is None or bw_method == "scott":
            self.covariance_factor = self.scotts_factor
        elif bw_method == "silverman":
            self.covariance_factor = self.silverman_factor
        elif isinstance(bw_method, (int, float)) and not isinstance(bw_method, bool):
            self._bw_method = "use constant"
            self.covariance_factor = lambda: bw_method
        elif callable(bw_method):
            self._bw_method = bw_method
            self.covariance_factor = lambda: self._bw_method(self)
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar or a "
                             "callable.")
        self._compute_covariance()

    def _compute_covariance(self):
        self.factor = float(self.covariance_factor())
        data = self.dataset.astype(gpunp.float64)
        mean = data @ self._weights
        dev = data - mean[:, None]
        # the weighted unbiased covariance, as numpy.cov(aweights=) gives
        scale = 1.0 / (1.0 - float(gpunp.sum(self._weights ** 2)))
        cov = (dev * self._weights) @ dev.T * scale
        self._data_covariance = gpunp.atleast_2d(cov)
        self._data_cho_cov = gpunp.linalg.cholesky(self._data_covariance)
        self.covariance = self._data_covariance * self.factor ** 2
        self.cho_cov = (self._data_cho_cov * self.factor).astype(gpunp.float64)
        self.inv_cov = gpunp.linalg.inv(self.covariance)
        self.log_det = 2 * float(gpunp.sum(gpunp.log(gpunp.diagonal(self.cho_cov)
                                                     * math.sqrt(2 * math.pi))))

    def _points(self, points):
        points = gpunp.atleast_2d(as_device(points))
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                points = points.reshape(self.d, 1)
            else:
                raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        return points

    def _sum(self, points, log):
        points = self._points(points)
        # float64 whatever the inputs, as SciPy's (its covariance is float64)
        dtype = gpunp.float64
        whiten = gpunp.linalg.inv(self.cho_cov)
        data = gpunp.ascontiguousarray((whiten @ self.dataset.astype(gpunp.float64)).astype(dtype))
        pts = gpunp.ascontiguousarray((whiten @ points.astype(gpunp.float64)).astype(dtype))
        w = self._weights.astype(dtype)
        m = pts.shape[1]
        out = gpunp.empty(m, dtype=dtype)
        _kernel(log)(pts, data, w, self.n, self.d, m, out)
        return out

    def evaluate(self, points):
        """The estimated density at each point (points: (d, m), or (m,) in one
        dimension)."""
        out = self._sum(points, log=False)
        return out * math.exp(-self.log_det / 2)

    __call__ = evaluate
    pdf = evaluate

    def logpdf(self, x):
        """The log of the estimated density, summed in the log domain."""
        return self._sum(x, log=True) - self.log_det / 2

    def integrate_gaussian(self, mean, cov):
        """The integral of the estimate times the Gaussian N(mean, cov)."""
        mean = gpunp.atleast_1d(gpunp.squeeze(as_device(mean))).astype(gpunp.float64)
        cov = gpunp.atleast_2d(as_device(cov)).astype(gpunp.float64)
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        total = self.covariance + cov
        chol = gpunp.linalg.cholesky(total)
        diff = self.dataset.astype(gpunp.float64) - mean[:, None]
        z = gpunp.linalg.solve(chol, diff)
        energies = gpunp.sum(z * z, axis=0) / 2.0
        norm = float(gpunp.prod(gpunp.diagonal(chol))) * (2 * math.pi) ** (self.d / 2)
        return gpunp.sum(gpunp.exp(-energies) * self._weights) / norm

    def resample(self, size=None, seed=None):
        """size draws from the estimate (gpunp.random's stream, not NumPy's)."""
        size = self.n if size is None else int(size)
        rng = seed if isinstance(seed, gpunp.random.Generator) else gpunp.random.default_rng(seed)
        noise = self.cho_cov @ rng.standard_normal((self.d, size))
        idx = rng.choice(self.n, size=size, p=self._weights)
        return self.dataset.astype(gpunp.float64)[:, idx] + noise
