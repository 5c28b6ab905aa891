#!/usr/bin/env python3
"""The public API of PDFEditKit as a sorted text list, one declaration a line.

    scripts/public-api.py [--check FILE | --write FILE] [--docc]

Reads the symbol graph that swift-symbolgraph-extract makes from the built
module (.build/debug/Modules, from `swift build` or `make test`'s test build),
the kit's own symbols and those it re-exports, and prints each public
declaration as `Module  kind  Path.to.symbol  declaration` (PageModel's too,
which the kit re-exports). --check compares with FILE
(exit 1 and a unified diff when they differ); --write replaces FILE. The
committed list is docs/public-api.txt: a change to the public API shows in
review as a change to it (PublicAPITests runs --check).
With --docc it also builds the DocC catalogue (Sources/PDFEditKit/PDFEditKit.docc)
from the same symbol graph with the toolchain's `docc convert
--warnings-as-errors`, as `swift package generate-documentation --target
PDFEditKit` does without a second build: a broken or ambiguous link, or an
article that no longer matches the API, fails (exit 1).
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


def build_documentation(graphs, archive):
    """docc convert of the kit's catalogue with its symbol graph; exits 1 on a warning."""
    swift = subprocess.run(["bash", "-c", "command -v swiftc"], capture_output=True, text=True).stdout.strip()
    docc = os.path.join(os.path.dirname(swift), "docc") if swift else "docc"
    result = subprocess.run(
        [docc, "convert", os.path.join(REPO, "Sources", "PDFEditKit", "PDFEditKit.docc"),
         "--additional-symbol-graph-dir", graphs, "--fallback-display-name", "PDFEditKit",
         "--fallback-bundle-identifier", "PDFEditKit", "--output-path", archive, "--warnings-as-errors"],
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.stdout.write(result.stdout[-6000:] + result.stderr[-6000:])
        sys.exit("public-api.py: the DocC catalogue has warnings (docc convert --warnings-as-errors)")
    print("public-api.py: the DocC catalogue builds without warnings")


def main():
    modules = os.path.join(REPO, ".build", "debug", "Modules")
    if not os.path.isdir(modules):
        sys.exit(f"public-api.py: {modules} is missing: build first (swift build)")
    arguments = sys.argv[1:]
    docc = "--docc" in arguments
    if docc:
        arguments.remove("--docc")
    with tempfile.TemporaryDirectory() as out:
        # PageModel's public declarations are what the kit's typealiases
        # (ReexportedModel.swift) hand out: part of what `import PDFEditKit` gives.
        listed = []
        for module in ("PDFEditKit", "PageModel"):
            folder = os.path.join(out, module)
            os.makedirs(folder)
            extract(modules, folder, module)
            listed += [f"{module}  {line}" for line in lines(folder)]
        if docc:
            build_documentation(os.path.join(out, "PDFEditKit"), os.path.join(out, "archive"))
    text = "".join(line + "\n" for line in listed)
    sys.argv[1:] = arguments
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
