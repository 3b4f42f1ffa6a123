"""``gpunp.scipy.ndimage``: ``scipy.ndimage`` for gpunp arrays, name for name.

It holds n-dimensional image processing. Implemented: binary morphology
(binary_erosion, binary_dilation, binary_opening, binary_closing,
binary_hit_or_miss, binary_propagation, binary_fill_holes,
generate_binary_structure, iterate_structure), labels (label, find_objects,
value_indices), measurements (sum_labels, sum, mean, variance,
standard_deviation, minimum, maximum, median, extrema, minimum_position,
maximum_position, center_of_mass, histogram, labeled_comprehension) and
distance transforms (distance_transform_edt, distance_transform_cdt,
distance_transform_bf). Filters, interpolation, grey morphology and
Fourier filters are still to come; their names raise AttributeError here.
"""

__all__ = []

# binary morphology, labels, measurements and distance transforms
from gpunp.scipy.ndimage._morphology import (  # noqa: E402
    binary_closing, binary_dilation, binary_erosion, binary_fill_holes, binary_hit_or_miss,
    binary_opening, binary_propagation, generate_binary_structure, iterate_structure)

__all__ += ["binary_closing", "binary_dilation", "binary_erosion", "binary_fill_holes",
            "binary_hit_or_miss", "binary_opening", "binary_propagation",
            "generate_binary_structure", "iterate_structure"]
from gpunp.scipy.ndimage._label import find_objects, label, value_indices  # noqa: E402

__all__ += ["find_objects", "label", "value_indices"]
from gpunp.scipy.ndimage._measurements import (  # noqa: E402
    center_of_mass, extrema, histogram, labeled_comprehension, maximum, maximum_position, mean,
    median, minimum, minimum_position, standard_deviation, sum, sum_labels, variance)

__all__ += ["center_of_mass", "extrema", "histogram", "labeled_comprehension", "maximum",
            "maximum_position", "mean", "median", "minimum", "minimum_position",
            "standard_deviation", "sum", "sum_labels", "variance"]
from gpunp.scipy.ndimage._distance import (  # noqa: E402
    distance_transform_bf, distance_transform_cdt, distance_transform_edt)

__all__ += ["distance_transform_bf", "distance_transform_cdt", "distance_transform_edt"]
