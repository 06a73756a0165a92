#!/usr/bin/env bash
# What imgtrace needs from the system, declared once: `scripts/setup.sh build` for the build,
# `scripts/setup.sh test` for the build and every test. On Debian or Ubuntu as root it installs
# what is missing (apt-get, and PyPI for one test helper); anywhere else it names what is missing
# in one line and exits 1, since guessing another system's package names would mislead.
# Sourced by scripts/example.sh, scripts/test.sh and .ci/run, so the README's two commands and CI
# install the same things.
set -euo pipefail

# Each package with the reason it is here; the names are Debian's.
build_packages=(
  libelf-dev libdw-dev # the native tracer (`imgtrace record`) reads ELF files and DWARF
  zlib1g-dev           # ZIPFoundation (.ipa)
  g++                  # C++ headers: swift-crypto builds BoringSSL's C++ (a fresh Debian with Swift lacks <memory>)
  libcurl4 libxml2 libsqlite3-0 # Foundation's and the toolchain's own libraries (Swift's install guide)
  libsqlite3-dev       # the build history (`analyze --history FILE`) is an SQLite file, through SQLite's own library
)
test_packages=(
  gcc binutils time valgrind # test programs compiled at test time, objdump/nm, peak memory, instruction counts
  lldb-16 gdb                # the real-debugger captures (LldbScriptTests, ModernUIKitCaptureTests)
  gobjc gnustep-make libgnustep-base-dev # the Objective-C model of UIKit on GNUstep (AgentRecordTests)
  gridlock.app xvfb          # Debian's GNUstep game: a real program to record and a real bundle to read
  chess.app gomoku.app       # two more, whose recorded frames are checked against GNUstep's runtime (FrameNamesTests)
  python3 python3-jsonschema # SARIF checked against the official schema
  python3-pip                # installs cmarkgfm (below), which Debian does not package
  util-linux                 # setpriv: the unreadable-file test runs as another user when we are root
  chromium                   # the HTML report laid out at a phone's width (HTMLLayoutTests)
  postgresql                 # a real server (and libpq) for the history on PostgreSQL (PostgresHistoryTests)
)
# GitHub's Markdown renderer (cmark-gfm) is the model of what a Markdown report makes live.
test_python_modules=(cmarkgfm)

what=${1:-build}
case "$what" in
  build) wanted=("${build_packages[@]}") ;;
  test) wanted=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: scripts/setup.sh build|test" >&2; exit 64 ;;
esac
if [ "$(uname -s)" = Darwin ]; then
  # The native tracer and its libraries are Linux-only; Xcode's toolchain has the rest.
  exit 0
fi

if ! command -v dpkg >/dev/null 2>&1; then
  echo "setup: not a Debian system; install the equivalents of these Debian packages, then re-run: ${wanted[*]}" >&2
  exit 1
fi

# Installed means installed: a package removed but for its configuration files still answers
# `dpkg -s` with success.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' ok installed$'; }
missing=()
for package in "${wanted[@]}"; do
  installed "$package" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup: missing Debian packages; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "$what" = test ]; then
  for module in "${test_python_modules[@]}"; do
    python3 -c "import $module" 2>/dev/null && continue
    echo "setup: installing the Python module $module" >&2
    python3 -m pip install --quiet "$module" 2>/dev/null ||
      python3 -m pip install --quiet --break-system-packages "$module" ||
      { echo "setup: could not install the Python module $module; run: python3 -m pip install $module" >&2; exit 1; }
  done
fi
