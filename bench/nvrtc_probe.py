"""NVRTC's time for a few kernel sources, as cubin and as PTX loaded by the
driver, with and without -Ofc=max: the profile of the cold first call in
docs/performance.md. Needs a CUDA device (the PTX rows load modules).

    CUDA_CACHE_DISABLE=1 GPUNP_BACKEND=cuda python -m bench.nvrtc_probe

The sources: an empty kernel and a one-line tanhf loop without gpunp's
prelude; with the prelude (csrc/prelude, as the engine prepends it
to a float32 kernel), an empty kernel, scalar loops of a negation and of
tanh, and the engine's generated tanh kernel of float32 (the body of
`ed3ed63`, from GPUNP_KERNEL_LOG: a 4-wide vector loop and a scalar tail).
Timed in one process after a warm-up compile, medians of five; a second
table splits each time into NVRTC's own phases (its `--time` report: the
C++ front end, the NVVM optimizer, PTX to cubin) and the driver's load (for
PTX, its translation to the device's code). Run it with the driver's cache
off (CUDA_CACHE_DISABLE=1): NVRTC 12.9 and later keep their output there and
would run only their front end for a source met before.
"""

import ctypes
import csv
import os
import statistics
import tempfile
import time
from pathlib import Path

PRELUDE = Path(__file__).resolve().parent.parent / "csrc" / "kernels" / "prelude"

# the generated kernel's opening: its name, parameters and macros
TANH = """\
/* elementwise tanh */
#define F(n) gpk_##n##_f32
typedef int gpk_idx;
struct gpk_params {
  gpk_index n;
  const gpk_f32 *GPK_RESTRICT p0;
  gpk_f32 *GPK_RESTRICT p1;
};
GPK_KERNEL(gpk_tanh_f32_f32_c41, struct gpk_params)
{
"""

BODIES = {
    "empty": """\
struct gpk_params { gpk_index n; };
GPK_KERNEL(gpk_empty, struct gpk_params)
{
}
""",
    "tanh_scalar": TANH + """\
GPK_GRID_LOOP(gpk_idx, i, p.n) {
const gpk_f32 x0 = (*(const gpk_f32 *)(p.p0 + i));
gpk_f32 y0;
y0 = F(tanh)(x0);
*(gpk_f32 *)(p.p1 + i) = y0;
}
}
""",
    "tanh_vec": TANH + """\
typedef struct { GPK_ALIGN(16) gpk_f32 v[4]; } gpk_vec0;
typedef struct { GPK_ALIGN(16) gpk_f32 v[4]; } gpk_vec1;
const gpk_idx nv = (gpk_idx)(p.n / 4);
const gpk_idx step = (gpk_idx)GPK_NUM_BLOCKS * (gpk_idx)GPK_BLOCK_SIZE;
for (gpk_idx b0 = (gpk_idx)GPK_BLOCK_ID * (gpk_idx)GPK_BLOCK_SIZE + (gpk_idx)GPK_THREAD_ID; b0 < nv; b0 += step * 1) {
gpk_vec0 r0[1];
for (int u = 0; u < 1; ++u) {
const gpk_idx iv = b0 + u * step;
if (iv < nv) {
r0[u] = ((const gpk_vec0 *)p.p0)[iv];
}
}
for (int u = 0; u < 1; ++u) {
const gpk_idx iv = b0 + u * step;
if (iv >= nv) break;
gpk_vec1 w1;
for (int k = 0; k < 4; ++k) {
const gpk_idx i = iv * 4 + k;
(void)i;
const gpk_f32 x0 = r0[u].v[k];
gpk_f32 y0;
y0 = F(tanh)(x0);
w1.v[k] = y0;
}
((gpk_vec1 *)p.p1)[iv] = w1;
}
}
GPK_GRID_LOOP(gpk_idx, t, p.n % 4) {
const gpk_idx i = p.n - p.n % 4 + t;
const gpk_f32 x0 = (*(const gpk_f32 *)(p.p0 + i));
gpk_f32 y0;
y0 = F(tanh)(x0);
*(gpk_f32 *)(p.p1 + i) = y0;
}
}
""",
}

RAW = {
    "empty kernel, no prelude": 'extern "C" __global__ void k() {}\n',
    "one-line tanhf loop, no prelude": (
        'extern "C" __global__ void k(int n, const float *__restrict__ a, float *__restrict__ b)'
        ' { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;'
        ' i += gridDim.x * blockDim.x) b[i] = tanhf(a[i]); }\n'),
}

NAMES = {"empty": "the prelude, empty kernel", "neg_scalar": "the prelude, scalar negation loop",
         "tanh_scalar": "the prelude, scalar tanh loop",
         "tanh_vec": "the engine's tanh kernel (vector loop and tail)"}

OPTIONS = [b"-std=c++17", b"-fmad=false", b"-default-device", b"-minimal"]
VARIANTS = {"cubin": (b"-arch=sm_90", False, []), "cubin, -Ofc=max": (b"-arch=sm_90", False, [b"-Ofc=max"]),
            "ptx + JIT": (b"-arch=compute_90", True, []),
            "ptx + JIT, -Ofc=max": (b"-arch=compute_90", True, [b"-Ofc=max"])}


def sources() -> dict:
    prelude = "\n".join((PRELUDE / f"{f}.h").read_text() for f in ("cuda", "gpu"))
    common = (PRELUDE / "common.h").read_text()
    out = dict(RAW)
    bodies = dict(BODIES, neg_scalar=BODIES["tanh_scalar"].replace("F(tanh)(x0)", "-x0"))
    for k, body in sorted(bodies.items(), key=lambda kv: list(NAMES).index(kv[0])):
        out[NAMES[k]] = prelude + "\n" + common + "\n" + body
    return out


def libraries():
    import numpy
    import gpunp
    (gpunp.zeros(10, numpy.float32) + 1).sum().item()  # gpunp finds and loads NVRTC
    maps = open("/proc/self/maps").read().split("\n")
    path = sorted({m.split()[-1] for m in maps if "libnvrtc.so" in m})[0]
    nv, cu = ctypes.CDLL(path), ctypes.CDLL("libcuda.so.1")
    ctx, dev = ctypes.c_void_p(), ctypes.c_int()
    assert cu.cuInit(0) == 0 and cu.cuDeviceGet(ctypes.byref(dev), 0) == 0
    assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0
    assert cu.cuCtxSetCurrent(ctx) == 0
    return path, nv, cu


def compile_ms(nv, cu, src: bytes, arch: bytes, ptx: bool, extra) -> tuple:
    """Compile and load time (ms) and its parts: NVRTC's phases as its
    `--time` report names them, and "load" (the driver's part)."""
    prog = ctypes.c_void_p()
    fd, report = tempfile.mkstemp(suffix=".csv")
    os.close(fd)
    t = time.perf_counter()
    assert nv.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None) == 0
    opts = OPTIONS + [arch] + extra + [b"--time=" + report.encode()]
    assert nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts)) == 0
    n = ctypes.c_size_t()
    size, get = (nv.nvrtcGetPTXSize, nv.nvrtcGetPTX) if ptx else (nv.nvrtcGetCUBINSize, nv.nvrtcGetCUBIN)
    assert size(prog, ctypes.byref(n)) == 0
    image = ctypes.create_string_buffer(n.value)
    assert get(prog, image) == 0
    loading = time.perf_counter()
    mod = ctypes.c_void_p()
    assert cu.cuModuleLoadData(ctypes.byref(mod), image) == 0
    end = time.perf_counter()
    cu.cuModuleUnload(mod)
    nv.nvrtcDestroyProgram(ctypes.byref(prog))
    with open(report) as f:
        rows = list(csv.reader(f, skipinitialspace=True))  # no header in a file that existed
    os.unlink(report)
    parts = {r[1]: float(r[2]) for r in rows if len(r) >= 4 and r[3] == "ms" and r[2].isdigit()}
    parts["load"] = (end - loading) * 1e3
    return (end - t) * 1e3, parts


def main() -> None:
    path, nv, cu = libraries()
    srcs = {k: v.encode() for k, v in sources().items()}
    compile_ms(nv, cu, srcs["empty kernel, no prelude"], b"-arch=sm_90", False, [])
    times, parts = {}, {}
    for _ in range(5):
        for name, src in srcs.items():
            for v, (arch, ptx, extra) in VARIANTS.items():
                total, split = compile_ms(nv, cu, src, arch, ptx, extra)
                times.setdefault(name, {}).setdefault(v, []).append(total)
                for phase, ms in split.items():
                    parts.setdefault((name, v), {}).setdefault(phase, []).append(ms)
    print(f"NVRTC: {path}")
    print("| source | " + " | ".join(VARIANTS) + " |")
    print("| --- |" + " --- |" * len(VARIANTS))
    for name, per in times.items():
        print(f"| {name} | " + " | ".join(f"{statistics.median(per[v]):.1f} ms" for v in VARIANTS)
              + " |")
    phases = list(dict.fromkeys(p for split in parts.values() for p in split))
    print("\n| source | variant | " + " | ".join(phases) + " |")
    print("| --- | --- |" + " --- |" * len(phases))
    for (name, v), split in parts.items():
        print(f"| {name} | {v} | " + " | ".join(
            f"{statistics.median(split[p]):.1f}" if p in split else "-" for p in phases) + " |")


if __name__ == "__main__":
    main()
