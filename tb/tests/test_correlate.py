#!/usr/bin/env python3
"""Tests of scripts/correlate on real (tiny) simulator runs. Standard library only.

  WARPTLM_EXE=build/warptlm python3 tb/tests/test_correlate.py      (ctest: correlate/python)

A two-row reference is made from the model's own figures with known factors (cycles x2 and x0.9),
so every printed figure has a known answer: ratios 0.5 and 1.11, errors -50 % and +11.1 %, MAPE 30.6 %.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.environ.get("WARPTLM_ROOT") or
                       os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EXE = os.path.abspath(os.environ.get("WARPTLM_EXE") or os.path.join(ROOT, "build", "warptlm"))
CORRELATE = os.path.join(ROOT, "scripts", "correlate")
ROWS = [("vecadd", "tiny", 2.0), ("reduce_seq", "tiny", 0.9)]  # reference cycles = model x factor


def model_run(tmp, workload, size, sets=(), tag=""):
    out = os.path.join(tmp, f"direct-{workload}{tag}")
    subprocess.run([EXE, "run", "--workload", workload, "--size", size, "--config", "gtx480", "--out", out, "-q"] +
                   [a for kv in sets for a in ("--set", kv)], check=True, capture_output=True)
    with open(os.path.join(out, "stats.json")) as f:
        ks = json.load(f)["kernels"]
    return (sum(k["cycles"] for k in ks), sum(k["thread_instructions"] for k in ks),
            sum(k["warp_instructions"] for k in ks))


class TestCorrelate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = cls.tmp.name
        cls.model = {w: model_run(tmp, w, s) for w, s, _ in ROWS}
        cls.ref = os.path.join(tmp, "ref.csv")
        with open(cls.ref, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["workload", "size", "launches", "cycles", "thread_instructions", "warp_instructions", "ipc"])
            for name, size, factor in ROWS:
                cyc, thr, warp = cls.model[name]
                # thread instructions 10 more than the model's, warp instructions equal
                w.writerow([name, size, "", round(cyc * factor), thr + 10, warp, ""])
        cls.out = os.path.join(tmp, "out")
        cls.proc = subprocess.run([CORRELATE, cls.ref, "--config", "gtx480", "--exe", EXE, "--out", cls.out, "-j", "2"],
                                  capture_output=True, text=True, timeout=600)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_exit_and_outputs(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stdout + self.proc.stderr)
        for name in ("correlate.csv", "correlate.json", "correlate.png"):
            self.assertTrue(os.path.getsize(os.path.join(self.out, name)) > 0, name)
        with open(os.path.join(self.out, "correlate.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_per_row_ratios_errors_and_counts(self):
        with open(os.path.join(self.out, "correlate.csv")) as f:
            rows = {r["workload"]: r for r in csv.DictReader(f)}
        self.assertEqual(set(rows), {w for w, _, _ in ROWS})
        for name, _, factor in ROWS:
            r = rows[name]
            cyc = self.model[name][0]
            ref = round(cyc * factor)
            self.assertEqual(int(float(r["model_cycles"])), cyc)
            self.assertAlmostEqual(float(r["ratio"]), cyc / ref, places=9)
            self.assertAlmostEqual(float(r["error_pct"]), 100.0 * (cyc - ref) / ref, places=6)
            self.assertEqual(int(float(r["warp_instruction_diff"])), 0)
            self.assertEqual(int(float(r["thread_instruction_diff"])), -10)
        # the printed table carries the same ratios
        self.assertIn("0.50", self.proc.stdout)
        self.assertIn("1.11", self.proc.stdout)

    def test_summary(self):
        with open(os.path.join(self.out, "correlate.json")) as f:
            s = json.load(f)["summary"]["all"]
        errs = []
        for name, _, factor in ROWS:
            cyc = self.model[name][0]
            ref = round(cyc * factor)
            errs.append(abs(100.0 * (cyc - ref) / ref))
        self.assertAlmostEqual(s["mape_pct"], sum(errs) / 2, places=6)
        self.assertAlmostEqual(s["max_abs_error_pct"], max(errs), places=6)
        self.assertEqual(s["rows"], 2)
        # two points: the correlation is +1 or -1 (or undefined); here the model's order is kept
        # only if vecadd tiny runs fewer cycles x2 than reduce_seq tiny x0.9 in the same order
        a, b = self.model["vecadd"][0], self.model["reduce_seq"][0]
        ra, rb = round(a * 2.0), round(b * 0.9)
        self.assertAlmostEqual(s["cycle_correlation"], 1.0 if (a - b) * (ra - rb) > 0 else -1.0, places=9)

    def test_bounds_fail_on_a_far_reference(self):
        p = subprocess.run([CORRELATE, self.ref, "--exe", EXE, "--out", os.path.join(self.tmp.name, "b"), "--bounds",
                            "--bound", "tiny=25"],
                           capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("bounds: NOT met", p.stdout)
        self.assertIn("vecadd tiny -50.0% (bound 25%)", p.stdout)
        self.assertNotIn("reduce_seq tiny", p.stdout.split("bounds:")[1])  # +11.1 % is within 25 %

    def test_bad_reference_names_file_and_line(self):
        bad = os.path.join(self.tmp.name, "bad.csv")
        with open(bad, "w") as f:
            f.write("workload,size,cycles\nvecadd,tiny,100\nvecadd,tiny,lots\n")
        p = subprocess.run([CORRELATE, bad, "--exe", EXE, "--out", os.path.join(self.tmp.name, "c")],
                           capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("bad.csv:3", p.stderr)
        self.assertIn("'cycles'", p.stderr)


class TestDeltas(unittest.TestCase):
    """--deltas on a reference made from the model's own runs: vecadd tiny at baseline and with 30 SMs and a
    50 % faster core clock. The reference gives sms_30 the model's own cycles (difference 0, signs agree) and
    core_clock_150 cycles 1.5 times the baseline's (0 % in the reference: 1.5x the cycles at 1.5x the clock),
    so every printed figure has a known answer."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import design_changes
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = cls.tmp.name

        def cycles(change):
            sets = design_changes.CHANGES[change].warptlm if change else ()
            return model_run(tmp, "vecadd", "tiny", sets, "-" + change)[0]
        cls.base = cycles("")
        cls.sms = cycles("sms_30")
        cls.clock = cycles("core_clock_150")
        cls.ref = os.path.join(tmp, "deltas.csv")
        with open(cls.ref, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["workload", "size", "change", "core_clock_mhz", "cycles", "thread_instructions",
                        "warp_instructions", "check"])
            w.writerow(["vecadd", "tiny", "baseline", 700, cls.base, "", "", "passed"])
            w.writerow(["vecadd", "tiny", "sms_30", 700, cls.sms, "", "", "passed"])
            w.writerow(["vecadd", "tiny", "core_clock_150", 1050, round(cls.base * 1.5), "", "", "passed"])
        cls.out = os.path.join(tmp, "out")
        cls.proc = subprocess.run([CORRELATE, "--deltas", cls.ref, "--exe", EXE, "--out", cls.out, "-j", "2"],
                                  capture_output=True, text=True, timeout=600)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_speedups_and_differences(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stdout + self.proc.stderr)
        with open(os.path.join(self.out, "deltas.csv")) as f:
            rows = {r["change"]: r for r in csv.DictReader(f)}
        self.assertEqual(set(rows), {"sms_30", "core_clock_150"})
        sms = rows["sms_30"]
        self.assertAlmostEqual(float(sms["reference_pct"]), 100.0 * (self.base / self.sms - 1), places=6)
        self.assertAlmostEqual(float(sms["difference_points"]), 0.0, places=6)
        clk = rows["core_clock_150"]
        self.assertAlmostEqual(float(clk["reference_pct"]), 100.0 * (self.base / round(self.base * 1.5) * 1.5 - 1),
                               places=6)
        # the model's speedup counts its cycles at 1050 MHz against the baseline's at 700
        self.assertAlmostEqual(float(clk["model_pct"]), 100.0 * ((self.base / 700) / (self.clock / 1050) - 1),
                               places=6)

    def test_summary_per_change(self):
        with open(os.path.join(self.out, "deltas.json")) as f:
            ch = {c["change"]: c for c in json.load(f)["changes"]}
        self.assertAlmostEqual(ch["sms_30"]["mean_abs_difference_points"], 0.0, places=6)
        self.assertEqual(ch["sms_30"]["signs_agree"], ch["sms_30"]["signs_compared"])
        self.assertIn("sms_30", self.proc.stdout)

    def test_bounds_judge_medium_rows(self):
        # the bounds judge medium rows; a tiny-only reference has none, so they hold
        p = subprocess.run([CORRELATE, "--deltas", self.ref, "--exe", EXE, "--out", os.path.join(self.tmp.name, "b"),
                            "--bounds"], capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("bounds: all hold", p.stdout)
        # at medium, a reference in which 30 SMs take half the time, where the model gains next to nothing
        # (vecadd is bound by the DRAM's bandwidth, which 30 SMs do not widen): both bounds are missed
        ref = os.path.join(self.tmp.name, "medium.csv")
        with open(ref, "w") as f:
            f.write("workload,size,change,core_clock_mhz,cycles\nvecadd,medium,baseline,700,80000\n"
                    "vecadd,medium,sms_30,700,40000\n")
        p = subprocess.run([CORRELATE, "--deltas", ref, "--exe", EXE, "--out", os.path.join(self.tmp.name, "m"),
                            "--bounds"], capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("bounds: NOT met", p.stdout)
        self.assertIn("sms_30 medium: mean |difference|", p.stdout)
        self.assertIn("sms_30 medium: signs differ on vecadd", p.stdout)

    def test_unknown_change_is_refused(self):
        bad = os.path.join(self.tmp.name, "bad.csv")
        with open(bad, "w") as f:
            f.write("workload,size,change,core_clock_mhz,cycles\nvecadd,tiny,baseline,700,100\n"
                    "vecadd,tiny,faster_everything,700,50\n")
        p = subprocess.run([CORRELATE, "--deltas", bad, "--exe", EXE, "--out", os.path.join(self.tmp.name, "c")],
                           capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("faster_everything", p.stderr)


class TestSilicon(unittest.TestCase):
    """A silicon reference in hw_perf.csv's columns: the host program of vecadd (an nvcc-built application,
    scenarios/calibration/hosts/bin) under `warptlm exec`, against cycles made from its own run (x 0.8) with a
    kernel it does not launch and a benchmark with no application beside it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = cls.tmp.name
        apps = os.path.join(tmp, "apps", "vec")
        os.makedirs(apps)
        os.symlink(os.path.join(ROOT, "scenarios", "calibration", "hosts", "bin", "vecadd"), os.path.join(apps, "vecadd"))
        out = os.path.join(tmp, "direct")
        subprocess.run([EXE, "exec", "--config", "gtx480", "--out", out, "-q", "--", os.path.join(apps, "vecadd"), "tiny"],
                       check=True, capture_output=True, cwd=apps)
        with open(os.path.join(out, "stats.json")) as f:
            cls.cycles = json.load(f)["kernels"][0]["cycles"]  # gtx480 has no kernel launch latency
        cls.ref = os.path.join(tmp, "hw_perf.csv")
        with open(cls.ref, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["Benchmark", "Kernel", "L1_RH", "Elapsed_Cycles", "Chip Voltage"])
            w.writerow(["vec-bench", "vecadd", "0", cls.cycles * 0.8, "1.0"])
            w.writerow(["vec-bench", "never_launched", "0", "1000", "1.0"])
            w.writerow(["other-bench", "k", "0", "1000", "1.0"])
        cls.apps_list = os.path.join(tmp, "apps.csv")
        with open(cls.apps_list, "w") as f:
            f.write("benchmark,dir,command\nvec-bench,vec,./vecadd tiny\n")
        cls.out = os.path.join(tmp, "out")
        cls.proc = subprocess.run([CORRELATE, cls.ref, "--apps", os.path.join(tmp, "apps"), "--app-list", cls.apps_list,
                                   "--config", "gtx480", "--exe", EXE, "--out", cls.out, "-j", "1"],
                                  capture_output=True, text=True, timeout=600)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_kernel_error_against_silicon(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stdout + self.proc.stderr)
        with open(os.path.join(self.out, "silicon.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 1)  # the one kernel that ran
        self.assertEqual(rows[0]["kernel"], "vecadd")
        self.assertAlmostEqual(float(rows[0]["model_cycles"]), self.cycles)
        self.assertAlmostEqual(float(rows[0]["error_pct"]), 25.0, places=6)  # model / (0.8 model) - 1
        with open(os.path.join(self.out, "silicon.json")) as f:
            j = json.load(f)
        self.assertAlmostEqual(j["summary"]["mape_pct"], 25.0, places=6)
        self.assertEqual(j["kernels_not_run"], 2)

    def test_missing_kernel_and_application_are_named(self):
        self.assertIn("never_launched", self.proc.stdout)
        self.assertIn("not launched by the application", self.proc.stdout)
        self.assertRegex(self.proc.stdout, r"other-bench .*not run: not in .*apps.csv")

    def test_without_apps_it_is_refused(self):
        p = subprocess.run([CORRELATE, self.ref, "--exe", EXE, "--out", os.path.join(self.tmp.name, "x")],
                           capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--apps", p.stderr)

    def test_unquoted_command_with_commas_is_refused(self):
        apps = os.path.join(self.tmp.name, "bad_apps.csv")
        with open(apps, "w") as f:
            f.write("benchmark,dir,command\nvec-bench,vec,./vecadd -i a.txt,b.txt\n")
        p = subprocess.run([CORRELATE, self.ref, "--apps", self.tmp.name, "--app-list", apps, "--exe", EXE,
                            "--out", os.path.join(self.tmp.name, "z")], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("bad_apps.csv:2", p.stderr)
        self.assertIn("quote", p.stderr)

    def test_bad_cycles_name_file_and_line(self):
        bad = os.path.join(self.tmp.name, "bad_hw.csv")
        with open(bad, "w") as f:
            f.write("Benchmark,Kernel,Elapsed_Cycles\nvec-bench,vecadd,12\nvec-bench,vecadd,lots\n")
        p = subprocess.run([CORRELATE, bad, "--apps", self.tmp.name, "--exe", EXE, "--out", os.path.join(self.tmp.name, "y")],
                           capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("bad_hw.csv:3", p.stderr)
        self.assertIn("Elapsed_Cycles", p.stderr)


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=2).result
    print(f"{r.testsRun - len(r.failures) - len(r.errors)} passed, {len(r.failures) + len(r.errors)} failed")
    sys.exit(0 if r.wasSuccessful() else 1)
