#!/usr/bin/env python3
"""Writes a synthetic iOS app bundle of N images in mixed formats for `imgtrace catalog` benchmarks.

usage: scripts/make-bundle.py N OUT.app

About 10% of the images are byte-identical copies of another (actool-style duplicates) and
about 10% share a size with another but differ, so the digest pass has real work to do.
"""
import os, random, struct, sys, zlib

def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

def png(w, h, cgbi, payload):
    out = b"\x89PNG\r\n\x1a\n"
    if cgbi:
        out += chunk(b"CgBI", b"\x50\x00\x20\x02")
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    return out + chunk(b"IDAT", payload) + chunk(b"IEND", b"")

def jpeg(w, h, payload):
    sof = struct.pack(">BHHB", 8, h, w, 3) + b"\x01\x11\x00\x02\x11\x01\x03\x11\x01"
    app0 = b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    return (b"\xff\xd8\xff\xe0" + struct.pack(">H", len(app0) + 2) + app0
            + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xda\x00\x02" + payload + b"\xff\xd9")

def gif(w, h, payload):
    return b"GIF89a" + struct.pack("<HH", w, h) + b"\x00\x00\x00" + payload + b";"

def tiff(w, h, payload):
    entries = [(256, 4, w), (257, 4, h), (262, 3, 2), (277, 3, 4)]
    ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", t, ty, 1, v) for t, ty, v in entries) + b"\0\0\0\0"
    return b"II*\x00" + struct.pack("<I", 8) + ifd + payload

def webp(w, h, payload):
    body = b"VP8X" + struct.pack("<I", 10) + b"\x10\0\0\0" + struct.pack("<I", w - 1)[:3] + struct.pack("<I", h - 1)[:3]
    return b"RIFF" + struct.pack("<I", len(body) + 4 + len(payload)) + b"WEBP" + body + payload

def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(20261121)
    os.makedirs(out, exist_ok=True)
    made = []
    for i in range(n):
        folder = os.path.join(out, "" if i % 4 else "assets/group%d" % (i % 50))
        os.makedirs(folder, exist_ok=True)
        if made and rng.random() < 0.10:
            data = made[rng.randrange(len(made))]          # identical content under another name
        else:
            size = rng.choice([512, 1024, 2048, 4096]) if rng.random() < 0.10 else rng.randint(200, 40_000)
            payload = rng.randbytes(size)
            w, h = rng.randint(8, 3000), rng.randint(8, 3000)
            kind = i % 5
            data = [png(w, h, i % 2 == 0, payload), jpeg(w, h, payload), gif(w, h, payload), tiff(w, h, payload), webp(w, h, payload)][kind]
        made.append(data)
        ext = [".png", ".jpg", ".gif", ".tiff", ".webp"][i % 5]
        suffix = ["", "@2x", "@3x"][i % 3]
        with open(os.path.join(folder, "image%05d%s%s" % (i, suffix, ext)), "wb") as f:
            f.write(data)
    with open(os.path.join(out, "Info.plist"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>'
                '<key>CFBundleIdentifier</key><string>bench.synthetic</string></dict></plist>')

main()
