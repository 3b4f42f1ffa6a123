"""Binary morphology (scipy.ndimage's binary_* functions): every erosion or
dilation is one pass of one generated kernel over the image, and "until
stable" repeats it while the pass reports a change through a one-element
flag, so no reduction runs per iteration."""

import operator

import numpy

import gpunp

from ._ni_support import check_axes, normalize_sequence

__all__ = ["generate_binary_structure", "iterate_structure", "binary_erosion",
           "binary_dilation", "binary_opening", "binary_closing", "binary_hit_or_miss",
           "binary_propagation", "binary_fill_holes"]


# ---- argument readings shared by the package's morphology, labels and distances ----------

def as_device(a):
    return a if isinstance(a, gpunp.ndarray) else gpunp.asarray(a)


def host(a):
    """A small argument (structure, origin, index) as a NumPy array."""
    return a.get() if isinstance(a, gpunp.ndarray) else numpy.asarray(a)


def output_array(output, shape, default):
    """SciPy's reading of output=: None or a dtype makes a new zeroed array, an
    array must have the input's shape."""
    if output is None:
        return gpunp.zeros(shape, default)
    if isinstance(output, (type, numpy.dtype, str)):
        return gpunp.zeros(shape, numpy.dtype(output))
    if not isinstance(output, gpunp.ndarray):
        raise TypeError("output must be a gpunp array or a dtype")
    if output.shape != tuple(shape):
        raise RuntimeError("output shape not correct")
    return output


# ---- the erosion pass ----------------------------------------------------------------------

def ranked(in_params, out_params, operation, name, preamble=""):
    """A kernel per image rank nd, made at first use: nd is a constant of the
    source (and the coordinate arrays `c[64]` get its length), so the loops
    over axes unroll and the coordinates stay in registers on a GPU."""
    kernels = {}

    def kernel(nd):
        k = kernels.get(nd)
        if k is None:
            code = f"const int nd = {nd};\n" + operation.replace("[64]", f"[{max(nd, 1)}]")
            k = kernels[nd] = gpunp.ElementwiseKernel(in_params, out_params, code,
                                                      f"{name}_{nd}d", preamble=preamble)
        return k
    return kernel


# One output element: all (erosion) or any (dilation, inv = 1) of the
# structure's neighbours, a neighbour outside the image counting as bv; an
# element outside the mask keeps its input value. A change raises flag[0]
# (every writer writes the same 1, so the race is harmless).
_ERODE = ranked(
    "raw bool x, raw int64 offs, raw int64 shp, raw bool m, int32 nk, "
    "int32 bv, int32 inv, int32 usemask",
    "bool y, raw int32 flag",
    """
    int in = x[i] != 0;
    int out = in;
    if (!usemask || m[i]) {
        long long c[64];
        long long rem = (long long)i;
        for (int d = nd - 1; d >= 0; --d) {
            c[d] = rem % shp[d];
            rem /= shp[d];
        }
        out = !inv;
        for (int k = 0; k < nk; ++k) {
            const long long *o = offs + (long long)k * nd;
            int inside = 1;
            for (int d = 0; d < nd; ++d) {
                long long t = c[d] + o[d];
                if (t < 0 || t >= shp[d]) {
                    inside = 0;
                    break;
                }
            }
            int v = inside ? x[i + offs[(long long)nk * nd + k]] != 0 : bv;
            if (v == inv) {
                out = inv;
                break;
            }
        }
    }
    y = out;
    if (out != in)
        flag[0] = 1;
    """,
    "gpunp_ndi_binary_erode")


def _offsets(structure, origin, shape):
    """The true elements of the structure as per-axis offsets from the centre
    (size // 2 + origin) followed by their flat offsets in the image."""
    centre = numpy.array([n // 2 + o for n, o in zip(structure.shape, origin)], numpy.int64)
    rel = numpy.argwhere(structure).astype(numpy.int64) - centre
    strides = numpy.ones(len(shape), numpy.int64)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    flat = rel @ strides if len(shape) else numpy.zeros(len(rel), numpy.int64)
    table = numpy.concatenate([rel.ravel(), flat])
    return gpunp.asarray(table if table.size else numpy.zeros(1, numpy.int64)), len(rel)


def check_origin(origin, shape):
    for o, n in zip(origin, shape):
        if not -(n // 2) <= o <= (n - 1) // 2:
            raise ValueError("invalid origin")


class _Eroder:
    """One structure, origin, mask and border value on one image shape: the
    kernel's constant arguments built once for every iteration."""

    def __init__(self, shape, structure, origin, mask, border_value, invert):
        self.shape = tuple(shape)
        self.table, self.nk = _offsets(structure, origin, self.shape)
        self.shp = gpunp.asarray(numpy.array(self.shape or (1,), numpy.int64))
        self.usemask = 0 if mask is None else 1
        self.mask = gpunp.zeros(1, bool) if mask is None else mask
        self.bv = 1 if border_value else 0
        self.invert = 1 if invert else 0
        self.flag = gpunp.zeros(1, numpy.int32)

    def __call__(self, src, dst, last):
        """One pass src -> dst (both bool, C-contiguous); whether it changed
        anything, read back (one synchronisation) unless it is the last."""
        if not last:
            self.flag.fill(0)
        _ERODE(len(self.shape))(src, self.table, self.shp, self.mask, self.nk, self.bv,
                                self.invert, self.usemask, dst, self.flag)
        return None if last else bool(self.flag[0])


def binary_core(input, structure, iterations, mask, output, border_value, origin, invert,
                axes):
    """SciPy's _binary_erosion: erosion, or (invert) dilation by the structure
    as given (the caller reflects it), `iterations` < 1 meaning until stable."""
    try:
        iterations = operator.index(iterations)
    except TypeError as e:
        raise TypeError("iterations parameter should be an integer") from e
    input = as_device(input)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    ndim = input.ndim
    axes = check_axes(axes, ndim)
    structure = host(_default_structure(structure, len(axes))).astype(bool)
    if ndim > len(axes):
        if structure.ndim != len(axes):
            raise RuntimeError(f"structure.ndim ({structure.ndim}) must match len(axes) "
                               f"({len(axes)})")
        structure = numpy.expand_dims(structure, tuple(ax for ax in range(ndim)
                                                       if ax not in axes))
    if structure.ndim != ndim:
        raise RuntimeError("structure and input must have same dimensionality")
    if structure.size < 1:
        raise RuntimeError("structure must not be empty")
    if mask is not None:
        mask = as_device(mask)
        if mask.shape != input.shape:
            raise RuntimeError("mask and input must have equal sizes")
        mask = gpunp.ascontiguousarray(mask != 0)
    origins = normalize_sequence(origin, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for o, ax in zip(origins, axes):
            full[ax] = o
        origins = full
    origins = [operator.index(o) for o in origins]
    check_origin(origins, structure.shape)
    if isinstance(output, gpunp.ndarray):
        if output.dtype.kind == "c":
            raise TypeError("Complex output type not supported")
        out = output_array(output, input.shape, bool)
    else:
        out = None
    if iterations == 1 and input.dtype == bool and input.flags.c_contiguous:
        src = input  # read only: a single pass needs no second buffer
    else:
        src = gpunp.ascontiguousarray(input != 0)
    result = gpunp.empty(input.shape, bool)
    if src.size:
        step = _Eroder(input.shape, structure, origins, mask, border_value, invert)
        changed = step(src, result, iterations == 1)
        done, spare = 1, src
        # a pass that changes nothing ends it: every later pass would repeat it
        while changed and (done < iterations or iterations < 1):
            changed = step(result, spare, done + 1 == iterations)
            result, spare = spare, result
            done += 1
    if out is None:
        return result
    out[...] = result
    return out


# ---- structures ----------------------------------------------------------------------------

def generate_binary_structure(rank, connectivity):
    """SciPy's generate_binary_structure (a small host array, as SciPy's
    structures are arguments): the elements within `connectivity` steps of
    the centre of a 3**rank cube."""
    if connectivity < 1:
        connectivity = 1
    if rank < 1:
        return gpunp.asarray(numpy.array(True, dtype=bool))
    steps = numpy.abs(numpy.indices([3] * rank) - 1).sum(axis=0)
    return gpunp.asarray(steps <= connectivity)


def iterate_structure(structure, iterations, origin=None):
    """The structure dilated by itself iterations - 1 times (and the origin
    scaled by iterations when one is given)."""
    structure = host(structure)
    if iterations < 2:
        out = gpunp.asarray(structure.copy())
    else:
        ni = iterations - 1
        shape = [n + ni * (n - 1) for n in structure.shape]
        seed = numpy.zeros(shape, bool)
        seed[tuple(slice(ni * (n // 2), ni * (n // 2) + n) for n in structure.shape)] = \
            structure != 0
        out = binary_dilation(gpunp.asarray(seed), structure, iterations=ni)
    if origin is None:
        return out
    origin = normalize_sequence(origin, structure.ndim)
    return out, [iterations * o for o in origin]


def _default_structure(structure, nax):
    return generate_binary_structure(nax, 1) if structure is None else structure


def _reflected(structure, origin, nax):
    """Dilation is erosion by the reflected structure, whose origin moves to
    the reflected centre (one more step back along an even axis)."""
    structure = host(structure)
    structure = structure[(slice(None, None, -1),) * structure.ndim]
    origin = normalize_sequence(origin, nax)
    origin = [-operator.index(o) - (0 if n & 1 else 1) for o, n in
              zip(origin, structure.shape)]
    return structure, origin


# ---- the public operations -----------------------------------------------------------------

def binary_erosion(input, structure=None, iterations=1, mask=None, output=None, border_value=0,
                   origin=0, brute_force=False, *, axes=None):
    """Binary erosion (scipy.ndimage.binary_erosion); brute_force changes
    nothing here (every pass looks at every element)."""
    return binary_core(input, structure, iterations, mask, output, border_value, origin, False,
                       axes)


def binary_dilation(input, structure=None, iterations=1, mask=None, output=None, border_value=0,
                    origin=0, brute_force=False, *, axes=None):
    """Binary dilation (scipy.ndimage.binary_dilation)."""
    input = as_device(input)
    nax = len(check_axes(axes, input.ndim))
    structure, origin = _reflected(_default_structure(structure, nax), origin, nax)
    return binary_core(input, structure, iterations, mask, output, border_value, origin, True,
                       axes)


def binary_opening(input, structure=None, iterations=1, output=None, origin=0, mask=None,
                   border_value=0, brute_force=False, *, axes=None):
    """Erosion then dilation (scipy.ndimage.binary_opening)."""
    input = as_device(input)
    structure = _default_structure(structure, len(check_axes(axes, input.ndim)))
    tmp = binary_erosion(input, structure, iterations, mask, None, border_value, origin,
                         axes=axes)
    return binary_dilation(tmp, structure, iterations, mask, output, border_value, origin,
                           axes=axes)


def binary_closing(input, structure=None, iterations=1, output=None, origin=0, mask=None,
                   border_value=0, brute_force=False, *, axes=None):
    """Dilation then erosion (scipy.ndimage.binary_closing)."""
    input = as_device(input)
    structure = _default_structure(structure, len(check_axes(axes, input.ndim)))
    tmp = binary_dilation(input, structure, iterations, mask, None, border_value, origin,
                          axes=axes)
    return binary_erosion(tmp, structure, iterations, mask, output, border_value, origin,
                          axes=axes)


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0,
                       origin2=None, *, axes=None):
    """Where structure1 fits the foreground and structure2 the background
    (scipy.ndimage.binary_hit_or_miss); None when output is an array."""
    input = as_device(input)
    nax = len(check_axes(axes, input.ndim))
    structure1 = host(_default_structure(structure1, nax))
    if structure2 is None:
        structure2 = numpy.logical_not(structure1)
    origin1 = normalize_sequence(origin1, nax)
    origin2 = origin1 if origin2 is None else normalize_sequence(origin2, nax)
    fits = binary_core(input, structure1, 1, None, None, 0, origin1, False, axes)
    # the background fits structure2 where no true element of it meets the foreground
    touches = binary_core(input, structure2, 1, None, None, 0, origin2, True, axes)
    result = gpunp.logical_and(fits, gpunp.logical_not(touches))
    if isinstance(output, gpunp.ndarray):
        output_array(output, input.shape, bool)[...] = result
        return None
    return result


def binary_propagation(input, structure=None, mask=None, output=None, border_value=0, origin=0,
                       *, axes=None):
    """Dilation repeated until stable, inside the mask
    (scipy.ndimage.binary_propagation)."""
    return binary_dilation(input, structure, -1, mask, output, border_value, origin, axes=axes)


def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """The foreground and every background region the border cannot reach
    (scipy.ndimage.binary_fill_holes); None when output is an array."""
    input = as_device(input)
    background = gpunp.logical_not(input)
    reached = binary_dilation(gpunp.zeros(input.shape, bool), structure, -1, background, None,
                              1, origin, axes=axes)
    result = gpunp.logical_not(reached)
    if isinstance(output, gpunp.ndarray):
        output_array(output, input.shape, bool)[...] = result
        return None
    return result
