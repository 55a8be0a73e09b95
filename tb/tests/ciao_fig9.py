#!/usr/bin/env python3
"""The shape of seed 002's Fig. 9 time series (sec. V-C), from WarpTLM's sampled statistics.

ATAX (pb_atax, small) under CIAO-C and Best-SWL (Table II: 2 warps):
  phase 1 (atax_kernel1, the memory-intensive walk): interfering warps are found, isolated (redirected to the
  shared-memory cache) and then stalled, isolation first;
  phase 2 (atax_kernel2, the compute phase): interference falls away and CIAO-C stalls fewer warps, so it beats
  Best-SWL, which still runs 2 warps per SM (the paper: about 4x).
Backprop (rd_backprop, large: Rodinia's layout and its standard input of 65536 units) under CIAO-T and Best-SWL
(Table II: 36 warps):
  CIAO-T finds interference but throttles only a few warps (the paper: 10-20), keeping TLP, and performs like
  Best-SWL (the paper: both about 500 IPC).

usage: ciao_fig9.py WARPTLM OUTDIR [--set KEY=VALUE ...]   (the sets apply to the CIAO runs; a test uses them
to show that the checks fail when CIAO detects nothing)
"""
import sys

from ciao_runs import ipc, sampled_run

exe, out = sys.argv[1], sys.argv[2]
ciao_sets = [a for a in sys.argv[3:] if a != "--set"]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(tag, workload, size, overlay, interval, *sets):
    return sampled_run(exe, out, tag, workload, size, overlay, interval, sets)


def phases(st):
    """Samples of each kernel: (kernel, {series: [values]}) in launch order, split at the kernels' cycles."""
    s = st["samples"]
    cycles, series = s["cycle"], s["series"]
    out, start = [], 0
    for k in st["kernels"]:
        end = start + k["cycles"]
        idx = [i for i, c in enumerate(cycles) if start < c <= end]
        out.append((k, {name: [v[i] for i in idx] for name, v in series.items()}))
        start = end
    return out


def mean(v):
    return sum(v) / len(v) if v else 0.0


def first(v):
    return next((i for i, x in enumerate(v) if x > 0), None)


# ---------------------------------------------------------------- ATAX
c = phases(run("atax_ciao_c", "pb_atax", "small", "ciao_c", 5000, *ciao_sets))
b = phases(run("atax_best_swl", "pb_atax", "small", "best_swl", 5000, "sm.warp_limit=2"))
(k1, p1), (k2, p2) = c
check(max(p1["ciao.severe_warps"]) > 0, "ATAX phase 1: CIAO-C finds severely interfered warps")
check(max(p1["ciao.isolated_warps"]) > 0, "ATAX phase 1: CIAO-C isolates interfering warps (redirection)")
check(max(p1["ciao.stalled_warps"]) > 0, "ATAX phase 1: CIAO-C stalls interfering warps (throttling)")
fi, fs = first(p1["ciao.isolated_warps"]), first(p1["ciao.stalled_warps"])
check(fi is not None and fs is not None and fi <= fs, f"ATAX phase 1: isolation (sample {fi}) before stalling (sample {fs})")
h1, h2 = mean(p1["ciao.vta_hits"]), mean(p2["ciao.vta_hits"])
check(h2 < 0.1 * h1, f"ATAX: interference per interval falls from phase 1 ({h1:.0f}) to phase 2 ({h2:.0f})")
s1, s2 = mean(p1["ciao.stalled_warps"]), mean(p2["ciao.stalled_warps"])
check(s2 < s1, f"ATAX: CIAO-C stalls fewer warps in phase 2 ({s2:.2f}) than in phase 1 ({s1:.2f})")
ratio = k2["ipc"] / b[1][0]["ipc"]
check(ratio > 2.0, f"ATAX phase 2: CIAO-C's IPC {k2['ipc']:.1f} is {ratio:.2f}x Best-SWL's {b[1][0]['ipc']:.1f} (paper: ~4x)")

# ---------------------------------------------------------------- Backprop
# At medium (16384 units) CIAO-T meets almost no lost locality on this baseline (17 VTA hits in a run, none severe
# since gtx480's fifth calibration step): the check runs where the mechanism acts, at Rodinia's own input.
t = run("bp_ciao_t", "rd_backprop", "large", "ciao_t", 2000, *ciao_sets)
w = run("bp_best_swl", "rd_backprop", "large", "best_swl", 2000, "sm.warp_limit=36")
ts = t["samples"]["series"]
check(max(ts["ciao.severe_warps"]) > 0, "Backprop: CIAO-T finds interfered warps")
check(max(ts["ciao.stalled_warps"]) <= 20, f"Backprop: CIAO-T stalls at most 20 warps (max {max(ts['ciao.stalled_warps']):.0f})")
ipc_t, ipc_w = ipc(t), ipc(w)
check(abs(ipc_t - ipc_w) <= 0.1 * ipc_w, f"Backprop: CIAO-T's IPC {ipc_t:.0f} within 10% of Best-SWL's {ipc_w:.0f}")

sys.exit(1 if failures else 0)
