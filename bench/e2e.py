"""End-to-end rows (issue 42, item 4): whole NumPy programs, each written
once against a module `xp` and run unchanged by NumPy, gpunp, CuPy and
PyTorch. Each program has two columns: "eager" (the program as written) and
"fused" (gpunp.fuse / cupy.fuse of the program's elementwise parts,
restructured as a CuPy user would; torch.compile of the eager program for
PyTorch; none for NumPy). Every library's answer is compared with NumPy's
answer to the same inputs before it is timed: a wrong one raises
AssertionError, which bench/__main__.py records as INVALID.

The programs use only names NumPy, CuPy, gpunp and PyTorch share with the
same meaning (PyTorch's functions take NumPy's `axis=` and `keepdims=`);
arrays the program needs besides its data (index ranges) are inputs, so no
program creates an array on a device of its own choosing.

Rows measured in fresh processes (the first call of a program with empty
kernel caches and without gpunp's kernel pack, and the time from a fresh
process to a program's first result on the host) are `fresh_process_rows`,
run by bench/__main__.py before it imports CuPy or PyTorch.
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from bench.workloads import Workload, _import_env, _to_host


# ---- the programs ---------------------------------------------------------------------
# Each takes the module and its inputs (arrays of that module, or Python
# scalars) and returns an array or a tuple of arrays.

def kmeans_step(xp, x, c, ks):
    """One Lloyd step: each point's nearest centre, then each centre the
    mean of its points (a centre with none stays put)."""
    d2 = (x * x).sum(axis=1, keepdims=True) - 2 * (x @ c.T) + (c * c).sum(axis=1)
    labels = xp.argmin(d2, axis=1)
    # bool times ones of x's dtype (PyTorch's tensors have no astype)
    onehot = (labels[:, None] == ks) * xp.ones_like(x[:1, :1])
    counts = onehot.sum(axis=0)
    sums = onehot.T @ x
    return xp.where(counts[:, None] > 0, sums / xp.where(counts > 0, counts, 1)[:, None], c)


def softmax_xent(xp, logits, labels, rows):
    """Softmax of each row and the mean cross-entropy of the labels."""
    m = xp.amax(logits, axis=1, keepdims=True)
    e = xp.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    loss = (xp.log(s[:, 0]) + m[:, 0] - logits[rows, labels]).mean()
    return e / s, loss


def mlp_forward(xp, x, w1, b1, w2, b2, w3, b3):
    """Two hidden ReLU layers and a linear output."""
    h = x @ w1 + b1
    h = xp.where(h > 0, h, 0.0)
    h = h @ w2 + b2
    h = xp.where(h > 0, h, 0.0)
    return h @ w3 + b3


# a European call and put by Monte Carlo with antithetic normals
S0, STRIKE, RATE, VOL, T = 100.0, 105.0, 0.03, 0.2, 1.0


def option_price(xp, z):
    """The call's and put's price and the call's standard error."""
    drift, vol = (RATE - 0.5 * VOL * VOL) * T, VOL * T ** 0.5
    disc = float(np.exp(-RATE * T))
    up, down = S0 * xp.exp(drift + vol * z), S0 * xp.exp(drift - vol * z)
    call = 0.5 * disc * (xp.where(up > STRIKE, up - STRIKE, 0.0) +
                         xp.where(down > STRIKE, down - STRIKE, 0.0))
    put = 0.5 * disc * (xp.where(up < STRIKE, STRIKE - up, 0.0) +
                        xp.where(down < STRIKE, STRIKE - down, 0.0))
    price = call.mean()
    stderr = xp.sqrt(((call - price) ** 2).mean() / z.shape[0])
    return price, put.mean(), stderr


def pairwise_distances(xp, x, y):
    """Euclidean distances between the rows of x and of y."""
    d2 = (x * x).sum(axis=1)[:, None] + (y * y).sum(axis=1)[None, :] - 2 * (x @ y.T)
    return xp.sqrt(xp.where(d2 > 0, d2, 0.0))


# the loop's distinct kernels: unary functions of x in (0.1, 0.9), binary of (x, y)
UNARY = ("sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arctanh exp exp2 expm1 log "
         "log2 log10 log1p sqrt square reciprocal abs negative floor ceil trunc sign deg2rad "
         "rad2deg").split()
BINARY = "hypot arctan2 maximum minimum fmod copysign logaddexp logaddexp2 multiply subtract" \
    .split()


def many_kernels(xp, x, y):
    """A sum of 39 distinct elementwise functions of small arrays."""
    acc = x
    for name in UNARY:
        acc = acc + getattr(xp, name)(x)
    for name in BINARY:
        acc = acc + getattr(xp, name)(x, y)
    return acc


def standardize_view(xp, a, w, b):
    """Columns of a strided, transposed view standardized, scaled by a
    broadcast row and shifted by a broadcast column."""
    v = a[::2, 1::2].T
    mu = v.mean(axis=0, keepdims=True)
    sd = xp.sqrt(((v - mu) ** 2).mean(axis=0, keepdims=True))
    return (v - mu) / sd * w[None, :] + b[:, None]


def int_hash(xp, x):
    """Integer mixing of int32 data: a hash, its count above a threshold,
    its sum."""
    y = (x * 7 + 3) % 1000
    h = (y >> 2) ^ (y & 15) ^ (x % 13)
    return h, (h > 100).sum(), h.sum()


# ---- the fused forms: the same programs, the elementwise parts as fused functions ------

def _fused_kmeans(xp, fuse):
    @fuse
    def dist(xx, g, cc):
        return xx - 2 * g + cc

    @fuse
    def hot(lab, k, one):
        return (lab == k) * one

    def run(x, c, ks):
        d2 = dist((x * x).sum(axis=1, keepdims=True), x @ c.T, (c * c).sum(axis=1))
        onehot = hot(xp.argmin(d2, axis=1)[:, None], ks, x[:1, :1])
        counts = onehot.sum(axis=0)
        sums = onehot.T @ x
        return xp.where(counts[:, None] > 0, sums / xp.where(counts > 0, counts, 1)[:, None], c)
    return run


def _fused_softmax(xp, fuse):
    @fuse
    def expsum(x, m):
        return xp.sum(xp.exp(x - m), axis=1)

    @fuse
    def probs(x, m, s):
        return xp.exp(x - m) / s

    @fuse
    def terms(s, m, t):
        return xp.sum(xp.log(s) + m - t)

    def run(logits, labels, rows):
        m = xp.amax(logits, axis=1, keepdims=True)
        s = expsum(logits, m)
        return probs(logits, m, s[:, None]), terms(s, m[:, 0], logits[rows, labels]) / s.shape[0]
    return run


def _fused_mlp(xp, fuse):
    @fuse
    def relu(h, b):
        return xp.where(h + b > 0, h + b, 0.0)

    def run(x, w1, b1, w2, b2, w3, b3):
        return relu(relu(x @ w1, b1) @ w2, b2) @ w3 + b3
    return run


def _fused_option(xp, fuse):
    # the scalars as arguments, the discount after the sums: each constant
    # of a traced function is a kernel operand, and a kernel takes 16
    def payoffs(z, a, b, k):
        up, down = xp.exp(a + b * z), xp.exp(a - b * z)
        call = xp.maximum(up - k, 0.0) + xp.maximum(down - k, 0.0)
        put = xp.maximum(k - up, 0.0) + xp.maximum(k - down, 0.0)
        return xp.sum(call), xp.sum(put), xp.sum(call * call)
    sums = fuse(payoffs)
    a, b = float(np.log(S0)) + (RATE - 0.5 * VOL * VOL) * T, VOL * T ** 0.5
    half_disc = 0.5 * float(np.exp(-RATE * T))

    def run(z):
        n = z.shape[0]
        call, put, sq = sums(z, a, b, STRIKE)
        price, mean_sq = call * (half_disc / n), sq * (half_disc * half_disc / n)
        # the variance from the second moment: one pass over the paths
        var = mean_sq - price * price
        return price, put * (half_disc / n), xp.sqrt(xp.where(var > 0, var, 0.0) / n)
    return run


def _fused_pairwise(xp, fuse):
    @fuse
    def dist(xx, yy, g):
        d2 = xx + yy - 2 * g
        return xp.sqrt(xp.where(d2 > 0, d2, 0.0))

    def run(x, y):
        return dist((x * x).sum(axis=1)[:, None], (y * y).sum(axis=1)[None, :], x @ y.T)
    return run


def _fused_many(xp, fuse):
    @fuse
    def many(x, y):
        return many_kernels(xp, x, y)
    return many


def _fused_standardize(xp, fuse):
    @fuse
    def scale(v, mu, sd, w, b):
        return (v - mu) / sd * w + b

    def run(a, w, b):
        v = a[::2, 1::2].T
        mu = v.mean(axis=0, keepdims=True)
        sd = xp.sqrt(((v - mu) ** 2).mean(axis=0, keepdims=True))
        return scale(v, mu, sd, w[None, :], b[:, None])
    return run


def _fused_int(xp, fuse):
    def mix(x):
        y = (x * 7 + 3) % 1000
        return (y >> 2) ^ (y & 15) ^ (x % 13)
    h = fuse(mix)
    # the reductions of a value that is also returned: gpunp's own, after the kernel
    return lambda x: (lambda v: (v, (v > 100).sum(), v.sum()))(h(x))


# ---- inputs (host arrays) of a size ----------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _kmeans_inputs(n, dtype):
    r = _rng(10)
    centres = r.standard_normal((64, 32)) * 4
    x = centres[r.integers(0, 64, n)] + r.standard_normal((n, 32))
    return x.astype(dtype), centres.astype(dtype), np.arange(64)


def _softmax_inputs(n, dtype):
    r = _rng(11)
    return ((r.standard_normal((n, n)) * 3).astype(dtype), r.integers(0, n, n), np.arange(n))


def _mlp_inputs(n, dtype):
    # batch n, 1024 -> 4096 -> 4096 -> 1024 at the full size (n = 8192)
    width = n // 2
    r = _rng(12)
    dims = (width // 4, width, width, width // 4)
    out = [r.standard_normal((n, dims[0]))]
    for i in range(3):
        out += [r.standard_normal((dims[i], dims[i + 1])) / np.sqrt(dims[i]),
                r.standard_normal(dims[i + 1]) * 0.1]
    return tuple(a.astype(dtype) for a in out)


def _option_inputs(n, dtype):
    return (_rng(13).standard_normal(n).astype(dtype),)


def _pairwise_inputs(n, dtype):
    r = _rng(14)
    return r.random((n, 64)).astype(dtype), r.random((n, 64)).astype(dtype)


def _many_inputs(n, dtype):
    r = _rng(15)
    return (r.uniform(0.1, 0.9, n).astype(dtype), r.uniform(0.1, 0.9, n).astype(dtype))


def _standardize_inputs(n, dtype):
    r = _rng(16)
    return (r.standard_normal((n, n)).astype(dtype) * 2 + 1,
            r.random(n // 2).astype(dtype), r.random(n // 2).astype(dtype))


def _int_inputs(n, dtype):
    return (_rng(17).integers(0, 1 << 20, n).astype(dtype),)


@dataclass(frozen=True)
class Program:
    key: str
    run: Callable            # (xp, *inputs) -> result
    fused: Optional[Callable]  # (xp, fuse) -> callable of the inputs
    inputs: Callable         # (n, dtype) -> host inputs
    rtol: float              # of the check, relative to the answer's largest magnitude


PROGRAMS = {p.key: p for p in (
    # label flips of points near two centres move a centre by ~1e-4 of its spread
    Program("kmeans", kmeans_step, _fused_kmeans, _kmeans_inputs, 1e-3),
    Program("softmax", softmax_xent, _fused_softmax, _softmax_inputs, 1e-4),
    Program("mlp", mlp_forward, _fused_mlp, _mlp_inputs, 1e-3),
    Program("option", option_price, _fused_option, _option_inputs, 1e-4),
    Program("pairwise", pairwise_distances, _fused_pairwise, _pairwise_inputs, 1e-4),
    Program("many", many_kernels, _fused_many, _many_inputs, 1e-5),
    Program("standardize", standardize_view, _fused_standardize, _standardize_inputs, 1e-4),
    Program("int", int_hash, _fused_int, _int_inputs, 0.0),
)}
# float64 programs are checked tighter: their sums round 2^29 times finer
_RTOL64 = 1e-9


@functools.lru_cache(maxsize=1)
def _host_inputs(key, n, dtype):
    return PROGRAMS[key].inputs(n, np.dtype(dtype))


@functools.lru_cache(maxsize=1)
def _numpy_answer(key, n, dtype):
    """NumPy's answer (kept while the program's rows are measured)."""
    out = PROGRAMS[key].run(np, *_host_inputs(key, n, dtype))
    return tuple(np.asarray(o) for o in (out if isinstance(out, tuple) else (out,)))


def check(lib, got, want, rtol):
    """AssertionError unless each of `got` (lib's arrays) is `want`'s to
    rtol of its largest magnitude (exactly, for rtol 0), shape included."""
    got = got if isinstance(got, tuple) else (got,)
    if len(got) != len(want):
        raise AssertionError(f"{lib.name}'s answer has {len(got)} parts, NumPy's {len(want)}")
    for g, w in zip(got, want):
        g = np.asarray(_to_host(lib, g))
        scale = float(np.abs(w).max(initial=0))
        if g.shape != w.shape or not np.allclose(g, w, rtol=0, atol=rtol * scale,
                                                 equal_nan=False):
            raise AssertionError(f"{lib.name}'s answer differs from NumPy's")


def program_fn(lib, key, dtype, fused, args):
    """The callable a row times: the program as written, or its fused form
    (gpunp.fuse, cupy.fuse, torch.compile of the program); None where the
    library has no fused column."""
    prog, xp = PROGRAMS[key], lib.xp
    if not fused:
        return lambda: prog.run(xp, *args)
    if lib.name in ("gpunp", "cupy"):
        f = prog.fused(xp, xp.fuse)
        return lambda: f(*args)
    if lib.name == "torch":
        f = xp.compile(lambda *a: prog.run(xp, *a))
        return lambda: f(*args)
    return None


def _row(key, dtype, fused):
    def make(lib, n):
        hosts = _host_inputs(key, n, dtype)
        if lib.name == "torch" and key == "many" and not all(hasattr(lib.xp, f)
                                                              for f in UNARY + BINARY):
            return None
        args = hosts if lib.name == "numpy" else tuple(lib.asarray(h) for h in hosts)
        fn = program_fn(lib, key, dtype, fused, args)
        if fn is None:
            return None
        rtol = PROGRAMS[key].rtol if np.dtype(dtype) != np.float64 else _RTOL64
        check(lib, fn(), _numpy_answer(key, n, dtype), rtol)
        return fn
    return make


# ---- fresh processes --------------------------------------------------------------------

_CHILD = """
import json, sys
sys.path.append(%r)  # after the installed gpunp
from bench import e2e
print(json.dumps(e2e.child(%r, %r, %d)))
"""


def child(libname, key, n):
    """In a fresh process: the library, the program's inputs on its device,
    the first call of the program timed up to its answer on the host (ms),
    the moment that answer was there (time.time()), and then the answer
    checked against NumPy's ("" or what was wrong)."""
    from bench import libs as L
    (lib,) = L.available([libname])
    hosts = _host_inputs(key, n, "float32")
    args = hosts if lib.name == "numpy" else tuple(lib.asarray(h) for h in hosts)
    lib.sync()
    t = time.perf_counter()
    got = program_fn(lib, key, "float32", False, args)()
    for g in got if isinstance(got, tuple) else (got,):
        _to_host(lib, g)
    first, done = (time.perf_counter() - t) * 1e3, time.time()
    try:
        check(lib, got, _numpy_answer(key, n, "float32"), PROGRAMS[key].rtol)
        wrong = ""
    except AssertionError as e:
        wrong = str(e)
    return {"first_call_ms": first, "done": done, "invalid": wrong}


FRESH_KEY = "softmax"
FRESH_LABELS = ("first call, empty caches, no kernel pack", "first call, warm caches",
                "fresh process to first result, empty caches",
                "fresh process to first result, warm caches")


def _fresh_side(quick):
    return 512 if quick else 4096


def fresh_row_names(quick: bool) -> list:
    n = _fresh_side(quick)
    return [f"program: softmax + cross-entropy, {n}x{n} float32, in a fresh process, {label}"
            for label in FRESH_LABELS]


def _fresh(name, n, env, cwd):
    """One fresh process of `child`: its result, with "to_result_ms" (from
    just before the process was started to its answer on the host)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spawn = time.time()
    r = subprocess.run([sys.executable, "-c", _CHILD % (root, name, FRESH_KEY, n)], env=env,
                       cwd=cwd, check=True, capture_output=True, text=True)
    out = json.loads(r.stdout.splitlines()[-1])
    out["to_result_ms"] = (out["done"] - spawn) * 1e3
    return out


def fresh_process_rows(libnames, quick: bool, repeats: int = 3) -> list:
    """Rows of the softmax + cross-entropy program in fresh processes, per
    library: its first call (inputs already on the device) with empty caches,
    then with those caches warm (a second process); and the time from
    starting the process to the answer on the host, cold and warm. Empty
    caches: gpunp's disk cache and no kernel pack, CuPy's kernel cache, the
    driver's PTX cache (NVRTC 12.9 and later keep output there). Each value
    the median of `repeats` such pairs, after one untimed process that
    writes the interpreter's bytecode (_import_env: as an installation has
    it)."""
    n = _fresh_side(quick)
    rows = [{"workload": name, "unit": "ms", "higher_is_better": False, "values": {},
             "invalid": {}} for name in fresh_row_names(quick)]
    for name in libnames:
        pairs = []
        try:
            for i in range(repeats + 1):
                with tempfile.TemporaryDirectory() as d:
                    env = dict(_import_env(), GPUNP_CACHE_DIR=os.path.join(d, "gpunp"),
                               GPUNP_KERNEL_PACK="", CUPY_CACHE_DIR=os.path.join(d, "cupy"),
                               CUDA_CACHE_PATH=os.path.join(d, "nv"))
                    pair = [_fresh(name, n, env, d) for _ in range(2 if i else 1)]
                    if i:
                        pairs.append(pair)
        except subprocess.CalledProcessError as e:
            print(f"  {name}: fresh process: {(e.stderr or '').strip()[-300:]}",
                  file=sys.stderr)
            continue
        wrong = [r["invalid"] for pair in pairs for r in pair if r["invalid"]]
        fields = ((0, "first_call_ms"), (1, "first_call_ms"), (0, "to_result_ms"),
                  (1, "to_result_ms"))
        for row, (i, field) in zip(rows, fields):
            if wrong:
                row["invalid"][name] = wrong[0]
            else:
                row["values"][name] = statistics.median(pair[i][field] for pair in pairs)
    return rows


# ---- the rows ----------------------------------------------------------------------------

def rows(quick: bool) -> list:
    points = 1 << (14 if quick else 20)
    side = 1024 if quick else 8192
    batch = 512 if quick else 8192
    paths = 1 << (18 if quick else 27)
    pside = 1024 if quick else 8192
    small = 1000
    vside = 1024 if quick else 8192
    ints = 1 << (18 if quick else 26)
    specs = [
        ("kmeans", "float32", points, f"k-means step, {points}x32 float32, 64 clusters"),
        ("softmax", "float32", side, f"softmax + cross-entropy, {side}x{side} float32"),
        ("softmax", "float64", side, f"softmax + cross-entropy, {side}x{side} float64"),
        ("mlp", "float32", batch, f"MLP forward, batch {batch}, "
                                  f"{batch // 8}-{batch // 2}-{batch // 2}-{batch // 8} float32"),
        ("option", "float32", paths, f"Monte Carlo call and put, {paths} antithetic float32 "
                                     "paths"),
        ("option", "float64", paths, f"Monte Carlo call and put, {paths} antithetic float64 "
                                     "paths"),
        ("pairwise", "float64", pside, f"pairwise distances, {pside}x{pside} of 64 float64"),
        ("standardize", "float32", vside, f"standardize a strided transposed view "
                                          f"{vside // 2}x{vside // 2} with broadcast operands, "
                                          "float32"),
        ("int", "int32", ints, f"integer hash, {ints} int32"),
    ]
    out = []
    for key, dtype, n, label in specs:
        for fused in (False, True):
            out.append(Workload(f"program: {label}, {'fused' if fused else 'eager'}", "ms", n,
                                _row(key, dtype, fused)))
    for fused in (False, True):
        out.append(Workload(f"program: {len(UNARY) + len(BINARY)} distinct elementwise "
                            f"functions of {small} float32, "
                            f"{'fused' if fused else 'eager'}, per loop", "us", small,
                            _row("many", "float32", fused), calls=300))
    return out
