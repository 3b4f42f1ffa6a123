"""``gpunp.lib``: the parts of ``numpy.lib`` that act on device arrays."""

from gpunp.lib import stride_tricks  # noqa: F401
