"""KDTree and cKDTree: SciPy's k-d tree with the tree built by gpunp array
ops and every query one elementwise kernel over the query points.

The tree is implicit: a complete binary tree of depth D (the least depth
whose leaves hold at most `leafsize` points), node k with children 2k+1 and
2k+2, its points a contiguous run of the permuted data. Each level splits
every node's run in halves, sorting within the run along the widest side of
the node's box (one lexsort of (coordinate, node) a level), so the build is
D sorts of n keys on the device and the run bounds are known from n alone.
Each node keeps the tight bounding box of its points, which the queries use
to prune.

A query thread walks the tree depth first with an explicit stack, nearer
child first, and measures each point with SciPy's own sequence of float64
operations (the unrolled sum of squares for p=2, the wrapped differences of
a periodic box), so distances equal SciPy's bit for bit; the box distances
use the same sequence on coordinates no farther than any point of the box,
so they never exceed a point's distance and pruning loses nothing.
"""

from __future__ import annotations

import math
import operator
import warnings

import numpy

import gpunp
from gpunp.scipy._host import as_device

__all__ = ["KDTree", "cKDTree"]

# ---- kernels -------------------------------------------------------------------------------

#: distance kinds: p=2, p=1, p=inf, any other p (the distance to the p-th power)
_P2, _P1, _PINF, _PP = 0, 1, 2, 3

_PREAMBLE = r"""
/* |u - v| along one axis; in a periodic box (full > 0) the nearer image, by
   SciPy's rule (one period either way, the half-box itself not wrapped) */
GPK_FN double kd_side(double u, double v, int periodic, double full, double half)
{
    double d = u - v;
    if (periodic) {
        if (d < -half) d = full + d;
        else if (d > half) d = d - full;
    }
    return fabs(d);
}

/* the gap along one axis between a query coordinate and a box side [a, b]:
   0 inside, else the coordinate difference to the nearer edge, which is no
   more than any point's difference in the same floating-point operations; a
   periodic axis also tries the other way round, less a relative 1e-12 for
   the rounding of that sum */
GPK_FN double kd_gap(double q, double a, double b, int periodic, double full)
{
    double g = 0.0;
    if (q < a) g = a - q;
    else if (q > b) g = q - b;
    if (periodic && full > 0.0 && g > 0.0) {
        double w = q < a ? (q + full) - b : (a + full) - q;
        if (w < g) g = w;
        g -= g * 1e-12;
    }
    return g;
}

/* the distance (to the p-th power) between a stored point u and the query v
   in SciPy's order of operations; past ub any larger value may come back */
GPK_FN double kd_point(const double *u, const double *v, long long m, int kind, double p,
                       int periodic, const double *box, double ub)
{
    long long k = 0;
    double s = 0.0;
    if (kind == 0 && !periodic) {
        /* SciPy's sqeuclidean_distance_double: four partial sums, then the tail */
        double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
        for (; k + 4 <= m; k += 4) {
            double d0 = u[k] - v[k], d1 = u[k + 1] - v[k + 1];
            double d2 = u[k + 2] - v[k + 2], d3 = u[k + 3] - v[k + 3];
            a0 += d0 * d0;
            a1 += d1 * d1;
            a2 += d2 * d2;
            a3 += d3 * d3;
        }
        s = a0 + a1 + a2 + a3;
        for (; k < m; ++k) {
            double d = u[k] - v[k];
            s += d * d;
        }
        return s;
    }
    for (k = 0; k < m; ++k) {
        double d = kd_side(u[k], v[k], periodic, box[k], box[k + m]);
        if (kind == 0) s += d * d;
        else if (kind == 1) s += d;
        else if (kind == 2) s = fmax(s, d);
        else s += pow(d, p);
        if (s > ub) return s;
    }
    return s;
}

/* the least distance (to the p-th power) from the query to box [a, b], in
   kd_point's order of operations */
GPK_FN double kd_rect(const double *q, const double *a, const double *b, long long m, int kind,
                      double p, int periodic, const double *box)
{
    long long k = 0;
    double s = 0.0;
    if (kind == 0 && !periodic) {
        double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
        for (; k + 4 <= m; k += 4) {
            double d0 = kd_gap(q[k], a[k], b[k], 0, 0.0);
            double d1 = kd_gap(q[k + 1], a[k + 1], b[k + 1], 0, 0.0);
            double d2 = kd_gap(q[k + 2], a[k + 2], b[k + 2], 0, 0.0);
            double d3 = kd_gap(q[k + 3], a[k + 3], b[k + 3], 0, 0.0);
            a0 += d0 * d0;
            a1 += d1 * d1;
            a2 += d2 * d2;
            a3 += d3 * d3;
        }
        s = a0 + a1 + a2 + a3;
        for (; k < m; ++k) {
            double d = kd_gap(q[k], a[k], b[k], 0, 0.0);
            s += d * d;
        }
        return s;
    }
    for (k = 0; k < m; ++k) {
        double d = kd_gap(q[k], a[k], b[k], periodic, periodic ? box[k] : 0.0);
        if (kind == 0) s += d * d;
        else if (kind == 1) s += d;
        else if (kind == 2) s = fmax(s, d);
        else s += pow(d, p);
    }
    return s;
}

/* a distance to the p-th power as the distance SciPy reports */
GPK_FN double kd_final(double s, int kind, double p)
{
    if (kind == 0) return sqrt(s);
    if (kind == 3) return pow(s, 1.0 / p);
    return s;
}
"""

# (an elementwise kernel has at most 16 parameters: the scalars travel in
# two small arrays, iv and fv, in the order _HEADER reads them)
_TREE_PARAMS = ("raw float64 q, raw float64 pts, raw int64 perm, raw float64 lo, "
                "raw float64 hi, raw int64 lstart, raw float64 box, raw int64 iv, "
                "raw float64 fv")

_HEADER = r"""
const long long m = iv[0], depth = iv[1], kind = iv[2], periodic = iv[3];
const long long nk = iv[4], kmax = iv[5], n = iv[6], nr = iv[7], mode = iv[8], want_d = iv[9];
const double pw = fv[0], ub0 = fv[1], epsfac = fv[2];
"""

# the walk shared by the queries: `visit` runs for each point of a leaf, a box
# is entered while its distance is at most `ub * epsfac`, the nearer child first
_WALK = r"""
const double *x = q + (long long)i * m;
const long long first_leaf = (1LL << depth) - 1;
long long stk[64];
double sd[64];
int top = 1;
stk[0] = 0;
sd[0] = kd_rect(x, lo, hi, m, (int)kind, pw, (int)periodic, box);
while (top > 0) {
    --top;
    long long node = stk[top];
    if (sd[top] > ub * epsfac) continue;
    if (node >= first_leaf) {
        long long leaf = node - first_leaf, j;
        for (j = lstart[leaf]; j < lstart[leaf + 1]; ++j) {
            double d = kd_point(pts + j * m, x, m, (int)kind, pw, (int)periodic, box, ub);
            VISIT
        }
    } else {
        long long c1 = 2 * node + 1, c2 = c1 + 1;
        double d1 = kd_rect(x, lo + c1 * m, hi + c1 * m, m, (int)kind, pw, (int)periodic, box);
        double d2 = kd_rect(x, lo + c2 * m, hi + c2 * m, m, (int)kind, pw, (int)periodic, box);
        if (d2 < d1) {
            long long tn = c1; double td = d1;
            c1 = c2; d1 = d2; c2 = tn; d2 = td;
        }
        if (d2 <= ub * epsfac) { stk[top] = c2; sd[top] = d2; ++top; }
        if (d1 <= ub * epsfac) { stk[top] = c1; sd[top] = d1; ++top; }
    }
}
"""

# k nearest: an insertion-sorted buffer of the best kmax (KB is its compiled size)
_KNN = _HEADER + r"""
double bd[KB];
long long bi[KB];
int cnt = 0;
double ub = ub0;
""" + _WALK.replace("VISIT", r"""
            if (d < ub) {
                int t = cnt < kmax ? cnt : (int)kmax - 1;
                while (t > 0 && bd[t - 1] > d) { bd[t] = bd[t - 1]; bi[t] = bi[t - 1]; --t; }
                bd[t] = d;
                bi[t] = perm[j];
                if (cnt < kmax) ++cnt;
                if (cnt == kmax) ub = bd[kmax - 1];
            }""") + r"""
{
    long long jj;
    for (jj = 0; jj < nk; ++jj) {
        long long kk = ks[jj] - 1;
        if (kk < cnt) {
            dd[(long long)i * nk + jj] = kd_final(bd[kk], (int)kind, pw);
            ii[(long long)i * nk + jj] = bi[kk];
        } else {
            dd[(long long)i * nk + jj] = INFINITY;
            ii[(long long)i * nk + jj] = n;
        }
    }
}
"""

# points within a radius: mode 0 counts them, 1 writes their indices (and
# distances) from offs[i], 2 adds their weights into the query's row of bins
# (bin b: the first radius r[b] >= d)
_BALL = _HEADER + r"""
double ub = rr[mode == 2 ? nr - 1 : i];
long long c = 0;
double wsum = 0.0;
""" + _WALK.replace("VISIT", r"""
            if (d <= ub) {
                if (mode == 1) {
                    idx[offs[i] + c] = perm[j];
                    if (want_d) dist[offs[i] + c] = kd_final(d, (int)kind, pw);
                } else if (mode == 2) {
                    long long a = 0, b = nr - 1;
                    while (a < b) {
                        long long h = (a + b) / 2;
                        if (d <= rr[h]) b = h; else a = h + 1;
                    }
                    bins[(long long)i * nr + a] += w[perm[j]];
                }
                ++c;
            }""") + r"""
if (mode == 0) counts[i] = c;
"""

_WRAP = r"""
/* SciPy's wrap_position: into [0, full) on a periodic axis */
double full = box[i % m];
double v = x;
if (full > 0.0) {
    double r = floor(v / full);
    v = v - r * full;
    while (v >= full) v -= full;
    while (v < 0.0) v += full;
}
y = v;
"""

_LEAF_BOXES = r"""
long long a = lstart[i], b = lstart[i + 1], j, k;
for (k = 0; k < m; ++k) {
    double mn = INFINITY, mx = -INFINITY;
    for (j = a; j < b; ++j) {
        double v = pts[j * m + k];
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    lo[(long long)i * m + k] = mn;
    hi[(long long)i * m + k] = mx;
}
"""

_kernels = {}


def _kernel(name, kb=0):
    """The kernel `name` (compiled once; the k-nearest one per buffer size kb)."""
    key = (name, kb)
    k = _kernels.get(key)
    if k is None:
        if name == "knn":
            k = gpunp.ElementwiseKernel(
                _TREE_PARAMS + ", raw int64 ks", "raw float64 dd, raw int64 ii",
                f"#define KB {kb}\n" + _KNN + "#undef KB\n", f"kdtree_knn{kb}",
                preamble=_PREAMBLE)
        elif name == "ball":
            k = gpunp.ElementwiseKernel(
                _TREE_PARAMS + ", raw float64 rr, raw int64 offs, raw float64 w",
                "raw int64 counts, raw int64 idx, raw float64 dist, raw float64 bins",
                _BALL, "kdtree_ball", preamble=_PREAMBLE)
        elif name == "wrap":
            k = gpunp.ElementwiseKernel("float64 x, raw float64 box, int64 m", "float64 y",
                                        _WRAP, "kdtree_wrap")
        else:
            k = gpunp.ElementwiseKernel("raw float64 pts, raw int64 lstart, int64 m",
                                        "raw float64 lo, raw float64 hi", _LEAF_BOXES,
                                        "kdtree_leaf_boxes")
        _kernels[key] = k
    return k


#: the k-nearest buffers compiled (few, for the compile time); past the
#: largest, queries go by brute force
_KB_SIZES = (8, 64, 1024)
_KB_MAX = _KB_SIZES[-1]

# ---- helpers ------------------------------------------------------------------------------


def _float64(x, refuse_complex):
    """x as a contiguous float64 gpunp array (host arrays refused, lists
    taken); complex data is KDTree's TypeError, or cKDTree's cast that drops
    the imaginary part with NumPy's ComplexWarning."""
    x = as_device(x)
    if x.dtype.kind == "c":
        if refuse_complex:
            raise TypeError("KDTree does not work with complex data")
        warnings.warn("Casting complex values to real discards the imaginary part",
                      numpy.exceptions.ComplexWarning, stacklevel=3)
        x = x.real
    return gpunp.ascontiguousarray(x, dtype=gpunp.float64)


def _all_finite(a):
    return a.size == 0 or bool(gpunp.isfinite(a).all())


def _kind(p):
    p = float(p)
    if p < 1:
        raise ValueError("Only p-norms with 1<=p<=infinity permitted")
    if p == 2:
        return _P2, p
    if p == 1:
        return _P1, p
    if math.isinf(p):
        return _PINF, p
    return _PP, p


def _power(r, kind, p):
    """A radius as the tree compares it: to the p-th power as SciPy raises it."""
    r = numpy.asarray(r, dtype=numpy.float64)
    with numpy.errstate(all="ignore"):
        if kind == _P2:
            return r * r
        if kind == _PINF:
            return r
        return numpy.where(numpy.isinf(r), r, numpy.power(r, p))


def _leaf_bounds(n, depth):
    """The start of each leaf's run (and n at the end): every node's run
    split in halves, the smaller half first."""
    b = numpy.array([0, n], dtype=numpy.int64)
    for _ in range(depth):
        s, e = b[:-1], b[1:]
        mid = s + (e - s) // 2
        nb = numpy.empty(2 * len(s) + 1, dtype=numpy.int64)
        nb[0:-1:2], nb[1:-1:2], nb[-1] = s, mid, n
        b = nb
    return b


# ---- the tree ------------------------------------------------------------------------------


class cKDTree:
    """kd-tree for quick nearest-neighbour lookup (``scipy.spatial.cKDTree``),
    built on the device and queried there.

    The tree is a complete binary tree split at medians by levels (the
    module's docstring), whatever `compact_nodes` and `balanced_tree` say;
    results do not depend on its shape except the order of exact ties.
    ``size`` counts its nodes. `workers` is accepted and unused: a query is
    one kernel over all query points. Outputs that SciPy gives as host
    containers (lists of indices, sets of pairs, dicts, a ``dok_matrix``)
    are host containers here too; arrays are gpunp arrays.
    """

    _refuse_complex = False

    def __init__(self, data, leafsize=16, compact_nodes=True, copy_data=False,
                 balanced_tree=True, boxsize=None):
        data = _float64(data, self._refuse_complex)
        if copy_data:
            data = data.copy()
        if data.ndim != 2:
            raise ValueError("data must be of shape (n, m), where there are "
                             "n points of dimension m")
        if not _all_finite(data):
            raise ValueError("data must be finite, check for nan or inf values")
        self.data = data
        self.n, self.m = int(data.shape[0]), int(data.shape[1])
        self.leafsize = operator.index(leafsize)
        if self.leafsize < 1:
            raise ValueError("leafsize must be at least 1")
        full = numpy.zeros(self.m)
        if boxsize is None:
            self.boxsize = None
        else:
            host = numpy.asarray(gpunp.asnumpy(boxsize) if isinstance(boxsize, gpunp.ndarray)
                                 else boxsize, dtype=numpy.float64)
            full = numpy.ascontiguousarray(numpy.broadcast_to(host, (self.m,)))
            periodic = gpunp.asarray(full > 0)
            if self.n and bool(((data >= gpunp.asarray(full)) & periodic).any()):
                raise ValueError("Some input data are greater than the size of the periodic box.")
            if self.n and bool(((data < 0) & periodic).any()):
                raise ValueError("Negative input data are outside of the periodic box.")
            self.boxsize = gpunp.asarray(full)
        self._periodic = int(boxsize is not None)
        self._box = gpunp.asarray(numpy.concatenate([full, 0.5 * full]))
        if self.n:
            self.maxes, self.mins = data.max(axis=0), data.min(axis=0)
        else:
            self.maxes, self.mins = gpunp.zeros(self.m), gpunp.zeros(self.m)
        self._build()

    def _build(self):
        n, m = self.n, self.m
        depth = 0
        while -(-n // (1 << depth)) > self.leafsize:
            depth += 1
        self._depth = depth
        perm = gpunp.arange(n, dtype=gpunp.int64)
        flat = self.data.reshape(-1)
        positions = gpunp.arange(n, dtype=gpunp.int64)
        # the split-derived boxes choose each node's axis (its widest side)
        blo, bhi = self.mins.reshape(1, m), self.maxes.reshape(1, m)
        for level in range(depth):
            bounds = _leaf_bounds(n, level)
            c = len(bounds) - 1
            axis = gpunp.argmax(bhi - blo, axis=1)
            node = gpunp.searchsorted(gpunp.asarray(bounds[1:]), positions, side="right")
            key = flat[perm * m + axis[node]]
            order = gpunp.lexsort((key, node))
            perm, key = perm[order], key[order]
            mid = bounds[:-1] + (bounds[1:] - bounds[:-1]) // 2
            split = key[gpunp.asarray(numpy.minimum(mid, max(n - 1, 0)))]
            blo = gpunp.stack([blo, blo], axis=1).reshape(2 * c, m)
            bhi = gpunp.stack([bhi, bhi], axis=1).reshape(2 * c, m)
            ar = gpunp.arange(c, dtype=gpunp.int64)
            bhi[2 * ar, axis] = split
            blo[2 * ar + 1, axis] = split
        self.indices = perm
        self._pts = gpunp.ascontiguousarray(self.data[perm]) if n else self.data
        bounds = _leaf_bounds(n, depth)
        self._lstart = gpunp.asarray(bounds)
        nleaf = len(bounds) - 1
        lo, hi = gpunp.empty((nleaf, m)), gpunp.empty((nleaf, m))
        _kernel("leaf")(self._pts, self._lstart, m, lo, hi, size=nleaf)
        los, his = [lo], [hi]
        for _ in range(depth):
            lo = gpunp.minimum(lo[0::2], lo[1::2])
            hi = gpunp.maximum(hi[0::2], hi[1::2])
            los.append(lo)
            his.append(hi)
        self._lo = gpunp.ascontiguousarray(gpunp.concatenate(los[::-1]))
        self._hi = gpunp.ascontiguousarray(gpunp.concatenate(his[::-1]))
        self.size = 2 * nleaf - 1

    # ---- query points ----------------------------------------------------------------------

    def _points(self, x):
        """x as (count, m) contiguous float64 points (wrapped into a periodic
        box), and the shape of its leading axes."""
        x = _float64(x, self._refuse_complex)
        if x.ndim == 0 or x.shape[-1] != self.m:
            raise ValueError(f"x must consist of vectors of length {self.m} but "
                             f"has shape {tuple(x.shape)}")
        return x, tuple(x.shape[:-1])

    def _prepared(self, x):
        pts = x.reshape(-1, self.m)
        if self._periodic and pts.size:
            pts = _kernel("wrap")(pts, self._box, self.m)
        return gpunp.ascontiguousarray(pts)

    def _tree_args(self, q, kind, p, nk=0, kmax=0, nr=0, mode=0, want_d=0, ub0=0.0,
                   epsfac=1.0):
        """The tree's arguments of a query kernel, the scalars packed as _HEADER reads them."""
        iv = gpunp.asarray(numpy.array([self.m, self._depth, kind, self._periodic, nk, kmax,
                                        self.n, nr, mode, want_d], dtype=numpy.int64))
        fv = gpunp.asarray(numpy.array([p, ub0, epsfac], dtype=numpy.float64))
        return (q, self._pts, self.indices, self._lo, self._hi, self._lstart, self._box, iv, fv)

    def query(self, x, k=1, eps=0.0, p=2.0, distance_upper_bound=numpy.inf, workers=1):
        """The k nearest neighbours of each point of x: distances and indices
        (missing neighbours: distance inf, index self.n)."""
        _workers(workers)
        x, retshape = self._points(x)
        kind, p = _kind(p)
        if not _all_finite(x):
            raise ValueError("'x' must be finite, check for nan or inf values")
        nearest = False
        if numpy.isscalar(k):
            nearest = k == 1
            ks = numpy.arange(1, k + 1, dtype=numpy.intp)
        else:
            ks = numpy.array(k, dtype=numpy.intp)
        kmax = int(numpy.max(ks))
        if ks.size and int(ks.min()) < 1:
            raise ValueError("k must be at least 1")
        nq = int(numpy.prod(retshape, dtype=numpy.int64))
        q = self._prepared(x)
        dub = float(distance_upper_bound)
        ub0 = float(_power(dub, kind, p)) if (kind == _P2 or not math.isinf(dub)) else dub
        eps = float(eps)
        if kind == _P2:
            epsfac = 1.0 / ((1.0 + eps) * (1.0 + eps))
        elif eps == 0:
            epsfac = 1.0
        elif kind == _PINF:
            epsfac = 1.0 / (1.0 + eps)
        else:
            epsfac = 1.0 / math.pow(1.0 + eps, p)
        dd = gpunp.empty((nq, len(ks)))
        ii = gpunp.empty((nq, len(ks)), dtype=gpunp.int64)
        keff = min(kmax, self.n)
        if nq and len(ks):
            if keff > _KB_MAX:
                self._brute_knn(q, ks, keff, kind, p, ub0, dd, ii)
            else:
                kb = next(b for b in _KB_SIZES if b >= keff)
                args = self._tree_args(q, kind, p, nk=len(ks), kmax=max(keff, 1), ub0=ub0,
                                       epsfac=epsfac)
                _kernel("knn", kb)(*args, gpunp.asarray(ks), dd, ii, size=nq)
        dd = dd.reshape(retshape + (len(ks),))
        ii = ii.reshape(retshape + (len(ks),))
        if nearest:
            dd, ii = dd[..., 0], ii[..., 0]
            if x.ndim == 1:
                return float(dd), int(ii)
        return dd, ii

    def _brute_knn(self, q, ks, keff, kind, p, ub0, dd, ii):
        """k past the kernel's buffer: every distance of a block of queries,
        sorted (ties by index), the first keff kept."""
        nq, n = q.shape[0], self.n
        block = max(1, (1 << 24) // max(n, 1))
        kk = gpunp.asarray(ks - 1)
        for s in range(0, nq, block):
            qb = q[s:s + block]
            b = qb.shape[0]
            d = _pairwise(qb, self.data, kind, p, self._periodic, self._box, self.m)
            order = gpunp.argsort(d, axis=1, kind="stable")[:, :keff]
            ds = gpunp.take_along_axis(d, order, axis=1)
            found = ds < ub0
            valid = kk < keff
            kc = gpunp.asarray(numpy.minimum(ks - 1, keff - 1))
            dsel, isel, fsel = ds[:, kc], order[:, kc], found[:, kc] & valid
            dd[s:s + b] = gpunp.where(fsel, _final(dsel, kind, p), numpy.inf)
            ii[s:s + b] = gpunp.where(fsel, isel, n)

    # ---- balls -----------------------------------------------------------------------------

    def _ball(self, q, rp, kind, p, want_d=False):
        """Indices (flat, grouped by query point, in tree order), their
        distances if asked, and each query point's count, for the radii rp
        (to the p-th power, one a query point)."""
        nq = q.shape[0]
        z1, i1 = gpunp.zeros(1), gpunp.zeros(1, dtype=gpunp.int64)
        counts = gpunp.empty(nq, dtype=gpunp.int64)
        rr = gpunp.ascontiguousarray(rp)
        if nq:
            _kernel("ball")(*self._tree_args(q, kind, p), rr, i1, z1, counts, i1, z1, z1,
                            size=nq)
        offs = gpunp.concatenate([gpunp.zeros(1, dtype=gpunp.int64), gpunp.cumsum(counts)])
        total = int(offs[-1]) if nq else 0
        idx = gpunp.empty(max(total, 1), dtype=gpunp.int64)
        dist = gpunp.empty(max(total, 1)) if want_d else z1
        if total:
            _kernel("ball")(*self._tree_args(q, kind, p, mode=1, want_d=int(want_d)), rr, offs,
                            z1, counts, idx, dist, z1, size=nq)
        return idx[:total], (dist[:total] if want_d else None), counts, offs

    def query_ball_point(self, x, r, p=2.0, eps=0.0, workers=1, return_sorted=None,
                         return_length=False):
        """The indices of the points within distance r of each point of x
        (`eps` is accepted: the answer is exact)."""
        _workers(workers)
        x, retshape = self._points(x)
        kind, p = _kind(p)
        sort_output = return_sorted or (return_sorted is None and x.ndim > 1)
        rh = numpy.ascontiguousarray(numpy.broadcast_to(
            numpy.asarray(gpunp.asnumpy(r) if isinstance(r, gpunp.ndarray) else r,
                          dtype=numpy.float64), retshape)).reshape(-1)
        if not _all_finite(x):
            raise ValueError("'x' must be finite, check for nan or inf values")
        q = self._prepared(x)
        idx, _, counts, offs = self._ball(q, gpunp.asarray(_power(rh, kind, p)), kind, p)
        if return_length:
            out = counts.reshape(retshape)
            return numpy.intp(int(out)) if x.ndim == 1 else out
        if sort_output and idx.size:
            idx = _sort_runs(idx, counts)
        lists = _split(idx, offs)
        if x.ndim == 1:
            return lists[0]
        out = numpy.empty(len(lists), dtype=object)
        out[:] = lists
        return out.reshape(retshape)

    def _other_ball(self, other, r, p, want_d=False):
        """For each point of self, the points of other within r (other's tree walked)."""
        if not isinstance(other, cKDTree):
            raise TypeError("other must be a cKDTree")
        kind, p = _kind(p)
        rp = numpy.full(self.n, _power(float(r), kind, p))
        return other._ball(gpunp.ascontiguousarray(self.data), gpunp.asarray(rp), kind, p,
                           want_d)

    def query_ball_tree(self, other, r, p=2.0, eps=0.0):
        """For each point of self, the list of indices of other's points
        within distance r (sorted; `eps` is accepted, the answer is exact)."""
        if self.m != other.m:
            raise ValueError("Trees passed to query_ball_tree have different dimensionality")
        idx, _, counts, offs = self._other_ball(other, r, p)
        if idx.size:
            idx = _sort_runs(idx, counts)
        return _split(idx, offs)

    def _pairs(self, r, p):
        idx, _, counts, offs = self._other_ball(self, r, p)
        first = _run_ids(counts, idx.size)
        keep = first < idx
        return first[keep], idx[keep]

    def query_pairs(self, r, p=2.0, eps=0.0, output_type="set"):
        """Every pair (i, j), i < j, of points within distance r."""
        if output_type not in ("set", "ndarray"):
            raise ValueError("Invalid output type")
        i, j = self._pairs(r, p)
        if output_type == "ndarray":
            if i.size == 0:
                return gpunp.empty((0, 2), dtype=gpunp.int64)
            order = gpunp.lexsort((j, i))
            return gpunp.stack([i[order], j[order]], axis=1)
        return set(zip(gpunp.asnumpy(i).tolist(), gpunp.asnumpy(j).tolist()))

    def count_neighbors(self, other, r, p=2.0, weights=None, cumulative=True):
        """The number (or total weight) of pairs of a point of self and one of
        other within each distance r."""
        if self.m != other.m:
            raise ValueError("Trees passed to count_neighbors have different dimensionality")
        kind, p = _kind(p)
        rh = numpy.asarray(gpunp.asnumpy(r) if isinstance(r, gpunp.ndarray) else r)
        if rh.ndim > 1:
            raise ValueError("r must be either a single value or a "
                             "one-dimensional array of values")
        real_r = numpy.array(rh, ndmin=1, dtype=numpy.float64, copy=True)
        if not cumulative and numpy.any(real_r[:-1] > real_r[1:]):
            raise ValueError("r must be non-decreasing for non-cumulative counting.")
        real_r, uind, inverse = numpy.unique(real_r, return_inverse=True, return_index=True)
        if not math.isinf(p):
            with numpy.errstate(all="ignore"):
                real_r = numpy.where(numpy.isinf(real_r), real_r, real_r ** p)
        if weights is None:
            w1 = w2 = None
        elif isinstance(weights, tuple):
            w1, w2 = weights
        else:
            w1 = w2 = weights
            if other is not self:
                raise ValueError("Two different trees are used. Specify weights for both "
                                 "in a tuple.")
        w1 = None if w1 is None else _weights(w1, self.n)
        w2 = None if w2 is None else _weights(w2, other.n)
        nr = len(real_r)
        bins = gpunp.zeros((self.n, nr))
        if self.n and nr:
            w = w2 if w2 is not None else gpunp.ones(max(other.n, 1))
            z1, i1 = gpunp.zeros(1), gpunp.zeros(1, dtype=gpunp.int64)
            q = gpunp.ascontiguousarray(self.data)
            _kernel("ball")(*other._tree_args(q, kind, p, nr=nr, mode=2),
                            gpunp.asarray(real_r), i1, w, i1, i1, z1, bins, size=self.n)
        if w1 is not None:
            bins = bins * w1[:, None]
        per_bin = bins.sum(axis=0) if self.n else gpunp.zeros(nr)
        results = gpunp.asnumpy(gpunp.cumsum(per_bin)) if cumulative else gpunp.asnumpy(per_bin)
        if weights is None:
            results = numpy.rint(results).astype(numpy.intp)
        out = numpy.zeros(inverse.shape, results.dtype)
        if cumulative:
            out[...] = results[inverse]
        else:
            out[uind] = results[inverse][uind]
        if rh.ndim == 0:
            return int(out[0]) if weights is None else out[0]
        return gpunp.asarray(out)

    def sparse_distance_matrix(self, other, max_distance, p=2.0, output_type="dok_matrix"):
        """The distances between the points of self and other no farther
        apart than max_distance, as a sparse matrix (COO ones as gpunp sparse
        objects; 'dok_matrix'/'dok_array' as SciPy's on the host), a dict or
        a structured NumPy array of (i, j, v)."""
        if self.m != other.m:
            raise ValueError("Trees passed to sparse_distance_matrix have different "
                             "dimensionality")
        kinds = ("dict", "ndarray", "dok_matrix", "dok_array", "coo_matrix", "coo_array")
        if output_type not in kinds:
            raise ValueError("Invalid output type")
        j, v, counts, _ = self._other_ball(other, max_distance, p, want_d=True)
        i = _run_ids(counts, j.size)
        if j.size:
            order = gpunp.lexsort((j, i))
            i, j, v = i[order], j[order], v[order]
        shape = (self.n, other.n)
        if output_type in ("coo_matrix", "coo_array"):
            from gpunp.scipy import sparse
            cls = sparse.coo_matrix if output_type == "coo_matrix" else sparse.coo_array
            return cls((v, (i, j)), shape=shape)
        ih, jh, vh = gpunp.asnumpy(i), gpunp.asnumpy(j), gpunp.asnumpy(v)
        if output_type == "dict":
            return dict(zip(zip(ih.tolist(), jh.tolist()), vh.tolist()))
        if output_type == "ndarray":
            rec = numpy.empty(len(ih), dtype=numpy.dtype(
                [("i", numpy.intp), ("j", numpy.intp), ("v", numpy.float64)], align=True))
            rec["i"], rec["j"], rec["v"] = ih, jh, vh
            return rec
        import scipy.sparse
        cls = scipy.sparse.coo_matrix if output_type == "dok_matrix" else scipy.sparse.coo_array
        return cls((vh, (ih, jh)), shape=shape).todok()


class KDTree(cKDTree):
    """kd-tree for quick nearest-neighbour lookup (``scipy.spatial.KDTree``):
    cKDTree with SciPy's KDTree defaults (leafsize 10), its index scalar and
    its TypeError for complex data."""

    _refuse_complex = True

    def __init__(self, data, leafsize=10, compact_nodes=True, copy_data=False,
                 balanced_tree=True, boxsize=None):
        super().__init__(data, leafsize, compact_nodes, copy_data, balanced_tree, boxsize)

    def query(self, x, k=1, eps=0.0, p=2.0, distance_upper_bound=numpy.inf, workers=1):
        if k is None:
            raise ValueError("k must be an integer or a sequence of integers")
        d, i = super().query(x, k, eps, p, distance_upper_bound, workers)
        return (d, numpy.intp(i)) if isinstance(i, int) else (d, i)

    query.__doc__ = cKDTree.query.__doc__


# ---- small pieces --------------------------------------------------------------------------


def _workers(workers):
    if workers is None:
        return
    w = operator.index(workers)
    if w == 0 or w < -1:
        raise ValueError(f"Invalid number of workers {workers}, must be -1 or > 0")


def _weights(w, n):
    w = gpunp.ascontiguousarray(as_device(w), dtype=gpunp.float64)
    if w.shape != (n,):
        raise ValueError("Number of weights differ from the number of data points")
    return w


def _final(s, kind, p):
    if kind == _P2:
        return gpunp.sqrt(s)
    if kind == _PP:
        return s ** (1.0 / p)
    return s


def _run_ids(counts, total):
    """For each entry of runs of the given lengths, its run's number."""
    if total == 0:
        return gpunp.zeros(0, dtype=gpunp.int64)
    ends = gpunp.cumsum(counts)
    return gpunp.searchsorted(ends, gpunp.arange(total, dtype=gpunp.int64), side="right")


def _sort_runs(idx, counts):
    """Each run of idx sorted."""
    return idx[gpunp.lexsort((idx, _run_ids(counts, idx.size)))]


def _split(idx, offs):
    """Flat runs as Python lists of ints, one a run."""
    flat = gpunp.asnumpy(idx).tolist()
    o = gpunp.asnumpy(offs).tolist()
    return [flat[o[t]:o[t + 1]] for t in range(len(o) - 1)]


def _pairwise(q, data, kind, p, periodic, box, m):
    """Every distance (to the p-th power) between the rows of q and data, in
    the tree's arithmetic."""
    k = _kernels.get(("pairwise", 0))
    if k is None:
        k = gpunp.ElementwiseKernel(
            "raw float64 q, raw float64 pts, raw float64 box, int64 m, int64 n, int64 kind, "
            "float64 pw, int64 periodic", "float64 d",
            "d = kd_point(pts + (i % n) * m, q + (i / n) * m, m, (int)kind, pw, (int)periodic, "
            "box, INFINITY);", "kdtree_pairwise", preamble=_PREAMBLE)
        _kernels[("pairwise", 0)] = k
    n = data.shape[0]
    out = gpunp.empty((q.shape[0], n))
    return k(q, data, box, m, n, kind, p, periodic, out)
