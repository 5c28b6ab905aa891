#!/usr/bin/env python3
"""The public API of PDFEditKit as a sorted text list, one declaration a line.

    scripts/public-api.py [--check FILE | --write FILE]

Reads the symbol graph that swift-symbolgraph-extract makes from the built
module (.build/debug/Modules, from `swift build` or `make test`'s test build),
the kit's own symbols and those it re-exports, and prints each public
declaration as `Module  kind  Path.to.symbol  declaration` (PageModel's too,
which the kit re-exports). --check compares with FILE
(exit 1 and a unified diff when they differ); --write replaces FILE. The
committed list is docs/public-api.txt: a change to the public API shows in
review as a change to it (PublicAPITests runs --check).
"""
import difflib, glob, json, os, subprocess, sys, tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def extract(modules, out, module):
    swift = subprocess.run(["bash", "-c", "command -v swiftc"], capture_output=True, text=True).stdout.strip()
    tool = os.path.join(os.path.dirname(swift), "swift-symbolgraph-extract") if swift else "swift-symbolgraph-extract"
    target = subprocess.run([swift or "swiftc", "-print-target-info"], capture_output=True, text=True)
    triple = json.loads(target.stdout)["target"]["triple"]
    command = [tool, "-module-name", module, "-I", modules, "-target", triple,
               "-minimum-access-level", "public", "-skip-inherited-docs", "-output-dir", out]
    # The C modules the engine imports, found as the package build finds them.
    for folder in ("CPoppler", "CQPDF"):
        command += ["-Xcc", "-fmodule-map-file=" + os.path.join(REPO, "Sources", folder, "module.modulemap")]
    command += ["-I", os.path.join(REPO, "Sources", "QPDFCore", "include")]
    for flag in subprocess.run(["pkg-config", "--cflags-only-I", "poppler-glib", "libqpdf"],
                               capture_output=True, text=True).stdout.split():
        command += ["-Xcc", flag]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("public-api.py: swift-symbolgraph-extract failed:\n" + result.stderr[-3000:])


def lines(out):
    found = set()
    for path in sorted(glob.glob(os.path.join(out, "*.symbols.json"))):
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            name = ".".join(symbol["pathComponents"])
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            found.add(f"{kind}  {name}  {' '.join(declaration.split())}")
    return sorted(found)


def main():
    modules = os.path.join(REPO, ".build", "debug", "Modules")
    if not os.path.isdir(modules):
        sys.exit(f"public-api.py: {modules} is missing: build first (swift build)")
    with tempfile.TemporaryDirectory() as out:
        # PageModel while PDFEditKit re-exports it (`@_exported import`): its
        # declarations are part of what `import PDFEditKit` gives.
        listed = []
        for module in ("PDFEditKit", "PageModel"):
            folder = os.path.join(out, module)
            os.makedirs(folder)
            extract(modules, folder, module)
            listed += [f"{module}  {line}" for line in lines(folder)]
    text = "".join(line + "\n" for line in listed)
    if len(sys.argv) == 3 and sys.argv[1] == "--write":
        open(sys.argv[2], "w").write(text)
        print(f"public-api.py: {len(listed)} public declarations written to {sys.argv[2]}")
    elif len(sys.argv) == 3 and sys.argv[1] == "--check":
        committed = open(sys.argv[2]).read()
        if committed != text:
            sys.stdout.writelines(difflib.unified_diff(
                committed.splitlines(True), text.splitlines(True), sys.argv[2], "built"))
            print(f"public-api.py: the public API differs from {sys.argv[2]}; "
                  f"if the change is meant, run scripts/public-api.py --write {sys.argv[2]}")
            sys.exit(1)
        print(f"public-api.py: {len(listed)} public declarations, as {sys.argv[2]} lists")
    else:
        sys.stdout.write(text)


main()
