#!/usr/bin/env bash
# Times `analyze --source-root` (release build) on a large generated source tree: CATALOGS asset
# catalogs of SETS image sets each, LOOSE loose images, XIBS interface documents, plus a build
# folder and DerivedData full of copies that must be skipped. Prints seconds and peak memory
# with and without the source root, so the difference is the indexing.
# usage: scripts/bench-source-root.sh [CATALOGS] [SETS] [LOOSE] [XIBS]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
catalogs=${1:-100} sets=${2:-200} loose=${3:-20000} xibs=${4:-500}
out=${BENCH_DIR:-bench-out}/source-root
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
rm -rf "$out" && mkdir -p "$out"
python3 - "$out/src" "$catalogs" "$sets" "$loose" "$xibs" <<'PY'
import os, sys
root, catalogs, sets, loose, xibs = sys.argv[1], *map(int, sys.argv[2:])
def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f: f.write(data)
png = b"\x89PNG\r\n\x1a\n"
for c in range(catalogs):
    for s in range(sets):
        folder = f"{root}/Module{c}/Assets.xcassets/icon_{c}_{s}.imageset"
        files = [f"icon_{c}_{s}@2x.png", f"icon_{c}_{s}@3x.png"]
        entries = ",\n".join(f'    {{ "filename" : "{n}", "idiom" : "universal", "scale" : "{n[-6:-4]}" }}' for n in files)
        write(f"{folder}/Contents.json", ('{\n  "images" : [\n' + entries + '\n  ]\n}\n').encode())
        for n in files: write(f"{folder}/{n}", png)
for i in range(loose):
    write(f"{root}/Resources/Images{i % 50}/tab_{i}@2x.png", png)
for i in range(xibs):
    write(f"{root}/UI/View{i}.xib", ("<document>\n" + "".join(f'  <imageView image="tab_{i * 10 + k}"/>\n' for k in range(10)) + "</document>\n").encode())
for i in range(loose // 2):
    write(f"{root}/build/Release-iphoneos/App.app/tab_{i}@2x.png", png)
    write(f"{root}/DerivedData/App/Build/Products/Debug/App.app/tab_{i}@2x.png", png)
PY
find "$out/src" -type f | wc -l | xargs printf 'source tree: %s files\n'
measure() {
  local stats line
  stats=$(mktemp)
  /usr/bin/time -o "$stats" -f '%e %M' "$bin" analyze Examples/launch.log --bundle Examples/SampleApp.app --format json --fail-on never "$@" >/dev/null
  line=$(tail -1 "$stats")
  rm -f "$stats"
  printf '%6.2f s %7.1f MB  analyze %s\n' "${line% *}" "$(awk -v k="${line#* }" 'BEGIN{print k/1024}')" "$*"
}
measure
measure --source-root "$out/src"
