#!/usr/bin/env python3
"""Tests of scripts/sweep and scripts/plot on real (tiny) simulator runs. Standard library only.

  WARPTLM_EXE=build/warptlm python3 tb/tests/test_sweep.py      (ctest: sweep/python)

The binary comes from $WARPTLM_EXE (default build/warptlm under the repository root, which is
$WARPTLM_ROOT or two levels above this file). Everything is written into a temporary directory.
The scripts are run through their own #! line (Debian's python3, where python3-yaml and
python3-matplotlib live). Ends with a line `N passed, M failed`.
"""
import csv
import json
import math
import re
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

ROOT = os.path.abspath(os.environ.get("WARPTLM_ROOT") or
                       os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EXE = os.path.abspath(os.environ.get("WARPTLM_EXE") or os.path.join(ROOT, "build", "warptlm"))
SWEEP = os.path.join(ROOT, "scripts", "sweep")
PLOT = os.path.join(ROOT, "scripts", "plot")
REQUIRED = ("experiment,label,workload,group,size,config,overlays,cycles,warp_instructions,"
            "thread_instructions,ipc,verified,wall_seconds").split(",")

# Two labels x two workloads, tiny: four runs of well under a second each.
TINY = """\
name: tiny
baseline: LRR
defaults: {config: gtx480, size: tiny}
labels:
  - {name: LRR, set: {sm.warp_scheduler: lrr}}
  - {name: GTO, overlays: [gto]}
workloads:
  - {name: vecadd, group: memory, as: VA, paper: {GTO: 1.10}}
  - {name: transpose_naive, group: smem, paper: {GTO: 0.95}}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


def sweep(*args, exe=EXE, timeout=300):
    return subprocess.run([SWEEP, *args, "--exe", exe], capture_output=True, text=True, timeout=timeout)


def read_text(path):
    with open(path) as f:
        return f.read()


def load(path):
    with open(path) as f:
        return json.load(f)


def dump(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def done_mtimes(out):
    runs = os.path.join(out, "runs")
    return {d: os.stat(os.path.join(runs, d, "DONE")).st_mtime_ns
            for d in os.listdir(runs) if os.path.exists(os.path.join(runs, d, "DONE"))}


def wait_for(cond, timeout=60.0):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


class SweepTestCase(unittest.TestCase):
    def setUp(self):
        self.assertTrue(os.access(EXE, os.X_OK), f"no simulator at {EXE} (set WARPTLM_EXE or build first)")
        self.tmp = tempfile.mkdtemp(prefix="warptlm-sweep-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def check(self, res, code):
        self.assertEqual(res.returncode, code, f"exit {res.returncode}\nstdout:\n{res.stdout}\nstderr:\n{res.stderr}")


class TestExpansion(SweepTestCase):
    def test_runs_ids_dirs_and_command_lines(self):
        write(os.path.join(self.tmp, "ov", "mine.yaml"), "sm: {warp_scheduler: oldest}\n")
        exp = write(os.path.join(self.tmp, "exp.yaml"), """\
            name: expand
            baseline: Base
            defaults: {config: gtx480, size: tiny, set: {gpu.num_sms: 4}}
            labels:
              - {name: Base}
              - name: "Mine v2"
                overlays: [gto, ov/mine.yaml]
                set: {sm: {warp_limit: 8}, gpu.num_sms: 2}
            workloads:
              - {name: vecadd, group: memory, label_set: {"Mine v2": {sm.warp_limit: 2, gpu.num_sms: 3}}}
              - {name: matmul, sizes: [tiny, small], group: compute}
            """)
        out = os.path.join(self.tmp, "out")
        res = sweep(exp, "--out", out, "--dry-run")
        self.check(res, 0)
        lines = [l.split("\t") for l in res.stdout.splitlines() if l.strip()]
        self.assertEqual(len(lines), 2 * 3)
        ids = [l[0] for l in lines]
        self.assertEqual(ids, ["Base__vecadd__tiny", "Base__matmul__tiny", "Base__matmul__small",
                               "Mine-v2__vecadd__tiny", "Mine-v2__matmul__tiny", "Mine-v2__matmul__small"])
        for rid, d, cmd in lines:
            self.assertEqual(d, os.path.join(out, "runs", rid))
            self.assertIn(f"--out {d}", cmd)
        base_cmd, mine_cmd = lines[0][2], lines[4][2]
        self.assertIn("--workload vecadd --size tiny --config gtx480", base_cmd)
        self.assertIn("--set gpu.num_sms=4", base_cmd)
        self.assertNotIn("--overlay", base_cmd)
        self.assertIn("--workload matmul --size tiny", mine_cmd)
        self.assertIn("--overlay gto", mine_cmd)
        self.assertIn("--overlay " + os.path.join(self.tmp, "ov", "mine.yaml"), mine_cmd)  # file: absolute
        self.assertIn("--set gpu.num_sms=2", mine_cmd)  # the label's set wins over defaults
        self.assertNotIn("gpu.num_sms=4", mine_cmd)
        self.assertIn("--set sm.warp_limit=8", mine_cmd)  # nested maps flatten to dotted keys
        # label_set: one label's run of one workload gets its own settings over the label's
        mine_vecadd = lines[3][2]
        self.assertIn("--set sm.warp_limit=2", mine_vecadd)
        self.assertIn("--set gpu.num_sms=3", mine_vecadd)
        self.assertNotIn("sm.warp_limit=8", mine_vecadd)
        self.assertNotIn("sm.warp_limit=2", lines[0][2])  # not the other label's
        self.assertFalse(os.path.exists(os.path.join(out, "runs")), "a dry run must not create runs")
        # --only keeps the label's runs
        res = sweep(exp, "--out", out, "--dry-run", "--only", "Base")
        self.check(res, 0)
        self.assertEqual(len(res.stdout.splitlines()), 3)

    def test_bad_experiments_exit_2_with_the_key(self):
        cases = {
            "labls": ("name: x\nbaseline: A\nlabls: []\nworkloads: [vecadd]\n", "did you mean 'labels'"),
            "baseline": ("name: x\nbaseline: Z\nlabels: [{name: A, config: gtx480}]\nworkloads: [vecadd]\n",
                         "baseline 'Z' is not a label"),
            "workload": ("name: x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\nworkloads: [vecad]\n",
                         "did you mean 'vecadd'"),
            "size": ("name: x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\n"
                     "workloads: [{name: vecadd, size: huge}]\n", "size 'huge'"),
            "twice": ("name: x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\nworkloads: [vecadd]\nname: y\n",
                      "twice.yaml:5: key 'name' is given twice (first at line 1)"),
            "nested": ("name: x\nbaseline: A\nlabels:\n  - {name: A, config: gtx480, config: kepler_k20x}\n"
                       "workloads: [vecadd]\n", "nested.yaml:4: key 'config' is given twice"),
            "second": ("name: x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\nworkloads: [vecadd]\n---\nname: y\n",
                       "second.yaml:5: a second YAML document"),
            "paper": ("name: x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\n"
                      "workloads: [{name: vecadd, paper: {B: 1.2}}]\n", "paper: 'B' is not a label"),
            "papernum": ("name: x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\n"
                         "workloads: [{name: vecadd, paper: {A: fast}}]\n", "'fast' is not a number"),
            "labelset": ("name: x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\n"
                         "workloads: [{name: vecadd, label_set: {B: {sm.warp_limit: 2}}}]\n",
                         "label_set: 'B' is not a label"),
            "recursive": ("name: x\nbaseline: A\nlabels: &a [*a]\nworkloads: [vecadd]\n", "recursive.yaml:3: an alias refers"),
            "recursivemap": ("name: x\nbaseline: A\nlabels: &a {name: *a}\nworkloads: [vecadd]\n",
                             "recursivemap.yaml:3: an alias refers"),
            "laughs": ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
                       "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)) +
                       "name: x\n", "aliases expand this document to more than 1000000 nodes"),
            "deep": ("name: " + "[" * 100 + "]" * 100 + "\n", "nesting deeper than 64 levels"),
            "tag": ("name: !foo x\nbaseline: A\nlabels: [{name: A, config: gtx480}]\nworkloads: [vecadd]\n",
                    "tag.yaml"),
        }
        for what, (text, message) in cases.items():
            with self.subTest(what):
                exp = write(os.path.join(self.tmp, f"{what}.yaml"), text)
                res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
                self.check(res, 2)
                self.assertIn(message, res.stderr)
                self.assertIn(f"{what}.yaml", res.stderr)


class TestSettingsCheckedUpFront(SweepTestCase):
    """A label's settings are the simulator's to judge: a bad one stops the sweep before any run."""

    def test_bad_settings_stop_the_sweep_before_any_run_naming_label_and_key(self):
        cases = {
            "set": ("  - {name: B, set: {l1d.sett: 4}}\nworkloads: [vecadd]\n",
                    ["label 'B'", "unknown parameter 'l1d.sett'", "did you mean 'l1d.sets'"]),
            "nested": ("  - {name: B, set: {sm: {warp_limt: 4}}}\nworkloads: [vecadd]\n",
                       ["label 'B'", "'sm.warp_limt'", "did you mean 'sm.warp_limit'"]),
            "range": ("  - {name: B, set: {gpu.num_sms: 0}}\nworkloads: [vecadd]\n", ["label 'B'", "gpu.num_sms"]),
            "overlay": ("  - {name: B, overlays: [gtoo]}\nworkloads: [vecadd]\n",
                        ["label 'B'", "no overlay named 'gtoo'", "did you mean 'gto'"]),
            "label_set": ("  - {name: B, overlays: [gto]}\nworkloads:\n  - transpose_naive\n"
                          "  - {name: vecadd, label_set: {B: {sm.warp_limt: 2}}}\n",
                          ["label 'B'", "label_set of workload 'vecadd'", "did you mean 'sm.warp_limit'"]),
        }
        head = "name: x\nbaseline: A\ndefaults: {config: gtx480, size: tiny}\nlabels:\n  - {name: A}\n"
        for what, (tail, messages) in cases.items():
            for dry in (True, False):
                with self.subTest(what, dry_run=dry):
                    exp = write(os.path.join(self.tmp, f"{what}.yaml"), head + tail)
                    out = os.path.join(self.tmp, f"o_{what}_{dry}")
                    res = sweep(exp, "--out", out, *(["--dry-run"] if dry else []))
                    self.check(res, 2)
                    for m in messages:
                        self.assertIn(m, res.stderr)
                    self.assertFalse(os.path.exists(out), "nothing is written (no run started)")

    def test_good_settings_pass_the_check(self):
        exp = write(os.path.join(self.tmp, "ok.yaml"), """\
            name: ok
            baseline: A
            defaults: {config: gtx480, size: tiny}
            labels:
              - {name: A}
              - {name: B, overlays: [gto], set: {sm: {warp_limit: 8}}}
            workloads:
              - {name: vecadd, label_set: {B: {sm.warp_limit: 2}}}
              - transpose_naive
            """)
        res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
        self.check(res, 0)
        self.assertIn("4 runs", res.stderr)
        self.assertIn("--set sm.warp_limit=2", res.stdout)


class TestRealRuns(SweepTestCase):
    """One real tiny sweep shared by the results, summary and plot tests."""

    @classmethod
    def setUpClass(cls):
        cls.shared = tempfile.mkdtemp(prefix="warptlm-sweep-shared-")
        cls.exp = write(os.path.join(cls.shared, "tiny.yaml"), TINY)
        cls.out = os.path.join(cls.shared, "out")
        cls.res = sweep(cls.exp, "--out", cls.out, "-j", "2") if os.access(EXE, os.X_OK) else None

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.shared, ignore_errors=True)

    def test_results_csv(self):
        self.check(self.res, 0)
        rows = read_csv(os.path.join(self.out, "results.csv"))
        self.assertEqual(len(rows), 4)
        for col in REQUIRED:
            self.assertIn(col, rows[0])
        for r in rows:
            self.assertEqual(r["experiment"], "tiny")
            self.assertEqual(r["status"], "ok")
            self.assertEqual(r["config"], "gtx480")
            self.assertGreater(int(r["cycles"]), 0)
            self.assertGreater(int(r["thread_instructions"]), int(r["warp_instructions"]))
            self.assertEqual(r["verified"], "true")
            self.assertAlmostEqual(float(r["ipc"]), int(r["thread_instructions"]) / int(r["cycles"]), places=3)
            self.assertGreaterEqual(float(r["wall_seconds"]), 0.0)
            # the row agrees with the run's own stats.json
            stats = load(os.path.join(self.out, r["run_dir"], "stats.json"))
            self.assertEqual(int(r["cycles"]), sum(k["cycles"] for k in stats["kernels"]))
        self.assertEqual({(r["label"], r["workload"], r["group"], r["overlays"]) for r in rows},
                         {("LRR", "vecadd", "memory", ""), ("LRR", "transpose_naive", "smem", ""),
                          ("GTO", "vecadd", "memory", "gto"), ("GTO", "transpose_naive", "smem", "gto")})
        for d in os.listdir(os.path.join(self.out, "runs")):
            for f in ("DONE", "log.txt", "run.json", "stats.json", "stats.txt", "config.resolved.yaml"):
                self.assertTrue(os.path.exists(os.path.join(self.out, "runs", d, f)), f"{d}/{f}")
        self.assertRegex(self.res.stderr, r"\[4/4\] \S+ \S+ tiny: ok \(\d+ cycles\)")

    def test_summary_speedups(self):
        self.check(self.res, 0)
        rows = read_csv(os.path.join(self.out, "results.csv"))
        cyc = {(r["label"], r["workload"]): int(r["cycles"]) for r in rows}
        text = read_text(os.path.join(self.out, "summary.txt"))
        self.assertIn(text.strip().splitlines()[0], self.res.stdout)
        main = text.split(" against the paper")[0]  # the speedup table (the paper comparison follows it)
        table = {l.split()[0]: l.split() for l in main.splitlines() if l.split()}
        header = [l.split() for l in text.splitlines() if l.startswith("workload")][0]
        self.assertEqual(header[-2:], ["LRR", "GTO"])
        for wl in ("vecadd", "transpose_naive"):
            self.assertEqual(table[wl][-2], "1.000")  # the baseline over itself
            self.assertAlmostEqual(float(table[wl][-1]), cyc[("LRR", wl)] / cyc[("GTO", wl)], places=3)
        gm = {l.split()[1]: l.split() for l in text.splitlines() if l.startswith("geomean")}
        self.assertEqual(set(gm), {"memory", "smem", "all"})
        self.assertEqual(gm["all"][-2], "1.000")
        expect = math.sqrt(cyc[("LRR", "vecadd")] / cyc[("GTO", "vecadd")] *
                           cyc[("LRR", "transpose_naive")] / cyc[("GTO", "transpose_naive")])
        self.assertAlmostEqual(float(gm["all"][-1]), expect, places=3)
        self.assertAlmostEqual(float(gm["memory"][-1]), cyc[("LRR", "vecadd")] / cyc[("GTO", "vecadd")], places=3)

    def test_summary_against_the_paper(self):
        self.check(self.res, 0)
        rows = read_csv(os.path.join(self.out, "results.csv"))
        cyc = {(r["label"], r["workload"]): int(r["cycles"]) for r in rows}
        text = read_text(os.path.join(self.out, "summary.txt"))
        lines = text.splitlines()
        at = [i for i, l in enumerate(lines) if l.startswith("GTO against the paper at tiny")]
        self.assertEqual(len(at), 1, text)
        self.assertFalse(any(l.startswith("LRR against the paper") for l in lines))  # no figures for LRR
        block = {l.split()[0]: l.split() for l in lines[at[0] + 2:at[0] + 4]}
        errs = []
        for kernel, wl, ref in (("VA", "vecadd", 1.10), ("transpose_naive", "transpose_naive", 0.95)):
            ours = cyc[("LRR", wl)] / cyc[("GTO", wl)]
            row = block[kernel]
            self.assertEqual(row[1], wl)
            self.assertAlmostEqual(float(row[2].rstrip("%")), (ours - 1) * 100, delta=0.051)
            self.assertAlmostEqual(float(row[3].rstrip("%")), (ref - 1) * 100, delta=0.051)
            self.assertAlmostEqual(float(row[4]), (ours - ref) * 100, delta=0.051)
            errs.append(abs(ours - ref) * 100)
        m = re.search(r"over 2 kernels: mean absolute error ([0-9.]+) points; geometric mean ours ([-+0-9.]+)%, "
                      r"paper ([-+0-9.]+)%", text)
        self.assertIsNotNone(m, text)
        self.assertAlmostEqual(float(m.group(1)), sum(errs) / 2, delta=0.051)
        self.assertAlmostEqual(float(m.group(3)), (math.sqrt(1.10 * 0.95) - 1) * 100, delta=0.051)

    def check_png(self, path):
        self.assertTrue(os.path.exists(path), f"missing {path}")
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", path)
        self.assertGreater(os.path.getsize(path), 1024, path)

    def test_plots_from_a_sweep(self):
        self.check(self.res, 0)
        png = os.path.join(self.tmp, "png")
        res = subprocess.run([PLOT, self.out, "-o", png], capture_output=True, text=True, timeout=120)
        self.check(res, 0)
        for name in ("ipc.png", "speedup.png", "stalls.png", "conflicts.png"):
            self.check_png(os.path.join(png, name))
            stem = os.path.join(png, name[:-4])
            with open(stem + ".pdf", "rb") as f:
                self.assertEqual(f.read(5), b"%PDF-", f"{stem}.pdf")
            svg = read_text(stem + ".svg")
            self.assertIn("<svg", svg)
            # the title names the experiment, the config and the size (the SVG keeps text as text)
            for part in ("experiment tiny", "config gtx480", "size tiny"):
                self.assertIn(part, svg, f"{name}: '{part}' in the title")
        # speedup bars start at 0 with the 1.0 line: the axis has a 0.0 tick
        self.assertRegex(read_text(os.path.join(png, "speedup.svg")), r">0\.0<")
        self.assertFalse(os.path.exists(os.path.join(png, "timeseries.png")))
        self.assertIn("skip timeseries.png", res.stderr)
        # the csv itself works as input too
        png2 = os.path.join(self.tmp, "png2")
        res = subprocess.run([PLOT, os.path.join(self.out, "results.csv"), "-o", png2],
                             capture_output=True, text=True, timeout=120)
        self.check(res, 0)
        self.check_png(os.path.join(png2, "speedup.png"))

    def test_plots_from_run_dirs_with_samples(self):
        self.check(self.res, 0)
        runs = os.path.join(self.out, "runs")
        a = os.path.join(self.tmp, "a")
        shutil.copytree(os.path.join(runs, "GTO__transpose_naive__tiny"), a)
        stats = load(os.path.join(a, "stats.json"))
        n = 8
        stats["samples"] = {"interval": 100, "cycle": [100 * (i + 1) for i in range(n)],
                            "series": {"ipc": [float(i % 3) for i in range(n)], "sched.issued": list(range(n))}}
        dump(stats, os.path.join(a, "stats.json"))
        # a bare run directory without stats counters must not crash anything
        b = os.path.join(self.tmp, "b")
        os.makedirs(b)
        dump({"kernels": [{"name": "k", "cycles": 10, "thread_instructions": 64, "warp_instructions": 2,
                           "ipc": 6.4, "verified": True}]}, os.path.join(b, "stats.json"))
        png = os.path.join(self.tmp, "png")
        res = subprocess.run([PLOT, a, b, os.path.join(runs, "LRR__transpose_naive__tiny"), "-o", png],
                             capture_output=True, text=True, timeout=120)
        self.check(res, 0)
        for name in ("ipc.png", "stalls.png", "conflicts.png", "timeseries.png"):
            self.check_png(os.path.join(png, name))


class TestSeeds(SweepTestCase):
    """An experiment that repeats its runs over input seeds: per-seed runs, speedups paired by seed, the
    spread in the summary, error bars and per-seed points in the plot."""

    def test_seeds_runs_summary_and_plot(self):
        exp = write(os.path.join(self.tmp, "seeds.yaml"), """\
            name: seeds
            baseline: LRR
            seeds: [1, 2]
            defaults: {config: gtx480, size: small}
            labels:
              - {name: LRR, set: {sm.warp_scheduler: lrr}}
              - {name: GTO, overlays: [gto]}
            workloads:
              - {name: histogram, group: atomics}
            """)
        out = os.path.join(self.tmp, "out")
        res = sweep(exp, "--out", out, "-j", "2")
        self.check(res, 0)
        rows = read_csv(os.path.join(out, "results.csv"))
        self.assertEqual(len(rows), 4)
        self.assertEqual(sorted((r["label"], r["seed"]) for r in rows),
                         [("GTO", "1"), ("GTO", "2"), ("LRR", "1"), ("LRR", "2")])
        for r in rows:
            self.assertTrue(r["run_id"].endswith("__seed" + r["seed"]), r["run_id"])
            self.assertIn(f"sim.seed={r['seed']}", " ".join(load(os.path.join(out, r["run_dir"], "run.json"))["argv"]))
            self.assertEqual(r["verified"], "true")
        cyc = {(r["label"], r["seed"]): int(r["cycles"]) for r in rows}
        # the seeds give the workload other inputs, and so other cycle counts (at `small`: at `tiny` gtx480's
        # histogram takes the same cycles on both seeds' inputs)
        self.assertNotEqual(cyc[("LRR", "1")], cyc[("LRR", "2")])
        per_seed = [cyc[("LRR", s)] / cyc[("GTO", s)] for s in ("1", "2")]
        text = read_text(os.path.join(out, "summary.txt"))
        row = [l.split() for l in text.splitlines() if l.startswith("histogram")][0]
        self.assertAlmostEqual(float(row[-1]), math.sqrt(per_seed[0] * per_seed[1]), places=3)  # geometric mean
        spread = text.split("spread over the seeds 1, 2")[1].splitlines()
        cells = [l.split() for l in spread if l.startswith("histogram")][0]
        self.assertEqual(cells[-1], f"{min(per_seed):.3f}..{max(per_seed):.3f}")
        self.assertEqual(cells[-2], "1.000..1.000")
        # the plot: bars at the geometric mean, an error bar and a dot per seed, the seeds in the title
        png = os.path.join(self.tmp, "png")
        res = subprocess.run([PLOT, out, "-o", png], capture_output=True, text=True, timeout=120)
        self.check(res, 0)
        svg = read_text(os.path.join(png, "speedup.svg"))
        self.assertIn("seed-spread", svg)
        self.assertIn("seed-points", svg)
        self.assertIn("seeds 1, 2", svg)
        # a sweep without seeds draws neither
        flat = write(os.path.join(self.tmp, "flat.yaml"), read_text(exp).replace("seeds: [1, 2]\n", ""))
        out2 = os.path.join(self.tmp, "out2")
        self.check(sweep(flat, "--out", out2, "-j", "2"), 0)
        self.assertEqual({r["seed"] for r in read_csv(os.path.join(out2, "results.csv"))}, {""})
        png2 = os.path.join(self.tmp, "png2")
        self.check(subprocess.run([PLOT, out2, "-o", png2], capture_output=True, text=True, timeout=120), 0)
        self.assertNotIn("seed-spread", read_text(os.path.join(png2, "speedup.svg")))

    def test_bad_seeds_exit_2(self):
        for bad in ("seeds: 3", "seeds: []", "seeds: [1, 1]", "seeds: [-1]", "seeds: [a]"):
            exp = write(os.path.join(self.tmp, "bad.yaml"), TINY + bad + "\n")
            res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
            self.check(res, 2)
            self.assertIn("seeds", res.stderr + res.stdout, bad)
        # tables that compare one run per label and workload do not take seeds
        exp = write(os.path.join(self.tmp, "bad.yaml"), TINY.replace("group: smem,", "group: smem, analytic: {r: 0.1, cd: 2},")
                    + "seeds: [1, 2]\n")
        res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
        self.check(res, 2)
        self.assertIn("seeds cannot go with analytic", res.stderr)


class TestResume(SweepTestCase):
    def test_only_missing_runs_are_recomputed(self):
        exp = write(os.path.join(self.tmp, "tiny.yaml"), TINY)
        out = os.path.join(self.tmp, "out")
        self.check(sweep(exp, "--out", out, "-j", "2"), 0)
        before = done_mtimes(out)
        self.assertEqual(len(before), 4)
        victim = "GTO__vecadd__tiny"
        shutil.rmtree(os.path.join(out, "runs", victim))
        time.sleep(0.02)
        res = sweep(exp, "--out", out, "-j", "2")
        self.check(res, 0)
        self.assertIn("3 of 4 runs already done; running 1", res.stderr)
        self.assertIn("[4/4] GTO vecadd tiny: ok", res.stderr)
        after = done_mtimes(out)
        self.assertEqual(set(after), set(before))
        for rid, t in before.items():
            if rid == victim:
                self.assertNotEqual(after[rid], t)
            else:
                self.assertEqual(after[rid], t, f"{rid} was recomputed")
        self.assertEqual([r["status"] for r in read_csv(os.path.join(out, "results.csv"))], ["ok"] * 4)
        # nothing left to do: a third sweep runs nothing
        res = sweep(exp, "--out", out)
        self.check(res, 0)
        self.assertEqual(done_mtimes(out), after)
        # a changed label is rerun (same run ids, different command line)
        write(exp, TINY.replace("overlays: [gto]", "overlays: [gto], set: {gpu.num_sms: 2}"))
        res = sweep(exp, "--out", out)
        self.check(res, 0)
        self.assertIn("2 changed since they ran", res.stderr)
        # the cluster-task entry point runs one planned run
        shutil.rmtree(os.path.join(out, "runs", victim))
        res = subprocess.run([SWEEP, "--out", out, "--exec-run", victim, "--exe", EXE],
                             capture_output=True, text=True, timeout=120)
        self.check(res, 0)
        self.assertTrue(os.path.exists(os.path.join(out, "runs", victim, "DONE")))


class TestInterruption(SweepTestCase):
    HANG = "GTO__transpose_naive__tiny"

    def hanging_exe(self):
        """The real simulator, but the GTO transpose run hangs after writing its outputs."""
        path = os.path.join(self.tmp, "hang-warptlm")
        with open(path, "w") as f:
            f.write(textwrap.dedent(f"""\
                #!/bin/sh
                "{EXE}" "$@"; rc=$?
                case "$*" in *transpose_naive*gto*) echo "hanging"; exec sleep 900;; esac
                exit $rc
                """))
        os.chmod(path, 0o755)
        return path

    def start(self, exp, out):
        return subprocess.Popen([SWEEP, exp, "--out", out, "-j", "1", "--exe", self.hanging_exe()],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)

    def wait_hanging(self, out):
        runs = os.path.join(out, "runs")
        def hanging():
            if not os.path.isdir(runs):
                return False
            return any(d.startswith(self.HANG + ".partial-") and os.path.exists(os.path.join(runs, d, "stats.json"))
                       for d in os.listdir(runs)) and len(done_mtimes(out)) == 3
        # generous: on a loaded 2-core CI machine the three tiny runs before it can take over a minute
        self.assertTrue(wait_for(hanging, timeout=600), "the hanging run never started")

    def test_killed_sweep_leaves_nothing_that_looks_finished(self):
        exp = write(os.path.join(self.tmp, "tiny.yaml"), TINY)
        out = os.path.join(self.tmp, "out")
        p = self.start(exp, out)
        try:
            self.wait_hanging(out)
        finally:
            os.killpg(p.pid, signal.SIGKILL)  # the whole sweep, simulators and all, mid-run
            p.communicate()
        runs = os.path.join(out, "runs")
        self.assertFalse(os.path.exists(os.path.join(runs, self.HANG)), "a killed run was published")
        before = done_mtimes(out)
        self.assertEqual(len(before), 3)
        self.assertNotIn(self.HANG, before)
        res = sweep(exp, "--out", out, "-j", "2")
        self.check(res, 0)
        self.assertIn("3 of 4 runs already done; running 1", res.stderr)
        after = done_mtimes(out)
        self.assertEqual(len(after), 4)
        for rid, t in before.items():
            self.assertEqual(after[rid], t, f"{rid} was recomputed")
        self.assertEqual(sorted(os.listdir(runs)), sorted(after), "leftover partial directories")

    def test_terminated_sweep_keeps_finished_results(self):
        exp = write(os.path.join(self.tmp, "tiny.yaml"), TINY)
        out = os.path.join(self.tmp, "out")
        p = self.start(exp, out)
        try:
            self.wait_hanging(out)
            p.send_signal(signal.SIGTERM)  # like Ctrl-C: the sweep stops its simulators and reports
            _, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
        self.assertEqual(p.returncode, 130, err)
        self.assertIn("interrupted", err)
        rows = {r["run_id"]: r["status"] for r in read_csv(os.path.join(out, "results.csv"))}
        self.assertEqual(rows[self.HANG], "pending")
        self.assertEqual(sorted(v for k, v in rows.items() if k != self.HANG), ["ok"] * 3)
        self.assertEqual(sorted(os.listdir(os.path.join(out, "runs"))), sorted(done_mtimes(out)))
        self.check(sweep(exp, "--out", out), 0)
        self.assertEqual(len(done_mtimes(out)), 4)


class TestFailure(SweepTestCase):
    def test_failed_runs_are_listed_and_the_rest_complete(self):
        exp = write(os.path.join(self.tmp, "fail.yaml"), """\
            name: fail
            baseline: Good
            defaults: {config: gtx480, size: tiny}
            labels:
              - {name: Good}
              - {name: Broken, set: {gpu.max_threads_per_block: 32}}   # valid, but every launch asks for more
            workloads:
              - {name: vecadd, group: memory}
              - {name: transpose_naive, group: smem}
            """)
        out = os.path.join(self.tmp, "out")
        res = sweep(exp, "--out", out, "-j", "2")
        self.check(res, 1)
        rows = {r["run_id"]: r for r in read_csv(os.path.join(out, "results.csv"))}
        self.assertEqual(len(rows), 4)
        for wl in ("vecadd", "transpose_naive"):
            good, bad = rows[f"Good__{wl}__tiny"], rows[f"Broken__{wl}__tiny"]
            self.assertEqual(good["status"], "ok")
            self.assertGreater(int(good["cycles"]), 0)
            self.assertEqual(bad["status"], "failed")
            self.assertEqual(bad["cycles"], "")
            d = os.path.join(out, "runs", f"Broken__{wl}__tiny")
            log = os.path.join(d, "log.txt")
            self.assertFalse(os.path.exists(os.path.join(d, "DONE")))
            self.assertEqual(load(os.path.join(d, "FAILED"))["exit"], 2)
            self.assertIn("gpu.max_threads_per_block is 32", read_text(log))
            self.assertIn(log, res.stdout)  # listed with its log path
            self.assertIn(log, read_text(os.path.join(out, "summary.txt")))
        self.assertIn("failed runs (2)", res.stdout)
        self.assertIn("FAILED", res.stderr)
        self.assertIn("2 failed", res.stderr)
        # a rerun retries the failures only
        before = done_mtimes(out)
        res = sweep(exp, "--out", out)
        self.check(res, 1)
        self.assertEqual(done_mtimes(out), before)



# The in-order core of seed 001 at tiny: the analytical check and a pair across workloads.
ELASTIC = """\
name: ep
baseline: Baseline
defaults: {config: elastic_baseline, size: tiny}
labels:
  - {name: Baseline}
  - {name: EP, overlays: [elastic]}
workloads:
  - {name: transpose_naive, group: conflicting, as: Transpose, analytic: {r: 0.037, cd: 4.5}}
  - {name: transpose_padded, group: control}
pairs:
  - {as: Fig8, run: {label: EP, workload: transpose_naive}, against: {label: Baseline, workload: transpose_padded}, paper: 1.0}
"""


class TestAnalyticAndPairs(SweepTestCase):
    def test_analytic_check_and_pairs(self):
        exp = write(os.path.join(self.tmp, "ep.yaml"), ELASTIC)
        out = os.path.join(self.tmp, "out")
        res = sweep(exp, "--out", out, "-j", "2")
        self.check(res, 0)
        rows = read_csv(os.path.join(out, "results.csv"))
        cyc = {(r["label"], r["workload"]): int(r["cycles"]) for r in rows}
        lines = read_text(os.path.join(out, "summary.txt")).splitlines()
        at = [i for i, l in enumerate(lines) if l.startswith("analytical check on Baseline")]
        self.assertEqual(len(at), 1, lines)
        rowsa = {l.split()[0]: l.split() for l in lines[at[0] + 2:at[0] + 4]}
        for wl in ("transpose_naive", "transpose_padded"):
            stats = load(os.path.join(out, "runs", f"Baseline__{wl}__tiny", "stats.json"))
            c = stats["kernels"][0]["counters"]
            r = c["pipe.shared_thread_instructions"] / stats["kernels"][0]["thread_instructions"]
            cd = c["pipe.shared_active_mem0_cycles"] / c["pipe.shared_active_subwarps"]
            self.assertGreater(cd, 1.0) if wl == "transpose_naive" else self.assertEqual(cd, 1.0)
            got = rowsa[wl]
            self.assertAlmostEqual(float(got[2]), r, delta=0.0006)
            self.assertAlmostEqual(float(got[3]), cd, delta=0.006)
            self.assertAlmostEqual(float(got[4]), 1 + r * (cd - 1), delta=0.0006)
            self.assertAlmostEqual(float(got[5]), cyc[("Baseline", wl)] / cyc[("EP", wl)], delta=0.0006)
        # against Table 5: ours, paper, error for r (points), cd and the theoretic speedup; the mean absolute errors
        at = [i for i, l in enumerate(lines) if l.startswith("analytical check against the paper at tiny")]
        self.assertEqual(len(at), 1, lines)
        row = lines[at[0] + 2].split()
        self.assertEqual(row[:2], ["Transpose", "transpose_naive"])
        r, cd = float(rowsa["transpose_naive"][2]), float(rowsa["transpose_naive"][3])
        self.assertEqual(row[3], "0.037")
        self.assertAlmostEqual(float(row[4]), (r - 0.037) * 100, delta=0.06)
        self.assertEqual(row[6], "4.50")
        self.assertAlmostEqual(float(row[7]), cd - 4.5, delta=0.006)
        self.assertAlmostEqual(float(row[10]), 1 + r * (cd - 1) - (1 + 0.037 * 3.5), delta=0.0015)
        self.assertTrue(lines[at[0] + 3].startswith("over 1 kernels: mean absolute error r "), lines[at[0] + 3])
        self.assertIn(f"cd {abs(cd - 4.5):.2f}", lines[at[0] + 3])
        pair = [l.split() for l in lines if l.startswith("Fig8")]
        self.assertEqual(len(pair), 1, lines)
        self.assertEqual(pair[0][2:4], ["EP/transpose_naive", "Baseline/transpose_padded"])
        self.assertAlmostEqual(float(pair[0][4]), cyc[("Baseline", "transpose_padded")] / cyc[("EP", "transpose_naive")],
                               delta=0.0006)
        self.assertEqual(pair[0][5], "1.000")

    def test_bad_analytic_exits_2_naming_it(self):
        exp = write(os.path.join(self.tmp, "bad.yaml"), ELASTIC.replace("cd: 4.5", "cd: high"))
        res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
        self.check(res, 2)
        self.assertIn("analytic: cd: 'high' is not a non-negative number", res.stderr)

    def test_bad_pair_exits_2_naming_it(self):
        exp = write(os.path.join(self.tmp, "bad.yaml"), ELASTIC.replace("label: EP, workload", "label: EPX, workload"))
        res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
        self.check(res, 2)
        self.assertIn("pairs[0].run: 'EPX' is not a label", res.stderr)

# A label on another platform runs its own workloads (`labels`), pairs carry the paper's ordering where it
# gives no figure (`paper_finding`), and `counters` tabulates counters per run.
PLATFORMS = """\
name: platforms
baseline: GPU
defaults: {config: gtx480, size: tiny}
labels:
  - {name: GPU}
  - {name: SPU, platform: spu}
workloads:
  - {name: matmul_report, labels: [GPU]}
  - {name: spu_matmul, labels: [SPU]}
pairs:
  - {as: MeshVsGpu, run: {label: SPU, workload: spu_matmul}, against: {label: GPU, workload: matmul_report}, paper_finding: slower}
  - {as: GpuVsMesh, run: {label: GPU, workload: matmul_report}, against: {label: SPU, workload: spu_matmul}, paper_finding: slower}
counters: [spu.block_syncs, ldst.global_load_lanes]
"""


class TestPlatforms(SweepTestCase):
    def test_platform_labels_findings_and_counters(self):
        exp = write(os.path.join(self.tmp, "pl.yaml"), PLATFORMS)
        out = os.path.join(self.tmp, "out")
        res = sweep(exp, "--out", out, "-j", "2")
        self.check(res, 0)
        plan = load(os.path.join(out, "plan.json"))
        self.assertEqual(sorted(r["id"] for r in plan["runs"]), ["GPU__matmul_report__tiny", "SPU__spu_matmul__tiny"])
        argv = {r["label"]: r["argv"] for r in plan["runs"]}
        self.assertIn("--platform", argv["SPU"])
        self.assertEqual(argv["SPU"][argv["SPU"].index("--platform") + 1], "spu")
        self.assertNotIn("--platform", argv["GPU"])
        rows = read_csv(os.path.join(out, "results.csv"))
        cyc = {r["label"]: int(r["cycles"]) for r in rows}
        self.assertTrue(all(r["verified"] == "true" for r in rows), rows)
        lines = read_text(os.path.join(out, "summary.txt")).splitlines()
        slower = cyc["SPU"] > cyc["GPU"]
        mesh = [l for l in lines if l.startswith("MeshVsGpu")]
        gpu = [l for l in lines if l.startswith("GpuVsMesh")]
        self.assertEqual(len(mesh), 1, lines)
        self.assertAlmostEqual(float(mesh[0].split()[4]), cyc["GPU"] / cyc["SPU"], delta=0.0006)
        # the same ordering read from either side: exactly one of the two holds
        self.assertIn("paper: slower (no figure); ", mesh[0])
        self.assertEqual("does not hold" in mesh[0], not slower, mesh[0])
        self.assertEqual("does not hold" in gpu[0], slower, gpu[0])
        at = [i for i, l in enumerate(lines) if l.startswith("counters per run")]
        self.assertEqual(len(at), 1, lines)
        table = {l.split()[0]: l.split()[1:] for l in lines[at[0] + 2:at[0] + 4]}
        for rid in ("GPU__matmul_report__tiny", "SPU__spu_matmul__tiny"):
            c = load(os.path.join(out, "runs", rid, "stats.json"))["counters"]
            want = [str(int(c[n])) if n in c else "-" for n in ("spu.block_syncs", "ldst.global_load_lanes")]
            self.assertEqual(table[rid], want)
        self.assertEqual(table["GPU__matmul_report__tiny"][0], "-")  # no mesh on the gpu platform

    def test_bad_platform_and_label_filter_exit_2(self):
        for old, new, msg in (("platform: spu", "platform: tpu", "platform: 'tpu' is not gpu or spu"),
                              ("labels: [SPU]", "labels: [SPX]", "labels: 'SPX' is not a label"),
                              ("paper_finding: slower}\n  - {as: GpuVsMesh", "paper_finding: later}\n  - {as: GpuVsMesh",
                               "paper_finding: 'later' is not slower or faster")):
            exp = write(os.path.join(self.tmp, "bad.yaml"), PLATFORMS.replace(old, new, 1))
            res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
            self.check(res, 2)
            self.assertIn(msg, res.stderr)


# A paper's value of a counter per kernel (`paper_counters`): the summary sets the run's total beside it.
PAPER_COUNTERS = """\
name: pc
baseline: A
defaults: {config: gtx480, size: tiny}
labels:
  - {name: A}
workloads:
  - {name: vecadd, as: VA, paper_counters: {A: {ldst.global_load_lanes: 100}}}
  - {name: matmul, as: MM, paper_counters: {A: {ldst.global_load_lanes: 50}}}
"""


class TestPaperCounters(SweepTestCase):
    def test_counter_against_the_paper_with_the_mean_absolute_error(self):
        exp = write(os.path.join(self.tmp, "pc.yaml"), PAPER_COUNTERS)
        out = os.path.join(self.tmp, "out")
        res = sweep(exp, "--out", out, "-j", "2")
        self.check(res, 0)
        lines = read_text(os.path.join(out, "summary.txt")).splitlines()
        at = [i for i, l in enumerate(lines) if l.startswith("A: ldst.global_load_lanes against the paper at tiny")]
        self.assertEqual(len(at), 1, lines)
        errs = []
        for k, (wl, ref) in enumerate((("vecadd", 100.0), ("matmul", 50.0))):
            row = lines[at[0] + 2 + k].split()
            ours = load(os.path.join(out, "runs", f"A__{wl}__tiny", "stats.json"))["counters"]["ldst.global_load_lanes"]
            self.assertEqual(row[1], wl)
            self.assertAlmostEqual(float(row[2]), ours, delta=0.0006)
            self.assertAlmostEqual(float(row[3]), ref)
            self.assertAlmostEqual(float(row[4]), ours - ref, delta=0.0006)
            errs.append(abs(ours - ref))
        mae = re.search(r"over 2 kernels: mean absolute error ([0-9.]+)", lines[at[0] + 4])
        self.assertIsNotNone(mae, lines[at[0] + 4])
        self.assertAlmostEqual(float(mae.group(1)), sum(errs) / 2, delta=0.0006)

    def test_bad_paper_counters_exit_2(self):
        for old, new, msg in (("{A: {ldst.global_load_lanes: 100}}", "{B: {ldst.global_load_lanes: 100}}",
                               "paper_counters: 'B' is not a label"),
                              ("{A: {ldst.global_load_lanes: 100}}", "{A: {ldst.global_load_lanes: many}}",
                               "'many' is not a number")):
            exp = write(os.path.join(self.tmp, "bad.yaml"), PAPER_COUNTERS.replace(old, new, 1))
            res = sweep(exp, "--out", os.path.join(self.tmp, "o"), "--dry-run")
            self.check(res, 2)
            self.assertIn(msg, res.stderr)


if __name__ == "__main__":
    prog = unittest.main(exit=False, verbosity=2)
    r = prog.result
    failed = len(r.failures) + len(r.errors) + len(r.unexpectedSuccesses)
    passed = r.testsRun - failed - len(r.skipped)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not r.wasSuccessful() else 0)
