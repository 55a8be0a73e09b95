#!/usr/bin/env python3
"""Prints the PTX in an nvcc-built program's fat binary (its .nv_fatbin section), for build.sh's check
without cuobjdump: the fat binary's PTX entries (kind 1), zstd-compressed ones (nvcc 13's default)
decompressed with the zstd command; with several, the one for the lowest architecture at or above 75.

  ptx_of.py PROGRAM
"""
import os
import struct
import subprocess
import sys
import tempfile


def fatbin_section(path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "fatbin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", path, out], check=True)
        with open(out, "rb") as f:
            return f.read()


def ptx_entries(fb):
    """(arch, text) of every PTX entry of every fat binary in the section."""
    at = 0
    while at + 16 <= len(fb):
        magic, _version, header, size = struct.unpack_from("<IHHQ", fb, at)
        if magic != 0xBA55ED50:
            break
        end = at + header + size
        e = at + header
        while e + 16 <= end:
            kind, _v, ehead, esize = struct.unpack_from("<HHIQ", fb, e)
            if ehead < 16:
                break
            if kind == 1 and ehead >= 0x30:
                arch = struct.unpack_from("<I", fb, e + 0x1C)[0]
                payload = fb[e + ehead:e + ehead + esize]
                if payload[:4] == b"\x28\xb5\x2f\xfd":  # a zstd frame
                    p = subprocess.run(["zstd", "-d", "-c", "-q"], input=payload, capture_output=True)
                    payload = p.stdout
                    if not payload:
                        sys.exit(f"ptx_of: a PTX entry does not decompress: {p.stderr.decode().strip()}")
                yield arch, payload.rstrip(b"\0").decode()
            e += ehead + esize
        at = end


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    entries = sorted(ptx_entries(fatbin_section(sys.argv[1])))
    if not entries:
        sys.exit(f"ptx_of: {sys.argv[1]} holds no PTX")
    at_or_above = [e for e in entries if e[0] >= 75]
    sys.stdout.write((at_or_above or entries)[-1 if not at_or_above else 0][1])


if __name__ == "__main__":
    main()
