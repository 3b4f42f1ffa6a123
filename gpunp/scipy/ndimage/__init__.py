"""``gpunp.scipy.ndimage``: ``scipy.ndimage`` for gpunp arrays, name for name.

Filters (correlation and convolution, Gaussian, uniform, minimum/maximum,
rank/median/percentile, derivative filters, users' functions), grey and
binary morphology, spline interpolation and geometric transforms, the
Fourier filters, labels, measurements and distance transforms: each filter
an elementwise kernel pass per output element over the device array, labels
a union-find in kernel passes, measurements segmented reductions
(docs/architecture.md, "ndimage")."""

from ._distance import distance_transform_bf, distance_transform_cdt, distance_transform_edt
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
from ._label import find_objects, label, value_indices
from ._measurements import (center_of_mass, extrema, histogram, labeled_comprehension, maximum,
                            maximum_position, mean, median, minimum, minimum_position,
                            standard_deviation, sum, sum_labels, variance)
from ._morphology import (binary_closing, binary_dilation, binary_erosion, binary_fill_holes,
                          binary_hit_or_miss, binary_opening, binary_propagation,
                          generate_binary_structure, iterate_structure)

__all__ = sorted(n for n in dir() if not n.startswith("_"))
