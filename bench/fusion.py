"""Bench rows of whole NumPy programs, each the same code with only the
module changed, eager and fused (``gpunp.fuse``, ``cupy.fuse``): the
heat-equation stencils of issue 42 (100 steps of a 4096^2 float32 grid,
one by slices and one by rolls) and Monte Carlo option pricing's payoff.
Every library's answer is compared with NumPy's before it is timed."""

from __future__ import annotations

import numpy as np

from bench.workloads import Workload, _host_f32, _to_host


def _slice_step(c, left, right, up, down):
    return c + 0.1 * (left + right + up + down - 4 * c)


def _maybe_fused(lib, f, fused):
    """f as the row runs it: itself, or (fused) the library's fuse of it;
    None where the library has no fuse (no fused row)."""
    if not fused:
        return f
    return lib.xp.fuse(f) if lib.name in ("gpunp", "cupy") else None


def _heat_slices(steps, fused):
    def make(lib, side):
        step = _maybe_fused(lib, _slice_step, fused)
        if step is None:
            return None
        xp = lib.xp
        cat = xp.cat if lib.name == "torch" else xp.concatenate

        def run(u, n):
            # the interior steps, the boundary kept: one new grid a step
            for _ in range(n):
                inner = step(u[1:-1, 1:-1], u[1:-1, :-2], u[1:-1, 2:], u[:-2, 1:-1],
                             u[2:, 1:-1])
                u = cat([u[:1], cat([u[1:-1, :1], inner, u[1:-1, -1:]], 1), u[-1:]], 0)
            return u
        h = _host_f32((side, side), 3)
        u0 = lib.asarray(h)
        want = h.copy()
        for _ in range(3):
            want[1:-1, 1:-1] = _slice_step(want[1:-1, 1:-1], want[1:-1, :-2], want[1:-1, 2:],
                                           want[:-2, 1:-1], want[2:, 1:-1])
        if not np.allclose(_to_host(lib, run(u0, 3)), want, rtol=1e-5, atol=1e-6):
            raise AssertionError(f"{lib.name}'s stencil differs from NumPy's")
        return lambda: run(u0, steps)
    return make


def _heat_roll(steps):
    def make(lib, side):
        xp = lib.xp
        roll = (lambda a, s, ax: xp.roll(a, s, ax)) if lib.name != "torch" else \
            (lambda a, s, ax: xp.roll(a, s, dims=ax))

        def step(u):
            return u + 0.1 * (roll(u, 1, 0) + roll(u, -1, 0) + roll(u, 1, 1) + roll(u, -1, 1)
                              - 4 * u)
        h = _host_f32((side, side), 4)
        u0 = lib.asarray(h)
        want = h.copy()
        for _ in range(3):
            want = want + 0.1 * (np.roll(want, 1, 0) + np.roll(want, -1, 0) +
                                 np.roll(want, 1, 1) + np.roll(want, -1, 1) - 4 * want)
        got = u0
        for _ in range(3):
            got = step(got)
        if not np.allclose(_to_host(lib, got), want, rtol=1e-5, atol=1e-6):
            raise AssertionError(f"{lib.name}'s roll stencil differs from NumPy's")

        def run():
            u = u0
            for _ in range(steps):
                u = step(u)
            return u
        return run
    return make


def _payoff(fused):
    # a European call's discounted payoff from standard normals, mean over paths
    def make(lib, n):
        xp = lib.xp
        if lib.name == "torch":
            return None

        def payoff(z):
            s = 100.0 * xp.exp(0.03 - 0.02 + 0.2 * z)
            return xp.maximum(s - 105.0, 0.0) * 0.9704455335485082
        f = _maybe_fused(lib, payoff, fused)
        if f is None:
            return None
        h = np.random.default_rng(5).standard_normal(n).astype(np.float32)
        z = lib.asarray(h)
        want = float(np.mean(np.maximum(100.0 * np.exp(0.01 + 0.2 * h) - 105.0, 0.0) *
                             0.9704455335485082))
        got = float(_to_host(lib, f(z).mean()))
        if not np.isclose(got, want, rtol=1e-4):
            raise AssertionError(f"{lib.name}'s option price differs from NumPy's")
        return lambda: f(z).mean()
    return make


def rows(quick: bool) -> list:
    side = 1 << (10 if quick else 12)
    steps = 10 if quick else 100
    paths = 1 << (20 if quick else 27)
    return [
        Workload(f"program: heat stencil by slices, {side}x{side} float32, {steps} steps, eager",
                 "ms", side, _heat_slices(steps, False)),
        Workload(f"program: heat stencil by slices, {side}x{side} float32, {steps} steps, fused",
                 "ms", side, _heat_slices(steps, True)),
        Workload(f"program: heat stencil by rolls, {side}x{side} float32, {steps} steps, eager",
                 "ms", side, _heat_roll(steps)),
        Workload(f"program: option payoff mean, {paths} float32 paths, eager", "ms", paths,
                 _payoff(False)),
        Workload(f"program: option payoff mean, {paths} float32 paths, fused", "ms", paths,
                 _payoff(True)),
    ]
