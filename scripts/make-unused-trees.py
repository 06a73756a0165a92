#!/usr/bin/env python3
"""Writes the source trees `unused` once spent targets × files or files² on (issue 58), into OUT:

  shared-phase/  TARGETS application targets sharing one resources phase of TARGETS files
  large-set/     an unused image set of SET_FILES files, for --fix
  with --hostile also:
  swift-open/    4 MiB of Swift calls left open, a level deeper each line
  swift-deep/    4 MiB of lines 60 calls deep
  manifests/     local packages whose manifests nest 30 brackets deep and weigh 4 MiB

usage: make-unused-trees.py OUT TARGETS SET_FILES [--hostile]
"""
import os, sys
out, targets, set_files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
hostile = "--hostile" in sys.argv[4:]
def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f: f.write(text)
def project(path, files, targets, packages=()):
    lines = ["// !$*UTF8*$!", "{", "\tarchiveVersion = 1;", "\tobjectVersion = 77;", "\tobjects = {"]
    refs = [f"F{i:023X}" for i in range(len(files))]
    builds = [f"B{i:023X}" for i in range(len(files))]
    for ref, build, name in zip(refs, builds, files):
        lines.append(f'\t\t{ref} /* {name} */ = {{isa = PBXFileReference; path = "{name}"; sourceTree = "<group>"; }};')
        lines.append(f"\t\t{build} = {{isa = PBXBuildFile; fileRef = {ref}; }};")
    lines.append(f'\t\tG0000000000000000000000A = {{isa = PBXGroup; children = ({", ".join(refs)}); path = App; sourceTree = "<group>"; }};')
    lines.append('\t\tG0000000000000000000000M = {isa = PBXGroup; children = (G0000000000000000000000A); sourceTree = "<group>"; };')
    lines.append(f'\t\tP0000000000000000000000R = {{isa = PBXResourcesBuildPhase; files = ({", ".join(builds)}); }};')
    pkg_refs = []
    for i, folder in enumerate(packages):
        lines.append(f'\t\tK{i:023X} = {{isa = XCLocalSwiftPackageReference; relativePath = "{folder}"; }};')
        lines.append(f'\t\tD{i:023X} = {{isa = XCSwiftPackageProductDependency; package = K{i:023X}; productName = P{i}; }};')
        pkg_refs.append(i)
    deps = ", ".join(f"D{i:023X}" for i in pkg_refs)
    target_ids = [f"T{i:023X}" for i in range(targets)]
    for i, tid in enumerate(target_ids):
        lines.append(f"\t\t{tid} = {{isa = PBXNativeTarget; buildPhases = (P0000000000000000000000R); name = App{i}; packageProductDependencies = ({deps}); productType = \"com.apple.product-type.application\"; }};")
    pkgs = ", ".join(f"K{i:023X}" for i in pkg_refs)
    lines.append(f"\t\tR0000000000000000000000P = {{isa = PBXProject; mainGroup = G0000000000000000000000M; packageReferences = ({pkgs}); targets = ({', '.join(target_ids)}); }};")
    lines += ["\t};", "\trootObject = R0000000000000000000000P;", "}", ""]
    write(path, "\n".join(lines))
png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000002000000020806000000f278d43a0000000d49444154789c63600002000005000157ee5b3c0000000049454e44ae426082")
def image(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f: f.write(png)
# TARGETS targets sharing one phase of as many files; three images in the tree.
shared = f"{out}/shared-phase"
project(f"{shared}/App.xcodeproj/project.pbxproj", [f"f{i}.png" for i in range(targets)], targets)
for name in ("f1", "f2", "stray"): image(f"{shared}/App/{name}.png")
write(f"{shared}/App/Main.swift", 'let a = UIImage(named: "f1")\n')
# A set of SET_FILES files, unused, for --fix.
large = f"{out}/large-set"
project(f"{large}/App.xcodeproj/project.pbxproj", ["Assets.xcassets"], 1)
entries = ",".join(f'{{"idiom":"universal","filename":"p{i}.png"}}' for i in range(set_files))
write(f"{large}/App/Assets.xcassets/many.imageset/Contents.json", f'{{"images":[{entries}],"info":{{"version":1}}}}')
for i in range(set_files): image(f"{large}/App/Assets.xcassets/many.imageset/p{i}.png")
write(f"{large}/App/Main.swift", "let a = 1\n")
if hostile:
    # 4 MiB of Swift calls left open a level a line, and of lines 60 calls deep.
    line = '_ = f(g(h(UIImage(named: "icon"), k(1, 2)), m(n(o(p(q(r(s(t(0)))))))))\n'
    write(f"{out}/swift-open/Calls.swift", line * ((4 << 20) // len(line)))
    line = "_ = " + "f(" * 60 + 'UIImage(named: "icon")' + ")" * 60 + "\n"
    write(f"{out}/swift-deep/Calls.swift", line * ((4 << 20) // len(line)))
    # A project whose local packages have a manifest nested 30 brackets deep and one of 4 MiB.
    manifests = f"{out}/manifests"
    project(f"{manifests}/App.xcodeproj/project.pbxproj", ["Assets.xcassets"], 1, packages=("Packages/Nested", "Packages/Large"))
    write(f"{manifests}/Packages/Nested/Package.swift", 'import PackageDescription\nlet package = Package(name: "N", targets: [.target(name: "N", resources: ' + "[" * 30 + "]" * 30 + ")])\n")
    write(f"{manifests}/Packages/Large/Package.swift", "import PackageDescription\n" + ("// " + "x" * 60 + "\n") * ((4 << 20) // 64 - 16) + 'let package = Package(name: "L", targets: [.target(name: "L")])\n')
    image(f"{manifests}/App/Assets.xcassets/a.imageset/a.png")
    write(f"{manifests}/App/Assets.xcassets/a.imageset/Contents.json", '{"images":[{"idiom":"universal","filename":"a.png"}],"info":{"version":1}}')
    write(f"{manifests}/App/Main.swift", "let a = 1\n")
