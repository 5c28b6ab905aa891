"""The start-up rows of `make bench`: one edit of a 20-page file in direct mode
(`rotate 2 --by 90` and `move 3..5 --to 1`) against qpdf doing the same, and
`pdfedit --version` against `qpdf --version` and a Swift hello world compiled on
the fly with `swiftc -O` (the floor of a Swift program's start-up). The rotate
row also times scripts/bench-floor's two programs, the least that make that edit
with pdfedit's stack (static Swift runtime, FoundationEssentials, ArgumentParser,
libqpdf), the floor of the small-file target, and the same without
ArgumentParser and Foundation, which tells what the parser costs. These take
5-30 ms, so they run many times, interleaved.
"""
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from benchlib.measure import ToolFailed, measure_full, npages, page_rotation, page_token, phases_of, run

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Series:
    """Samples (seconds, peak MB, cpu seconds) per tool of one small case."""

    def __init__(self, key, title, tools, check):
        self.key, self.title, self.tools, self.check = key, title, tools, check
        self.samples = {tool: [] for tool in tools}
        self.failed = {}
        self.phases = {}

    def median(self, tool, index=0):
        values = [s[index] for s in self.samples.get(tool, [])]
        return statistics.median(values) if values else None

    def minimum(self, tool, index=0):
        values = [s[index] for s in self.samples.get(tool, [])]
        return min(values) if values else None


def hello_world(work):
    """A Swift hello world built with swiftc -O, or None when swiftc is missing or fails."""
    swiftc = shutil.which("swiftc")
    if not swiftc:
        return None
    source = os.path.join(work, "hello.swift")
    with open(source, "w") as f:
        f.write('print("hello")\n')
    binary = os.path.join(work, "hello")
    done = subprocess.run([swiftc, "-O", source, "-o", binary], capture_output=True, cwd=work)
    return binary if done.returncode == 0 and os.path.isfile(binary) else None


FLOOR = "floor (scripts/bench-floor)"
BARE_FLOOR = "floor-bare (scripts/bench-floor)"


def stack_floor(work):
    """scripts/bench-floor's programs built as pdfedit's release is
    (scripts/build-release.sh: --static-swift-stdlib and its flags): {row name:
    binary}, empty when they cannot be built."""
    swift = shutil.which("swift")
    if not swift:
        return {}
    layout = subprocess.run(["bash", os.path.join(SCRIPTS, "build-release.sh"), "--print-flags"],
                            capture_output=True, text=True)
    if layout.returncode != 0:
        return {}
    build = os.path.join(work, "floor-build")
    done = subprocess.run([swift, "build", "-c", "release", "--static-swift-stdlib", *layout.stdout.split(),
                           "--package-path", os.path.join(SCRIPTS, "bench-floor"), "--scratch-path", build],
                          capture_output=True, cwd=work)
    if done.returncode != 0:
        return {}
    binaries = {FLOOR: os.path.join(build, "release", "floor"),
                BARE_FLOOR: os.path.join(build, "release", "floor-bare")}
    return {name: binary for name, binary in binaries.items() if os.path.isfile(binary)}


def run_small(ctx):
    """Runs the small-file and version rows; returns a list of Series."""
    work = os.path.join(ctx.work, "small")
    os.makedirs(work)
    doc = os.path.join(work, "doc20.pdf")
    run([ctx.peers.python, os.path.join(SCRIPTS, "make-big-pdf.py"), "20", doc])
    pdfedit = ctx.pdfedit

    def rotated(d):
        out = f"{d}/out.pdf"
        if npages(out) != 20:
            return f"{npages(out)} pages, expected 20"
        got = [page_rotation(out, p) for p in (1, 2, 3)]
        return None if got == [0, 90, 0] else f"pages 1-3 rotated {got}, expected [0, 90, 0]"

    def moved(d):
        out = f"{d}/out.pdf"
        if npages(out) != 20:
            return f"{npages(out)} pages, expected 20"
        got = [page_token(out, p) for p in (1, 4, 6)]
        return None if got == ["BIG-P3", "BIG-P1", "BIG-P6"] else f"pages 1, 4, 6 read {got}"

    rotate_tools = {
        "pdfedit": lambda d: [[pdfedit, "rotate", "2", "--by", "90", doc, "-o", f"{d}/out.pdf", "-q"]],
        "qpdf": lambda d: [["qpdf", doc, "--rotate=+90:2", f"{d}/out.pdf"]]}
    for name, floor in stack_floor(work).items():
        rotate_tools[name] = (lambda binary: lambda d: [[binary, "rotate", "2", "--by", "90", doc, "-o",
                                                         f"{d}/out.pdf", "-q"]])(floor)
    series = [
        Series("rotate", "20-page file: rotate 2 --by 90", rotate_tools, rotated),
        Series("move", "20-page file: move 3..5 --to 1", {
            "pdfedit": lambda d: [[pdfedit, "move", "3..5", "--to", "1", doc, "-o", f"{d}/out.pdf", "-q"]],
            "qpdf": lambda d: [["qpdf", doc, "--pages", ".", "3-5,1-2,6-z", "--", f"{d}/out.pdf"]]}, moved),
    ]
    version_tools = {"pdfedit": lambda d: [[pdfedit, "--version"]], "qpdf": lambda d: [["qpdf", "--version"]]}
    hello = hello_world(work)
    if hello:
        version_tools["Swift hello world (swiftc -O)"] = lambda d: [[hello]]
    series.append(Series("version", "--version (start-up)", version_tools, None))
    rounds = ctx.small_runs
    for _ in range(rounds):
        for entry in series:
            for tool, make in entry.tools.items():
                if tool in entry.failed:
                    continue
                scratch = tempfile.mkdtemp(dir=work)
                again = tempfile.mkdtemp(dir=work)
                try:
                    seconds, _, cpu, _ = measure_full(make(scratch), cwd=scratch, peak=False)
                    problem = entry.check(scratch) if entry.check else None
                    peak = measure_full(make(again), cwd=again)[1]  # under GNU time, for the peak only
                except ToolFailed as failure:
                    problem = str(failure)
                shutil.rmtree(again)
                if problem:
                    entry.failed[tool] = problem
                    ctx.fail(f"small {entry.key}: {tool}: {problem}")
                else:
                    entry.samples[tool].append((seconds, peak, cpu))
                shutil.rmtree(scratch)
    for entry in series:
        if entry.key != "version" and "pdfedit" not in entry.failed:
            entry.phases = phases_of(entry.tools["pdfedit"], work, 3)
    print(f"bench: small-file and start-up rows done ({time.perf_counter() - ctx.began:.0f} s)", flush=True)
    return series, hello is not None
