"""SciPy's own scipy.stats and scipy.special functions on gpunp arrays
through SciPy's array API support (SCIPY_ARRAY_API=1, read when SciPy is
first imported, so in a subprocess): which run on the device and return
gpunp arrays, with gpunp.scipy.stats's values, and which SciPy still turns
into NumPy arrays (gpunp's TypeError)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile

import gpunp as gp

CODE = r"""
import json, warnings
import numpy as np
import gpunp as gp, gpunp.scipy.stats as gs, gpunp.scipy.special as gsp
import scipy.stats as st, scipy.special as sp
warnings.simplefilter("ignore")
x = gp.asarray([[1.0, 2.5, 3.0, 7.0, 4.0], [2.0, 1.0, 4.0, 3.0, 9.0]])
y = gp.asarray([[2.0, 1.0, 4.0, 3.5, 5.0], [1.0, 1.5, 2.0, 8.0, 3.0]])
calls = {
    "zscore": lambda m: m.zscore(x, axis=1),
    "zmap": lambda m: m.zmap(x, y, axis=1),
    "skew": lambda m: m.skew(x, axis=1),
    "kurtosis": lambda m: m.kurtosis(x, axis=1, bias=False),
    "moment": lambda m: m.moment(x, order=3, axis=1),
    "sem": lambda m: m.sem(x, axis=1),
    "variation": lambda m: m.variation(x, axis=1),
    "gmean": lambda m: m.gmean(x, axis=1),
    "hmean": lambda m: m.hmean(x, axis=1),
    "iqr": lambda m: m.iqr(x, axis=1),
    "trim_mean": lambda m: m.trim_mean(x, 0.2, axis=1),
    "entropy": lambda m: m.entropy(x, y, axis=1),
    "rankdata": lambda m: m.rankdata(x, axis=1),
    "boxcox_llf": lambda m: m.boxcox_llf(0.5, x, axis=1),
    "pearsonr": lambda m: m.pearsonr(x, y, axis=1).statistic,
    "ttest_1samp": lambda m: m.ttest_1samp(x, 2.0, axis=1).statistic,
    "percentileofscore": lambda m: m.percentileofscore(x[0], 3.0),
}
out = {}
for name, call in calls.items():
    try:
        theirs = call(st)
    except TypeError as e:
        out[name] = "TypeError: " + str(e)[:40]
        continue
    mine = call(gs)
    out[name] = [type(theirs).__module__.split(".")[0],
                 bool(np.allclose(gp.asnumpy(theirs), gp.asnumpy(mine), rtol=1e-12))]
z = sp.logsumexp(x, axis=1)
out["logsumexp"] = [type(z).__module__.split(".")[0],
                    bool(np.allclose(gp.asnumpy(z), gp.asnumpy(gsp.logsumexp(x, axis=1))))]
s = sp.softmax(x, axis=0)
out["softmax"] = [type(s).__module__.split(".")[0],
                  bool(np.allclose(gp.asnumpy(s), gp.asnumpy(gsp.softmax(x, axis=0))))]
print(json.dumps(out))
"""

# SciPy's own p-values of these call scipy.special functions gpunp may not
# have yet (ttest's t distribution takes stdtr, else builds it on betainc);
# without any of them SciPy falls back to NumPy (TypeError)
NEEDS = {"pearsonr": ("betainc",), "ttest_1samp": ("stdtr", "betainc")}
# SciPy 1.17 converts these to NumPy itself (np.asarray in scipy/stats)
HOST_ONLY = {"percentileofscore"}


def test_scipy_array_api_dispatch():
    env = dict(os.environ, SCIPY_ARRAY_API="1",
               PYTHONPATH=str(pathlib.Path(gp.__file__).parent.parent))
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                       cwd=tempfile.gettempdir(), env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    import gpunp.scipy.special as gsp
    for name, got in out.items():
        refused = name in HOST_ONLY or (
            name in NEEDS and not any(hasattr(gsp, f) for f in NEEDS[name]))
        if refused:
            assert isinstance(got, str) and got.startswith("TypeError"), (name, got)
        else:
            assert got == ["gpunp", True], (name, got)
