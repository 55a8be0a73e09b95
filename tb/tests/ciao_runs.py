"""Shared by the CIAO figure checks (ciao_fig9.py, ciao_fig10.py): one sampled run on gtx480, and the IPC."""
import json
import os
import subprocess
import sys


def sampled_run(exe, out, tag, workload, size, overlay, interval, sets):
    """Runs WORKLOAD at SIZE under OVERLAY with stats sampled every INTERVAL cycles; returns stats.json."""
    d = os.path.join(out, tag)
    cmd = [exe, "run", "--workload", workload, "--size", size, "--config", "gtx480", "--overlay", overlay,
           "--set", f"stats.sample_interval={interval}", "--out", d, "-q"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    with open(os.path.join(d, "stats.json")) as f:
        return json.load(f)


def ipc(st):
    """Thread instructions per cycle over the run, as the paper's IPC."""
    return sum(k["thread_instructions"] for k in st["kernels"]) / sum(k["cycles"] for k in st["kernels"])
