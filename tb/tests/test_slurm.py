#!/usr/bin/env python3
"""scripts/sweep --slurm on a real Slurm cluster: one node on localhost, started here.

  WARPTLM_EXE=build/warptlm python3 tb/tests/test_slurm.py      (ctest: sweep/slurm, label slurm)

Installs Debian's slurm-wlm and munge when they are missing (as root, or through sudo), generates a munge
key and a slurm.conf in a temporary directory, starts munged, slurmctld and slurmd on free local ports and
waits for the node to be idle. Then a tiny sweep runs through the cluster as a job array and its
results.csv must match the same sweep run locally; --slurm-dry-run submits nothing; --no-wait returns at
once and --collect gathers the results afterwards; a resumed submission sends only the runs not done; a
failing run is reported with its log. If the cluster cannot start, the test fails with the reason (the
daemons' log tails); it never passes without a cluster. Ends with a line `N passed, M failed`.
"""
import csv
import json
import os
import shutil
import socket
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
DAEMONS = ("munged", "slurmctld", "slurmd")
TOOLS = ("sbatch", "squeue", "sinfo", "scancel", "mungekey")

TINY = """\
name: tiny
baseline: LRR
defaults: {config: gtx480, size: tiny}
labels:
  - {name: LRR, set: {sm.warp_scheduler: lrr}}
  - {name: GTO, overlays: [gto]}
workloads:
  - {name: vecadd, group: memory}
  - {name: transpose_naive, group: smem}
"""


def sh(*cmd, timeout=120, env=None, check=False):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr or r.stdout}")
    return r


def find(tool):
    return shutil.which(tool) or next((p for p in (f"/usr/sbin/{tool}", f"/sbin/{tool}") if os.access(p, os.X_OK)), None)


def install_missing():
    """Debian's slurm-wlm and munge, when a daemon or tool is missing. Returns why not, or None."""
    if all(find(t) for t in DAEMONS + TOOLS):
        return None
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and not shutil.which("sudo"):
        return "slurm-wlm and munge are missing and this user is neither root nor has sudo"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (sudo + ["apt-get", "update", "-qq"],
                sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "slurm-wlm", "munge"]):
        r = sh(*cmd, timeout=900, env=env)
        if r.returncode != 0:
            return f"{' '.join(cmd)} failed (exit {r.returncode}): {(r.stderr or r.stdout).strip()[-2000:]}"
    missing = [t for t in DAEMONS + TOOLS if not find(t)]
    return f"still missing after installing slurm-wlm and munge: {', '.join(missing)}" if missing else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """munged + slurmctld + slurmd on localhost, everything under one temporary directory."""

    def __init__(self, base):
        self.dir = base
        self.conf = os.path.join(base, "slurm.conf")
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        self.pids = []

    def tail(self, name, n=15):
        try:
            with open(os.path.join(self.dir, "log", name)) as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return "(no log)\n"

    def logs(self):
        return "".join(f"--- {n} ---\n{self.tail(n)}" for n in ("munged.log", "slurmctld.log", "slurmd.log"))

    def start(self):
        d = self.dir
        for sub in ("state", "spool", "log"):
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        key, sock = os.path.join(d, "munge.key"), os.path.join(d, "munge.socket")
        r = sh(find("mungekey"), "--create", "--keyfile", key, "--bits", "1024")
        if r.returncode != 0:
            return f"mungekey failed: {r.stderr or r.stdout}"
        os.chmod(key, 0o600)
        r = sh(find("munged"), "--force", f"--socket={sock}", f"--key-file={key}",
               f"--log-file={os.path.join(d, 'log', 'munged.log')}", f"--pid-file={os.path.join(d, 'munged.pid')}",
               f"--seed-file={os.path.join(d, 'munged.seed')}")
        if r.returncode != 0:
            return f"munged did not start: {r.stderr or r.stdout}\n{self.logs()}"
        self.pids.append(os.path.join(d, "munged.pid"))
        mem = 1024
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = max(1024, int(int(line.split()[1]) / 1024 * 0.8))
        conf = f"""\
            ClusterName=warptlm-test
            SlurmctldHost=localhost(127.0.0.1)
            SlurmctldPort={free_port()}
            SlurmdPort={free_port()}
            SlurmUser={'root' if os.geteuid() == 0 else os.environ.get('USER', 'root')}
            AuthType=auth/munge
            CredType=cred/munge
            AuthInfo=socket={sock}
            StateSaveLocation={d}/state
            SlurmdSpoolDir={d}/spool
            SlurmctldPidFile={d}/slurmctld.pid
            SlurmdPidFile={d}/slurmd.pid
            SlurmctldLogFile={d}/log/slurmctld.log
            SlurmdLogFile={d}/log/slurmd.log
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            JobAcctGatherType=jobacct_gather/none
            AccountingStorageType=accounting_storage/none
            SelectType=select/cons_tres
            SelectTypeParameters=CR_Core
            MpiDefault=none
            ReturnToService=2
            SchedulerType=sched/builtin
            NodeName=localhost NodeAddr=127.0.0.1 CPUs={os.cpu_count() or 1} RealMemory={mem} State=UNKNOWN
            PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
            """
        with open(self.conf, "w") as f:
            f.write(textwrap.dedent(conf))
        for cmd, pid in (([find("slurmctld"), "-f", self.conf, "-i"], "slurmctld.pid"),
                         ([find("slurmd"), "-f", self.conf, "-N", "localhost"], "slurmd.pid")):
            r = sh(*cmd, env=self.env)
            if r.returncode != 0:
                return f"{os.path.basename(cmd[0])} did not start (exit {r.returncode}): {r.stderr or r.stdout}\n{self.logs()}"
            self.pids.append(os.path.join(d, pid))
        end = time.time() + 60
        state = ""
        while time.time() < end:
            r = sh("sinfo", "-h", "-N", "-o", "%t", env=self.env, timeout=30)
            state = r.stdout.strip()
            if r.returncode == 0 and state in ("idle", "mix", "alloc"):
                return None
            time.sleep(0.5)
        return f"the node did not become idle in 60 s (sinfo: '{state}')\n{self.logs()}"

    def stop(self):
        sh("scancel", "-u", str(os.geteuid()) if os.geteuid() else "root", env=self.env, timeout=30)
        for pidfile in reversed(self.pids):
            try:
                with open(pidfile) as f:
                    os.kill(int(f.read().strip()), 15)
            except (OSError, ValueError):
                pass
        time.sleep(0.5)


CLUSTER = None
WHY = None


def setUpModule():
    global CLUSTER, WHY
    WHY = install_missing()
    if WHY:
        return
    CLUSTER = Cluster(tempfile.mkdtemp(prefix="warptlm-slurm-"))
    WHY = CLUSTER.start()


def tearDownModule():
    if CLUSTER:
        CLUSTER.stop()
        shutil.rmtree(CLUSTER.dir, ignore_errors=True)


def read(path):
    with open(path) as f:
        return f.read()


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def comparable(rows):
    """results.csv by run id, less the wall-clock column (runs differ in time, not in results)."""
    return {r["run_id"]: {k: v for k, v in r.items() if k != "wall_seconds"} for r in rows}


class SlurmSweep(unittest.TestCase):
    def setUp(self):
        # a cluster that does not start is a failure with its reason, never a pass
        self.assertIsNone(WHY, f"no Slurm cluster: {WHY}")
        self.assertTrue(os.access(EXE, os.X_OK), f"no simulator at {EXE}")
        self.tmp = tempfile.mkdtemp(prefix="warptlm-slurm-sweep-")
        self.exp = os.path.join(self.tmp, "tiny.yaml")
        with open(self.exp, "w") as f:
            f.write(TINY)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def sweep(self, *args, timeout=600):
        return subprocess.run([SWEEP, self.exp, "--exe", EXE, *args], capture_output=True, text=True,
                              timeout=timeout, env=CLUSTER.env)

    def check(self, res, code):
        self.assertEqual(res.returncode, code, f"exit {res.returncode}\nstdout:\n{res.stdout}\nstderr:\n{res.stderr}\n"
                                               f"{CLUSTER.logs()}")

    def local(self):
        out = os.path.join(self.tmp, "local")
        self.check(self.sweep("--out", out, "-j", "2"), 0)
        return comparable(read_csv(os.path.join(out, "results.csv")))

    def wait_idle(self, timeout=300):
        end = time.time() + timeout
        while time.time() < end:
            if not sh("squeue", "-h", env=CLUSTER.env).stdout.strip():
                return
            time.sleep(0.5)
        self.fail("the cluster's queue did not drain")

    def test_array_results_match_a_local_sweep_and_resume_sends_only_what_is_missing(self):
        want = self.local()
        out = os.path.join(self.tmp, "slurm")
        res = self.sweep("--out", out, "--slurm", "--slurm-tasks", "3", "--time", "00:10:00", "--slurm-poll", "0.5")
        self.check(res, 0)
        self.assertRegex(res.stderr, r"submitted 4 runs as Slurm job \d+ \(3 array tasks")
        self.assertEqual(comparable(read_csv(os.path.join(out, "results.csv"))), want)
        last = json.loads(read(os.path.join(out, "slurm", "last.json")))
        self.assertEqual(last["tasks"], 3)
        for i in range(3):  # each task ran its slice and said so in its log
            log = read(os.path.join(last["dir"], f"task-{i}.log"))
            self.assertRegex(log, r"slice slice-%d\.txt: every run ok \(\d runs\)" % i)
        # resume: one run removed; only it is submitted again, and the results match once more
        shutil.rmtree(os.path.join(out, "runs", "GTO__vecadd__tiny"))
        res = self.sweep("--out", out, "--slurm", "--time", "00:10:00", "--slurm-poll", "0.5")
        self.check(res, 0)
        self.assertIn("3 of 4 runs already done; running 1", res.stderr)
        self.assertRegex(res.stderr, r"submitted 1 runs as Slurm job \d+ \(1 array tasks")
        self.assertEqual(comparable(read_csv(os.path.join(out, "results.csv"))), want)
        # everything done: nothing is submitted
        res = self.sweep("--out", out, "--slurm", "--slurm-poll", "0.5")
        self.check(res, 0)
        self.assertNotIn("submitted", res.stderr)

    def test_no_wait_then_collect(self):
        want = self.local()
        out = os.path.join(self.tmp, "nowait")
        res = self.sweep("--out", out, "--slurm", "--no-wait", "--time", "00:10:00")
        self.check(res, 0)
        self.assertIn("--collect", res.stderr)
        # while its tasks may still run, a second submission or a local sweep into the same directory is refused
        # (or, if they already finished, finds nothing to do); either way nothing is run twice
        self.wait_idle()
        res = self.sweep("--out", out, "--collect")
        self.check(res, 0)
        self.assertEqual(comparable(read_csv(os.path.join(out, "results.csv"))), want)

    def test_dry_run_prints_the_batch_script_and_submits_nothing(self):
        out = os.path.join(self.tmp, "dry")
        before = sh("squeue", "-h", env=CLUSTER.env).stdout
        res = self.sweep("--out", out, "--slurm-dry-run", "--slurm-tasks", "2", "--partition", "debug",
                         "--time", "01:00:00", "--mem", "2G", "--account", "arch", "--slurm-arg=--qos=normal",
                         "--slurm-concurrent", "1")
        self.check(res, 0)
        for line in ("#!/bin/bash", "#SBATCH --array=0-1%1", "#SBATCH --partition=debug", "#SBATCH --time=01:00:00",
                     "#SBATCH --mem=2G", "#SBATCH --account=arch", "#SBATCH --qos=normal", "--exec-slice"):
            self.assertIn(line, res.stdout)
        self.assertEqual(res.stdout.count("# slice-"), 2)
        self.assertFalse(os.path.exists(os.path.join(out, "slurm")))
        self.assertEqual(sh("squeue", "-h", env=CLUSTER.env).stdout, before)

    def test_a_failing_run_is_reported_with_its_log(self):
        with open(self.exp, "a") as f:
            f.write("  - {name: matmul, group: compute}\n")
        bad = os.path.join(self.tmp, "bad.yaml")
        with open(self.exp) as f:
            text = f.read().replace("- {name: GTO, overlays: [gto]}",
                                    "- {name: GTO, overlays: [gto], set: {gpu.max_threads_per_block: 32}}")
        with open(bad, "w") as f:
            f.write(text)
        self.exp = bad
        out = os.path.join(self.tmp, "failing")
        res = self.sweep("--out", out, "--slurm", "--time", "00:10:00", "--slurm-poll", "0.5")
        self.check(res, 1)
        rows = {r["run_id"]: r for r in read_csv(os.path.join(out, "results.csv"))}
        self.assertEqual(rows["LRR__matmul__tiny"]["status"], "ok")
        self.assertEqual(rows["GTO__matmul__tiny"]["status"], "failed")
        summary = read(os.path.join(out, "summary.txt"))
        self.assertIn(os.path.join(out, "runs", "GTO__matmul__tiny", "log.txt"), summary)
        last = json.loads(read(os.path.join(out, "slurm", "last.json")))
        logs = "".join(read(os.path.join(last["dir"], f"task-{i}.log")) for i in range(last["tasks"]))
        self.assertIn("GTO__matmul__tiny: FAILED (exit ", logs)
        self.assertIn(os.path.join(out, "runs", "GTO__matmul__tiny", "log.txt"), logs)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    n = result.testsRun
    bad = len(result.failures) + len(result.errors)
    print(f"{n - bad} passed, {bad} failed")
    sys.exit(1 if bad or not n else 0)
