"""``gpunp.scipy.ndimage``: ``scipy.ndimage`` for gpunp arrays, name for name.

Filters (correlation and convolution, Gaussian, uniform, minimum/maximum,
rank/median/percentile, derivative filters, users' functions), grey
morphology, spline interpolation and geometric transforms, and the Fourier
filters: each an elementwise kernel pass per output element over the
device array (docs/architecture.md, "ndimage")."""

from ._filters import (convolve, convolve1d, correlate, correlate1d, gaussian_filter,
                       gaussian_filter1d, gaussian_gradient_magnitude, gaussian_laplace,
                       generic_filter, generic_filter1d, generic_gradient_magnitude,
                       generic_laplace, laplace, maximum_filter, maximum_filter1d,
                       median_filter, minimum_filter, minimum_filter1d, percentile_filter,
                       prewitt, rank_filter, sobel, uniform_filter, uniform_filter1d,
                       vectorized_filter)
from ._fourier import fourier_ellipsoid, fourier_gaussian, fourier_shift, fourier_uniform
from ._grey import (black_tophat, grey_closing, grey_dilation, grey_erosion, grey_opening,
                    morphological_gradient, morphological_laplace, white_tophat)
from ._interpolation import (affine_transform, geometric_transform, map_coordinates, rotate,
                             shift, spline_filter, spline_filter1d, zoom)

__all__ = sorted(n for n in dir() if not n.startswith("_"))
