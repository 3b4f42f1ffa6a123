"""gpunp.scipy.sparse's behaviour beside the property tests: bad input raises
what SciPy raises, the protocols (host copies only through .get() and
gpunp.asnumpy, never implicitly), the matrix flavour's products and powers,
.npz files, printing, the subpackages' lazy loading, and what SciPy gets wrong
in empty selections (compared with NumPy's result instead)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import gpunp as gp
import gpunp.scipy.sparse as gsp

from property.outcome import error_kind

DENSE = np.array([[1.0, 0, 2], [0, 0, 3], [4, 5, 0]])


def _same_error(f):
    """f(scipy.sparse, to_host) raises in SciPy; f(gpunp.scipy.sparse, to_device)
    raises the same kind of exception."""
    with pytest.raises(Exception) as want:
        f(sp, np.asarray)
    with pytest.raises(error_kind(want.value)):
        f(gsp, gp.asarray)
    return want.value


BAD_INPUT = {
    "coo lengths": lambda L, a: L.coo_array((a([1.0, 2]), (a([0]), a([0, 1]))), shape=(2, 2)),
    "coo row out of range": lambda L, a: L.coo_array((a([1.0]), (a([5]), a([0]))),
                                                     shape=(2, 2)),
    "coo negative column": lambda L, a: L.coo_array((a([1.0]), (a([0]), a([-1]))),
                                                    shape=(2, 2)),
    "coo no shape, no entries": lambda L, a: L.coo_array((a([]), (a([], dtype=int),
                                                                  a([], dtype=int)))),
    "csr indptr length": lambda L, a: L.csr_array((a([1.0]), a([0]), a([0, 1])),
                                                  shape=(2, 2)),
    "csr indptr start": lambda L, a: L.csr_array((a([1.0]), a([0]), a([1, 1, 1])),
                                                 shape=(2, 2)),
    "csr indices and data": lambda L, a: L.csr_array((a([1.0, 2.0]), a([0]), a([0, 1, 1])),
                                                     shape=(2, 2)),
    "negative shape": lambda L, a: L.csr_array((-1, 2)),
    "3-d shape": lambda L, a: L.csr_matrix((2, 2, 2)),
    "float16 data": lambda L, a: L.csr_array(a(np.eye(2, dtype=np.float16))),
    "dia duplicate offsets": lambda L, a: L.dia_array((a(np.ones((2, 2))), a([0, 0])),
                                                      shape=(2, 2)),
    "dia offsets count": lambda L, a: L.dia_array((a(np.ones((2, 2))), a([0])), shape=(2, 2)),
    "bsr shape not of blocks": lambda L, a: L.bsr_array((3, 3), blocksize=(2, 2)),
    "add shapes": lambda L, a: L.csr_array(a(np.eye(2))) + L.csr_array(a(np.eye(3))),
    "matmul shapes": lambda L, a: L.csr_array(a(np.eye(2))) @ L.csr_array(a(np.eye(3))),
    "matvec length": lambda L, a: L.csr_array(a(np.eye(2))) @ a(np.ones(3)),
    "scalar matmul": lambda L, a: L.csr_array(a(np.eye(2))) @ 2,
    "add a scalar": lambda L, a: L.csr_array(a(np.eye(2))) + 1,
    "zero power": lambda L, a: L.csr_array(a(np.eye(2))).power(0),
    "matrix power of a non-square": lambda L, a: L.csr_matrix(a(np.ones((2, 3)))) ** 2,
    "negative matrix power": lambda L, a: L.csr_matrix(a(np.eye(2))) ** -1,
    "negate booleans": lambda L, a: -L.csr_array(a(np.eye(2, dtype=bool))),
    "axis out of range": lambda L, a: L.csr_array(a(np.eye(2))).sum(axis=2),
    "max of an empty": lambda L, a: L.csr_array((0, 3)).max(),
    "argmax along an empty axis": lambda L, a: L.csr_array((0, 3)).argmax(axis=0),
    "index out of range": lambda L, a: L.csr_array(a(np.eye(2)))[2, 0],
    "column out of range": lambda L, a: L.csc_array(a(np.eye(2)))[:, a([0, 5])],
    "mask of the wrong length": lambda L, a: L.csr_array(a(np.eye(2)))[a([True])],
    "reshape to another size": lambda L, a: L.csr_array(a(np.eye(2))).reshape(3, 1),
    "bad format": lambda L, a: L.csr_array(a(np.eye(2))).asformat("xyz"),
    "bad blocksize": lambda L, a: L.csr_array(a(np.eye(3))).tobsr(blocksize=(2, 2)),
    "random density": lambda L, a: L.random_array((2, 2), density=2.0),
    "setdiag off the matrix": lambda L, a: L.csr_array(a(np.eye(2))).setdiag(1.0, k=5),
    "diags count": lambda L, a: L.diags_array([a([1.0]), a([2.0])], offsets=[0]),
    "kronsum non-square": lambda L, a: L.kronsum(L.csr_array(a(np.ones((2, 3)))),
                                                L.csr_array(a(np.eye(2)))),
    "assign a sequence to an element": lambda L, a: L.csr_array(a(np.eye(2))).__setitem__(
        (0, 0), a([1.0, 2.0])),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUT))
def test_bad_input_raises_as_scipy(name):
    _same_error(BAD_INPUT[name])


def test_implicit_host_copies_are_refused():
    a = gsp.csr_array(gp.asarray(DENSE))
    with pytest.raises(TypeError, match="get()"):
        np.asarray(a)
    with pytest.raises(TypeError):
        np.sqrt(a)
    with pytest.raises(TypeError, match="implicitly"):
        a @ np.ones(3)           # a NumPy operand is not copied over behind the user's back
    with pytest.raises(TypeError, match="implicitly"):
        np.ones(3) + a
    with pytest.raises(TypeError):
        len(a)


def test_scipy_functions_refuse_gpunp_sparse_input():
    """SciPy does not recognise the objects (its issparse is an isinstance test
    against its own class), and its conversions fail on __array__: an error,
    never a silent copy."""
    a = gsp.csr_array(gp.asarray(DENSE))
    assert not sp.issparse(a)
    with pytest.raises(ValueError) as err:  # SciPy wraps our TypeError in its ValueError
        sp.csr_array(a)
    assert isinstance(err.value.__cause__, TypeError)
    with pytest.raises(TypeError):
        sp.kron(a, a)
    with pytest.raises(TypeError):
        sp.linalg.norm(a)


def test_get_and_asnumpy_give_scipys_objects():
    for fmt in ("csr", "csc", "coo", "dia", "bsr"):
        for flavour, base in (("array", sp.sparray), ("matrix", sp.spmatrix)):
            g = getattr(gsp, f"{fmt}_{flavour}")(DENSE)
            for host in (g.get(), gp.asnumpy(g)):
                assert type(host) is getattr(sp, f"{fmt}_{flavour}")
                assert isinstance(host, base)
                np.testing.assert_array_equal(host.toarray(), DENSE)


def test_checks_of_kind():
    m, a = gsp.csr_matrix(DENSE), gsp.csr_array(DENSE)
    assert gsp.issparse(m) and gsp.issparse(a) and not gsp.issparse(gp.asarray(DENSE))
    assert gsp.isspmatrix(m) and not gsp.isspmatrix(a)
    assert gsp.isspmatrix_csr(m) and not gsp.isspmatrix_csr(a) and not gsp.isspmatrix_csc(m)
    assert gsp.isspmatrix_coo(gsp.coo_matrix(DENSE)) and gsp.isspmatrix_dia(gsp.dia_matrix(DENSE))
    assert gsp.isspmatrix_bsr(gsp.bsr_matrix(DENSE)) and gsp.isspmatrix_csc(gsp.csc_matrix(DENSE))
    assert not gsp.isspmatrix_lil(m) and not gsp.isspmatrix_dok(m)
    assert isinstance(a, gsp.sparray) and isinstance(m, gsp.spmatrix)


def test_matrix_flavour_products_and_powers():
    m, s = gsp.csr_matrix(DENSE), sp.csr_matrix(DENSE)
    np.testing.assert_array_equal((m * m).toarray().get(), (s * s).toarray())
    np.testing.assert_array_equal((m ** 3).toarray().get(), (s ** 3).toarray())
    np.testing.assert_array_equal((m ** 0).toarray().get(), (s ** 0).toarray())
    np.testing.assert_array_equal((m * gp.ones(3)).get(), s * np.ones(3))
    np.testing.assert_array_equal(m.sum(axis=0).get(), np.asarray(s.sum(axis=0)))
    assert m.sum(axis=1).shape == (3, 1) and m.max(axis=0).shape == (1, 3)
    assert m[1].shape == (1, 3) and gsp.csr_array(DENSE)[1].shape == (3,)
    assert m.getnnz() == s.getnnz() and m.getformat() == "csr"
    np.testing.assert_array_equal(m.getnnz(axis=0).get(), s.getnnz(axis=0))
    np.testing.assert_array_equal(m.getrow(1).toarray().get(), s.getrow(1).toarray())
    np.testing.assert_array_equal(m.getcol(2).toarray().get(), s.getcol(2).toarray())
    np.testing.assert_array_equal(m.getH().toarray().get(), s.getH().toarray())
    assert m.asfptype().dtype == s.asfptype().dtype


def test_npz_round_trip(tmp_path):
    for g in (gsp.csr_array(DENSE), gsp.coo_matrix(DENSE), gsp.dia_array(DENSE),
              gsp.bsr_matrix(DENSE), gsp.csc_array(DENSE)):
        path = tmp_path / f"{g.format}.npz"
        gsp.save_npz(path, g)
        host = sp.load_npz(path)            # SciPy reads what gpunp wrote
        assert type(host) is type(g.get())
        back = gsp.load_npz(path)           # and gpunp reads it back
        assert type(back) is type(g)
        np.testing.assert_array_equal(back.toarray().get(), DENSE)
    with pytest.raises(TypeError):
        gsp.save_npz(tmp_path / "x.npz", gp.asarray(DENSE))


def test_repr_names_format_and_flavour():
    assert repr(gsp.csr_array(DENSE)) == repr(sp.csr_array(DENSE))
    assert repr(gsp.coo_matrix(DENSE)) == repr(sp.coo_matrix(DENSE))


def test_empty_selections_follow_numpy():
    """Where SciPy 1.17 errs on an empty selection (A[[0], 0:0] raises, a
    matrix's A[[], ::2] is dense), gpunp gives the empty sparse result NumPy's
    shapes call for."""
    a = gsp.csr_array(DENSE)
    assert a[gp.asarray([0]), 0:0].shape == (1, 0)
    assert gsp.csr_matrix((0, 0))[gp.asarray([], dtype=np.int64), ::2].shape == (0, 0)
    mask = gp.asarray([False, False, True])
    np.testing.assert_array_equal(a[mask, ::-1].toarray().get(), DENSE[[2], ::-1])
    m = gsp.csr_matrix(DENSE)[gp.asarray([0, 2]), ::2]
    assert isinstance(m, gsp.csr_matrix)
    np.testing.assert_array_equal(m.toarray().get(), DENSE[[0, 2], ::2])
    b = a.copy()
    b[gp.asarray([], dtype=np.int64), :] = 5.0    # nothing selected: nothing changes
    np.testing.assert_array_equal(b.toarray().get(), DENSE)


def test_setitem_keeps_explicit_zeros_and_warns_on_new_structure():
    a, s = gsp.csr_array(DENSE), sp.csr_array(DENSE)
    with pytest.warns(gsp.SparseEfficiencyWarning):
        a[0, 1] = 0.0
    with pytest.warns(sp.SparseEfficiencyWarning):
        s[0, 1] = 0.0
    assert a.nnz == s.nnz == 6


def test_subpackages_load_lazily_and_only_if_present():
    import os
    here = os.path.dirname(gsp.__file__)
    for name in ("linalg", "csgraph"):
        present = os.path.isdir(os.path.join(here, name))
        assert (name in gsp.__all__) == present
        if not present:
            with pytest.raises(AttributeError):
                getattr(gsp, name)


def test_dia_times_dia_equals_the_dense_product():
    a = gsp.dia_array(gp.asarray(DENSE))
    b = gsp.diags_array([gp.asarray([1.0, 2.0]), gp.asarray([3.0, 4.0, 5.0])], offsets=[1, 0])
    np.testing.assert_array_equal((a @ b).toarray().get(), DENSE @ b.toarray().get())
    e = gsp.dia_array((2, 3), dtype=bool)
    assert (e @ e.T).nnz == 0 and (e @ e.T).shape == (2, 2)


def test_bsr_product_sums_the_other_operands_duplicates_first():
    # SciPy makes the right operand BSR, which sums its duplicates in bool (or),
    # unless the blocks are 1 wide; CSR @ CSR multiplies each duplicate
    parts = (np.array([True, True]), np.array([0, 0]), np.array([0, 2]))
    b = sp.csr_array(parts, shape=(1, 2)).T.tocsr()
    g = gsp.csr_array(tuple(gp.asarray(p) for p in parts), shape=(1, 2)).T.tocsr()
    dense = np.array([[-4, 3]], dtype=np.int32)
    for blocks in ((1, 2), (1, 1), None):
        def left(m):
            return m.tobsr(blocksize=blocks) if blocks else m
        want = (left(sp.csr_array(dense)) @ b).toarray()
        got = (left(gsp.csr_array(gp.asarray(dense))) @ g).toarray().get()
        np.testing.assert_array_equal(got, want)



def test_bsr_sum_counts_a_bool_operands_duplicates_at_blocksize_one():
    # at blocksize (1, 1) SciPy's BSR keeps the CSR's duplicates and sums them in
    # the result's dtype (two True entries + 1.0 is 3.0); wider blocks or them
    parts = (np.ones(3, bool), np.array([0, 0, 1]), np.array([0, 2, 3, 3, 3]))
    c = sp.csr_array(parts, shape=(4, 4))
    g = gsp.csr_array(tuple(gp.asarray(p) for p in parts), shape=(4, 4))
    for blocks in ((1, 1), (2, 2)):
        want = (sp.bsr_array(np.eye(4), blocksize=blocks) + c).toarray()
        got = (gsp.bsr_array(gp.eye(4), blocksize=blocks) + g).toarray().get()
        np.testing.assert_array_equal(got, want)

def test_scipy_is_loaded_only_for_host_objects():
    """SciPy is optional at run time: gpunp.scipy.sparse imports and computes
    without it; .get(), SciPy inputs and .npz files load it."""
    import subprocess
    import sys
    import pathlib
    code = ("import sys, gpunp, gpunp.scipy.sparse as s; a = s.eye_array(3, format='csr'); "
            "(a @ a).toarray(); print('scipy' in sys.modules)")
    env = dict(__import__("os").environ,
               PYTHONPATH=str(pathlib.Path(gp.__file__).parent.parent))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_matrix_transpose():
    """mT and matrix_transpose (new in SciPy 1.18; under 1.17, whose sparse
    arrays have no mT, against SciPy's transpose of the last two axes)."""
    def want(s):
        if hasattr(s, "mT"):
            return s.mT
        return s.transpose() if s.ndim == 2 else sp.permute_dims(s, (0, 2, 1))

    a = sp.random_array((3, 4), density=0.5, rng=1, format="csr")
    for fmt in ("csr", "csc", "coo", "dia", "bsr"):
        s = a.asformat(fmt)
        g = getattr(gsp, fmt + "_array")(s)
        for got in (g.mT, gsp.matrix_transpose(g)):
            assert got.format == want(s).format and got.shape == want(s).shape
            np.testing.assert_array_equal(got.get().toarray(), want(s).toarray())
    s3 = sp.coo_array(np.arange(24.0).reshape(2, 3, 4) % 5)
    np.testing.assert_array_equal(gsp.coo_array(s3).mT.get().toarray(), want(s3).toarray())
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        gsp.coo_array(sp.coo_array(np.arange(3.0))).mT
    assert ("matrix_transpose" in gsp.__all__) == hasattr(sp, "matrix_transpose")
