"""Building sparse arrays and matrices: identities and diagonals, random
patterns, Kronecker products and sums, stacking and blocks, triangles,
``find``, and ``.npz`` files. Every function assembles coordinate arrays on
the device; only a grid of blocks is walked in Python, never the entries."""

import operator

import numpy

import gpunp

from gpunp.scipy._version import scipy_version
from gpunp.scipy.sparse._base import container, issparse, scipy_sparse, sparray
from gpunp.scipy.sparse._dia import dia_array, dia_matrix
from gpunp.scipy.sparse._sputils import (
    as_device, get_index_dtype, getdtype, isintlike, isscalarlike, upcast)


# ---- identities and diagonals ---------------------------------------------------------------

def _eye(m, n, k, dtype, format, as_array):
    if n is None:
        n = m
    m, n, k = operator.index(m), operator.index(n), operator.index(k)
    dtype = getdtype(dtype)
    if m == n and k == 0 and format in ("csr", "csc", "coo"):
        idx = get_index_dtype(maxval=n)
        ar = gpunp.arange(n, dtype=idx)
        data = gpunp.ones(n, dtype=dtype)
        if format == "coo":
            return container("coo", as_array)._from_arrays((n, n), (ar, ar.copy()), data,
                                                           canonical=True)
        return container(format, as_array)._from_arrays(
            (n, n), gpunp.arange(n + 1, dtype=idx), ar, data, canonical=True)
    data = gpunp.ones((1, max(0, min(m + k, n))), dtype=dtype)
    out = diags_array(data, offsets=[k], shape=(m, n), dtype=dtype)
    if not as_array:
        out = dia_matrix(out)
    return out.asformat(format)


def eye_array(m, n=None, *, k=0, dtype=float, format=None):
    """A sparse array with ones on diagonal `k` (scipy.sparse.eye_array)."""
    return _eye(m, n, k, dtype, format, True)


def eye(m, n=None, k=0, dtype=float, format=None):
    """A sparse matrix with ones on diagonal `k` (scipy.sparse.eye)."""
    return _eye(m, n, k, dtype, format, False)


def identity(n, dtype="d", format=None):
    """The n x n identity as a sparse matrix (scipy.sparse.identity)."""
    return eye(n, n, dtype=dtype, format=format)


def _as_1d(x):
    x = as_device(x)
    return x.reshape(1) if x.ndim == 0 else x


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None):
    """A sparse array from diagonals (scipy.sparse.diags_array)."""
    if isscalarlike(offsets):
        if isinstance(diagonals, gpunp.ndarray) and diagonals.ndim <= 1 or \
                not isinstance(diagonals, gpunp.ndarray) and (
                    len(diagonals) == 0 or isscalarlike(diagonals[0])):
            diagonals = [_as_1d(diagonals)]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    else:
        diagonals = [_as_1d(d) for d in diagonals]
    offsets = [int(o) for o in numpy.atleast_1d(
        offsets.get() if isinstance(offsets, gpunp.ndarray) else offsets)]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if shape is None:
        m = diagonals[0].shape[-1] + abs(offsets[0])
        shape = (m, m)
    if dtype is None:
        dtype = numpy.result_type(*(d.dtype for d in diagonals))
    dtype = getdtype(dtype)
    m, n = shape
    width = max(0, max(min(m + o, n - o) + max(0, o) for o in offsets))
    data = gpunp.zeros((len(offsets), width), dtype=dtype)
    kmin = min(m, n)
    for j, (diag, o) in enumerate(zip(diagonals, offsets)):  # one step per diagonal
        start = max(0, o)
        length = min(m + o, n - o, kmin)
        if length < 0:
            raise ValueError(f"Offset {o} (index {j}) out of bounds")
        size = diag.shape[-1]
        if size != length and size != 1 and size < length:
            raise ValueError(f"Diagonal length (index {j}: {size} at offset {o}) does not "
                             f"agree with array size ({m}, {n}).")
        data[j, start:start + length] = diag[..., :length] if size != 1 else diag[0]
    idx = get_index_dtype(maxval=max(shape))
    return dia_array._from_arrays((m, n), data, gpunp.asarray(
        numpy.array(offsets, dtype=idx))).asformat(format)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None):
    """A sparse matrix from diagonals (scipy.sparse.diags). The dtype is that of
    the diagonals (SciPy's announced future default)."""
    return dia_matrix(diags_array(diagonals, offsets=offsets, shape=shape,
                                  dtype=dtype)).asformat(format)


def spdiags(data, diags, m=None, n=None, format=None):
    """A DIA matrix from the rows of `data` (scipy.sparse.spdiags)."""
    data = as_device(data)
    if m is None and n is None:
        m = n = data.shape[-1]
    elif n is None:
        m, n = m
    return dia_matrix((data, as_device(diags)), shape=(m, n)).asformat(format)


# ---- random ---------------------------------------------------------------------------------

def _generator(rng):
    if isinstance(rng, gpunp.random.Generator):
        return rng
    return gpunp.random.default_rng(rng)


def _positions(gen, size, k):
    """k distinct flat positions in [0, size), sorted."""
    if k * 4 >= size:
        return gpunp.sort(gen.permutation(size)[:k])
    found = gpunp.zeros(0, dtype=numpy.int64)
    while found.size < k:  # a few rounds: collisions are rare when k << size
        draw = gen.integers(0, size, size=k - found.size + 16, dtype=numpy.int64)
        found = gpunp.unique(gpunp.concatenate([found, draw]))
    return gpunp.sort(gen.permutation(found)[:k])


def _values(gen, k, dtype, sampler):
    if sampler is not None:
        return as_device(sampler(k)).astype(dtype)
    if dtype.kind == "b":
        return gpunp.ones(k, dtype=dtype)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        return gen.integers(info.min, info.max, size=k, dtype=dtype)
    if dtype.kind == "c":
        real = numpy.dtype(dtype.char.lower())
        return (gen.random(k).astype(real) + 1j * gen.random(k).astype(real)).astype(dtype)
    return gen.random(k).astype(dtype)


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None,
                 data_sampler=None, random_state=None):
    """A sparse array of round(density * size) random entries at distinct random
    positions, drawn on the device by gpunp.random (scipy.sparse.random_array;
    the same seed gives gpunp's stream, not NumPy's)."""
    return _random(shape, density, format, dtype, rng if rng is not None else random_state,
                   data_sampler, True)


def _random(shape, density, format, dtype, rng, sampler, as_array):
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    m, n = (operator.index(d) for d in shape)
    dtype = getdtype(dtype, numpy.float64)
    size = m * n
    k = int(round(density * size))
    gen = _generator(rng)
    flat = _positions(gen, size, k) if k else gpunp.zeros(0, dtype=numpy.int64)
    idx = get_index_dtype(maxval=max(m, n))
    row, col = (flat // max(n, 1)).astype(idx), (flat % max(n, 1)).astype(idx)
    data = _values(gen, k, dtype, sampler)
    return container("coo", as_array)._from_arrays((m, n), (row, col), data,
                                                   canonical=True).asformat(format)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None, *,
           random_state=None):
    """A sparse matrix of random entries (scipy.sparse.random)."""
    return _random((m, n), density, format, dtype,
                   rng if rng is not None else random_state, data_rvs, False)


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, *, random_state=None):
    """A sparse matrix of uniform random entries (scipy.sparse.rand)."""
    return _random((m, n), density, format, dtype,
                   rng if rng is not None else random_state, None, False)


# ---- products of structure ------------------------------------------------------------------

def _coo(x, as_array=True):
    if issparse(x):
        return x.tocoo()
    return container("coo", as_array)(as_device(x))


def kron(A, B, format=None):
    """The Kronecker product of two sparse (or dense) operands (scipy.sparse.kron)."""
    as_array = isinstance(A, sparray) or isinstance(B, sparray)
    given = A
    A, B = _coo(A, as_array), _coo(B, as_array)
    if A.ndim != 2 or B.ndim != 2:
        raise ValueError("kron requires 2-D input")
    (ma, na), (mb, nb) = A.shape, B.shape
    shape = (ma * mb, na * nb)
    dtype = upcast(A.dtype, B.dtype)
    if A.nnz == 0 or B.nnz == 0:
        return container("coo", as_array)(shape).asformat(format)  # float64, as SciPy
    if (format is None or format == "bsr") and 2 * B.nnz >= mb * nb:
        # B is fairly dense: one block of B per entry of A
        # a CSR operand keeps its duplicates (each gives a block, as in SciPy)
        a = given.tocsr() if issparse(given) else A.tocsr()
        blocks = a.data.astype(dtype)[:, None, None] * B.toarray().astype(dtype)[None]
        out = container("bsr", as_array)((blocks, a.indices, a.indptr), shape=shape)
        return out.asformat(format)
    ar, ac, ad = A._coo_arrays()
    br, bc, bd = B._coo_arrays()
    idx = get_index_dtype(A.coords + B.coords, maxval=max(shape))
    row = (ar.astype(numpy.int64)[:, None] * mb + br.astype(numpy.int64)[None, :]).ravel()
    col = (ac.astype(numpy.int64)[:, None] * nb + bc.astype(numpy.int64)[None, :]).ravel()
    data = (ad.astype(dtype)[:, None] * bd.astype(dtype)[None, :]).ravel()
    return container("coo", as_array)._from_arrays(
        shape, (row.astype(idx), col.astype(idx)), data).asformat(format)


def kronsum(A, B, format=None):
    """kron(I_n, A) + kron(B, I_m) for square A (m x m) and B (n x n)."""
    as_array = isinstance(A, sparray) or isinstance(B, sparray)
    A, B = _coo(A, as_array), _coo(B, as_array)
    if A.shape[0] != A.shape[1]:
        raise ValueError("A is not square")
    if B.shape[0] != B.shape[1]:
        raise ValueError("B is not square")
    dtype = upcast(A.dtype, B.dtype)
    eye_b = _eye(B.shape[0], None, 0, dtype, "coo", as_array)
    eye_a = _eye(A.shape[0], None, 0, dtype, "coo", as_array)
    left = kron(eye_b, A, format="coo")
    right = kron(B, eye_a, format="coo")
    return (left + right).asformat(format)


# ---- stacking -------------------------------------------------------------------------------

def _check_compressed_stack(grid, fmt):
    """SciPy's stricter checks where every block is CSR (or every one CSC): its
    fast path compares sizes exactly, zero sizes too."""
    lines = grid if fmt == "csr" else [list(c) for c in zip(*grid)]
    along, other = (0, 1) if fmt == "csr" else (1, 0)
    for line in lines:
        if len(line) > 1:
            dims = {b.shape[along] for b in line}
            if len(dims) > 1:
                raise ValueError(f"Mismatching dimensions along axis {along}: {dims}")
    sizes = [sum(b.shape[other] for b in line) for line in lines]
    if len(set(sizes)) > 1:
        raise ValueError(f"incompatible dimensions for axis {other}")


def _block(blocks, format, dtype, as_array):
    grid = _grid(blocks)
    nrows, ncols = len(grid), len(grid[0]) if grid else 0
    for fmt in ("csr", "csc"):
        if format in (None, fmt) and all(issparse(b) and b.format == fmt
                                         for r in grid for b in r):
            _check_compressed_stack(grid, fmt)
    brow, bcol = [0] * nrows, [0] * ncols
    coos = {}
    for i in range(nrows):  # one step per block, never per entry
        for j in range(ncols):
            b = grid[i][j]
            if b is None:
                continue
            c = _coo(b)
            if c.ndim != 2:
                raise ValueError(_not_2d())
            coos[i, j] = c
            if brow[i] == 0:
                brow[i] = c.shape[0]
            elif brow[i] != c.shape[0]:
                raise ValueError(f"blocks[{i},:] has incompatible row dimensions. Got "
                                 f"blocks[{i},{j}].shape[0] == {c.shape[0]}, expected "
                                 f"{brow[i]}.")
            if bcol[j] == 0:
                bcol[j] = c.shape[1]
            elif bcol[j] != c.shape[1]:
                raise ValueError(f"blocks[:,{j}] has incompatible column dimensions. Got "
                                 f"blocks[{i},{j}].shape[1] == {c.shape[1]}, expected "
                                 f"{bcol[j]}.")
    if dtype is None:
        dtypes = [c.dtype for c in coos.values()]
        dtype = upcast(*dtypes) if dtypes else numpy.dtype(numpy.float64)
    dtype = getdtype(dtype)
    roff = [0] + list(numpy.cumsum(brow))
    coff = [0] + list(numpy.cumsum(bcol))
    shape = (int(roff[-1]), int(coff[-1]))
    idx = get_index_dtype([c.coords[0] for c in coos.values()], maxval=max(shape))
    rows, cols, datas = [], [], []
    for (i, j), c in sorted(coos.items()):
        rows.append(c.row.astype(idx) + idx.type(roff[i]))
        cols.append(c.col.astype(idx) + idx.type(coff[j]))
        datas.append(c.data.astype(dtype))
    if coos:
        row, col, data = (gpunp.concatenate(x) for x in (rows, cols, datas))
    else:
        row = col = gpunp.zeros(0, dtype=idx)
        data = gpunp.zeros(0, dtype=dtype)
    out = container("coo", as_array)._from_arrays(shape, (row, col), data)
    formats = {c.format for b in (x for r in grid for x in r) if b is not None and issparse(b)
               for c in (b,)}
    all_sparse = all(b is not None and issparse(b) for r in grid for b in r)
    if format is None and all_sparse and formats == {"csr"}:
        return out.tocsr()
    if format is None and all_sparse and formats == {"csc"}:
        return out.tocsc()
    return out.asformat(format)


def _not_2d():
    # SciPy 1.18 lengthened the message
    return ("blocks must be 2-D, and some must be sparse" if scipy_version() >= 11800
            else "blocks must be 2-D")


def _grid(blocks):
    """A list of rows of blocks; SciPy's 'blocks must be 2-D' otherwise."""
    if isinstance(blocks, (gpunp.ndarray, numpy.ndarray)) and blocks.dtype != object:
        raise ValueError(_not_2d())
    rows = [list(r) if isinstance(r, (list, tuple, numpy.ndarray)) else None for r in blocks]
    if not rows or any(r is None for r in rows) or len({len(r) for r in rows}) != 1:
        raise ValueError(_not_2d())
    return rows


def _any_array(blocks):
    return any(isinstance(b, sparray) for r in blocks for b in (
        r if isinstance(r, (list, tuple, numpy.ndarray)) else [r]))


def block_array(blocks, *, format=None, dtype=None):
    """A sparse array from a 2-D grid of sparse blocks (None for zeros)."""
    return _block(blocks, format, dtype, True)


def bmat(blocks, format=None, dtype=None):
    """block_array() whose result is a matrix unless a block is a sparse array."""
    return _block(blocks, format, dtype, _any_array(blocks))


def hstack(blocks, format=None, dtype=None):
    """Sparse blocks side by side (scipy.sparse.hstack)."""
    return _block([list(blocks)], format, dtype, _any_array([list(blocks)]))


def vstack(blocks, format=None, dtype=None):
    """Sparse blocks one above the other (scipy.sparse.vstack)."""
    rows = [[b] for b in blocks]
    return _block(rows, format, dtype, _any_array(rows))


def block_diag(mats, format=None, dtype=None):
    """The blocks `mats` along the diagonal (scipy.sparse.block_diag); a dense
    block stores all its values, zeros too, as SciPy's does."""
    as_array = any(isinstance(a, sparray) for a in mats)
    rows, cols, datas, wide = [], [], [], []
    r0 = c0 = 0
    for a in mats:  # one step per block
        if issparse(a):
            a = a.tocoo()
            if not wide and a.coords[0].dtype == numpy.int64:
                wide.append(a.coords[0])
            nr, nc = a.shape
            row, col, data = a._coo_arrays()
        else:
            a = as_device(a)
            a = a.reshape(1, -1) if a.ndim < 2 else a
            nr, nc = a.shape
            flat = gpunp.arange(nr * nc, dtype=numpy.int64)
            row, col, data = flat // max(nc, 1), flat % max(nc, 1), a.ravel()
        rows.append(row.astype(numpy.int64) + r0)
        cols.append(col.astype(numpy.int64) + c0)
        datas.append(data)
        r0, c0 = r0 + nr, c0 + nc
    idx = get_index_dtype(wide, maxval=max(r0, c0))
    dt = getdtype(dtype) if dtype is not None else (
        upcast(*(d.dtype for d in datas)) if datas else numpy.dtype(numpy.float64))
    if datas:
        row, col = (gpunp.concatenate(x).astype(idx) for x in (rows, cols))
        data = gpunp.concatenate([d.astype(dt) for d in datas])
    else:
        row = col = gpunp.zeros(0, dtype=idx)
        data = gpunp.zeros(0, dtype=dt)
    return container("coo", as_array)._from_arrays((r0, c0), (row, col),
                                                   data).asformat(format)


# ---- triangles and entries ------------------------------------------------------------------

def _triangle(A, k, format, upper):
    as_array = isinstance(A, sparray) or not issparse(A)
    coo = _coo(A, as_array)
    row, col, data = coo._coo_arrays()
    diff = col.astype(numpy.int64) - row.astype(numpy.int64)
    keep = diff >= k if upper else diff <= k
    return container("coo", as_array)._from_arrays(
        coo.shape, (row[keep], col[keep]), data[keep]).asformat(format)


def tril(A, k=0, format=None):
    """The entries on and below diagonal k (scipy.sparse.tril)."""
    return _triangle(A, k, format, False)


def triu(A, k=0, format=None):
    """The entries on and above diagonal k (scipy.sparse.triu)."""
    return _triangle(A, k, format, True)


def find(A):
    """(row, col, value) of the nonzero entries, duplicates summed first."""
    coo = _coo(A).copy()
    coo.sum_duplicates()
    nz = coo.data != 0
    return coo.row[nz], coo.col[nz], coo.data[nz]


# ---- files ----------------------------------------------------------------------------------

def save_npz(file, matrix, compressed=True):
    """Writes `matrix` in SciPy's .npz layout (through its host copy, .get())."""
    if not issparse(matrix):
        raise TypeError("save_npz expects a gpunp sparse array or matrix")
    scipy_sparse().save_npz(file, matrix.get(), compressed=compressed)


def load_npz(file):
    """Reads a SciPy .npz file into the gpunp class of the same format and flavour."""
    host = scipy_sparse().load_npz(file)
    is_array = isinstance(host, scipy_sparse().sparray)
    return container(host.format, is_array)(host)


# ---- axes and index dtypes ------------------------------------------------------------------

def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise ValueError(f"Invalid axis {axis} for N={ndim}")
    return axis % ndim


def matrix_transpose(A):
    """A.mT: the transpose of each matrix of the stack A (new in SciPy 1.18,
    listed in gpunp.scipy.sparse from that SciPy on)."""
    return A.mT


def swapaxes(A, axis1, axis2):
    """A copy of `A` with two axes swapped (COO where they differ, as SciPy)."""
    for ax in (axis1, axis2):
        if not -A.ndim <= ax < A.ndim:
            raise ValueError(f"Invalid axis: {ax} is out of bounds for ndim={A.ndim}")
    axes = list(range(A.ndim))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return permute_dims(A, axes=tuple(axes), copy=True)


def permute_dims(A, axes=None, copy=False):
    """`A` with its axes permuted: itself (or a copy) for the identity, else a
    COO array (SciPy permutes COO coordinates; unlike SciPy, gpunp never
    permutes a COO input in place)."""
    ndim = A.ndim
    axes = tuple(range(ndim))[::-1] if axes is None else axes
    if len(axes) != ndim:
        raise ValueError(f"Incorrect number of axes: {ndim} instead of {A.ndim}")
    canon = []
    for ax in axes:
        if not isintlike(ax):
            raise TypeError(f"axis must be an integer. (given {ax})")
        ax = operator.index(ax) + (ndim if ax < 0 else 0)
        if not 0 <= ax < ndim:
            raise ValueError("axis out of range for ndim")
        canon.append(ax)
    if len(set(canon)) != len(canon):
        raise ValueError("duplicate value in axis")
    if canon == list(range(ndim)):
        return A.copy() if copy else A
    coo = A.tocoo()
    return type(coo)._from_arrays(tuple(coo.shape[i] for i in canon),
                                  tuple(coo.coords[i].copy() for i in canon),
                                  coo.data.copy())


def expand_dims(A, /, *, axis=0):
    """A 1-D sparse array as a 2-D one with a new axis of length one (gpunp's
    sparse arrays have at most two dimensions)."""
    if A.ndim != 1:
        raise NotImplementedError("gpunp's sparse arrays have at most 2 dimensions")
    axis = _axis(axis, 2)
    coo = A.tocoo()
    zero = gpunp.zeros_like(coo.coords[0])
    coords = (zero, coo.coords[0]) if axis == 0 else (coo.coords[0], zero)
    shape = (1, A.shape[0]) if axis == 0 else (A.shape[0], 1)
    return container("coo", True)._from_arrays(shape, coords, coo.data.copy()).asformat(
        A.format if A.format != "coo" else None)


def safely_cast_index_arrays(A, idx_dtype=numpy.int32, msg=""):
    """A's index arrays cast to `idx_dtype`, or ValueError where a value does
    not fit (checked on the device, one reduction per array)."""
    arrays = A.coords if A.format == "coo" else (A.indices, A.indptr) \
        if A.format in ("csr", "csc", "bsr") else (A.offsets,)
    info = numpy.iinfo(idx_dtype)
    out = []
    for a in arrays:
        if a.dtype != idx_dtype and a.size and (int(a.max()) > info.max or
                                                int(a.min()) < info.min):
            raise ValueError(f"indices values too large for {msg}")
        out.append(a.astype(idx_dtype))
    return tuple(out)
