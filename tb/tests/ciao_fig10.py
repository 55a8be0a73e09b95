#!/usr/bin/env python3
"""Seed 002's Fig. 10 case studies (sec. V-D), from WarpTLM's sampled statistics, under CIAO-P, CIAO-T and CIAO-C.

SYRK (pb_syrk, small; SWS):
  CIAO-P's IPC is higher than CIAO-T's, because CIAO-P keeps TLP high (more warps run, Fig. 10b) while
  CIAO-T throttles many warps; CIAO-C stalls very few warps (fewer than CIAO-T).
KMN (mr_kmn, medium; LWS):
  CIAO-T's IPC is higher than CIAO-P's (the paper: 1.5x); CIAO-P suffers shared-memory interference (its
  shared-memory cache evicts, Fig. 10c); CIAO-C has the highest IPC of the three.

The claims are the paper's; the script prints each with the measured figures and exits 1 if any fails.
usage: ciao_fig10.py WARPTLM OUTDIR [--only syrk|kmn] [--set KEY=VALUE ...]   (sets apply to every run)
"""
import sys

from ciao_runs import ipc, sampled_run

args = sys.argv[1:]
exe, out = args[0], args[1]
rest = args[2:]
only = None
if rest[:1] == ["--only"]:
    only, rest = rest[1], rest[2:]
sets = [a for a in rest if a != "--set"]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(tag, workload, size, overlay):
    return sampled_run(exe, out, tag, workload, size, overlay, 2000, sets)


def mean(st, series):
    v = st["samples"]["series"][series]
    return sum(v) / len(v) if v else 0.0


def three(workload, size):
    return {v: run(f"{workload}_{v}", workload, size, v) for v in ("ciao_p", "ciao_t", "ciao_c")}


if only in (None, "syrk"):
    s = three("pb_syrk", "small")
    p, t, c = s["ciao_p"], s["ciao_t"], s["ciao_c"]
    check(ipc(p) > ipc(t), f"SYRK: CIAO-P's IPC {ipc(p):.1f} above CIAO-T's {ipc(t):.1f}")
    check(mean(p, "ciao.active_warps") > mean(t, "ciao.active_warps"),
          f"SYRK: CIAO-P runs more warps (on average {mean(p, 'ciao.active_warps'):.2f}, all SMs) than CIAO-T "
          f"({mean(t, 'ciao.active_warps'):.2f})")
    check(mean(t, "ciao.stalled_warps") > 0, f"SYRK: CIAO-T stalls warps (on average {mean(t, 'ciao.stalled_warps'):.2f}, all SMs)")
    check(mean(c, "ciao.stalled_warps") < mean(t, "ciao.stalled_warps"),
          f"SYRK: CIAO-C stalls fewer warps ({mean(c, 'ciao.stalled_warps'):.2f}) than CIAO-T "
          f"({mean(t, 'ciao.stalled_warps'):.2f})")

if only in (None, "kmn"):
    s = three("mr_kmn", "medium")
    p, t, c = s["ciao_p"], s["ciao_t"], s["ciao_c"]
    check(ipc(t) > ipc(p), f"KMN: CIAO-T's IPC {ipc(t):.1f} above CIAO-P's {ipc(p):.1f} (paper: 1.5x)")
    ev = p["counters"].get("ciao.smem_evictions", 0)
    check(ev > 0, f"KMN: CIAO-P's shared-memory cache evicts ({ev} evictions)")
    check(ipc(c) >= max(ipc(p), ipc(t)), f"KMN: CIAO-C's IPC {ipc(c):.1f} the highest of the three")

sys.exit(1 if failures else 0)
