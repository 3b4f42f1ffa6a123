"""``gpunp.scipy.interpolate``: ``scipy.interpolate`` for gpunp arrays, name for name.

Evaluation runs on the device, one elementwise kernel pass per batch of
points (an interval search by bisection over the breakpoints, then the
local polynomial or spline: ``_kernels``); fits that SciPy does as small
host computations (spline slopes, banded collocation solves, polynomial
weights) run on the host with NumPy, never through SciPy.

Holds piecewise polynomials (PPoly, BPoly), the cubic interpolators
(CubicSpline, PchipInterpolator, Akima1DInterpolator, CubicHermiteSpline,
pchip_interpolate), interp1d, B-splines (BSpline, make_interp_spline,
make_lsq_spline, make_smoothing_spline), FITPACK's interface (splrep,
splev, splder, splantider, splint, sproot, spalde; UnivariateSpline,
InterpolatedUnivariateSpline, LSQUnivariateSpline, with FITPACK's
smoothing search), gridded interpolation (RegularGridInterpolator,
interpn, NdBSpline), radial basis functions (RBFInterpolator, Rbf) and polynomial
interpolation (BarycentricInterpolator, barycentric_interpolate,
KroghInterpolator, krogh_interpolate, lagrange,
approximate_taylor_polynomial, pade). The scattered-data interpolators
(NearestNDInterpolator, LinearNDInterpolator, CloughTocher2DInterpolator,
griddata) interpolate on a Delaunay triangulation or through a KDTree."""

from ._bsplines import BSpline, make_interp_spline, make_lsq_spline
from ._cubic import (Akima1DInterpolator, CubicHermiteSpline, CubicSpline, PchipInterpolator,
                     pchip_interpolate)
from ._fitpack import (InterpolatedUnivariateSpline, LSQUnivariateSpline, UnivariateSpline, spalde,
                       splantider, splder, splev, splint, splrep, sproot)
from ._interp1d import interp1d
from ._ndgriddata import (CloughTocher2DInterpolator, LinearNDInterpolator, NearestNDInterpolator,
                          griddata)
from ._polyint import (BarycentricInterpolator, KroghInterpolator, approximate_taylor_polynomial,
                       barycentric_interpolate, krogh_interpolate, lagrange, pade)
from ._ppoly import BPoly, PPoly
from ._rbf import RBFInterpolator, Rbf
from ._rgi import NdBSpline, RegularGridInterpolator, interpn
from ._smoothing import make_smoothing_spline

__all__ = sorted(n for n in dir() if not n.startswith("_"))
