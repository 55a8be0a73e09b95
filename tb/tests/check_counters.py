#!/usr/bin/env python3
"""Run one `warptlm run ... --out DIR` and check counters of its last kernel in DIR/stats.json.

  check_counters.py EXE DIR 'name>0' 'name==0' 'a/b==4.5' ... -- run-arguments...

A check's left side is a counter, or the ratio of two (summed over the run's kernels for a ratio).

Fails (exit 1) if the run fails (a workload that does not verify fails the run) or a check does not hold."""
import json
import subprocess
import sys


def main():
    exe, out = sys.argv[1], sys.argv[2]
    sep = sys.argv.index("--")
    checks, args = sys.argv[3:sep], sys.argv[sep + 1:]
    r = subprocess.run([exe] + args + ["--out", out, "-q"])
    if r.returncode != 0:
        print(f"run failed with exit status {r.returncode}")
        return 1
    kernels = json.load(open(f"{out}/stats.json"))["kernels"]
    counters = kernels[-1]["counters"]
    bad = 0
    for c in checks:
        op = ">" if ">" in c else "=="
        name, value = c.split(op)
        if "/" in name:
            num, den = name.split("/")
            n = sum(k["counters"].get(num, 0) for k in kernels)
            d = sum(k["counters"].get(den, 0) for k in kernels)
            got = n / d if d else None
        else:
            got = counters.get(name)
        ok = got is not None and (got > float(value) if op == ">" else got == float(value))
        print(f"{name} = {got} ({'ok' if ok else 'FAILED: want ' + op + ' ' + value})")
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
