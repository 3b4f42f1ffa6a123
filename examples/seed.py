"""The seed example of gpunp (what `make demo` runs)."""

import sys

import gpunp as gp

x = gp.arange(6).reshape(2, 3).astype('f')
print(repr(x))
print(repr(x.sum(axis=1)))
print(f"(computed by gpunp {gp.__version__} on the {gp.backend()} backend)", file=sys.stderr)
