#!/usr/bin/env python3
"""The waveform view as a user sees it: trace a run, open the VCD and its .gtkw in GTKWave on a virtual
X server (Xvfb), take a screenshot of the screen and check that the view is not blank: GTKWave's window is
up, its wave canvas (black) is there, and waveforms (GTKWave's green traces) are drawn on it, over many
columns (a view zoomed to a readable window shows many transitions) and many rows (signals).

  gtkwave_view.py --exe build/warptlm --out DIR [--workload matmul] [--size tiny] [--config gtx480]
                  [--set KEY=VALUE ...] [--expect-group TITLE ...] [--fault no_viewer]

Writes DIR/view.png (the screenshot) and prints what it measured. --set passes settings to the traced run
(an RTL block in the loop: --set sm.issue_select.impl=rtl); --expect-group requires the view to hold that
group of signals (the RTL block's ports, docs/rtl.md). Exit 0 when the view passes, 1 when it
is blank or GTKWave failed, 2 when a tool is missing (gtkwave, Xvfb and xwd come from Debian's gtkwave,
xvfb and x11-apps; scripts/setup installs them). --fault no_viewer (test only) leaves GTKWave out, so
the screenshot is the bare X screen: the check must fail.
"""
import argparse
import array
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib

WIDTH, HEIGHT = 1600, 1000


def fail(msg, code=1):
    print(f"gtkwave_view: {msg}")
    sys.exit(code)


def read_xwd(data):
    """An X window dump of a 24/32-bit TrueColor screen -> (width, height, rows of (r, g, b) bytes)."""
    h = struct.unpack(">25I", data[:100])
    header, depth, w, hgt, byte_order, bpp, bpl, ncolors = h[0], h[3], h[4], h[5], h[7], h[11], h[12], h[19]
    if bpp != 32:
        fail(f"screenshot has {bpp} bits per pixel, expected 32 (Xvfb -screen 0 {WIDTH}x{HEIGHT}x24)")
    masks = h[14], h[15], h[16]
    shifts = [(m & -m).bit_length() - 1 for m in masks]
    off = header + ncolors * 12
    px = array.array("I")
    px.frombytes(data[off:off + hgt * bpl])
    if (byte_order == 0) != (sys.byteorder == "little"):
        px.byteswap()
    per_row = bpl // 4
    rows = []
    for y in range(hgt):
        row = bytearray(3 * w)
        base = y * per_row
        for x in range(w):
            v = px[base + x]
            row[3 * x] = (v & masks[0]) >> shifts[0]
            row[3 * x + 1] = (v & masks[1]) >> shifts[1]
            row[3 * x + 2] = (v & masks[2]) >> shifts[2]
        rows.append(bytes(row))
    return w, hgt, rows


def write_png(path, w, h, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + r for r in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def measure(w, h, rows):
    """What is on the screen: distinct colours, the wave canvas (black) and the traces drawn on it."""
    colours = set()
    black = 0
    trace_px = 0
    trace_cols = set()
    trace_rows = set()
    for y in range(0, h):
        r = rows[y]
        for x in range(0, w):
            R, G, B = r[3 * x], r[3 * x + 1], r[3 * x + 2]
            if (x % 4 == 0) and (y % 4 == 0):
                colours.add((R, G, B))
            if R == 0 and G == 0 and B == 0:
                black += 1
            elif G >= 150 and R <= 120 and B <= 120:  # GTKWave draws value traces in green on black
                trace_px += 1
                trace_cols.add(x)
                trace_rows.add(y)
    return {"colours": len(colours), "canvas": black / (w * h), "trace_pixels": trace_px,
            "trace_columns": len(trace_cols), "trace_rows": len(trace_rows)}


def screenshot(display, path):
    r = subprocess.run(["xwd", "-root", "-silent", "-display", display], capture_output=True)
    if r.returncode != 0:
        fail(f"xwd failed: {r.stderr.decode(errors='replace').strip()}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--workload", default="matmul")
    ap.add_argument("--size", default="tiny")
    ap.add_argument("--config", default="gtx480")
    ap.add_argument("--fault", choices=["no_viewer"], default=None)
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE for the traced run (repeatable)")
    ap.add_argument("--expect-group", action="append", default=[],
                    help="a signal group the view must open with (an RTL block's ports: 'RTL sm0.sched0.rtl ports')")
    args = ap.parse_args()
    for tool in ("gtkwave", "Xvfb", "xwd"):
        if not shutil.which(tool):
            fail(f"'{tool}' not found: install Debian's gtkwave, xvfb and x11-apps (scripts/setup does)", 2)
    os.makedirs(args.out, exist_ok=True)
    vcd = os.path.join(args.out, "trace.vcd")
    gtkw = os.path.join(args.out, "trace.gtkw")
    for f in (vcd, gtkw):
        if os.path.exists(f):
            os.remove(f)
    sets = [a for kv in args.set for a in ("--set", kv)]
    run = subprocess.run([args.exe, "run", "--workload", args.workload, "--size", args.size, "--config", args.config,
                          "-q", "--out", os.path.join(args.out, "run"), "--vcd", vcd] + sets, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(gtkw):
        fail(f"the traced run failed ({run.returncode}): {run.stdout}{run.stderr}")
    with open(gtkw) as f:
        groups = [line[1:].strip() for line in f if line.startswith("-")]
    for g in args.expect_group:
        if g not in groups:
            fail(f"the view has no group '{g}' (its groups: {', '.join(dict.fromkeys(groups))})")

    # a virtual X server on a display number of its choosing (-displayfd)
    rfd, wfd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0", f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp"],
                            pass_fds=(wfd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(wfd)
    num = b""
    deadline = time.time() + 30
    while not num.endswith(b"\n") and time.time() < deadline:
        chunk = os.read(rfd, 16)
        if not chunk:
            break
        num += chunk
    os.close(rfd)
    if not num.strip():
        xvfb.kill()
        fail("Xvfb did not start")
    display = ":" + num.decode().strip()
    viewer = None
    try:
        env = dict(os.environ, DISPLAY=display, NO_AT_BRIDGE="1")
        log = open(os.path.join(args.out, "gtkwave.log"), "w")
        if args.fault != "no_viewer":
            viewer = subprocess.Popen(["gtkwave", vcd, gtkw], env=env, stdout=log, stderr=subprocess.STDOUT,
                                      cwd=args.out)
        # wait until the screen shows waveforms and stops changing (GTKWave draws after loading the VCD)
        last, stable, m = None, 0, None
        deadline = time.time() + 60
        while time.time() < deadline:
            time.sleep(1.0)
            if viewer is not None and viewer.poll() is not None:
                fail(f"gtkwave exited ({viewer.returncode}) before showing the view; see {log.name}")
            shot = screenshot(display, None)
            stable = stable + 1 if shot == last else 0
            last = shot
            if stable >= 2:
                break
        w, h, rows = read_xwd(last)
        write_png(os.path.join(args.out, "view.png"), w, h, rows)
        m = measure(w, h, rows)
    finally:
        if viewer is not None:
            viewer.kill()
        xvfb.kill()
    print(f"gtkwave_view: {args.workload} {args.size} on {args.config}: {m['colours']} colours, wave canvas "
          f"{100 * m['canvas']:.1f} % of the screen, {m['trace_pixels']} trace pixels over {m['trace_columns']} "
          f"columns and {m['trace_rows']} rows; screenshot {os.path.join(args.out, 'view.png')}")
    problems = []
    if m["colours"] < 20:
        problems.append(f"only {m['colours']} colours: the screen is blank")
    if m["canvas"] < 0.25:
        problems.append("no wave canvas: GTKWave's window is not showing the waveforms")
    if m["trace_rows"] < 100:
        problems.append(f"traces on only {m['trace_rows']} rows: few signals are shown")
    if m["trace_columns"] < 600:
        problems.append(f"traces over only {m['trace_columns']} columns: the view is not zoomed onto activity")
    if problems:
        fail("; ".join(problems))
    print("gtkwave_view: the view shows waveforms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
