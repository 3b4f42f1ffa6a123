"""gpunp.scipy.signal.remez against SciPy's: lowpass, highpass, multiband
with weights, odd and even lengths of each type (bandpass, differentiator,
hilbert), fs, grid_density, bands short of [0, fs/2], and the errors of bad
input."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss

import gpunp as gp
import gpunp.scipy.signal as gs
from property.signal_compare import outcome, same

CASES = [((11, [0, 0.1, 0.2, 0.5], [1, 0]), {}),
         ((72, [0, 0.1, 0.15, 0.5], [1, 0]), {}),
         ((73, [0, 0.1, 0.11, 0.5], [1, 0]), {}),
         ((40, [0, 0.2, 0.3, 0.5], [0, 1]), {}),
         ((31, [0, 0.1, 0.15, 0.3, 0.35, 0.5], [0, 1, 0]), {"weight": [1, 10, 1]}),
         ((25, [0.1, 0.2, 0.25, 0.4], [1, 0]), {}),
         ((20, [0.05, 0.45], [1]), {"type": "hilbert"}),
         ((21, [0.05, 0.45], [1]), {"type": "hilbert"}),
         ((21, [0, 0.4], [1]), {"type": "differentiator"}),
         ((20, [0, 0.5], [1]), {"type": "differentiator"}),
         ((101, [0, 1000, 1500, 4000], [1, 0]), {"fs": 8000}),
         ((151, [0, 0.05, 0.06, 0.3, 0.32, 0.5], [1, 0, 1]), {"grid_density": 20}),
         ((5, [0, 0.1, 0.3, 0.5], [1, 0]), {"maxiter": 1})]


@pytest.mark.parametrize("args,kw", CASES)
def test_remez(args, kw):
    same(gs.remez(*args, **kw), ss.remez(*args, **kw), tol=1e-10)


def test_gpunp_arguments():
    same(gs.remez(15, gp.asarray([0, 0.1, 0.2, 0.5]), gp.asarray([1.0, 0.0]),
                  weight=gp.asarray([1.0, 2.0])),
         ss.remez(15, [0, 0.1, 0.2, 0.5], [1.0, 0.0], weight=[1.0, 2.0]))


def test_errors():
    bad = [((11, [0, 0.1, 0.2, 0.5], [1, 0]), {"type": "lowpass"}),
           ((1, [0, 0.1, 0.2, 0.5], [1, 0]), {}),
           ((11, [0, 0.1, 0.2], [1, 0]), {}),
           ((11, [0, 0.1, 0.2, 0.5], [1, 0]), {"weight": [1]}),
           ((11, [0, 0.2, 0.1, 0.5], [1, 0]), {}),
           ((11, [0, 0.1, 0.2, 0.6], [1, 0]), {}),
           ((11, [0, 0.1, 0.2, 0.5], [1, 0]), {"fs": -1}),
           ((200, [0, 0.1, 0.1001, 0.5], [1, 0]), {})]
    for args, kw in bad:
        same(outcome(gs.remez, *args, **kw), outcome(ss.remez, *args, **kw))
