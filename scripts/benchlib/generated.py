"""The generated rows of `make bench`: text PDFs of 2,000 and 20,000 pages
(make-big-pdf.py), ten 2,000-page files that can be told apart after a merge, an
image PDF (make-image-pdf.py) and 200 small documents; the same bytes on every
machine. Reorder, extract, rotate, merge, burst and a ten-command edit script
against every peer, sessions, memory against image data, scaling and batches.
"""
import os
import shutil
import statistics
import sys
import tempfile
import time
from types import SimpleNamespace

import bench_apply
from benchlib.measure import Case, ToolFailed, measure, natural, npages, page_rotation, page_token, run

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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


def run_generated(ctx):
    """Runs every generated row; returns what the report needs (a namespace)."""
    quick, runs, pdfedit, work, began, have = ctx.quick, ctx.runs, ctx.pdfedit, ctx.work, ctx.began, ctx.have
    slow_runs, SLOW = ctx.slow_runs, ctx.SLOW
    big_pages = ctx.args.pages or (2000 if quick else 20000)
    small_pages = 200 if quick else 2000
    merge_files = 10
    extract_first = big_pages // 20
    extract_last = extract_first + 50
    scaling = [250, 500, 1000, 2000] if quick else [1000, 5000, 10000, 20000]
    scaling_runs = 1 if quick else 3
    batch_docs = 40 if quick else 200
    image_pages = 8 if quick else 40
    inputs = os.path.join(work, "in")
    os.makedirs(inputs, exist_ok=True)
    py = ctx.peers.python
    peer_pikepdf, peer_pypdf = ctx.peers.pikepdf, ctx.peers.pypdf

    # Inputs --------------------------------------------------------------
    def make_text(pages, path, label="BIG"):
        run([py, os.path.join(SCRIPTS, "make-big-pdf.py"), str(pages), path, label])
        return path

    big = make_text(big_pages, os.path.join(inputs, "big.pdf"))
    small = make_text(small_pages, os.path.join(inputs, "small.pdf"))
    parts = [make_text(small_pages, os.path.join(inputs, f"m{k:02d}.pdf"), f"M{k:02d}")
             for k in range(1, merge_files + 1)]
    image = os.path.join(inputs, "images.pdf")
    run([py, os.path.join(SCRIPTS, "make-image-pdf.py"), str(image_pages), image])
    # The image PDF's twin without images: as many pages of text.
    image_twin = make_text(image_pages, os.path.join(inputs, "image-twin.pdf"), "TWIN")
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
        rotate.add("mutool run (JS)", lambda d: [["mutool", "run", ctx.peers.mutool_rotate[2], big, f"{d}/out.pdf"]])
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
                                                ["mutool", "run", ctx.peers.mutool_burst[2], small, f"{d}/parts"]])
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
                if label in case.failed or \
                        round_ >= slow_runs and samples and statistics.median(s for s, _ in samples) > SLOW:
                    continue
                scratch = tempfile.mkdtemp(dir=work)
                commands = make(scratch)
                try:
                    seconds, rss = measure(commands, cwd=scratch)
                    problem = case.check(scratch)
                except ToolFailed as failure:
                    problem = str(failure)
                if problem:
                    case.failed[label] = problem
                    ctx.fail(f"{case.key}: {label}: wrong output: {problem}")
                else:
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
    # What the same move costs without image data: on the twin text PDF of as many
    # pages (the runtime, libqpdf and the other libraries it loads, the pages'
    # objects). `--version` was the baseline while pdfedit linked libqpdf; it now
    # starts without it (loaded on first use), 4 MB less than any command that
    # opens a PDF.
    baseline = []
    for _ in range(3):
        scratch = tempfile.mkdtemp(dir=work)
        baseline.append(measure([[pdfedit, "move", "3..5", "--to", "1", image_twin, "-o", f"{scratch}/out.pdf", "-q"]],
                                scratch))
        problem = expect(f"{scratch}/out.pdf", image_pages, {1: ("TWIN-P3", None), 4: ("TWIN-P1", None)})
        if problem:
            sys.exit(f"bench: image twin reorder: wrong output: {problem}")
        shutil.rmtree(scratch)

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
    return SimpleNamespace(**{k: v for k, v in locals().items() if k not in ("ctx",)})
