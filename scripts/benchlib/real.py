"""Real documents from ../shared/corpus (beside the checkout): reorder, rotate even,
extract a range, remove a range, split per page and merge two, pdfedit against
qpdf (command lines that keep the document's catalog, as pdfedit does) and
mutool where it has an equivalent (reported, no target).

Every output is checked by independent tools: page count (qpdf --show-npages)
on every run; rotation of every page (pdfinfo) for rotate; page text (pdftotext)
of the pages that moved for the others; on each tool's first run the links and
outline entries the output kept (qpdf --json), and on pdfedit's first run
`qpdf --check` (exit 0, or 3 where the input itself warns). A wrong output fails
its row.
"""
import os
import shutil
import statistics
import tempfile
import time

from benchlib.measure import (ToolFailed, links_and_outlines, measure_full, natural, npages, page_text, phases_of,
                              qpdf_check, rotations)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ["tbt-TeXbyTopic.pdf", "pdfjs-freeculture.pdf", "pdflib-linearized_with_object_streams.pdf",
        "plumber-chelsea_pdta.pdf", "pdfjs-tracemonkey.pdf", "pdfjs-issue7229.pdf"]
QUICK_DOCS = ["plumber-chelsea_pdta.pdf", "pdfjs-tracemonkey.pdf", "pdfjs-issue7229.pdf"]
SKIPPED = {"sicp-sicp.pdf": "listed in MANIFEST.tsv but not a PDF (132 bytes, no PDF header): skipped"}
OPS = ["reorder", "rotate", "extract", "remove", "split", "merge"]


def corpus_dir():
    return os.environ.get("BENCH_CORPUS", os.path.normpath(os.path.join(REPO, "..", "shared", "corpus")))


class Doc:
    """A corpus document and what the checks compare outputs with."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.short = self.name[:-4].split("-", 1)[-1]
        self.pages = npages(path)
        self.check_rc = qpdf_check(path)
        self.rotation = rotations(path, self.pages)
        self.links, self.outlines = links_and_outlines(path)
        self._text = {}

    def text(self, page):
        if page not in self._text:
            self._text[page] = page_text(self.path, page)[:400]
        return self._text[page]


def qpdf_ranges(ranges, n, last="z"):
    return ",".join(f"{a}-{last if b == n else b}" if a != b else (last if a == n else str(a)) for a, b in ranges)


def operations(doc, pdfedit, peers, have):
    """{op: (title, {tool: make(scratch) -> commands}, check(tool, scratch) -> problem)}."""
    n, src = doc.pages, doc.path
    ops = {}

    def same_text(out, page, source_page):
        got = page_text(out, page)[:400]
        if got != doc.text(source_page):
            return f"page {page} reads {got[:40]!r}, expected source page {source_page}'s " \
                   f"{doc.text(source_page)[:40]!r}"
        return None

    def count_is(out, count):
        got = npages(out)
        return None if got == count else f"{got} pages, expected {count}"

    def mutool_merge(ranges):
        return lambda d: [["mutool", "merge", "-o", f"{d}/out.pdf", src, qpdf_ranges(ranges, n, "N")]]

    # reorder: move 3 pages (3..5) to the front; the last page on 2-5 page documents
    moved = (3, 5) if n >= 6 else (n, n)
    order = [moved] + ([(1, moved[0] - 1)] if moved[0] > 1 else []) + ([(moved[1] + 1, n)] if moved[1] < n else [])
    selection = f"{moved[0]}..{moved[1]}" if moved[0] != moved[1] else str(moved[0])
    tools = {"pdfedit": lambda d: [[pdfedit, "move", selection, "--to", "1", src, "-o", f"{d}/out.pdf", "-q"]],
             "qpdf": lambda d: [["qpdf", src, "--pages", ".", qpdf_ranges(order, n), "--", f"{d}/out.pdf"]]}
    if have["mutool"]:
        tools["mutool"] = mutool_merge(order)
    width = moved[1] - moved[0] + 1
    ops["reorder"] = (f"move {selection} to the front", tools,
                      lambda out: count_is(out, n) or same_text(out, 1, moved[0]) or same_text(out, width + 1, 1))

    # rotate even pages by 90
    tools = {"pdfedit": lambda d: [[pdfedit, "rotate", "even", "--by", "90", src, "-o", f"{d}/out.pdf", "-q"]],
             "qpdf": lambda d: [["qpdf", src, "--rotate=+90:1-z:even", f"{d}/out.pdf"]]}
    if have["mutool"]:
        tools["mutool"] = lambda d: [peers.mutool_rotate + [src, f"{d}/out.pdf"]]

    def check_rotate(out):
        problem = count_is(out, n)
        if problem:
            return problem
        got = rotations(out, n)
        for page in range(1, n + 1):
            want = (doc.rotation.get(page, 0) + (90 if page % 2 == 0 else 0)) % 360
            if got.get(page) != want:
                return f"page {page} rotated {got.get(page)}, expected {want}"
        return None

    ops["rotate"] = ("rotate even pages by 90", tools, check_rotate)

    # extract a range (a quarter to a half of the document) and remove the same range
    a, b = max(1, n // 4), max(1, n // 2)
    tools = {"pdfedit": lambda d: [[pdfedit, "export", f"{d}/out.pdf", f"{a}..{b}", "--from", src, "-q"]],
             "qpdf": lambda d: [["qpdf", src, "--pages", ".", qpdf_ranges([(a, b)], n), "--", f"{d}/out.pdf"]]}
    if have["mutool"]:
        tools["mutool"] = mutool_merge([(a, b)])
    ops["extract"] = (f"extract {a}..{b}", tools, lambda out: count_is(out, b - a + 1) or same_text(out, 1, a)
                      or same_text(out, b - a + 1, b))
    rest = ([(1, a - 1)] if a > 1 else []) + ([(b + 1, n)] if b < n else [])
    tools = {"pdfedit": lambda d: [[pdfedit, "remove", f"{a}..{b}", src, "-o", f"{d}/out.pdf", "-q"]],
             "qpdf": lambda d: [["qpdf", src, "--pages", ".", qpdf_ranges(rest, n), "--", f"{d}/out.pdf"]]}
    if have["mutool"]:
        tools["mutool"] = mutool_merge(rest)
    ops["remove"] = (f"remove {a}..{b}", tools, lambda out: count_is(out, n - (b - a + 1))
                     or (same_text(out, a, b + 1) if b < n else same_text(out, 1, 1)))

    # split per page into a folder
    tools = {"pdfedit": lambda d: [[pdfedit, "export", "--split", f"{d}/parts", "--from", src, "-q"]],
             "qpdf": lambda d: [["mkdir", "-p", f"{d}/parts"],
                                ["qpdf", "--split-pages", src, f"{d}/parts/page-%d.pdf"]]}
    if have["mutool"]:
        tools["mutool"] = lambda d: [["mkdir", "-p", f"{d}/parts"], peers.mutool_burst + [src, f"{d}/parts"]]
    ops["split"] = ("split per page", tools, None)

    # merge the document with itself
    tools = {"pdfedit": lambda d: [[pdfedit, "insert", src, "--at", "last", src, "-o", f"{d}/out.pdf", "-q"]],
             "qpdf": lambda d: [["qpdf", src, "--pages", ".", src, "--", f"{d}/out.pdf"]]}
    if have["mutool"]:
        tools["mutool"] = lambda d: [["mutool", "merge", "-o", f"{d}/out.pdf", src, src]]
    ops["merge"] = ("merge with itself", tools, lambda out: count_is(out, 2 * n) or same_text(out, n + 1, 1)
                    or same_text(out, 2 * n, n))
    return ops


def split_files(scratch):
    folder = os.path.join(scratch, "parts")
    if not os.path.isdir(folder):
        return []
    return [os.path.join(folder, f) for f in sorted(os.listdir(folder), key=natural) if f.endswith(".pdf")]


def check_split(doc, scratch):
    files = split_files(scratch)
    if len(files) != doc.pages:
        return f"{len(files)} files, expected {doc.pages}", []
    sampled = sorted({1, (doc.pages + 1) // 2, doc.pages})
    for k in sampled:
        got = npages(files[k - 1])
        if got != 1:
            return f"{os.path.basename(files[k - 1])}: {got} pages, expected 1", []
        text = page_text(files[k - 1], 1)[:400]
        if text != doc.text(k):
            return f"{os.path.basename(files[k - 1])} reads {text[:40]!r}, expected page {k}'s", []
    return None, [files[k - 1] for k in sampled]


class Row:
    """One document and operation: samples per tool, failures, what the output kept."""

    def __init__(self, doc, op, title, tools, check):
        self.doc, self.op, self.title, self.tools, self.check = doc, op, title, tools, check
        self.samples = {tool: [] for tool in tools}  # (seconds, peak MB, cpu seconds)
        self.failed = {}
        self.kept = {}  # tool: (links, outlines)
        self.check_rc = {}
        self.phases = {}

    def median(self, tool, index=0):
        values = [s[index] for s in self.samples.get(tool, [])]
        return statistics.median(values) if values else None


def run_real(ctx):
    """Runs the real-document rows; returns (rows, docs, notes)."""
    folder = corpus_dir()
    notes = []
    if not os.path.isdir(folder):
        notes.append(f"**The corpus is absent** ({folder} not found): no real-document rows. It is looked for "
                     "beside the checkout, as ../shared/corpus (or BENCH_CORPUS).")
        print(f"bench: corpus not found at {folder}: real-document rows left out", flush=True)
        return [], [], notes
    for name, why in SKIPPED.items():
        notes.append(f"{name}: {why}.")
    names = QUICK_DOCS if ctx.quick else DOCS
    docs = []
    for name in names:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            notes.append(f"{name}: not in the corpus: left out.")
            continue
        docs.append(Doc(path))
    rows = []
    for doc in docs:
        for op, (title, tools, check) in operations(doc, ctx.pdfedit, ctx.peers, ctx.have).items():
            rows.append(Row(doc, op, title, tools, check))
    print(f"bench: {len(docs)} real documents ready ({time.perf_counter() - ctx.began:.0f} s)", flush=True)
    work = os.path.join(ctx.work, "real")
    os.makedirs(work)
    rounds = ctx.real_runs
    for round_ in range(rounds):
        for row in rows:
            for tool, make in row.tools.items():
                samples = row.samples[tool]
                # A slow peer runs fewer times; pdfedit and qpdf, whose ratio is the
                # row's target, always run every round (two samples of a 2 s row put
                # the tagged book's extract at 1.25x qpdf in one run, 0.74x when
                # interleaved five times).
                if tool in row.failed or (tool not in ("pdfedit", "qpdf") and round_ >= ctx.slow_runs and samples
                                          and statistics.median(s[0] for s in samples) > ctx.REAL_SLOW):
                    continue
                scratch = tempfile.mkdtemp(dir=work)
                try:
                    seconds, peak, cpu, _ = measure_full(make(scratch), cwd=scratch)
                    problem = verify(row, tool, scratch, first=not samples)
                except ToolFailed as failure:
                    problem = str(failure)
                if problem:
                    row.failed[tool] = problem
                    ctx.fail(f"real {row.doc.name} {row.op}: {tool}: {problem}")
                else:
                    samples.append((seconds, peak, cpu))
                shutil.rmtree(scratch)
        print(f"bench: real documents, round {round_ + 1}/{rounds} done ({time.perf_counter() - ctx.began:.0f} s)",
              flush=True)
    # Where the time goes: extra runs with PDFEDIT_TIMING=1, not among the timed ones.
    for row in rows:
        if "pdfedit" in row.failed:
            continue
        row.phases = phases_of(row.tools["pdfedit"], work, 1)
    return rows, docs, notes


def verify(row, tool, scratch, first):
    """The row's checks on this output; on a tool's first run also qpdf --check and
    what it kept. A problem or None."""
    doc = row.doc
    if row.op == "split":
        problem, checked = check_split(doc, scratch)
        outputs = checked
    else:
        out = os.path.join(scratch, "out.pdf")
        problem = row.check(out)
        outputs = [out]
    if problem or not first:
        return problem
    allowed = (0, 3) if doc.check_rc == 3 else (0,)
    # qpdf --check reads every object (2.7 s CPU for one output of the linearized
    # document): pdfedit's outputs only, the peers' are their own business.
    for out in outputs if tool == "pdfedit" else []:
        code = qpdf_check(out)
        row.check_rc[tool] = max(row.check_rc.get(tool, 0), code)
        if code not in allowed:
            return f"qpdf --check exits {code} on {os.path.basename(out)} (the input: {doc.check_rc})"
    if row.op != "split":
        row.kept[tool] = links_and_outlines(outputs[0])
    return None
