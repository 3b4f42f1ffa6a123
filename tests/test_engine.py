"""gpunp.engine: the public binding of the engine's C ABI."""

from __future__ import annotations

import numpy as np
import pytest

import gpunp as gp
from gpunp import engine


def test_names():
    assert engine.__all__ == ["ffi", "lib", "check", "handle", "adopt", "dtype_code"]
    assert gp.engine is engine


def test_a_call_through_the_binding():
    a = gp.arange(6, dtype=np.float32).reshape(2, 3)
    out = engine.ffi.new("gp_array_t **")
    engine.check(engine.lib.gp_array_copy(engine.handle(a), ord("F"), out))
    b = engine.adopt(out[0])
    assert isinstance(b, gp.ndarray)
    assert b.flags.f_contiguous and b.dtype == np.float32
    np.testing.assert_array_equal(gp.asnumpy(b), np.arange(6, dtype=np.float32).reshape(2, 3))


def test_check_raises_gpunps_exceptions():
    engine.check(engine.lib.GP_OK)
    out = engine.ffi.new("gp_array_t **")
    shape = engine.ffi.new("int64_t[]", [2, 3])
    a = gp.zeros(5)  # kept alive: handle() only borrows
    status = engine.lib.gp_array_reshape(engine.handle(a), 2, shape, ord("C"), out)
    with pytest.raises(ValueError):
        engine.check(status)


def test_dtype_code():
    assert engine.dtype_code(np.float32) == engine.lib.GP_FLOAT32
    assert engine.dtype_code("complex128") == engine.lib.GP_COMPLEX128
    with pytest.raises(TypeError):
        engine.dtype_code("U3")


def test_handle_and_adopt_refuse_what_they_cannot_take():
    with pytest.raises(TypeError, match="gpunp.ndarray"):
        engine.handle(np.zeros(3))
    with pytest.raises(ValueError, match="NULL"):
        engine.adopt(engine.ffi.cast("gp_array_t *", 0))
    with pytest.raises(TypeError):
        engine.adopt(engine.ffi.new("int *"))
