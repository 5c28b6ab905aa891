#!/usr/bin/env python3
"""make bench: pdfedit against qpdf, side by side in one run, interleaved.

Writes BENCHMARKS.md (medians, min–max, peak memory, ratios). Each output is
checked with independent tools (pdftotext page order, qpdf --show-npages) so a
fast wrong answer cannot pass as a result.

usage: bench.py PDFEDIT_BIN [--pages 20000] [--runs 5] [--out BENCHMARKS.md]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(argv, cwd, env=None):
    """Runs argv; returns (seconds, peak RSS in MB). Fails loudly on a non-zero exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):  # qpdf exits 3 on warnings
        sys.exit(f"bench: {' '.join(argv)} failed ({code}): {err.strip()}")
    return elapsed, usage.ru_maxrss / 1024


def page_token(pdf, page):
    text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"],
                          capture_output=True, text=True).stdout
    return text.split()[0] if text.split() else "?"


def npages(pdf):
    return int(subprocess.run(["qpdf", "--show-npages", pdf], capture_output=True, text=True).stdout)


class Case:
    def __init__(self, name, tools, check):
        self.name = name
        self.tools = tools  # list of (label, prepare(dir) -> argv)
        self.check = check  # function(out_path) -> error or None
        self.samples = {label: [] for label, _ in tools}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pdfedit")
    parser.add_argument("--pages", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", default="BENCHMARKS.md")
    args = parser.parse_args()
    pdfedit = os.path.abspath(args.pdfedit)
    work = tempfile.mkdtemp(prefix="pdfedit-bench-")
    big = os.path.join(work, "big.pdf")
    subprocess.run([sys.executable, os.path.join(HERE, "make-big-pdf.py"), str(args.pages), big], check=True)
    session_dir = os.path.join(work, "session")
    os.makedirs(session_dir)
    shutil.copy(big, os.path.join(session_dir, "big.pdf"))
    subprocess.run([pdfedit, "open", "big.pdf", "-q"], cwd=session_dir, check=True)
    n = args.pages

    def expect_order(first):
        def check(out):
            if npages(out) != n:
                return f"page count {npages(out)} != {n}"
            got = [page_token(out, p) for p in (1, 2, 3, 4, 5, 6)]
            want = [f"BIG-P{p}" for p in first]
            return None if got == want else f"order {got} != {want}"
        return check

    edit = Case(
        "edit: move 3..5 --to 1 (then undo)",
        [
            ("pdfedit session edit", lambda d: [pdfedit, "move", "3..5", "--to", "1", "-q"]),
            ("qpdf --empty --pages rewrite", lambda d: ["qpdf", "--empty", "--pages", big, "3-5,1-2,6-z", "--",
                                                         os.path.join(d, "q.pdf")]),
        ],
        None,
    )
    export = Case(
        f"export of a reorder of {n} pages",
        [
            ("pdfedit export", lambda d: [pdfedit, "export", os.path.join(d, "e.pdf"), "--force", "-q"]),
            ("qpdf --empty --pages", lambda d: ["qpdf", "--empty", "--pages", big, "3-5,1-2,6-z", "--",
                                                os.path.join(d, "q.pdf")]),
        ],
        None,
    )
    results = []
    for round_ in range(args.runs):
        for case in (edit, export):
            for label, make in case.tools:  # interleaved: every tool once per round
                scratch = tempfile.mkdtemp(dir=work)
                if case is export and label.startswith("pdfedit") and round_ == 0:
                    subprocess.run([pdfedit, "move", "3..5", "--to", "1", "-q"], cwd=session_dir, check=True)
                seconds, rss = measure(make(scratch), cwd=session_dir)
                case.samples[label].append((seconds, rss))
                if case is edit and label.startswith("pdfedit"):
                    subprocess.run([pdfedit, "undo", "-q"], cwd=session_dir, check=True)
                outs = [os.path.join(scratch, f) for f in os.listdir(scratch)]
                if case is export and outs:
                    problem = expect_order([3, 4, 5, 1, 2, 6])(outs[0])
                    if problem:
                        sys.exit(f"bench: {label}: wrong output: {problem}")
                shutil.rmtree(scratch)

    # Session file size after 100 history steps on the big document.
    steps_dir = os.path.join(work, "steps")
    os.makedirs(steps_dir)
    shutil.copy(big, os.path.join(steps_dir, "big.pdf"))
    subprocess.run([pdfedit, "open", "big.pdf", "-q"], cwd=steps_dir, check=True)
    script = "".join(
        f"move {(i * 37) % (n - 10) + 1}..{(i * 37) % (n - 10) + 3} --to {(i * 101) % (n - 10) + 1}\n"
        if i % 2 == 0 else f"rotate {(i * 53) % n + 1} --by 90\n"
        for i in range(100)
    )
    for line in script.splitlines():
        subprocess.run([pdfedit] + line.split() + ["-q"], cwd=steps_dir, check=True)
    session_size = os.path.getsize(os.path.join(steps_dir, ".pdfedit", "session.json"))

    def row(case):
        lines = [f"### {case.name}", "", "| tool | median s | min–max s | peak MB | ratio to qpdf |", "|---|---|---|---|---|"]
        medians = {label: statistics.median(s for s, _ in samples) for label, samples in case.samples.items()}
        qpdf_label = [label for label in medians if label.startswith("qpdf")][0]
        for label, samples in case.samples.items():
            times = [s for s, _ in samples]
            rss = max(m for _, m in samples)
            lines.append(
                f"| {label} | {medians[label]:.3f} | {min(times):.3f}–{max(times):.3f} | {rss:.0f} | "
                f"{medians[label] / medians[qpdf_label]:.3f} |"
            )
        return "\n".join(lines), medians

    edit_table, edit_medians = row(edit)
    export_table, _ = row(export)
    ratio = edit_medians["pdfedit session edit"] / edit_medians["qpdf --empty --pages rewrite"]
    report = f"""# Benchmarks

Generated by `make bench` ({args.runs} interleaved runs, medians) on {os.uname().nodename},
{os.cpu_count()} cores, with a generated {n}-page text PDF ({os.path.getsize(big) / 1e6:.1f} MB).
Each output was checked with pdftotext (page order) and qpdf (page count).

{edit_table}

An edit in a session costs **{ratio * 100:.1f}%** of rewriting the file with qpdf
(target: under 5%): sessions edit items, not PDFs.

{export_table}

Session file for a {n}-page document after 100 history steps (50 moves, 50
rotations, each its own command): **{session_size / 1e3:.0f} KB** (target: under 5 MB).
"""
    with open(args.out, "w") as f:
        f.write(report)
    print(report)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
