"""Delaunay and ConvexHull: built on the host by SciPy's own Qhull (gpunp.scipy
requires SciPy, and Qhull's incremental construction is serial work that
SciPy already does well), held as gpunp arrays, queried on the device.

find_simplex is one kernel over the query points. Each starts at a simplex
of the data point nearest to it (a gpunp KDTree query) and walks towards it
as SciPy's directed search does (hop across the first facet whose
barycentric coordinate is below -eps; leaving the hull farther than
sqrt(eps) of the points' extent from a hull facet's plane means outside),
falling back to SciPy's brute force (the first simplex that holds the point
within eps, degenerate simplices judged from their neighbours with
sqrt(eps)) where the walk runs too long, meets a degenerate simplex or
leaves the hull nearer than that (a point on the hull's boundary, or a
sliver's coordinates, which are distances over a tiny height). The
coordinates are computed in SciPy's order of operations, so
``bruteforce=True`` gives SciPy's simplices exactly; the walk gives SciPy's
where the point is in one simplex only, and a simplex that holds it within
eps where it is on a shared face (SciPy's own answer there depends on the
previous query point).
"""

from __future__ import annotations

import numpy

import gpunp
from gpunp.scipy._host import as_device
from gpunp.scipy.spatial._kdtree import cKDTree

__all__ = ["ConvexHull", "Delaunay"]

_FIND = r"""
const double *x = xs + (long long)i * ND;
const long long nsimplex = iv[0], brute = iv[1];
const double eps = fv[0], eps_broad = fv[1];
int found = -1, k;
int outside = 0;
for (k = 0; k < ND; ++k)
    if (x[k] < minb[k] - eps || x[k] > maxb[k] + eps) outside = 1;
if (!outside && nsimplex > 0) {
    long long s = brute ? -2 : start[i];
    long long cycle;
    if (s == -1 || s >= nsimplex) s = 0;
    /* SciPy's directed search, at most 1 + nsimplex / 4 hops */
    for (cycle = 0; s >= 0 && cycle < 1 + nsimplex / 4; ++cycle) {
        const double *t = tr + s * ND * (ND + 1);
        double c[ND + 1];
        int inside = 1;
        long long hop = -3;
        for (k = 0; k <= ND; ++k) {
            dt_coordinate(t, x, c, k);
            if (c[k] < -eps) {
                hop = nb[s * (ND + 1) + k];
                break;
            } else if (!(c[k] <= 1 + eps)) {
                inside = 0;
            }
        }
        /* past a hull facet: outside if farther from its plane than
           sqrt(eps) of the points' extent; nearer, the brute force below
           decides (a sliver's coordinates are its distances over its
           tiny height, and SciPy's walk answers there from where it came) */
        if (hop == -1) {
            if (c[k] < -eps_broad * dt_gradient(t, k) * fv[2]) { found = -1; s = -4; }
            break;
        }
        if (hop >= 0) { s = hop; continue; }
        if (inside) { found = (int)s; s = -4; }
        break;
    }
    if (s != -4) found = dt_brute(tr, nb, x, nsimplex, eps, eps_broad);
}
out[i] = found;
"""

_FIND_PREAMBLE = r"""
/* barycentric coordinate k of x in the simplex of transform t (the last one
   from the others, which must be there already), as SciPy computes it */
GPK_FN void dt_coordinate(const double *t, const double *x, double *c, int k)
{
    int j;
    if (k == ND) {
        c[ND] = 1.0;
        for (j = 0; j < ND; ++j) c[ND] -= c[j];
    } else {
        c[k] = 0;
        for (j = 0; j < ND; ++j) c[k] += t[ND * k + j] * (x[j] - t[ND * ND + j]);
    }
}

/* the length of coordinate k's gradient (rows of the transform; the last
   coordinate's is minus their sum): coordinate k over it is the distance
   from facet k's plane */
GPK_FN double dt_gradient(const double *t, int k)
{
    double s = 0.0;
    int i, j;
    for (j = 0; j < ND; ++j) {
        double r = 0.0;
        if (k < ND) {
            r = t[ND * k + j];
        } else {
            for (i = 0; i < ND; ++i) r -= t[ND * i + j];
        }
        s += r * r;
    }
    return sqrt(s);
}

/* SciPy's _find_simplex_bruteforce: the first simplex holding x within eps;
   a degenerate one (nan transform) is judged by its neighbours, with
   sqrt(eps) of leeway on the side facing it */
GPK_FN int dt_brute(const double *tr, const int *nb, const double *x, long long nsimplex,
                    double eps, double eps_broad)
{
    long long s;
    double c[ND + 1];
    int k, m;
    for (s = 0; s < nsimplex; ++s) {
        const double *t = tr + s * ND * (ND + 1);
        if (t[0] == t[0]) {
            int inside = 1;
            for (k = 0; k <= ND && inside; ++k) {
                dt_coordinate(t, x, c, k);
                if (!(-eps <= c[k] && c[k] <= 1 + eps)) inside = 0;
            }
            if (inside) return (int)s;
        } else {
            for (k = 0; k <= ND; ++k) {
                long long nbr = nb[s * (ND + 1) + k];
                const double *u;
                int inside = 1;
                if (nbr == -1) continue;
                u = tr + nbr * ND * (ND + 1);
                if (u[0] != u[0]) continue;
                for (m = 0; m <= ND; ++m) dt_coordinate(u, x, c, m);
                for (m = 0; m <= ND && inside; ++m) {
                    double lo = nb[nbr * (ND + 1) + m] == s ? -eps_broad : -eps;
                    if (!(lo <= c[m] && c[m] <= 1 + eps)) inside = 0;
                }
                if (inside) return (int)nbr;
            }
        }
    }
    return -1;
}
"""

_find_kernels = {}


def _find_kernel(ndim):
    k = _find_kernels.get(ndim)
    if k is None:
        define = f"#define ND {ndim}\n"
        k = gpunp.ElementwiseKernel(
            "raw float64 xs, raw float64 tr, raw int32 nb, raw float64 minb, raw float64 maxb, "
            "raw int64 start, raw int64 iv, raw float64 fv", "raw int32 out",
            _FIND, f"delaunay_find_simplex{ndim}", preamble=define + _FIND_PREAMBLE)
        _find_kernels[ndim] = k
    return k


def _host_points(points):
    """points as SciPy's Qhull takes them: a host float64 array, from a
    gpunp array (host arrays refused, as everywhere in gpunp)."""
    return gpunp.asnumpy(as_device(points)).astype(numpy.float64, copy=False)


def _dev(a):
    return None if a is None else gpunp.asarray(numpy.ascontiguousarray(a))


class _QhullUser:
    """What Delaunay and ConvexHull share: the host Qhull object and the
    device copies of what it found."""

    def _update(self):
        h = self._host
        self.ndim, self.npoints, self.nsimplex = h.ndim, h.npoints, h.nsimplex
        self._points = _dev(h.points)
        self.min_bound, self.max_bound = _dev(h.min_bound), _dev(h.max_bound)
        self.simplices, self.neighbors = _dev(h.simplices), _dev(h.neighbors)
        self.equations, self.coplanar = _dev(h.equations), _dev(h.coplanar)
        self.good = _dev(h.good)
        self._cache = {}

    def _lazy(self, name):
        if name not in self._cache:
            self._cache[name] = _dev(getattr(self._host, name))
        return self._cache[name]

    @property
    def points(self):
        return self._points

    def add_points(self, points, restart=False):
        """Process more points (the object must have been made with
        ``incremental=True``); Qhull runs on the host."""
        self._host.add_points(_host_points(points), restart)
        self._update()

    def close(self):
        """Finish incremental processing."""
        self._host.close()

    def get(self):
        """The SciPy object on the host that this one holds the arrays of
        (what gpunp.scipy.interpolate hands SciPy's host-side fitting)."""
        return self._host


class Delaunay(_QhullUser):
    """Delaunay tessellation in N dimensions (``scipy.spatial.Delaunay``).

    The tessellation is computed on the host by SciPy's Qhull from a host
    copy of `points` (the arrays it finds are then gpunp arrays);
    ``find_simplex``, ``plane_distance`` and ``lift_points`` run on the
    device. Arguments and attributes are SciPy's.
    """

    def __init__(self, points, furthest_site=False, incremental=False, qhull_options=None):
        import scipy.spatial
        self._host = scipy.spatial.Delaunay(_host_points(points), furthest_site, incremental,
                                            qhull_options)
        self.furthest_site = furthest_site
        self._update()

    def _update(self):
        super()._update()
        self.paraboloid_scale = self._host.paraboloid_scale
        self.paraboloid_shift = self._host.paraboloid_shift
        self._tree = None

    @property
    def transform(self):
        return self._lazy("transform")

    @property
    def vertex_to_simplex(self):
        return self._lazy("vertex_to_simplex")

    @property
    def convex_hull(self):
        return self._lazy("convex_hull")

    @property
    def vertex_neighbor_vertices(self):
        if "vnv" not in self._cache:
            self._cache["vnv"] = tuple(map(_dev, self._host.vertex_neighbor_vertices))
        return self._cache["vnv"]

    def find_simplex(self, xi, bruteforce=False, tol=None):
        """The simplex holding each point of xi (-1 outside the triangulation)."""
        xi = as_device(xi)
        if xi.ndim == 0 or xi.shape[-1] != self.ndim:
            raise ValueError("wrong dimensionality in xi")
        shape = tuple(xi.shape[:-1])
        x = gpunp.ascontiguousarray(xi.reshape(-1, self.ndim), dtype=gpunp.float64)
        eps = 100 * numpy.finfo(numpy.double).eps if tol is None else float(tol)
        nq = x.shape[0]
        out = gpunp.empty(nq, dtype=gpunp.intc)
        if nq == 0:
            return out.reshape(shape)
        if bruteforce or self.nsimplex == 0:
            start = gpunp.zeros(1, dtype=gpunp.int64)
        else:
            start = self._starts(x)
        iv = gpunp.asarray(numpy.array([self.nsimplex, int(bool(bruteforce))], numpy.int64))
        extent = float(gpunp.linalg.norm(self.max_bound - self.min_bound)) if self.npoints else 0.0
        fv = gpunp.asarray(numpy.array([eps, numpy.sqrt(eps), extent]))
        _find_kernel(self.ndim)(x, self.transform, self.neighbors, self.min_bound,
                                self.max_bound, start, iv, fv, out, size=nq)
        return out.reshape(shape)

    def _starts(self, x):
        """Where each walk starts: a simplex of the data point nearest the
        query point (finite coordinates only; others start at simplex 0)."""
        if self._tree is None:
            self._tree = cKDTree(self.points)
        finite = gpunp.isfinite(x).all(axis=1)
        safe = gpunp.where(finite[:, None], x, 0.0)
        _, nearest = self._tree.query(safe)
        return gpunp.ascontiguousarray(self.vertex_to_simplex[nearest].astype(gpunp.int64))

    def plane_distance(self, xi):
        """The distance of each point of xi, lifted to the paraboloid, to the
        hyperplane of each simplex: shape xi.shape[:-1] + (nsimplex,)."""
        xi = as_device(xi)
        if xi.shape[-1] != self.ndim:
            raise ValueError("xi has different dimensionality than triangulation")
        shape = tuple(xi.shape[:-1])
        z = self._lift(gpunp.ascontiguousarray(xi.reshape(-1, self.ndim),
                                               dtype=gpunp.float64))
        eq = self.equations
        # SciPy's sum: the offset first, then each coordinate in order
        out = gpunp.broadcast_to(eq[:, -1], (z.shape[0], self.nsimplex))
        for k in range(self.ndim + 1):
            out = out + eq[:, k][None, :] * z[:, k][:, None]
        return out.reshape(shape + (self.nsimplex,))

    def _lift(self, x):
        """SciPy's _lift_point: squares summed in order, scaled, shifted."""
        s = gpunp.zeros(x.shape[:-1])
        for k in range(x.shape[-1]):
            s = s + x[..., k] ** 2
        s = s * self.paraboloid_scale + self.paraboloid_shift
        return gpunp.concatenate([x, s[..., None]], axis=-1)

    def lift_points(self, x):
        """x lifted to the Qhull paraboloid."""
        x = gpunp.asarray(as_device(x), dtype=gpunp.float64)
        z = gpunp.zeros(x.shape[:-1] + (x.shape[-1] + 1,))
        z[..., :-1] = x
        # the squares summed left to right, as NumPy sums a short row: a
        # device reduction adds them in another order (last bit differs)
        r = gpunp.zeros(x.shape[:-1])
        for k in range(x.shape[-1]):
            r = r + x[..., k] * x[..., k]
        z[..., -1] = r
        z[..., -1] *= self.paraboloid_scale
        z[..., -1] += self.paraboloid_shift
        return z


class ConvexHull(_QhullUser):
    """Convex hull in N dimensions (``scipy.spatial.ConvexHull``), computed on
    the host by SciPy's Qhull from a host copy of `points`; its arrays are
    gpunp arrays, volume and area Python floats."""

    def __init__(self, points, incremental=False, qhull_options=None):
        import scipy.spatial
        self._host = scipy.spatial.ConvexHull(_host_points(points), incremental, qhull_options)
        self._update()

    def _update(self):
        super()._update()
        self.volume, self.area = self._host.volume, self._host.area

    @property
    def vertices(self):
        return self._lazy("vertices")
