"""The running SciPy's version, for the few answers gpunp.scipy gives as
the installed SciPy does where releases differ (as gpunp follows the
running NumPy's rules)."""

from __future__ import annotations

import functools
import importlib.metadata
import re


@functools.cache
def scipy_version() -> int:
    """major * 10000 + minor * 100 + patch of the installed SciPy, read from
    its metadata (SciPy itself is not imported); without SciPy, the newest
    behaviour."""
    try:
        text = importlib.metadata.version("scipy")
    except importlib.metadata.PackageNotFoundError:
        return 10**9
    major, minor, patch = (int(v) for v in re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", text).groups("0"))
    return major * 10000 + minor * 100 + patch
