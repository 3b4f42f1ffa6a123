"""SciPy-compatible subpackages of gpunp (none yet)."""
