"""Copies a wheel without the files that match a pattern, its RECORD rewritten
to match: for carrying NVIDIA's NVRTC wheel (90 MB, two builds of the
library) to a machine under a size limit, without the `.alt` build that
gpunp never opens.

    python tools/slim_wheel.py IN.whl OUTDIR [--drop GLOB ...]   (default --drop '*.alt.so*')

The copy keeps the name and version: pip installs it as the original. Say
so wherever its results are reported.
"""

from __future__ import annotations

import argparse
import base64
import fnmatch
import hashlib
import sys
import zipfile
from pathlib import Path


def slim(src: Path, out_dir: Path, drop: list[str]) -> tuple[Path, list[str]]:
    out = out_dir / src.name
    dropped = []
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        record = None
        rows = []
        for info in zin.infolist():
            name = info.filename
            if any(fnmatch.fnmatch(Path(name).name, g) for g in drop):
                dropped.append(name)
                continue
            if name.endswith(".dist-info/RECORD"):
                record = name
                continue
            data = zin.read(name)
            zout.writestr(info, data, zipfile.ZIP_DEFLATED)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            rows.append(f"{name},sha256={digest.decode()},{len(data)}")
        if record is None:
            raise SystemExit(f"{src} has no RECORD")
        rows.append(f"{record},,")
        zout.writestr(record, "\n".join(rows) + "\n", zipfile.ZIP_DEFLATED)
    return out, dropped


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wheel", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--drop", action="append", help="a file-name glob to leave out")
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    out, dropped = slim(args.wheel, args.out_dir, args.drop or ["*.alt.so*"])
    print(f"{out}: {out.stat().st_size / 2**20:.1f} MiB (was {args.wheel.stat().st_size / 2**20:.1f});"
          f" left out {', '.join(dropped) or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
