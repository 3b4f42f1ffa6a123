"""gpunp's benchmarks: gpunp, CuPy, PyTorch and NumPy on the same workloads
in one process (python -m bench)."""
