"""``gpunp.scipy.ndimage``: ``scipy.ndimage`` for gpunp arrays, name for name.

It will hold n-dimensional image processing: filters, interpolation,
morphology, labelling and measurements.

Nothing is implemented yet: the public API is empty, and every name of
scipy.ndimage raises AttributeError here.
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
