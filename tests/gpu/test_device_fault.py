"""A user's kernel that faults (an illegal address) leaves the CUDA context
unusable for the rest of the process: every later call raises, naming the
kernel last launched, and a new process uses the GPU again. Run in child
processes, since the fault ends the parent's use of the device."""

import os
import subprocess
import sys
import textwrap

import gpunp  # noqa: F401  (the GPU tests' conftest skips these on the host backend)

FAULT = textwrap.dedent('''
    import gpunp as gp
    BAD = r"""
    extern "C" __global__ void write_nowhere(long long *p) { p[threadIdx.x] = 1; }
    """
    a = gp.arange(4.0)
    k = gp.RawKernel(BAD, "write_nowhere")
    k((1,), (32,), (0,))          # a null pointer: an illegal address
    results = []
    for what, call in [("sync", lambda: gp.cuda.Device().synchronize()),
                       ("get", lambda: a.get()),
                       ("add", lambda: (a + 1).get()),
                       ("empty", lambda: gp.empty(3)),
                       ("again", lambda: gp.arange(2).get())]:
        try:
            call()
            results.append(what + ": no error")
        except Exception as e:
            results.append(what + ": " + type(e).__name__ + ": " + str(e))
    print("\\n".join(results))
''')


def _run(code):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd="/", timeout=300)


def test_every_call_after_a_fault_raises_naming_the_kernel():
    r = _run(FAULT)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 5, r.stdout
    for line in lines:
        assert "no error" not in line, r.stdout
        assert "write_nowhere" in line, r.stdout
        assert "a new process" in line, r.stdout


def test_a_new_process_uses_the_gpu_again():
    assert _run(FAULT).returncode == 0
    r = _run("import gpunp as gp; print((gp.arange(3) * 2).get().tolist())")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[0, 2, 4]"
