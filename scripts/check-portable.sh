#!/usr/bin/env bash
# Fails when Swift code outside the platform shim names a platform module or uses an API that
# exists on Linux only, so the package keeps building on macOS, where most users are.
# The shim: Sources/ImgtraceSupport/PlatformIO.swift. Exempt: a Linux-only target's folder
# listed in LINUX_ONLY_DIRS (the native tracer), which the manifest builds on Linux only, and a
# file whose code is all inside `#if os(Linux)` (it opens with that line after its comments).
set -euo pipefail
cd "$(dirname "$0")/.."
shim=Sources/ImgtraceSupport/PlatformIO.swift
LINUX_ONLY_DIRS=${LINUX_ONLY_DIRS:-"Sources/NativeTrace Sources/CPtrace"}
# Platform modules, and Linux-only names: glibc stat fields and calls, epoll/inotify, /proc,
# Foundation's Linux-only networking module.
pattern='\b(import +(Glibc|Darwin|Musl)|Glibc\.|Darwin\.|canImport\((Glibc|Darwin)\)|st_mtim\b|st_atim\b|st_ctim\b|epoll_|inotify_|signalfd|eventfd|memfd_create|FoundationNetworking|get_nprocs|sched_getaffinity)\b|"/proc/'
found=0
while IFS= read -r file; do
  [ "$file" = "$shim" ] && continue
  for dir in $LINUX_ONLY_DIRS; do case "$file" in "$dir"/*) continue 2 ;; esac; done
  first=$(awk '!/^[[:space:]]*(\/\/.*)?$/ { print; exit }' "$file")
  [ "$first" = "#if os(Linux)" ] && continue
  if grep -nE "$pattern" "$file" | sed "s|^|$file:|"; then found=1; fi
done < <(find Sources Tests Fuzz Benchmarks scripts -name '*.swift' -not -path '*/.build*' | sort)
if [ $found -ne 0 ]; then
  echo "check-portable: platform names outside $shim (see above); call the shim instead" >&2
  exit 1
fi
# One typed path arithmetic (PathText): Foundation's NSString path methods trap on some short
# paths on Linux (issue 62).
if grep -rnE 'as NSString\)\.(pathExtension|lastPathComponent|deletingLastPathComponent|deletingPathExtension|appendingPathComponent|pathComponents|standardizingPath)' Sources; then
  echo "check-portable: NSString path methods in Sources (above): use ImgtraceSupport's PathText" >&2
  exit 1
fi
echo "check-portable: no platform module or Linux-only API outside $shim, no NSString path method"
