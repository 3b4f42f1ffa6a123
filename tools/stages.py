"""Runs make targets one after another as the stages of `make test`, and
ends with one line per stage: its wall seconds and what its output closed
with (pytest's counts, the C tests' checks, the compile checks' totals), so
every CI log shows where the time went.

    python tools/stages.py "C tests=test-c" "Python suite=test-py" ...

Each argument is LABEL=TARGET [VAR=VALUE ...], run as `make -jN TARGET
VAR=VALUE ...` (N the number of cores). Every stage runs even after one
fails, so a red run still shows every stage's time and counts; the exit
status is the first failure's.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time

# The lines a stage's output closes with that say what it checked.
SUMMARY = [
    re.compile(r"^=*\s*(\d+ (?:passed|failed)\b.*?)\s*=*$"),      # pytest
    re.compile(r"^(test_\w+: \d+ checks, \d+ failed)$"),             # C tests
    re.compile(r"^(\d+ of \d+ kernel sources compile .*)$"),         # check_kernels.py
]
# libFuzzer's last status line: "#22909  DONE   cov: 2584 ft: 7866 corp: 1029/35Kb
# lim: 63 exec/s: 375 rss: 250Mb"
FUZZ_DONE = re.compile(r"^#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/.*exec/s: (\d+)")


def summarise(lines: list[str]) -> str:
    found = []
    checks = failed = programs = 0
    for line in lines:
        f = FUZZ_DONE.match(line.strip())
        if f:
            found.append(f"{f[1]} runs ({f[5]}/s), coverage {f[2]} edges, {f[3]} features, "
                         f"corpus {f[4]}")
        for pattern in SUMMARY:
            m = pattern.match(line.strip())
            if not m:
                continue
            c = re.match(r"test_\w+: (\d+) checks, (\d+) failed", m.group(1))
            if c:
                programs += 1
                checks += int(c.group(1))
                failed += int(c.group(2))
            else:
                found.append(re.sub(r" in [\d.]+s.*$", "", m.group(1)))
    if programs:
        found.insert(0, f"{programs} programs, {checks} checks, {failed} failed")
    return "; ".join(found)


def run(label: str, argv: list[str]) -> tuple[int, float, str]:
    print(f"\n==== stage: {label} ({shlex.join(argv)})", flush=True)
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace", bufsize=1)
    lines: list[str] = []
    for line in proc.stdout:
        sys.stdout.write(line)
        lines.append(line)
    rc = proc.wait()
    return rc, time.monotonic() - t0, summarise(lines)


def main(args: list[str]) -> int:
    make = os.environ.get("MAKE", "make")
    rows = []
    first_failure = 0
    t0 = time.monotonic()
    for arg in args:
        label, _, target = arg.partition("=")
        rc, seconds, summary = run(label, [make, "--no-print-directory", f"-j{os.cpu_count() or 1}",
                                           *target.split()])
        rows.append((label, seconds, summary if rc == 0 else f"FAILED (exit {rc}) {summary}"))
        first_failure = first_failure or rc
    width = max(len(r[0]) for r in rows)
    print("\n==== make test: where the time went")
    for label, seconds, summary in rows:
        print(f"{label:<{width}}  {seconds:7.0f} s  {summary}")
    print(f"{'total':<{width}}  {time.monotonic() - t0:7.0f} s")
    return first_failure


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
