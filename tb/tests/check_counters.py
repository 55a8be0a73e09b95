#!/usr/bin/env python3
"""Run one `warptlm run ... --out DIR` and check counters of its last kernel in DIR/stats.json.

  check_counters.py EXE DIR 'name>0' 'name==0' 'a/b==4.5' 'name<base' ... [--base-set KEY=VALUE ...] -- run-arguments...

A check's left side is a counter of the last kernel, `all:NAME` for a counter summed over the run's kernels,
or the ratio of two (summed over the run's kernels). Its
right side is a number, or `base`: the same counter in a second run of the same arguments with each
--base-set added as --set (into DIR/base), e.g. a mechanism's option switched off. Operators: > < ==.

Fails (exit 1) if the run fails (a workload that does not verify fails the run) or a check does not hold."""
import json
import subprocess
import sys


def run(exe, args, out):
    """The run's kernels from out/stats.json, or None if it failed."""
    r = subprocess.run([exe] + args + ["--out", out, "-q"])
    if r.returncode != 0:
        print(f"run failed with exit status {r.returncode}: {' '.join(args)}")
        return None
    return json.load(open(f"{out}/stats.json"))["kernels"]


def value(kernels, name):
    if "/" in name:
        num, den = name.split("/")
        n = sum(k["counters"].get(num, 0) for k in kernels)
        d = sum(k["counters"].get(den, 0) for k in kernels)
        return n / d if d else None
    if name.startswith("all:"):
        return sum(k["counters"].get(name[4:], 0) for k in kernels)
    return kernels[-1]["counters"].get(name)


def main():
    exe, out = sys.argv[1], sys.argv[2]
    sep = sys.argv.index("--")
    head, args = sys.argv[3:sep], sys.argv[sep + 1:]
    checks, base_sets = [], []
    while head:
        item = head.pop(0)
        if item == "--base-set":
            base_sets += ["--set", head.pop(0)]
        else:
            checks.append(item)
    kernels = run(exe, args, out)
    if kernels is None:
        return 1
    base = None
    if any(c.endswith("base") for c in checks):
        base = run(exe, args + base_sets, f"{out}/base")
        if base is None:
            return 1
    bad = 0
    for c in checks:
        op = next(o for o in ("==", ">", "<") if o in c)
        name, want = c.split(op)
        got = value(kernels, name)
        ref = value(base, name) if want == "base" else float(want)
        ok = got is not None and ref is not None and {"==": got == ref, ">": got > ref, "<": got < ref}[op]
        against = f" against base {ref}" if want == "base" else ""
        print(f"{name} = {got}{against} ({'ok' if ok else 'FAILED: want ' + op + ' ' + str(ref)})")
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
