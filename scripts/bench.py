#!/usr/bin/env python3
"""make bench: pdfedit against qpdf, mutool, pdftk, poppler, pypdf and pikepdf,
side by side in one run, interleaved.

Writes BENCHMARKS.md (medians, min-max, peak memory, ratios to qpdf and to the
best other tool) and a chart of time against page count (docs/bench-scaling.png).
Every output of every tool is checked with independent tools (pdftotext on
sampled pages for order, pdfinfo for rotation, qpdf for page counts), so a fast
wrong answer cannot pass as a result.

The inputs are generated, the same bytes on every machine: text PDFs of 2,000 and
20,000 pages (make-big-pdf.py), ten 2,000-page files that can be told apart after
a merge, an image PDF of about 40 MB (make-image-pdf.py) and 200 small documents.
Tools that are not installed are left out with a note (scripts/bench-setup.sh
installs them all). Work files go to a RAM disk (/dev/shm) when there is one, so
that a busy disk does not decide a file-heavy result such as a burst.

usage: bench.py PDFEDIT_BIN [--quick] [--runs N] [--out BENCHMARKS.md]
                [--chart docs/bench-scaling.png] [--pages 20000] [--only apply]
--quick: smaller inputs and fewer runs, a smoke test of the whole benchmark (about
a minute); its numbers are not the ones to quote.
--only apply: only the rows of `apply` (scripts/bench_apply.py), printed, BENCHMARKS.md
left as it is (`make bench-apply`).
"""
import argparse
import importlib.util
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import bench_apply

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# ---------------------------------------------------------------------------
# Running and measuring


def measure(commands, cwd, env=None):
    """Runs each argv of `commands` in turn; returns (seconds, peak RSS in MB of
    the largest process). Fails loudly on a non-zero exit (qpdf's 3 is a warning)."""
    start = time.perf_counter()
    peak = 0.0
    for argv in commands:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = proc.stderr.read().decode(errors="replace")
        _, status, usage = os.wait4(proc.pid, 0)
        proc.stderr.close()
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 3):
            sys.exit(f"bench: {' '.join(argv)} failed ({code}): {err.strip()[:2000]}")
        peak = max(peak, usage.ru_maxrss / 1024)
    return time.perf_counter() - start, peak


def run(argv, cwd=None, check=True):
    return subprocess.run(argv, cwd=cwd, check=check, capture_output=True, text=True)


def npages(pdf):
    out = run(["qpdf", "--show-npages", pdf], check=False).stdout.strip()
    return int(out) if out.isdigit() else -1


def page_token(pdf, page):
    text = run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"], check=False).stdout.split()
    return text[0] if text else "?"


def page_rotation(pdf, page):
    info = run(["pdfinfo", "-f", str(page), "-l", str(page), pdf], check=False).stdout
    found = re.search(r"Page\s+%d rot:\s+(\d+)" % page, info)
    return int(found.group(1)) if found else -1


def tool_version(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    text = (out.stdout + out.stderr).strip().splitlines()
    return text[0].strip() if text else "?"


def has_module(name):
    return importlib.util.find_spec(name) is not None


# ---------------------------------------------------------------------------
# Peer programs written into the work folder

PIKEPDF = r'''
import sys, pikepdf
op = sys.argv[1]
if op == "reorder":  # move pages 3-5 to the front, in place
    pdf = pikepdf.open(sys.argv[2]); p = pdf.pages
    for k in (4, 4, 4):
        page = p[k]; del p[k]; p.insert(0, page)
    pdf.save(sys.argv[3])
elif op == "extract":
    src = pikepdf.open(sys.argv[2]); dst = pikepdf.new()
    first, last = int(sys.argv[4]), int(sys.argv[5])
    dst.pages.extend(src.pages[first - 1:last]); dst.save(sys.argv[3])
elif op == "rotate":  # even pages by 90, in place
    pdf = pikepdf.open(sys.argv[2])
    for i in range(1, len(pdf.pages), 2):
        pdf.pages[i].rotate(90, relative=True)
    pdf.save(sys.argv[3])
elif op == "merge":
    dst = pikepdf.new(); opened = []
    for path in sys.argv[3:]:
        src = pikepdf.open(path); opened.append(src); dst.pages.extend(src.pages)
    dst.save(sys.argv[2])
elif op == "burst":
    src = pikepdf.open(sys.argv[2])
    for i, page in enumerate(src.pages):
        dst = pikepdf.new(); dst.pages.append(page); dst.save("%s/page-%d.pdf" % (sys.argv[3], i + 1))
'''

PYPDF = r'''
import sys, pypdf
op = sys.argv[1]
def write(writer, path):
    with open(path, "wb") as f: writer.write(f)
if op == "reorder":
    r = pypdf.PdfReader(sys.argv[2]); w = pypdf.PdfWriter(); n = len(r.pages)
    for i in [2, 3, 4, 0, 1] + list(range(5, n)): w.add_page(r.pages[i])
    write(w, sys.argv[3])
elif op == "extract":
    r = pypdf.PdfReader(sys.argv[2]); w = pypdf.PdfWriter()
    for i in range(int(sys.argv[4]) - 1, int(sys.argv[5])): w.add_page(r.pages[i])
    write(w, sys.argv[3])
elif op == "rotate":
    r = pypdf.PdfReader(sys.argv[2]); w = pypdf.PdfWriter()
    for i, page in enumerate(r.pages):
        added = w.add_page(page)
        if i % 2 == 1: added.rotate(90)
    write(w, sys.argv[3])
elif op == "merge":
    w = pypdf.PdfWriter()
    for path in sys.argv[3:]: w.append(path)
    write(w, sys.argv[2])
elif op == "burst":
    r = pypdf.PdfReader(sys.argv[2])
    for i, page in enumerate(r.pages):
        w = pypdf.PdfWriter(); w.add_page(page); write(w, "%s/page-%d.pdf" % (sys.argv[3], i + 1))
'''

MUTOOL_ROTATE = r'''
var doc = new PDFDocument(scriptArgs[0]);
var n = doc.countPages();
for (var i = 1; i < n; i += 2) {
    var page = doc.findPage(i);
    var r = page.get("Rotate");
    var v = (r && r.isNumber()) ? r.valueOf() : 0;
    page.put("Rotate", (v + 90) % 360);
}
doc.save(scriptArgs[1], "");
'''

MUTOOL_BURST = r'''
var src = new PDFDocument(scriptArgs[0]);
var n = src.countPages();
for (var i = 0; i < n; i++) {
    var dst = new PDFDocument();
    dst.graftPage(-1, src, i);
    dst.save(scriptArgs[1] + "/page-" + (i + 1) + ".pdf", "");
}
'''

# The ten-command edit script, as pdfedit commands and as qpdf runs (each qpdf run
# reads the previous run's output), for a document of `n` pages (the numbers are
# those of 20,000 pages, scaled). `simulate` applies it to a list of
# (source page, rotation) so that outputs can be checked against the truth.
def script_steps(n):
    a, b = n // 200, n // 100 - 1          # remove 100..199
    c, d = n // 20, n // 10 - 1            # reverse 1000..1999
    e, f = n // 4, n // 4 + n // 200 - 1   # remove 5000..5099
    return [
        ("move 3..5 --to 1", ["--empty", "--pages", "{in}", "3-5,1-2,6-z", "--", "{out}"]),
        ("rotate even --by 90", ["{in}", "--rotate=+90:1-z:even", "{out}"]),
        (f"remove {a}..{b}", ["--empty", "--pages", "{in}", f"1-{a - 1},{b + 1}-z", "--", "{out}"]),
        ("duplicate 1..3", ["--empty", "--pages", "{in}", "1,1,2,2,3,3,4-z", "--", "{out}"]),
        ("copy 10..20 --to last", ["--empty", "--pages", "{in}", "1-z,10-20", "--", "{out}"]),
        (f"reverse {c}..{d}", ["--empty", "--pages", "{in}", f"1-{c - 1},{d}-{c},{d + 1}-z", "--", "{out}"]),
        ("rotate 1..10 --by 180", ["{in}", "--rotate=+180:1-10", "{out}"]),
        ("move last-9..last --to 1", ["--empty", "--pages", "{in}", "r10-r1,1-r11", "--", "{out}"]),
        (f"remove {e}..{f}", ["--empty", "--pages", "{in}", f"1-{e - 1},{f + 1}-z", "--", "{out}"]),
        ("duplicate last", ["--empty", "--pages", "{in}", "1-z,z", "--", "{out}"]),
    ]


def simulate(n):
    a, b = n // 200, n // 100 - 1
    c, dd = n // 20, n // 10 - 1
    e, f = n // 4, n // 4 + n // 200 - 1
    d = [(p, 0) for p in range(1, n + 1)]
    d = d[2:5] + d[:2] + d[5:]
    d = [(p, (r + 90) % 360 if i % 2 == 1 else r) for i, (p, r) in enumerate(d)]
    d = d[:a - 1] + d[b:]
    d = [x for x in d[:3] for _ in (0, 1)] + d[3:]
    d = d + d[9:20]
    d = d[:c - 1] + d[c - 1:dd][::-1] + d[dd:]
    d = [(p, (r + 180) % 360) for p, r in d[:10]] + d[10:]
    d = d[-10:] + d[:-10]
    d = d[:e - 1] + d[f:]
    d = d + d[-1:]
    return d


# ---------------------------------------------------------------------------
# Checks


def expect(pdf, count, samples):
    """samples: {page: (token, rotation or None)}; returns a problem or None."""
    n = npages(pdf)
    if n != count:
        return f"{os.path.basename(pdf)}: {n} pages, expected {count}"
    for page, (token, rotation) in samples.items():
        got = page_token(pdf, page)
        if got != token:
            return f"{os.path.basename(pdf)} page {page}: {got}, expected {token}"
        if rotation is not None:
            got_rotation = page_rotation(pdf, page)
            if got_rotation != rotation:
                return f"{os.path.basename(pdf)} page {page}: rotated {got_rotation}, expected {rotation}"
    return None


def natural(name):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


# ---------------------------------------------------------------------------
# The benchmark


class Case:
    """One operation run by several tools. make(tool, scratch) -> list of argv;
    check(tool, scratch) -> problem or None."""

    def __init__(self, key, title, description):
        self.key = key
        self.title = title
        self.description = description
        self.tools = []  # (label, make, output_kind)
        self.samples = {}
        self.check = None

    def add(self, label, make):
        self.tools.append((label, make))
        self.samples[label] = []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pdfedit")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=None, help="runs per tool (slow peers: at most 2)")
    parser.add_argument("--pages", type=int, default=None, help="pages of the big text PDF")
    parser.add_argument("--out", default=os.path.join(REPO, "BENCHMARKS.md"))
    parser.add_argument("--chart", default=os.path.join(REPO, "docs", "bench-scaling.png"))
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--only", choices=["apply"], help="run only these rows and print them")
    args = parser.parse_args()
    quick = args.quick
    runs = args.runs or (2 if quick else 5)
    slow_runs = 1 if quick else 2  # a peer slower than SLOW seconds runs this often
    SLOW = 4.0
    big_pages = args.pages or (2000 if quick else 20000)
    small_pages = 200 if quick else 2000
    merge_files = 10
    extract_first = big_pages // 20
    extract_last = extract_first + 50
    scaling = [250, 500, 1000, 2000] if quick else [1000, 5000, 10000, 20000]
    scaling_runs = 1 if quick else 3
    batch_docs = 40 if quick else 200
    image_pages = 8 if quick else 40
    pdfedit = os.path.abspath(args.pdfedit)
    began = time.perf_counter()

    ram = "/dev/shm"
    base = ram if os.path.isdir(ram) and shutil.disk_usage(ram).free > 4e9 else None
    work = tempfile.mkdtemp(prefix="pdfedit-bench-", dir=base)
    try:
        if args.only == "apply":
            section, targets = bench_apply.run_rows(pdfedit, work, quick, runs, measure)
            print(section + "\n" + "\n".join(targets))
            return
        run_benchmark(args, quick, runs, slow_runs, SLOW, big_pages, small_pages, merge_files, extract_first,
                      extract_last, scaling, scaling_runs, batch_docs, image_pages, pdfedit, began, base, work)
    finally:
        if args.keep:
            print(f"bench: work folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def run_benchmark(args, quick, runs, slow_runs, SLOW, big_pages, small_pages, merge_files, extract_first,
                  extract_last, scaling, scaling_runs, batch_docs, image_pages, pdfedit, began, base, work):
    inputs = os.path.join(work, "in")
    os.makedirs(inputs)

    # Tools ---------------------------------------------------------------
    have = {
        "qpdf": shutil.which("qpdf") is not None,
        "mutool": shutil.which("mutool") is not None,
        "pdftk": shutil.which("pdftk") is not None,
        "pdfunite": shutil.which("pdfunite") is not None,
        "pdfseparate": shutil.which("pdfseparate") is not None,
        "pikepdf": has_module("pikepdf"),
        "pypdf": has_module("pypdf"),
        "matplotlib": has_module("matplotlib"),
    }
    for needed in ("qpdf", "pdftotext", "pdfinfo"):
        if shutil.which(needed) is None:
            sys.exit(f"bench: {needed} is needed to check outputs; run scripts/bench-setup.sh")
    missing = [name for name, ok in have.items() if not ok]
    py = sys.executable
    for name, text in (("peer_pikepdf.py", PIKEPDF), ("peer_pypdf.py", PYPDF),
                       ("rotate.js", MUTOOL_ROTATE), ("burst.js", MUTOOL_BURST)):
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
    peer_pikepdf = [py, os.path.join(work, "peer_pikepdf.py")]
    peer_pypdf = [py, os.path.join(work, "peer_pypdf.py")]

    # Inputs --------------------------------------------------------------
    def make_text(pages, path, label="BIG"):
        run([py, os.path.join(HERE, "make-big-pdf.py"), str(pages), path, label])
        return path

    big = make_text(big_pages, os.path.join(inputs, "big.pdf"))
    small = make_text(small_pages, os.path.join(inputs, "small.pdf"))
    parts = [make_text(small_pages, os.path.join(inputs, f"m{k:02d}.pdf"), f"M{k:02d}")
             for k in range(1, merge_files + 1)]
    image = os.path.join(inputs, "images.pdf")
    run([py, os.path.join(HERE, "make-image-pdf.py"), str(image_pages), image])
    print(f"bench: inputs ready in {time.perf_counter() - began:.0f} s", flush=True)

    N = big_pages
    cases = []

    # reorder ----------------------------------------------------------------
    reorder = Case("reorder", f"reorder: move pages 3-5 to the front of {N} pages",
                   "one command, file in, file out")
    reorder.add("pdfedit", lambda d: [[pdfedit, "move", "3..5", "--to", "1", big, "-o", f"{d}/out.pdf", "-q"]])
    reorder.add("qpdf", lambda d: [["qpdf", "--empty", "--pages", big, "3-5,1-2,6-z", "--", f"{d}/out.pdf"]])
    if have["mutool"]:
        reorder.add("mutool merge", lambda d: [["mutool", "merge", "-o", f"{d}/out.pdf", big, "3-5,1-2,6-N"]])
    if have["pdftk"]:
        reorder.add("pdftk", lambda d: [["pdftk", big, "cat", "3-5", "1-2", "6-end", "output", f"{d}/out.pdf"]])
    if have["pypdf"]:
        reorder.add("pypdf", lambda d: [peer_pypdf + ["reorder", big, f"{d}/out.pdf"]])
    if have["pikepdf"]:
        reorder.add("pikepdf (in place)", lambda d: [peer_pikepdf + ["reorder", big, f"{d}/out.pdf"]])
    order = {1: 3, 2: 4, 3: 5, 4: 1, 5: 2, 6: 6, N: N}
    reorder.check = lambda d: expect(f"{d}/out.pdf", N, {p: (f"BIG-P{q}", None) for p, q in order.items()})
    cases.append(reorder)

    # extract ---------------------------------------------------------------
    count = extract_last - extract_first + 1
    rng = f"{extract_first}-{extract_last}"
    extract = Case("extract", f"extract: pages {rng} ({count} pages) of {N}", "one file out")
    extract.add("pdfedit", lambda d: [[pdfedit, "export", f"{d}/out.pdf", f"{extract_first}..{extract_last}",
                                       "--from", big, "-q"]])
    extract.add("qpdf", lambda d: [["qpdf", "--empty", "--pages", big, rng, "--", f"{d}/out.pdf"]])
    if have["mutool"]:
        extract.add("mutool merge", lambda d: [["mutool", "merge", "-o", f"{d}/out.pdf", big, rng]])
    if have["pdftk"]:
        extract.add("pdftk", lambda d: [["pdftk", big, "cat", rng, "output", f"{d}/out.pdf"]])
    if have["pypdf"]:
        extract.add("pypdf", lambda d: [peer_pypdf + ["extract", big, f"{d}/out.pdf", str(extract_first),
                                                      str(extract_last)]])
    if have["pikepdf"]:
        extract.add("pikepdf", lambda d: [peer_pikepdf + ["extract", big, f"{d}/out.pdf", str(extract_first),
                                                          str(extract_last)]])
    extract.check = lambda d: expect(f"{d}/out.pdf", count, {
        1: (f"BIG-P{extract_first}", None), count // 2: (f"BIG-P{extract_first + count // 2 - 1}", None),
        count: (f"BIG-P{extract_last}", None)})
    cases.append(extract)

    # rotate ----------------------------------------------------------------
    rotate = Case("rotate", f"rotate: even pages by 90° of {N} pages", "one command, file in, file out")
    rotate.add("pdfedit", lambda d: [[pdfedit, "rotate", "even", "--by", "90", big, "-o", f"{d}/out.pdf", "-q"]])
    rotate.add("qpdf", lambda d: [["qpdf", big, "--rotate=+90:1-z:even", f"{d}/out.pdf"]])
    if have["mutool"]:
        rotate.add("mutool run (JS)", lambda d: [["mutool", "run", f"{work}/rotate.js", big, f"{d}/out.pdf"]])
    if have["pdftk"]:
        rotate.add("pdftk", lambda d: [["pdftk", f"A={big}", "shuffle", "A1-endodd", "A1-endevenright", "output",
                                        f"{d}/out.pdf"]])
    if have["pypdf"]:
        rotate.add("pypdf", lambda d: [peer_pypdf + ["rotate", big, f"{d}/out.pdf"]])
    if have["pikepdf"]:
        rotate.add("pikepdf (in place)", lambda d: [peer_pikepdf + ["rotate", big, f"{d}/out.pdf"]])
    rotate.check = lambda d: expect(f"{d}/out.pdf", N, {
        1: ("BIG-P1", 0), 2: ("BIG-P2", 90), 3: ("BIG-P3", 0), 4: ("BIG-P4", 90), N: (f"BIG-P{N}", 90 * (N % 2 == 0))})
    cases.append(rotate)

    # merge -----------------------------------------------------------------
    M = merge_files * small_pages
    merge = Case("merge", f"merge: {merge_files} files of {small_pages} pages into one", "one file out")
    merge.add("pdfedit", lambda d: [[pdfedit, "insert"] + parts[1:] + ["--at", "last", parts[0], "-o",
                                                                       f"{d}/out.pdf", "-q"]])
    merge.add("qpdf", lambda d: [["qpdf", "--empty", "--pages"] + parts + ["--", f"{d}/out.pdf"]])
    if have["mutool"]:
        merge.add("mutool merge", lambda d: [["mutool", "merge", "-o", f"{d}/out.pdf"] + parts])
    if have["pdftk"]:
        merge.add("pdftk", lambda d: [["pdftk"] + parts + ["cat", "output", f"{d}/out.pdf"]])
    if have["pdfunite"]:
        merge.add("pdfunite", lambda d: [["pdfunite"] + parts + [f"{d}/out.pdf"]])
    if have["pypdf"]:
        merge.add("pypdf", lambda d: [peer_pypdf + ["merge", f"{d}/out.pdf"] + parts])
    if have["pikepdf"]:
        merge.add("pikepdf", lambda d: [peer_pikepdf + ["merge", f"{d}/out.pdf"] + parts])
    merge.check = lambda d: expect(f"{d}/out.pdf", M, {
        1: ("M01-P1", None), small_pages: (f"M01-P{small_pages}", None), small_pages + 1: ("M02-P1", None),
        M: (f"M{merge_files:02d}-P{small_pages}", None)})
    cases.append(merge)

    # burst -----------------------------------------------------------------
    burst = Case("burst", f"burst: {small_pages} pages into {small_pages} files", "one file per page")
    burst.add("pdfedit", lambda d: [[pdfedit, "export", "--split", f"{d}/parts", "--from", small, "-q"]])
    burst.add("qpdf", lambda d: [["mkdir", "-p", f"{d}/parts"],
                                 ["qpdf", "--split-pages", small, f"{d}/parts/page-%d.pdf"]])
    if have["mutool"]:
        burst.add("mutool run (JS)", lambda d: [["mkdir", "-p", f"{d}/parts"],
                                                ["mutool", "run", f"{work}/burst.js", small, f"{d}/parts"]])
    if have["pdftk"]:
        burst.add("pdftk", lambda d: [["mkdir", "-p", f"{d}/parts"],
                                      ["pdftk", small, "burst", "output", f"{d}/parts/page-%04d.pdf"]])
    if have["pdfseparate"]:
        burst.add("pdfseparate", lambda d: [["mkdir", "-p", f"{d}/parts"],
                                            ["pdfseparate", small, f"{d}/parts/page-%d.pdf"]])
    if have["pypdf"]:
        burst.add("pypdf", lambda d: [["mkdir", "-p", f"{d}/parts"], peer_pypdf + ["burst", small, f"{d}/parts"]])
    if have["pikepdf"]:
        burst.add("pikepdf", lambda d: [["mkdir", "-p", f"{d}/parts"],
                                        peer_pikepdf + ["burst", small, f"{d}/parts"]])

    def check_burst(d):
        files = sorted((f for f in os.listdir(f"{d}/parts") if f.endswith(".pdf")), key=natural)
        if len(files) != small_pages:
            return f"{len(files)} files, expected {small_pages}"
        for k in (1, small_pages // 2, small_pages):
            problem = expect(f"{d}/parts/{files[k - 1]}", 1, {1: (f"BIG-P{k}", None)})
            if problem:
                return problem
        return None

    burst.check = check_burst
    cases.append(burst)

    # edit script -----------------------------------------------------------
    truth = simulate(N)
    steps = script_steps(N)
    script_file = os.path.join(work, "edits.txt")
    with open(script_file, "w") as f:
        f.write("".join(line + "\n" for line, _ in steps))
    script = Case("script", f"10-command edit script on {N} pages",
                  "pdfedit: open + run (one undo step) + export, three processes; qpdf: ten runs, each reading "
                  "the previous one's output")

    def pdfedit_script(d):  # runs in d, so the session is d/.pdfedit
        shutil.copy(big, f"{d}/big.pdf")
        return [[pdfedit, "open", "big.pdf", "-q"], [pdfedit, "run", script_file, "-q"],
                [pdfedit, "export", "out.pdf", "-q"]]

    def qpdf_script(d):
        commands, previous = [], big
        for k, (_, words) in enumerate(steps):
            out = f"{d}/out.pdf" if k == len(steps) - 1 else f"{d}/step{k + 1}.pdf"
            commands.append(["qpdf"] + [w.format(**{"in": previous, "out": out}) for w in words])
            previous = out
        return commands

    script.add("pdfedit", pdfedit_script)
    script.add("qpdf", qpdf_script)
    script_samples = sorted({1, 2, 3, 4, 11, 12, 13, 14, N // 20, N // 20 + 1, len(truth) // 2, len(truth)})
    script.check = lambda d: expect(f"{d}/out.pdf", len(truth), {
        p: (f"BIG-P{truth[p - 1][0]}", truth[p - 1][1]) for p in script_samples})
    cases.append(script)

    # The rounds: every tool once per round, in turn, each output checked. ----
    for round_ in range(runs):
        for case in cases:
            for label, make in case.tools:
                samples = case.samples[label]
                if round_ >= slow_runs and samples and statistics.median(s for s, _ in samples) > SLOW:
                    continue
                scratch = tempfile.mkdtemp(dir=work)
                commands = make(scratch)
                seconds, rss = measure(commands, cwd=scratch)
                problem = case.check(scratch)
                if problem:
                    sys.exit(f"bench: {case.key}: {label}: wrong output: {problem}")
                samples.append((seconds, rss))
                shutil.rmtree(scratch)
        print(f"bench: round {round_ + 1}/{runs} done ({time.perf_counter() - began:.0f} s)", flush=True)

    # Session edits (the measurements bench.py always made) --------------------
    session_dir = os.path.join(work, "session")
    os.makedirs(session_dir)
    shutil.copy(big, os.path.join(session_dir, "big.pdf"))
    run([pdfedit, "open", "big.pdf", "-q"], cwd=session_dir)
    edit_samples, rewrite_samples, export_samples, qexport_samples = [], [], [], []
    for _ in range(runs):
        edit_samples.append(measure([[pdfedit, "move", "3..5", "--to", "1", "-q"]], session_dir))
        run([pdfedit, "undo", "-q"], cwd=session_dir)
        scratch = tempfile.mkdtemp(dir=work)
        rewrite_samples.append(measure([["qpdf", "--empty", "--pages", big, "3-5,1-2,6-z", "--",
                                         f"{scratch}/q.pdf"]], session_dir))
        shutil.rmtree(scratch)
    run([pdfedit, "move", "3..5", "--to", "1", "-q"], cwd=session_dir)
    for _ in range(runs):
        scratch = tempfile.mkdtemp(dir=work)
        export_samples.append(measure([[pdfedit, "export", f"{scratch}/e.pdf", "-q"]], session_dir))
        problem = expect(f"{scratch}/e.pdf", N, {p: (f"BIG-P{q}", None) for p, q in order.items()})
        if problem:
            sys.exit(f"bench: session export: wrong output: {problem}")
        qexport_samples.append(measure([["qpdf", "--empty", "--pages", big, "3-5,1-2,6-z", "--",
                                         f"{scratch}/q.pdf"]], session_dir))
        shutil.rmtree(scratch)
    steps_dir = os.path.join(work, "steps")
    os.makedirs(steps_dir)
    shutil.copy(big, os.path.join(steps_dir, "big.pdf"))
    run([pdfedit, "open", "big.pdf", "-q"], cwd=steps_dir)
    for i in range(100):
        line = (f"move {(i * 37) % (N - 10) + 1}..{(i * 37) % (N - 10) + 3} --to {(i * 101) % (N - 10) + 1}"
                if i % 2 == 0 else f"rotate {(i * 53) % N + 1} --by 90")
        run([pdfedit] + line.split() + ["-q"], cwd=steps_dir)
    session_size = os.path.getsize(os.path.join(steps_dir, ".pdfedit", "session.json"))
    print(f"bench: session measurements done ({time.perf_counter() - began:.0f} s)", flush=True)

    # Memory against image size: the same reorder of a 40 MB image PDF -------
    image_samples = {"pdfedit": [], "qpdf": []}
    for _ in range(max(2, runs // 2)):
        for label in image_samples:
            scratch = tempfile.mkdtemp(dir=work)
            argv = ([pdfedit, "move", "3..5", "--to", "1", image, "-o", f"{scratch}/out.pdf", "-q"]
                    if label == "pdfedit" else ["qpdf", "--empty", "--pages", image, "3-5,1-2,6-z", "--",
                                                f"{scratch}/out.pdf"])
            image_samples[label].append(measure([argv], scratch))
            problem = expect(f"{scratch}/out.pdf", image_pages, {1: ("IMG-P3", None), 4: ("IMG-P1", None)})
            if problem:
                sys.exit(f"bench: image reorder: {label}: wrong output: {problem}")
            shutil.rmtree(scratch)
    baseline = [measure([[pdfedit, "docs"]], session_dir) for _ in range(3)]

    # Scaling: time against page count for a reorder -------------------------
    scale_tools = [("pdfedit", lambda f, d: [pdfedit, "move", "3..5", "--to", "1", f, "-o", f"{d}/out.pdf", "-q"]),
                   ("qpdf", lambda f, d: ["qpdf", "--empty", "--pages", f, "3-5,1-2,6-z", "--", f"{d}/out.pdf"])]
    if have["pikepdf"]:
        scale_tools.append(("pikepdf (in place)", lambda f, d: peer_pikepdf + ["reorder", f, f"{d}/out.pdf"]))
    if have["mutool"]:
        scale_tools.append(("mutool merge", lambda f, d: ["mutool", "merge", "-o", f"{d}/out.pdf", f,
                                                           "3-5,1-2,6-N"]))
    scale = {label: {} for label, _ in scale_tools}
    for pages in scaling:
        source = big if pages == N else make_text(pages, os.path.join(inputs, f"scale{pages}.pdf"))
        for _ in range(scaling_runs):
            for label, make in scale_tools:
                if label.startswith("mutool") and scale[label].get(pages) and \
                        statistics.median(scale[label][pages]) > SLOW:
                    continue
                scratch = tempfile.mkdtemp(dir=work)
                seconds, _ = measure([make(source, scratch)], scratch)
                problem = expect(f"{scratch}/out.pdf", pages, {1: ("BIG-P3", None), 4: ("BIG-P1", None)})
                if problem:
                    sys.exit(f"bench: scaling {pages}: {label}: wrong output: {problem}")
                scale[label].setdefault(pages, []).append(seconds)
                shutil.rmtree(scratch)
    print(f"bench: scaling done ({time.perf_counter() - began:.0f} s)", flush=True)

    # Many documents: one pdfedit process per document, xargs -P 2 -------------
    batch = os.path.join(work, "batch")
    os.makedirs(os.path.join(batch, "in"))
    template = make_text(20, os.path.join(inputs, "doc.pdf"))
    names = []
    for k in range(batch_docs):
        name = f"doc{k:03d}.pdf"
        shutil.copy(template, os.path.join(batch, "in", name))
        names.append(name)
    with open(os.path.join(batch, "list.txt"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    cores = os.cpu_count() or 1
    batch_results = {}
    for jobs in (1, cores):
        for k in range(2 if not quick else 1):
            out_dir = os.path.join(batch, f"out{jobs}")
            shutil.rmtree(out_dir, ignore_errors=True)
            os.makedirs(out_dir)
            seconds, rss = measure([["xargs", "-a", "list.txt", "-P", str(jobs), "-I", "{}", pdfedit, "move",
                                     "3..5", "--to", "1", "in/{}", "-o", f"{out_dir}/{{}}", "-q"]], batch)
            batch_results.setdefault(jobs, []).append(seconds)
        for name in names[:: max(1, batch_docs // 10)]:
            problem = expect(os.path.join(out_dir, name), 20, {1: ("BIG-P3", None), 4: ("BIG-P1", None)})
            if problem:
                sys.exit(f"bench: batch: wrong output: {problem}")
    # Sessions in parallel: each document in its own folder with its own session.
    for name in names:
        folder = os.path.join(batch, "sessions", name[:-4])
        os.makedirs(folder)
        shutil.copy(template, os.path.join(folder, "doc.pdf"))
    with open(os.path.join(batch, "session-job.sh"), "w") as f:
        f.write('set -e\ncd "$1"\n"$2" open doc.pdf -q\n"$2" rotate even --by 90 -q\n"$2" move 3..5 --to 1 -q\n'
                '"$2" export out.pdf -q\n')
    folders = sorted(os.listdir(os.path.join(batch, "sessions")))
    with open(os.path.join(batch, "folders.txt"), "w") as f:
        f.write("".join(os.path.join(batch, "sessions", x) + "\n" for x in folders))
    session_batch, _ = measure([["xargs", "-a", "folders.txt", "-P", str(cores), "-I", "{}", "sh",
                                 "session-job.sh", "{}", pdfedit]], batch)
    for folder in folders[:: max(1, batch_docs // 10)]:
        problem = expect(os.path.join(batch, "sessions", folder, "out.pdf"), 20,
                         {1: ("BIG-P3", 0), 2: ("BIG-P4", 90), 4: ("BIG-P1", 0), 5: ("BIG-P2", 90)})
        if problem:
            sys.exit(f"bench: session batch: wrong output: {problem}")
    print(f"bench: batch done ({time.perf_counter() - began:.0f} s)", flush=True)
    apply_section, apply_targets = bench_apply.run_rows(pdfedit, work, quick, runs, measure)

    # Report --------------------------------------------------------------------
    def med(samples):
        return statistics.median(s for s, _ in samples)

    def table(case):
        medians = {label: med(s) for label, s in case.samples.items() if s}
        q = medians.get("qpdf")
        peers = {label: m for label, m in medians.items() if label != "pdfedit"}
        best_label = min(peers, key=peers.get) if peers else None
        lines = ["| tool | median s | min–max s | runs | peak MB | × qpdf | × best other |",
                 "|---|---|---|---|---|---|---|"]
        for label, samples in sorted(case.samples.items(), key=lambda kv: med(kv[1]) if kv[1] else 1e9):
            if not samples:
                continue
            times = [s for s, _ in samples]
            rss = max(m for _, m in samples)
            others = {k: v for k, v in medians.items() if k != label}
            best_other = min(others.values()) if others else None
            name = f"**{label}**" if label == "pdfedit" else label
            lines.append(
                f"| {name} | {medians[label]:.3f} | {min(times):.3f}–{max(times):.3f} | {len(times)} | {rss:.0f} | "
                f"{medians[label] / q:.2f} | {medians[label] / best_other:.2f} |" if q and best_other else
                f"| {name} | {medians[label]:.3f} | {min(times):.3f}–{max(times):.3f} | {len(times)} | {rss:.0f} | | |")
        return "\n".join(lines), medians, best_label

    sections = []
    summary = []
    for case in cases:
        text, medians, best_label = table(case)
        sections.append(f"### {case.title}\n\n{case.description}.\n\n{text}\n")
        mine = medians.get("pdfedit")
        q = medians.get("qpdf")
        best = medians.get(best_label) if best_label else None
        rss = max(m for _, m in case.samples["pdfedit"])
        qrss = max(m for _, m in case.samples["qpdf"])
        summary.append((case, mine, q, best_label, best, rss, qrss))

    def verdict(ok):
        return "met" if ok else "**missed**"

    by_key = {entry[0].key: entry for entry in summary}
    rows = []
    for key in ("reorder", "extract", "rotate", "merge"):
        case, mine, q, best_label, best, rss, qrss = by_key[key]
        rows.append(f"| {key}: time vs qpdf ≤ 1.0 (±10%) | {mine / q:.2f} | {verdict(mine / q <= 1.1)} |")
    case, mine, q, best_label, best, rss, qrss = by_key["extract"]
    if "mutool merge" in case.samples and case.samples["mutool merge"]:
        rows.append(f"| extract: time vs mutool (reported) | {mine / med(case.samples['mutool merge']):.2f} | — |")
    case, mine, q, best_label, best, rss, qrss = by_key["burst"]
    rows.append(f"| burst: time vs qpdf --split-pages ≤ 0.6 | {mine / q:.2f} | {verdict(mine / q <= 0.6)} |")
    if "mutool run (JS)" in case.samples and case.samples["mutool run (JS)"]:
        m = med(case.samples["mutool run (JS)"])
        rows.append(f"| burst: faster than mutool (< 1.0) | {mine / m:.2f} | {verdict(mine < m)} |")
    case, mine, q, best_label, best, rss, qrss = by_key["script"]
    rows.append(f"| edit script: qpdf chain ÷ pdfedit ≥ 10 | {q / mine:.1f}× | {verdict(q / mine >= 10)} |")
    for key in ("reorder", "rotate", "merge"):
        case, mine, q, best_label, best, rss, qrss = by_key[key]
        rows.append(f"| {key}: peak memory vs qpdf ≤ 1.0 | {rss:.0f} / {qrss:.0f} MB = {rss / qrss:.2f} | "
                    f"{verdict(rss <= qrss)} |")
    img_mine = max(m for _, m in image_samples["pdfedit"])
    img_q = max(m for _, m in image_samples["qpdf"])
    base_rss = statistics.median(m for _, m in baseline)
    rows.append(f"| image PDF ({os.path.getsize(image) / 1e6:.0f} MB): pdfedit peak above its baseline "
                f"({base_rss:.0f} MB) | {img_mine - base_rss:+.0f} MB | "
                f"{verdict(img_mine - base_rss < os.path.getsize(image) / 1e6 / 4)} |")
    rows += apply_targets

    lead = []
    for case, mine, q, best_label, best, rss, qrss in summary:
        if best_label and best:
            lead.append(f"| {case.key} | {mine:.3f} | {q:.3f} | {best_label} {best:.3f} | {mine / best:.2f} |")

    # Chart
    chart_note = "matplotlib is not installed: no chart"
    if have["matplotlib"] and scale:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
        for label, points in scale.items():
            xs = sorted(points)
            if xs:
                ax.plot(xs, [statistics.median(points[x]) for x in xs], marker="o",
                        linewidth=2.5 if label == "pdfedit" else 1.5, label=label)
        ax.set_xlabel("pages")
        ax.set_ylabel("seconds (median)")
        ax.set_title("Move pages 3-5 to the front: time against page count")
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        os.makedirs(os.path.dirname(os.path.abspath(args.chart)), exist_ok=True)
        fig.savefig(args.chart)
        chart_note = f"![time against page count]({os.path.relpath(os.path.abspath(args.chart), os.path.dirname(os.path.abspath(args.out)))})"

    scale_rows = ["| pages | " + " | ".join(label for label, _ in scale_tools) + " |",
                  "|---|" + "---|" * len(scale_tools)]
    for pages in scaling:
        cells = []
        for label, _ in scale_tools:
            points = scale[label].get(pages)
            cells.append(f"{statistics.median(points):.3f}" if points else "—")
        scale_rows.append(f"| {pages} | " + " | ".join(cells) + " |")

    b1 = statistics.median(batch_results[1])
    bp = statistics.median(batch_results[cores])
    versions = [f"pdfedit: `{tool_version([pdfedit, '--version'])}`",
                f"qpdf: `{tool_version(['qpdf', '--version'])}`"]
    if have["mutool"]:
        versions.append(f"mutool: `{tool_version(['mutool', '-v'])}`")
    if have["pdftk"]:
        versions.append(f"pdftk: `{tool_version(['pdftk', '--version'])}`")
    versions.append(f"poppler: `{tool_version(['pdftotext', '-v'])}`")
    for module in ("pypdf", "pikepdf"):
        if have[module]:
            versions.append(f"{module}: `{tool_version([py, '-c', f'import {module}; print({module}.__version__)'])}`")

    e, r, x, qx = (statistics.median(s for s, _ in v) for v in
                   (edit_samples, rewrite_samples, export_samples, qexport_samples))
    elapsed = time.perf_counter() - began
    report = f"""# Benchmarks

Generated by `make bench` (`scripts/bench.py`{' --quick' if quick else ''}) on {platform.node()},
{cores} cores, {platform.machine()}, in {elapsed / 60:.1f} minutes: {runs} interleaved rounds (a tool
slower than {SLOW:.0f} s runs {slow_runs}×), medians and min–max, peak memory of the largest process
(`wait4` rusage). Inputs are generated, the same bytes everywhere: a {N}-page text PDF
({os.path.getsize(big) / 1e6:.1f} MB), {small_pages}-page text PDFs, an image PDF of {image_pages}
pages ({os.path.getsize(image) / 1e6:.0f} MB of incompressible images). Every output of every tool was
checked: page count (qpdf), page order on sampled pages (pdftotext), rotation (pdfinfo); the
edit script's output against a simulation of the ten edits. Work files on
{'a RAM disk (/dev/shm)' if base else 'the temporary folder'}. Missing tools: {', '.join(missing) or 'none'}.

Versions: {'; '.join(versions)}.

## Targets

| target | measured | |
|---|---|---|
{chr(10).join(rows)}

## pdfedit against the fastest other tool

| operation | pdfedit s | qpdf s | fastest other s | pdfedit ÷ fastest other |
|---|---|---|---|---|
{chr(10).join(lead)}

## Operations

“× qpdf” and “× best other” are this tool's median divided by qpdf's and by the
fastest *other* tool's median (below 1: faster).

{chr(10).join(sections)}
## Scaling: move pages 3-5 to the front, time against page count

{chr(10).join(scale_rows)}

{chart_note}

## Memory does not grow with image data

Moving pages 3-5 to the front of the {os.path.getsize(image) / 1e6:.0f} MB image PDF: pdfedit peaks at
{img_mine:.0f} MB ({img_mine - base_rss:+.0f} MB above the {base_rss:.0f} MB of `pdfedit docs`, which is
the Swift runtime, Foundation and the shared libraries), qpdf at {img_q:.0f} MB; median
{statistics.median(s for s, _ in image_samples['pdfedit']):.2f} s against
{statistics.median(s for s, _ in image_samples['qpdf']):.2f} s. Stream data is copied from the input
file to the output as it is written, never held in memory.

## Many documents: one process per document

{batch_docs} documents of 20 pages, `pdfedit move 3..5 --to 1 DOC -o OUT` each (direct mode, no session,
nothing shared between processes): {b1:.2f} s one at a time (`xargs -P 1`), {bp:.2f} s with
`xargs -P {cores}` ({b1 / bp:.2f}× faster, {batch_docs / bp:.0f} documents/s). With sessions, one folder
per document (open, rotate even, move, export: four processes each) under `xargs -P {cores}`:
{session_batch:.2f} s for {batch_docs} documents. Sessions live in their folder (`.pdfedit/`), locked
per session, so parallel jobs on different folders never meet.

{apply_section}
## Sessions

| | median s | peak MB |
|---|---|---|
| pdfedit session edit (move 3..5 --to 1) | {e:.3f} | {max(m for _, m in edit_samples):.0f} |
| qpdf --empty --pages rewrite of the file | {r:.3f} | {max(m for _, m in rewrite_samples):.0f} |
| pdfedit export of the session (the reorder) | {x:.3f} | {max(m for _, m in export_samples):.0f} |
| qpdf --empty --pages (same output) | {qx:.3f} | {max(m for _, m in qexport_samples):.0f} |

An edit in a session costs **{e / r * 100:.1f}%** of rewriting the file with qpdf (target: under 5%):
sessions edit items, not PDFs. Session file for a {N}-page document after 100 history steps (50 moves,
50 rotations, each its own command): **{session_size / 1e3:.0f} KB** (target: under 5 MB).
"""
    with open(args.out, "w") as f:
        f.write(report)
    print(report)


if __name__ == "__main__":
    main()
