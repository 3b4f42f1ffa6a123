"""The array API standard's inspection and device API: the module's
__array_api_version__ and __array_namespace_info__(), the array's
__array_namespace__, device and to_device, and device= on creation
functions."""

from __future__ import annotations

import numpy as np
import pytest

import gpunp as gp
from gpunp.cuda import Device


def test_namespace_version_and_array_namespace():
    assert gp.__array_api_version__ == "2024.12"
    a = gp.arange(3)
    for version in (None, "2023.12", "2024.12"):
        assert a.__array_namespace__(api_version=version) is gp
    for bad in ("2020.10", "2025.99", "latest"):
        with pytest.raises(ValueError):
            a.__array_namespace__(api_version=bad)


def test_namespace_info_capabilities_and_defaults():
    info = gp.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] is True and caps["data-dependent shapes"] is True
    n = caps["max dimensions"]  # the engine's limit: usable, and no more
    assert gp.ones((1,) * n).ndim == n
    with pytest.raises(ValueError):
        gp.ones((1,) * (n + 1))
    assert info.default_device() == Device() == gp.ones(1).device
    dev = info.devices()
    assert dev and all(isinstance(d, Device) for d in dev) and info.default_device() in dev
    defaults = info.default_dtypes()
    assert defaults == info.default_dtypes(device=dev[0])
    # the defaults are what gpunp's own functions make
    assert defaults["real floating"] == gp.ones(1).dtype == gp.linspace(0, 1, 2).dtype
    assert defaults["integral"] == gp.arange(3).dtype
    assert defaults["complex floating"] == gp.asarray(1j).dtype
    assert defaults["indexing"] == gp.nonzero(gp.ones(2))[0].dtype


@pytest.mark.parametrize("kind, kinds", [
    (None, "biufc"), ("bool", "b"), ("signed integer", "i"), ("unsigned integer", "u"),
    ("integral", "iu"), ("real floating", "f"), ("complex floating", "c"),
    ("numeric", "iufc"), (("bool", "real floating"), "bf"),
])
def test_namespace_info_dtypes_by_kind(kind, kinds):
    got = gp.__array_namespace_info__().dtypes(kind=kind)
    assert got and all(d.kind in kinds for d in got.values())
    assert all(np.dtype(name) == d for name, d in got.items())
    assert {d.kind for d in got.values()} == set(kinds)
    for d in got.values():  # each one makes arrays
        assert gp.zeros(2, dtype=d).dtype == d
        assert gp.isdtype(d, kind) if kind is not None else True


def test_namespace_info_refuses_unknown_kinds_and_devices():
    info = gp.__array_namespace_info__()
    with pytest.raises(ValueError):
        info.dtypes(kind="floating")
    with pytest.raises(ValueError):
        info.dtypes(device="cpu")
    with pytest.raises(ValueError):
        info.default_dtypes(device=Device(len(info.devices())))


def test_device_object():
    a = gp.arange(4)
    d = a.device
    assert isinstance(d, Device) and d == Device(d.id) and hash(d) == hash(Device(d.id))
    assert d != Device(d.id + 1) and d != d.id
    assert str(d.id) in repr(d) and gp.backend().lower() in repr(d).lower()
    assert a[1:].device == d and (a + 1).device == d


def test_to_device():
    a = gp.arange(6).reshape(2, 3)
    assert a.to_device(a.device) is a
    assert a.to_device(a.device, stream=gp.cuda.get_current_stream()) is a
    with pytest.raises(ValueError):
        a.to_device("cpu")
    with pytest.raises(ValueError):
        a.to_device(Device(len(gp.__array_namespace_info__().devices())))


@pytest.mark.parametrize("make", [
    lambda d: gp.zeros(3, device=d), lambda d: gp.ones((2, 2), device=d),
    lambda d: gp.empty(3, device=d), lambda d: gp.full(2, 7, device=d),
    lambda d: gp.arange(5, device=d), lambda d: gp.linspace(0, 1, 3, device=d),
    lambda d: gp.eye(2, device=d), lambda d: gp.asarray([1, 2], device=d),
    lambda d: gp.asarray(gp.ones(2), device=d),
    lambda d: gp.zeros_like(gp.ones(2), device=d), lambda d: gp.ones_like(gp.ones(2), device=d),
    lambda d: gp.empty_like(gp.ones(2), device=d),
    lambda d: gp.full_like(gp.ones(2), 3, device=d),
])
def test_creation_functions_take_device(make):
    d = gp.__array_namespace_info__().default_device()
    assert make(d).device == d
    assert make(None).device == d
    with pytest.raises(ValueError):
        make("cpu")


def test_astype_takes_device():
    d = gp.ones(1).device
    assert gp.astype(gp.ones(2), np.int32, device=d).device == d


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_dtype_none_is_the_default_float(name):
    assert getattr(gp, name)(2, dtype=None).dtype == getattr(np, name)(2, dtype=None).dtype
