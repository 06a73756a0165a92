#!/usr/bin/env python3
"""Writes a realistic synthetic debugger log for benchmarks: the shapes of the corpus
(lldb echoes with `p (char *)`, lldb 17+ `p`, bare `po`, gdb values, stop reports with
backtraces, skipped hits), many distinct names, and NSLog / os_log noise from the app.

usage: make-trace-log.py OUT SIZE_MB [DISTINCT_NAMES] [NOISE_LINES_PER_HIT] [NAMES_FILE]

NAMES_FILE (one name per line, e.g. a bundle's own image names) puts those names first, so
the most frequent loads resolve against that bundle; synthetic names fill up to DISTINCT_NAMES.
"""
import random
import sys

def main():
    out, size_mb = sys.argv[1], int(sys.argv[2])
    distinct = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    noise = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    rng = random.Random(42)
    stems = ["tab_home", "avatar", "placeholder", "badge_new", "thumb", "icon_settings", "bg_gradient",
             "Profile Header", "café_icon", "日本語", "🙂_badge", "onboarding/step", "LaunchImage"]
    suffixes = ["", "@2x", "@3x", ".png", "@2x.png", "~ipad", ".jpg"]
    names = [f"{rng.choice(stems)}_{i}{rng.choice(suffixes)}" for i in range(distinct)]
    if len(sys.argv) > 5:
        with open(sys.argv[5], encoding="utf-8") as f:
            real = [line.rstrip("\n") for line in f if line.strip()]
        names = (real + names)[:max(distinct, len(real))]
        distinct = len(names)
    target = size_mb * 1024 * 1024
    written = 0
    n = 0
    with open(out, "wb", buffering=1 << 20) as f:
        f.write(b'(lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true -C "p (char *)[$arg3 UTF8String]"\n')
        f.write(b"Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x00000001849a1f34\n")
        chunk = []
        while written < target:
            n += 1
            name = names[int(rng.paretovariate(1.2)) % distinct]
            shape = n % 10
            if shape < 4:
                chunk.append(f'(lldb)  p (char *)[$arg3 UTF8String]\n(char *) ${n} = 0x00000001{n & 0xffffff:08x} "{name}"\n')
            elif shape < 6:
                chunk.append(f'(lldb)  p (char *)[$arg3 UTF8String]\n(char *) 0x00000001{n & 0xffffff:08x} "{name}"\r\n')
            elif shape == 6:
                chunk.append(f"2024-05-01 12:00:{n % 60:02d}.{n % 1000000:06d}+0200 Samples[1234:56789] "
                             f"loaded cell {n} for section {n % 7} with layout pass\n")
            elif shape == 7:
                chunk.append(f'(lldb)  p (char *)[$arg3 UTF8String]\n(char *) ${n} = 0x00000001{n & 0xffffff:08x} "{name}"\n'
                             f"2024-05-01 12:00:{n % 60:02d}.{n % 1000000:06d}+0200 Samples[1234:56789] "
                             f"[Networking] request {n} finished in {n % 900} ms\n")
            elif shape == 8:
                chunk.append("Process 4242 stopped\n"
                             "* thread #1, queue = 'com.apple.main-thread', stop reason = breakpoint 1.1\n"
                             "    frame #0: 0x00000001849a1f34 UIKitCore`+[UIImage imageNamed:]\n"
                             "UIKitCore`+[UIImage imageNamed:]:\n"
                             "->  0x1849a1f34 <+0>: pacibsp\n"
                             f'(lldb) p (char *)[$arg3 UTF8String]\n(char *) ${n} = 0x1 "{name}"\n'
                             "(lldb) continue\nProcess 4242 resuming\n")
            else:
                chunk.append("\x1b[33mwarning:\x1b[0m hit breakpoint while running function, skipping commands and conditions to prevent recursion\n"
                             if n % 50 == 9 else
                             f"2024-05-01 12:00:{n % 60:02d}.{n % 1000000:06d}+0200 Samples[1234:56790] "
                             f"CUICatalog: Invalid asset name supplied: '(null)'\n")
            for k in range(noise):
                chunk.append(f"2024-05-01 12:00:{n % 60:02d}.{n % 1000000:06d}+0200 Samples[1234:56789] "
                             f"[Feed] rendered row {n}.{k} height={40 + k % 17} visible=true\n")
            if len(chunk) >= 4096:
                data = "".join(chunk).encode("utf-8")
                f.write(data)
                written += len(data)
                chunk = []
        if chunk:
            f.write("".join(chunk).encode("utf-8"))

if __name__ == "__main__":
    main()
