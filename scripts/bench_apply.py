"""The `apply` rows of `make bench` (issue 16): one pdfedit process editing many
small files against one qpdf process per file under `xargs -P 2`.

- 200 documents of 20 pages, `rotate 1 --by 90`: `pdfedit apply -e LINE FILES -o
  TEMPLATE` (all cores) against `xargs -P 2 qpdf --rotate=+90:1 IN OUT` (the fair
  equivalent) and `xargs -P 2 qpdf --empty --pages IN 1-z -- OUT --rotate=+90:1`,
  and against one pdfedit process per file (`xargs -P 2 pdfedit rotate …`);
  target: apply at most 0.5x the qpdf time.
- throughput (files/s) and peak memory of `apply` for 200 and 2,000 documents
  (the peak of the largest process, `wait4` rusage, which covers xargs' children).

The documents are made by scripts/bench-setup.sh from the fixtures with qpdf
(.build/bench-apply/) and copied to the work folder. Every output is checked:
sampled files for page count (qpdf), rotation (pdfinfo) and first page (pdftotext).
"""
import os
import re
import shutil
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.environ.get("BENCH_APPLY_INPUTS", os.path.join(os.path.dirname(HERE), ".build", "bench-apply"))


def output_problem(pdf, count, samples):
    """Page count (qpdf), and for each sampled page its token and rotation
    (pdftotext, pdfinfo); the fixtures' pages carry the token (ALPHA-P1) after
    other words, so the first word shaped like one is taken. A problem or None."""
    pages = subprocess.run(["qpdf", "--show-npages", pdf], capture_output=True, text=True).stdout.strip()
    if pages != str(count):
        return f"{os.path.basename(pdf)}: {pages or '?'} pages, expected {count}"
    for page, (token, rotation) in samples.items():
        text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"],
                              capture_output=True, text=True).stdout
        found = next((w for w in text.split() if re.fullmatch(r"[A-Z]+-P\d+", w)), "?")
        info = subprocess.run(["pdfinfo", "-f", str(page), "-l", str(page), pdf], capture_output=True, text=True).stdout
        turned = re.search(r"Page\s+%d rot:\s+(\d+)" % page, info)
        if found != token or not turned or int(turned.group(1)) != rotation:
            return f"{os.path.basename(pdf)} page {page}: {found} rotated {turned and turned.group(1)}, " \
                   f"expected {token} rotated {rotation}"
    return None


def run_rows(pdfedit, work, quick, runs, measure):
    """Returns (markdown section, target rows). `measure` is bench.py's."""
    counts = (200, 2000)
    if not os.path.isfile(os.path.join(INPUTS, f"doc-{counts[-1]:04d}.pdf")):
        raise SystemExit(f"bench: {INPUTS} lacks the apply inputs; run scripts/bench-setup.sh")
    cores = os.cpu_count() or 1
    folder = os.path.join(work, "apply")
    os.makedirs(folder)
    names = {}
    for count in counts:
        os.makedirs(os.path.join(folder, f"in{count}"))
        names[count] = [f"doc-{k:04d}.pdf" for k in range(1, count + 1)]
        for name in names[count]:
            shutil.copy(os.path.join(INPUTS, name), os.path.join(folder, f"in{count}", name))
        with open(os.path.join(folder, f"list{count}.txt"), "w") as f:
            f.write("".join(name + "\n" for name in names[count]))

    def check(out, count):
        for name in names[count][:: max(1, count // 10)] + [names[count][-1]]:
            problem = output_problem(os.path.join(out, name), 20, {1: ("ALPHA-P1", 90), 2: ("ALPHA-P2", 0),
                                                                    8: ("BETA-P1", 0)})
            if problem:
                return problem
        return None

    def tools(count):
        src = f"in{count}"
        listing = f"list{count}.txt"
        return [
            ("pdfedit apply", lambda out: [[pdfedit, "apply", "-e", "rotate 1 --by 90"]
                                           + [f"{src}/{n}" for n in names[count]] + ["-o", f"{out}/{{name}}", "-q"]]),
            ("xargs -P 2 qpdf --rotate", lambda out: [["xargs", "-a", listing, "-P", "2", "-I", "{}", "qpdf",
                                                       "--rotate=+90:1", f"{src}/{{}}", f"{out}/{{}}"]]),
            ("xargs -P 2 qpdf --empty --pages", lambda out: [["xargs", "-a", listing, "-P", "2", "-I", "{}", "qpdf",
                                                              "--empty", "--pages", f"{src}/{{}}", "1-z", "--",
                                                              f"{out}/{{}}", "--rotate=+90:1"]]),
            ("xargs -P 2 pdfedit rotate", lambda out: [["xargs", "-a", listing, "-P", "2", "-I", "{}", pdfedit,
                                                        "rotate", "1", "--by", "90", f"{src}/{{}}", "-o",
                                                        f"{out}/{{}}", "-q"]]),
        ]

    samples = {count: {label: [] for label, _ in tools(count)} for count in counts}
    for count in counts:
        rounds = runs if count == counts[0] else (1 if quick else 2)
        for _ in range(rounds):
            for label, make in tools(count):
                # One pdfedit process per file is context, not a target: measured on 200 only.
                if count != counts[0] and label == "xargs -P 2 pdfedit rotate":
                    continue
                out = tempfile.mkdtemp(dir=folder)
                seconds, rss = measure(make(out), cwd=folder)
                problem = check(out, count)
                if problem:
                    raise SystemExit(f"bench: apply {count}: {label}: wrong output: {problem}")
                samples[count][label].append((seconds, rss))
                shutil.rmtree(out)
        print(f"bench: apply rows for {count} documents done", flush=True)

    def med(entries):
        return statistics.median(s for s, _ in entries)

    lines = ["| documents | tool | median s | min–max s | runs | files/s | peak MB | × xargs qpdf --rotate |",
             "|---|---|---|---|---|---|---|---|"]
    ratios = {}
    for count in counts:
        q = med(samples[count]["xargs -P 2 qpdf --rotate"])
        for label, entries in sorted(samples[count].items(), key=lambda kv: med(kv[1]) if kv[1] else 1e9):
            if not entries:
                continue
            times = [s for s, _ in entries]
            m = med(entries)
            ratios[(count, label)] = m / q
            name = f"**{label}**" if label == "pdfedit apply" else label
            lines.append(f"| {count} | {name} | {m:.3f} | {min(times):.3f}–{max(times):.3f} | {len(times)} | "
                         f"{count / m:.0f} | {max(r for _, r in entries):.0f} | {m / q:.2f} |")
    mine = ratios[(counts[0], "pdfedit apply")]
    empty = med(samples[counts[0]]["pdfedit apply"]) / med(samples[counts[0]]["xargs -P 2 qpdf --empty --pages"])
    peak = {count: max(r for _, r in samples[count]["pdfedit apply"]) for count in counts}
    verdict = "met" if mine <= 0.5 else "**missed**"
    targets = [
        f"| apply: {counts[0]} files × 20 pages vs xargs -P 2 qpdf --rotate=+90:1 ≤ 0.5 | {mine:.2f} | {verdict} |",
        f"| apply: {counts[0]} files vs xargs -P 2 qpdf --empty --pages (reported) | {empty:.2f} | — |",
        f"| apply: peak memory, {counts[0]} vs {counts[1]} files (bounded) | {peak[counts[0]]:.0f} / "
        f"{peak[counts[1]]:.0f} MB | {'met' if peak[counts[1]] <= peak[counts[0]] * 1.25 else '**missed**'} |",
    ]
    section = f"""## Many small files in one process: `apply`

`rotate 1 --by 90` on documents of 20 pages (made from the fixtures with qpdf),
`pdfedit apply -e 'rotate 1 --by 90' FILES -o out/{{name}}` on all {cores} cores, against one
process per file under `xargs -P 2`. “× xargs qpdf --rotate” divides by `qpdf --rotate=+90:1 IN OUT`'s
median for the same documents (below 1: faster). Peak memory is that of the largest process.

{chr(10).join(lines)}
"""
    return section, targets
