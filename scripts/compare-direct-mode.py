#!/usr/bin/env python3
"""Direct mode's behaviour, recorded for comparing two pdfedit binaries:

    scripts/compare-direct-mode.py OLD_BINARY NEW_BINARY [WORK_FOLDER]

Runs ~100 direct-mode command lines (every editing command's FILE -o OUT,
--in-place, through a symbolic link, an encrypted input with its password and
without, a signed file edited and refused, - as input and output, damaged and
repaired inputs, export --from, render, optimize, attach, edit, merge, split,
apply with scripts over several files) with each binary, each case in the same
folder, under faketime (outputs carry the time they were written), and
compares stdout, stderr, exit codes and every file left behind (sha256; for
PDFs also qpdf --show-encryption, pdfsig and pdftotext). Prints the cases that
differ; exit 1 when any does. Encrypted outputs differ from run to run (random
keys and /ID) and attach add records the attached file's time: run OLD against
itself to see which cases are not deterministic. Needs faketime, qpdf,
poppler-utils, openssl, python3; the corpus beside the checkout
(../shared/corpus). Made for the move of direct mode onto PageEditor (issue 42).
"""
import hashlib, json, os, re, shutil, subprocess, sys, textwrap

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(REPO, "Fixtures")
CORPUS = os.path.join(os.path.dirname(REPO), "shared", "corpus")
WORK = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else "/tmp/pdfedit-compare-direct"


def embedded_script(test_file, start):
    """A Python script kept in a test's Swift source (`static let script = #\"\"\"…`): the tests' own makers."""
    source = open(os.path.join(REPO, "Tests", "EndToEndTests", test_file)).read()
    found = re.search(start + r'#"""\n(.*?)\n\s*"""#', source, re.S)
    return textwrap.dedent(found.group(1))


def setup():
    os.makedirs(WORK, exist_ok=True)
    signed = os.path.join(WORK, "signed.pdf")
    if not os.path.exists(signed):
        os.makedirs(os.path.join(WORK, "sigwork"), exist_ok=True)
        subprocess.run(["python3", "-c", embedded_script("SignedPDF.swift", r"static let script = "), signed,
                        os.path.join(WORK, "sigwork")], check=True)
    damaged = os.path.join(WORK, "damaged.pdf")
    if not os.path.exists(damaged):
        # The tests' PDF writer (scripts/pdfbytes.py) is imported by the script.
        subprocess.run(["python3", "-c", embedded_script("RepairTests.swift", r"let script = "), damaged], check=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "scripts")))
    return signed, damaged


def f(name): return os.path.join(FIX, name)
def c(name): return os.path.join(CORPUS, name)

# (name, files to copy in, argv, stdin file or None, env additions)
cases = [
    ("rotate", ["alpha.pdf"], ["rotate", "1", "--by", "90", "alpha.pdf", "-o", "out.pdf"]),
    ("rotate-json", ["alpha.pdf"], ["rotate", "1..3", "--by", "180", "alpha.pdf", "-o", "out.pdf", "--json"]),
    ("rotate-quiet", ["alpha.pdf"], ["rotate", "2", "--by", "-90", "alpha.pdf", "-o", "out.pdf", "-q"]),
    ("move", ["alpha.pdf"], ["move", "3..5", "--to", "1", "alpha.pdf", "-o", "out.pdf"]),
    ("copy", ["alpha.pdf"], ["copy", "1", "--to", "last", "alpha.pdf", "-o", "out.pdf"]),
    ("remove", ["alpha.pdf"], ["remove", "odd", "alpha.pdf", "-o", "out.pdf"]),
    ("reverse", ["alpha.pdf"], ["reverse", "all", "alpha.pdf", "-o", "out.pdf"]),
    ("duplicate", ["alpha.pdf"], ["duplicate", "2", "alpha.pdf", "-o", "out.pdf"]),
    ("insert", ["alpha.pdf", "beta.pdf"], ["insert", "beta.pdf", "--at", "1", "alpha.pdf", "-o", "out.pdf"]),
    ("insert-self", ["alpha.pdf"], ["insert", "alpha.pdf", "--at", "last", "alpha.pdf", "-o", "out.pdf"]),
    ("insert-image", ["alpha.pdf", "logo.png"], ["insert", "logo.png", "alpha.pdf", "-o", "out.pdf"]),
    ("interleave", ["alpha.pdf", "beta.pdf"], ["interleave", "beta.pdf", "--reverse", "alpha.pdf", "-o", "out.pdf"]),
    ("blank", ["alpha.pdf"], ["blank", "--at", "2", "--size", "a5", "alpha.pdf", "-o", "out.pdf"]),
    ("placeholder", ["alpha.pdf"], ["placeholder", "--at", "2", "alpha.pdf", "-o", "out.pdf"]),
    ("stamp", ["alpha.pdf", "stamp.pdf"], ["stamp", "all", "stamp.pdf", "alpha.pdf", "-o", "out.pdf"]),
    ("crop", ["alpha.pdf"], ["crop", "1", "--margins", "20", "alpha.pdf", "-o", "out.pdf"]),
    ("resize", ["alpha.pdf"], ["resize", "1", "--to", "a5", "alpha.pdf", "-o", "out.pdf"]),
    ("nup", ["alpha.pdf"], ["nup", "all", "--grid", "2x1", "alpha.pdf", "-o", "out.pdf"]),
    ("booklet", ["alpha.pdf"], ["booklet", "all", "alpha.pdf", "-o", "out.pdf"]),
    ("split-page", ["alpha.pdf"], ["split-page", "1", "--grid", "2x1", "alpha.pdf", "-o", "out.pdf"]),
    ("pad", ["alpha.pdf"], ["pad", "--multiple-of", "4", "alpha.pdf", "-o", "out.pdf"]),
    ("number", ["alpha.pdf"], ["number", "all", "alpha.pdf", "-o", "out.pdf"]),
    ("bates", ["alpha.pdf"], ["bates", "all", "--prefix", "X", "alpha.pdf", "-o", "out.pdf"]),
    ("watermark", ["alpha.pdf"], ["watermark", "all", "--text", "DRAFT", "alpha.pdf", "-o", "out.pdf"]),
    ("labels", ["alpha.pdf"], ["labels", "1:r", "3:D", "alpha.pdf", "-o", "out.pdf"]),
    ("meta", ["alpha.pdf"], ["meta", "--title", "T", "alpha.pdf", "-o", "out.pdf"]),
    ("outline-add", ["alpha.pdf"], ["outline", "add", "Intro", "2", "alpha.pdf", "-o", "out.pdf"]),
    ("flatten", ["features.pdf"], ["flatten", "all", "features.pdf", "-o", "out.pdf"]),
    ("strip", ["features.pdf"], ["strip", "metadata", "features.pdf", "-o", "out.pdf"]),
    ("unstamp", ["alpha.pdf"], ["unstamp", "all", "alpha.pdf", "-o", "out.pdf"]),
    ("redact", ["alpha.pdf"], ["redact", "1", "--rect", "72,600,200,40", "alpha.pdf", "-o", "out.pdf"]),
    ("redact-text", ["alpha.pdf"], ["redact", "all", "--text", "ALPHA-P2", "alpha.pdf", "-o", "out.pdf"]),
    ("attach-add", ["alpha.pdf", "logo.png"], ["attach", "add", "logo.png", "alpha.pdf", "-o", "out.pdf"]),
    ("attach-list", [("pdfjs-bug2009627.pdf", "c")], ["attach", "list", "--from", "pdfjs-bug2009627.pdf"]),
    ("attach-extract", [("pdfjs-bug2009627.pdf", "c")], ["attach", "extract", "--to", "ex", "--from", "pdfjs-bug2009627.pdf"]),
    ("empty-sel", ["alpha.pdf"], ["remove", "empty", "alpha.pdf", "-o", "out.pdf"]),
    ("in-place", ["alpha.pdf"], ["rotate", "1", "--by", "90", "alpha.pdf", "--in-place"]),
    ("in-place-symlink", ["alpha.pdf", ("link.pdf", "ln:alpha.pdf")], ["remove", "1", "link.pdf", "--in-place"]),
    ("exists-noforce", ["alpha.pdf", ("out.pdf", "f:beta.pdf")], ["rotate", "1", "--by", "90", "alpha.pdf", "-o", "out.pdf"]),
    ("exists-force", ["alpha.pdf", ("out.pdf", "f:beta.pdf")], ["rotate", "1", "--by", "90", "alpha.pdf", "-o", "out.pdf", "--force"]),
    ("out-is-input", ["alpha.pdf"], ["rotate", "1", "--by", "90", "alpha.pdf", "-o", "alpha.pdf", "--force"]),
    ("bad-selection", ["alpha.pdf"], ["rotate", "9", "--by", "90", "alpha.pdf", "-o", "out.pdf"]),
    ("missing-input", [], ["rotate", "1", "--by", "90", "nope.pdf", "-o", "out.pdf"]),
    ("enc-keep", ["encrypted.pdf"], ["rotate", "1", "--by", "90", "encrypted.pdf", "-o", "out.pdf", "--password", "secret"]),
    ("enc-inplace", ["encrypted.pdf"], ["remove", "2", "encrypted.pdf", "--in-place", "--password", "secret"]),
    ("enc-decrypt", ["encrypted.pdf"], ["rotate", "1", "--by", "90", "encrypted.pdf", "-o", "out.pdf", "--password", "secret", "--decrypt"]),
    ("enc-nopw", ["encrypted.pdf"], ["rotate", "1", "--by", "90", "encrypted.pdf", "-o", "out.pdf"]),
    ("enc-wrongpw", ["encrypted.pdf"], ["rotate", "1", "--by", "90", "encrypted.pdf", "-o", "out.pdf", "--password", "bad"]),
    ("enc-owneronly", ["owner-only.pdf"], ["rotate", "1", "--by", "90", "owner-only.pdf", "-o", "out.pdf"]),
    ("enc-corpus", [("pdfjs-issue3371.pdf", "c")], ["rotate", "1", "--by", "90", "pdfjs-issue3371.pdf", "-o", "out.pdf", "--password", "ELXRTQWS"]),
    ("signed-rotate", [("signed.pdf", "s")], ["rotate", "2", "--by", "90", "signed.pdf", "-o", "out.pdf"]),
    ("signed-keep", [("signed.pdf", "s")], ["move", "3", "--to", "1", "signed.pdf", "-o", "out.pdf", "--keep-signatures"]),
    ("signed-inplace", [("signed.pdf", "s")], ["rotate", "1", "--by", "90", "signed.pdf", "--in-place", "--keep-signatures"]),
    ("signed-remove", [("signed.pdf", "s")], ["remove", "1", "signed.pdf", "-o", "out.pdf"]),
    ("signed-refuse", [("signed.pdf", "s")], ["remove", "1", "signed.pdf", "-o", "out.pdf", "--keep-signatures"]),
    ("stdin", ["alpha.pdf"], ["rotate", "1", "--by", "90", "-", "-o", "out.pdf"], "alpha.pdf"),
    ("stdout", ["alpha.pdf"], ["rotate", "1", "--by", "90", "alpha.pdf", "-o", "-"]),
    ("stdin-stdout", ["alpha.pdf"], ["reverse", "all", "-", "-o", "-"], "alpha.pdf"),
    ("stdin-notpdf", ["notapdf.pdf"], ["reverse", "all", "-", "-o", "out.pdf"], "notapdf.pdf"),
    ("stdin-inplace", ["alpha.pdf"], ["reverse", "all", "-", "--in-place"], "alpha.pdf"),
    ("damaged-recovered", [("pdfjs-issue7229.pdf", "c")], ["rotate", "1", "--by", "90", "pdfjs-issue7229.pdf", "-o", "out.pdf"]),
    ("damaged-recovered2", [("pypdf-selenium-pypdf-issue-177.pdf", "c")], ["reverse", "all", "pypdf-selenium-pypdf-issue-177.pdf", "-o", "out.pdf"]),
    ("damaged-fatal", [("pdflib-missing_xref_trailer_dict.pdf", "c")], ["reverse", "all", "pdflib-missing_xref_trailer_dict.pdf", "-o", "out.pdf"]),
    ("damaged-repair", [("pdfjs-Pages-tree-refs.pdf", "c")], ["reverse", "all", "pdfjs-Pages-tree-refs.pdf", "-o", "out.pdf", "--repair"]),
    ("damaged-norepair", [("pdfjs-Pages-tree-refs.pdf", "c")], ["reverse", "all", "pdfjs-Pages-tree-refs.pdf", "-o", "out.pdf"]),
    ("repair-edit", [("damaged.pdf", "d")], ["reverse", "all", "damaged.pdf", "-o", "out.pdf", "--repair"]),
    ("repair-inplace", [("damaged.pdf", "d")], ["rotate", "1", "--by", "90", "damaged.pdf", "--in-place", "--repair"]),
    ("repair-split", [("damaged.pdf", "d")], ["export", "--split", "parts", "--from", "damaged.pdf", "--repair"]),
    ("repair-render", [("damaged.pdf", "d")], ["render", "damaged.pdf", "-o", "img/p-{n}.png", "--dpi", "20", "--repair"]),
    ("repair-refused", [("damaged.pdf", "d")], ["rotate", "1", "--by", "90", "damaged.pdf", "-o", "out.pdf"]),
    ("truncated", ["truncated.pdf"], ["reverse", "all", "truncated.pdf", "-o", "out.pdf"]),
    ("truncated-repair", ["truncated.pdf"], ["reverse", "all", "truncated.pdf", "-o", "out.pdf", "--repair"]),
    ("corpus-big", [("tbt-TeXbyTopic.pdf", "c")], ["move", "10..20", "--to", "1", "tbt-TeXbyTopic.pdf", "-o", "out.pdf"]),
    ("corpus-inplace", [("plumber-chelsea_pdta.pdf", "c")], ["rotate", "odd", "--by", "90", "plumber-chelsea_pdta.pdf", "--in-place"]),
    ("corpus-compress", [("pdfjs-tracemonkey.pdf", "c")], ["remove", "2", "pdfjs-tracemonkey.pdf", "-o", "out.pdf", "--compress"]),
    ("export-from", ["alpha.pdf"], ["export", "out.pdf", "2..4", "--from", "alpha.pdf"]),
    ("export-from-stdout", ["alpha.pdf"], ["export", "-", "2..4", "--from", "alpha.pdf"]),
    ("export-from-stdin", ["alpha.pdf"], ["export", "out.pdf", "--from", "-"], "alpha.pdf"),
    ("export-split", ["alpha.pdf"], ["export", "--split", "parts", "--from", "alpha.pdf", "--every", "3"]),
    ("export-enc", ["encrypted.pdf"], ["export", "out.pdf", "1", "--from", "encrypted.pdf", "--password", "secret"]),
    ("render", ["alpha.pdf"], ["render", "1..2", "alpha.pdf", "-o", "img/p-{n}.png", "--dpi", "20"]),
    ("render-from", ["alpha.pdf"], ["render", "--from", "alpha.pdf", "-o", "img/p-{n}.png", "--dpi", "20"]),
    ("optimize", [("pdfjs-tracemonkey.pdf", "c")], ["optimize", "pdfjs-tracemonkey.pdf", "-o", "small.pdf"]),
    ("optimize-json", [("pdfjs-tracemonkey.pdf", "c")], ["optimize", "pdfjs-tracemonkey.pdf", "-o", "small.pdf", "--json"]),
    ("optimize-inplace", ["alpha.pdf"], ["optimize", "alpha.pdf", "--in-place"]),
    ("optimize-stdout", ["alpha.pdf"], ["optimize", "alpha.pdf", "-o", "-"]),
    ("merge", ["alpha.pdf", "beta.pdf", "gamma.pdf"], ["merge", "alpha.pdf", "beta.pdf", "gamma.pdf", "-o", "all.pdf"]),
    ("merge-json", ["alpha.pdf", "beta.pdf"], ["merge", "alpha.pdf", "beta.pdf", "-o", "all.pdf", "--json", "--outline", "per-source"]),
    ("merge-inplace", ["alpha.pdf", "beta.pdf"], ["merge", "alpha.pdf", "beta.pdf", "--in-place"]),
    ("merge-stdout", ["alpha.pdf", "beta.pdf"], ["merge", "alpha.pdf", "beta.pdf", "-o", "-"]),
    ("merge-enc", ["encrypted.pdf", "beta.pdf"], ["merge", "encrypted.pdf", "beta.pdf", "-o", "all.pdf", "--password", "secret"]),
    ("split", ["alpha.pdf"], ["split", "alpha.pdf", "-o", "parts/p-{n}.pdf"]),
    ("split-every", [("sample-pdflatex-outline.pdf", "c")], ["split", "sample-pdflatex-outline.pdf", "-o", "parts/{n}-{title}.pdf", "--outline", "1"]),
    ("split-stdin", ["alpha.pdf"], ["split", "-", "-o", "parts/p-{n}.pdf", "--every", "2"], "alpha.pdf"),
    ("apply", ["alpha.pdf", "beta.pdf", "gamma.pdf", ("fix.txt", "t:rotate 1 --by 90\nremove last\n")],
     ["apply", "fix.txt", "alpha.pdf", "beta.pdf", "gamma.pdf", "-o", "out/{stem}-fixed.pdf", "-j", "2"]),
    ("apply-json", ["alpha.pdf", "beta.pdf", ("fix.txt", "t:reverse all\n")],
     ["apply", "fix.txt", "alpha.pdf", "beta.pdf", "-o", "out/{name}", "--json"]),
    ("apply-inplace", ["alpha.pdf", "beta.pdf"], ["apply", "-e", "rotate 1 --by 180", "alpha.pdf", "beta.pdf", "--in-place"]),
    ("apply-fail", ["alpha.pdf", "notapdf.pdf", "beta.pdf"], ["apply", "-e", "remove 1", "alpha.pdf", "notapdf.pdf", "beta.pdf", "-o", "out/{name}", "-j", "1"]),
    ("apply-keepgoing", ["alpha.pdf", "notapdf.pdf", "beta.pdf"], ["apply", "-e", "remove 1", "alpha.pdf", "notapdf.pdf", "beta.pdf", "-o", "out/{name}", "--keep-going", "-j", "1"]),
    ("apply-enc", ["encrypted.pdf", "alpha.pdf"], ["apply", "-e", "reverse all", "encrypted.pdf", "alpha.pdf", "-o", "out/{name}", "--password", "secret", "-j", "1"]),
    ("apply-render", ["alpha.pdf"], ["apply", "-e", "render --dpi 10", "alpha.pdf", "-o", "out/{stem}.png"]),
    ("apply-badline", ["alpha.pdf"], ["apply", "-e", "rotate 99 --by 90", "alpha.pdf", "-o", "out/{name}"]),
    ("edit", ["alpha.pdf"], ["edit", "alpha.pdf", "-o", "out.pdf"], None, {"EDITOR": "sed -i -e '/^p2 /d' -e 's/^p3 /r90 p3 /'", "VISUAL": ""}),
    ("edit-unchanged", ["alpha.pdf"], ["edit", "alpha.pdf", "-o", "out.pdf"], None, {"EDITOR": "true", "VISUAL": ""}),
]

def prepare(folder, files):
    for spec in files:
        if isinstance(spec, str):
            shutil.copy(f(spec), os.path.join(folder, spec))
            continue
        name, what = spec
        dest = os.path.join(folder, name)
        if what == "c": shutil.copy(c(name), dest)
        elif what == "s": shutil.copy(SIGNED, dest)
        elif what == "d": shutil.copy(DAMAGED, dest)
        elif what.startswith("ln:"): os.symlink(what[3:], dest)
        elif what.startswith("f:"): shutil.copy(f(what[2:]), dest)
        elif what.startswith("t:"): open(dest, "w").write(what[2:])

def describe(folder):
    out = {}
    for base, dirs, names in os.walk(folder):
        for n in sorted(names):
            p = os.path.join(base, n)
            rel = os.path.relpath(p, folder)
            if os.path.islink(p):
                out[rel] = "link->" + os.readlink(p); continue
            data = open(p, "rb").read()
            entry = {"sha": hashlib.sha256(data).hexdigest(), "size": len(data), "mode": oct(os.stat(p).st_mode & 0o777)}
            if data.startswith(b"%PDF"):
                enc = subprocess.run(["qpdf", "--show-encryption", "--password=secret", p], capture_output=True, text=True)
                entry["enc"] = enc.stdout.strip()
                sig = subprocess.run(["pdfsig", p], capture_output=True, text=True)
                entry["sig"] = "\n".join(l for l in sig.stdout.splitlines() if ("Signature Validation" in l or "Total document" in l or "signed" in l.lower()) and "Info of:" not in l)
                txt = subprocess.run(["pdftotext", "-upw", "secret", p, "-"], capture_output=True, text=True)
                entry["text"] = hashlib.sha256(txt.stdout.encode()).hexdigest()
            out[rel] = entry
    return out


def run_all(binary, label):
    root = os.path.join(WORK, label)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    results = {}
    for case in cases:
        name, files, argv = case[0], case[1], case[2]
        stdin = case[3] if len(case) > 3 else None
        env = dict(os.environ)
        env.pop("PDFEDIT_SESSION", None)
        if len(case) > 4: env.update(case[4])
        # Every run in the same folder: outputs' deterministic /ID and messages hold its path.
        folder = os.path.join(WORK, "case", name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        prepare(folder, files)
        inp = open(os.path.join(folder, stdin), "rb") if stdin else subprocess.DEVNULL
        run = subprocess.run(["faketime", "-f", "2026-01-01 00:00:00", binary] + argv, cwd=folder, stdin=inp,
                             capture_output=True, env=env, timeout=300)
        stdout = run.stdout
        if stdout.startswith(b"%PDF"):
            open(os.path.join(folder, "STDOUT.pdf"), "wb").write(stdout)
            stdout = b"<pdf %d bytes>" % len(stdout)
        results[name] = {"rc": run.returncode, "stdout": stdout.decode("utf-8", "replace"),
                         "stderr": run.stderr.decode("utf-8", "replace"), "files": describe(folder)}
        shutil.move(folder, os.path.join(root, name))
    return results


def compare(a, b):
    differing = []
    for name in a:
        x, y = a[name], b[name]
        diffs = [f"{k}: {x[k]!r} != {y[k]!r}" for k in ("rc", "stdout", "stderr") if x[k] != y[k]]
        fx, fy = x["files"], y["files"]
        if set(fx) != set(fy): diffs.append(f"files {sorted(fx)} != {sorted(fy)}")
        for file in sorted(set(fx) & set(fy)):
            if fx[file] != fy[file]:
                keys = [k for k in fx[file] if fx[file].get(k) != fy[file].get(k)] if isinstance(fx[file], dict) else ["link"]
                diffs.append(f"{file} differs in {keys}")
        if diffs: differing.append(f"{name}:\n   " + "\n   ".join(diffs))
    return differing


if __name__ == "__main__":
    SIGNED, DAMAGED = setup()
    old = run_all(os.path.abspath(sys.argv[1]), "old")
    new = run_all(os.path.abspath(sys.argv[2]), "new")
    differing = compare(old, new)
    print(f"{len(old) - len(differing)}/{len(old)} cases identical")
    print("\n".join(differing))
    sys.exit(1 if differing else 0)
