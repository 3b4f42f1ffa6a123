"""``gpunp.scipy.interpolate``: ``scipy.interpolate`` for gpunp arrays, name for name.

It will hold interpolation: splines (fitted on the host where SciPy fits on the
host, evaluated on the device), polynomial and grid interpolators.

Nothing is implemented yet: the public API is empty, and every name of
scipy.interpolate raises AttributeError here.
"""

__all__ = []

# scattered data in N dimensions (branch kdtree)
from gpunp.scipy.interpolate._ndgriddata import (  # noqa: E402
    CloughTocher2DInterpolator, LinearNDInterpolator, NearestNDInterpolator, griddata)

__all__ += ["CloughTocher2DInterpolator", "LinearNDInterpolator", "NearestNDInterpolator",
            "griddata"]
