#!/usr/bin/env python3
"""make bench: pdfedit against qpdf, mutool, pdftk, poppler, pypdf and pikepdf,
side by side in one run, interleaved.

Writes BENCHMARKS.md (medians, min-max, CPU time, peak memory, ratios to qpdf and
to the fastest other tool, every target met or missed), a chart of time against
page count (docs/bench-scaling.png) and one of the real documents' ratios to qpdf
(docs/bench-real.png). Every output of every tool is checked with independent
tools (qpdf, pdfinfo, pdftotext), so a fast wrong answer cannot pass as a result:
a wrong output marks its row FAILED and the benchmark exits non-zero.

The rows (benchlib/):
- small.py: one edit of a 20-page file in direct mode, and `--version`: start-up.
- real.py: real documents from ../shared/corpus (beside the checkout; the rows
  are left out, with a note, when it is absent): reorder, rotate even, extract,
  remove, split per page, merge, against qpdf and mutool.
- generated.py: generated inputs, the same bytes everywhere (20,000-page reorder,
  extract, rotate, 10×2,000 merge, 2,000-page burst, edit script, sessions, image
  PDF, scaling, batches) and the `apply` rows (bench_apply.py).
- report.py, report_real.py: BENCHMARKS.md, its targets and the charts; "Where the
  time goes" from pdfedit's PDFEDIT_TIMING=1 phase times.
- size.py: "Smaller files": `optimize` against qpdf's best lossless rewrite on
  the corpus and merges of it, `optimize --images 150` against Ghostscript's
  /ebook on its image-heavy files (`--only size` replaces that section alone).
Tools that are not installed are left out with a note (scripts/bench-setup.sh
installs them all). Work files go to a RAM disk (/dev/shm) when there is one.

usage: bench.py PDFEDIT_BIN [--quick] [--runs N] [--out BENCHMARKS.md]
                [--chart docs/bench-scaling.png] [--real-chart docs/bench-real.png]
                [--pages 20000] [--only apply|small|real|size]
--quick: smaller inputs, fewer documents and runs, a smoke test of the whole
benchmark (a few minutes); its numbers are not the ones to quote.
--only apply: only the rows of `apply`, printed, BENCHMARKS.md left as it is
(`make bench-apply`); --only small / --only real: only those rows, written to --out;
--only size: the "Smaller files" section, replaced in --out, the rest kept (`make bench-size`).
"""
import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from types import SimpleNamespace

sys.dont_write_bytecode = True  # no __pycache__ folders in the checkout
import bench_apply  # noqa: E402
from benchlib import peers as peer_programs  # noqa: E402
from benchlib.generated import run_generated  # noqa: E402
from benchlib.measure import measure  # noqa: E402
from benchlib.real import run_real  # noqa: E402
from benchlib.report import generated_report, versions  # noqa: E402
from benchlib.report_real import phases_report, real_report, small_report  # noqa: E402
from benchlib.size import run_size  # noqa: E402
from benchlib.small import run_small  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pdfedit")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=None, help="runs per tool (slow peers: at most 2)")
    parser.add_argument("--pages", type=int, default=None, help="pages of the big text PDF")
    parser.add_argument("--out", default=os.path.join(REPO, "BENCHMARKS.md"))
    parser.add_argument("--chart", default=os.path.join(REPO, "docs", "bench-scaling.png"))
    parser.add_argument("--real-chart", default=os.path.join(REPO, "docs", "bench-real.png"))
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--only", choices=["apply", "small", "real", "size"], help="run only these rows")
    args = parser.parse_args()
    quick = args.quick
    runs = args.runs or (2 if quick else 5)
    ram = "/dev/shm"
    base = ram if os.path.isdir(ram) and shutil.disk_usage(ram).free > 4e9 else None
    work = tempfile.mkdtemp(prefix="pdfedit-bench-", dir=base)
    failures = []

    def fail(message):
        failures.append(message)
        print(f"bench: FAILED: {message}", flush=True)

    ctx = SimpleNamespace(args=args, quick=quick, runs=runs, slow_runs=1 if quick else 2, SLOW=4.0, REAL_SLOW=2.0,
                          real_runs=args.runs or (1 if quick else 5), small_runs=10 if quick else 40,
                          pdfedit=os.path.abspath(args.pdfedit), work=work, began=time.perf_counter(),
                          ram=base is not None, fail=fail, failures=failures)
    try:
        if args.only == "apply":
            section, targets = bench_apply.run_rows(ctx.pdfedit, work, quick, runs, measure)
            print(section + "\n" + "\n".join(targets))
            return
        for needed in ("qpdf", "pdftotext", "pdfinfo"):
            if shutil.which(needed) is None:
                sys.exit(f"bench: {needed} is needed to check outputs; run scripts/bench-setup.sh")
        if args.only == "size":
            _, section = run_size(ctx)
            replace_section(args.out, "## Smaller files", section)
            print(section)
            return
        ctx.have = peer_programs.detect()
        ctx.peers = peer_programs.Peers(work)
        report = write_report(ctx)
        print(report)
    finally:
        if args.keep:
            print(f"bench: work folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("bench: FAILED rows (wrong output or a tool's error):\n  " + "\n  ".join(failures), file=sys.stderr)
        sys.exit(1)


def replace_section(path, heading, section):
    """Puts `section` in place of the one under `heading` in the file at `path`
    (to the next heading of the same level, or the end), or at its end."""
    with open(path) as f:
        text = f.read()
    start = text.find(heading)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + len(heading))
        text = text[:start] + section.rstrip("\n") + "\n" + (text[end:] if end >= 0 else "")
    with open(path, "w") as f:
        f.write(text)


def cpu_model():
    """The processor's name as /proc/cpuinfo gives it (runs on different hosts differ)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or "processor unknown"


def write_report(ctx):
    only = ctx.args.only
    series, have_hello = run_small(ctx) if only in (None, "small") else ([], False)
    rows, docs, notes = run_real(ctx) if only in (None, "real") else ([], [], [])
    generated = run_generated(ctx) if only is None else None
    size = run_size(ctx) if only is None else None

    targets, sections = [], []
    if only in (None, "small"):
        small_targets, text = small_report(series, have_hello)
        targets += small_targets
        sections.append(text)
    if only in (None, "real"):
        real_targets, text = real_report(rows, docs, notes, ctx)
        targets += real_targets
        sections.append(text)
    sections.append(phases_report(rows, series))
    if generated:
        generated_targets, text = generated_report(generated, ctx)
        targets += generated_targets
        sections.append(text)
    if size:
        targets += size[0]
        sections.append(size[1])
    elapsed = time.perf_counter() - ctx.began
    missing = [name for name, ok in ctx.have.items() if not ok]
    failed = "\n".join(f"- **FAILED**: {f}" for f in ctx.failures)
    cores = os.cpu_count() or 1
    cpu = cpu_model()
    nl = "\n"
    report = f"""# Benchmarks

Generated by `make bench` (`scripts/bench.py`{' --quick' if ctx.quick else ''}{' --only ' + only if only else ''})
on {platform.node()}, {cores} cores ({cpu}), {platform.machine()}, in {elapsed / 60:.1f} minutes. Tools run
interleaved, round after round; medians and min–max, CPU time (user+sys) where shown, peak memory
(maximum resident set) of the largest process as GNU time reports it (a child's `wait4` rusage
would count the Python parent's memory). Every output of every tool was checked with independent tools
(qpdf, pdfinfo, pdftotext); a wrong output marks its row FAILED. Times depend on the host (on
a slower virtual machine qpdf itself ran 1.3× longer and started 1.9× slower): compare ratios
within one run, not seconds across runs. Work files on
{'a RAM disk (/dev/shm)' if ctx.ram else 'the temporary folder'}. Missing tools: {', '.join(missing) or 'none'}.

Versions: {'; '.join(versions(ctx))}.
{(nl + failed + nl) if failed else ''}
## Targets

| target | measured | |
|---|---|---|
{nl.join(targets)}

{nl.join(sections)}"""
    with open(ctx.args.out, "w") as f:
        f.write(report)
    return report


if __name__ == "__main__":
    main()
