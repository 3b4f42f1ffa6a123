"""Kernels over arrays just under 2^31 elements. A kernel counts with int
indices below a bound on the element count; a grid-stride loop's index
passes that count by up to a grid's threads before it stops, so the bound
must leave room for that step, or the index wraps negative and the kernel
reads and writes outside the arrays."""

import numpy as np
import pytest

import gpunp as gp

N = (1 << 31) - (1 << 20)  # int8 arrays of 2 GiB less 1 MiB


@pytest.fixture(scope="module")
def ones():
    return gp.ones(N, dtype=np.int8)


def test_elementwise_scalar_loop(ones):
    # where= takes the runner's element-by-element loop, not its vectors
    out = gp.zeros(N, dtype=np.int8)
    mask = gp.ones(N, dtype=bool)
    mask[-3] = False
    gp.add(ones, ones, out=out, where=mask)
    assert int(gp.count_nonzero(out == 2)) == N - 1
    np.testing.assert_array_equal(out[-5:].get(), [2, 2, 0, 2, 2])


def test_nonzero():
    x = gp.zeros(N, dtype=bool)
    x[[3, N - 2 ** 19, N - 1]] = True
    (idx,) = gp.nonzero(x)
    np.testing.assert_array_equal(idx.get(), [3, N - 2 ** 19, N - 1])
