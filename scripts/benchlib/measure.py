"""Running, measuring and checking: what every row of `make bench` shares.

measure() runs commands and reads their peak memory from `wait4` rusage; the
check helpers ask independent tools (qpdf, pdfinfo, pdftotext) about an output,
never pdfedit itself.
"""
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time


class ToolFailed(Exception):
    """A measured command exited with an error (qpdf's 3, a warning, is not one)."""


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def _run_one(argv, cwd, env, peak_file):
    """Runs one argv; returns (peak MB or None, cpu seconds, stderr). With GNU time
    (peak_file set), the peak is the tool's own: `wait4`'s ru_maxrss of a child
    started by Python counts Python's memory too (vfork, then exec keeps the high
    water mark), so a 5 MB tool would read as Python's 15-40 MB."""
    if peak_file:
        argv = [GNU_TIME, "-f", "%M", "-o", peak_file] + argv
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):
        raise ToolFailed(f"{' '.join(argv)} failed ({code}): {err.strip()[:2000]}")
    peak = None
    if peak_file:
        with open(peak_file) as f:
            lines = f.read().split()
        peak = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else None
    if peak is None:
        peak = usage.ru_maxrss / 1024
    return peak, usage.ru_utime + usage.ru_stime, err


def measure_full(commands, cwd, env=None, peak=True):
    """Runs each argv of `commands` in turn; returns (wall seconds, peak RSS in MB
    of the largest process, user+sys CPU seconds, stderr text). Raises ToolFailed
    on a non-zero exit other than qpdf's 3. The peak comes from GNU time, which adds
    a fork and an exec (about 1-2 ms) to the wall time: commands of a few ms are
    timed with peak=False (no GNU time; the peak returned is then wait4's, which
    counts Python's own memory) and run again for their peak."""
    peak_file = os.path.join(cwd, ".bench-peak") if GNU_TIME and peak else None
    start = time.perf_counter()
    highest = 0.0
    cpu = 0.0
    errors = []
    for argv in commands:
        one_peak, one_cpu, err = _run_one(argv, cwd, env, peak_file)
        highest = max(highest, one_peak)
        cpu += one_cpu
        errors.append(err)
    seconds = time.perf_counter() - start
    if peak_file and os.path.exists(peak_file):
        os.unlink(peak_file)
    return seconds, highest, cpu, "".join(errors)


def measure(commands, cwd, env=None):
    """measure_full's (seconds, peak MB), the pair the generated rows and bench_apply use."""
    seconds, peak, _, _ = measure_full(commands, cwd, env)
    return seconds, peak


def run(argv, cwd=None, check=True):
    return subprocess.run(argv, cwd=cwd, check=check, capture_output=True, text=True)


def tool_version(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    text = (out.stdout + out.stderr).strip().splitlines()
    return text[0].strip() if text else "?"


def has_module(name):
    return importlib.util.find_spec(name) is not None


def natural(name):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def median(values):
    values = list(values)
    return statistics.median(values) if values else None


# ---------------------------------------------------------------------------
# Independent checks


def npages(pdf):
    out = run(["qpdf", "--show-npages", pdf], check=False).stdout.strip()
    return int(out) if out.isdigit() else -1


def page_text(pdf, page):
    """pdftotext of one page, words joined by single spaces."""
    text = run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"], check=False).stdout
    return " ".join(text.split())


def page_token(pdf, page):
    text = page_text(pdf, page).split()
    return text[0] if text else "?"


def page_rotation(pdf, page):
    info = run(["pdfinfo", "-f", str(page), "-l", str(page), pdf], check=False).stdout
    found = re.search(r"Page\s+%d rot:\s+(\d+)" % page, info)
    return int(found.group(1)) if found else -1


def rotations(pdf, count):
    """Every page's rotation by pdfinfo, {page: degrees}."""
    info = run(["pdfinfo", "-f", "1", "-l", str(count), pdf], check=False).stdout
    return {int(p): int(r) for p, r in re.findall(r"Page\s+(\d+) rot:\s+(\d+)", info)}


def qpdf_check(pdf):
    """qpdf --check's exit code (0 clean, 3 warnings, 2 errors)."""
    return subprocess.run(["qpdf", "--check", pdf], capture_output=True).returncode


def links_and_outlines(pdf):
    """(link annotations on the pages, outline entries) by qpdf --json, or (None, None)."""
    out = subprocess.run(["qpdf", "--json=2", "--json-key=pages", "--json-key=outlines", "--json-key=qpdf",
                          "--json-stream-data=none", pdf], capture_output=True, text=True)
    if out.returncode not in (0, 3):
        return None, None
    data = json.loads(out.stdout)
    objects = data["qpdf"][1] if isinstance(data.get("qpdf"), list) and len(data["qpdf"]) > 1 else {}

    def resolve(value):
        seen = 0
        while isinstance(value, str) and value.endswith(" R") and seen < 10:
            entry = objects.get(f"obj:{value}", {})
            value = entry.get("value", entry.get("stream", {}).get("dict"))
            seen += 1
        return value

    links = 0
    for page in data.get("pages", []):
        page_dict = resolve(page.get("object")) or {}
        annots = resolve(page_dict.get("/Annots")) or []
        for annot in annots if isinstance(annots, list) else []:
            annot = resolve(annot)
            if isinstance(annot, dict) and resolve(annot.get("/Subtype")) == "/Link":
                links += 1

    def count(nodes):
        return sum(1 + count(node.get("kids", [])) for node in nodes)

    return links, count(data.get("outlines", []))


# ---------------------------------------------------------------------------
# Phase times: PDFEDIT_TIMING=1 makes pdfedit print `pdfedit: time PHASE MILLISECONDS`
# lines on stderr.

PHASES = ["parse", "open", "edit", "plan", "pages", "links", "outlines", "fields", "labels", "structure", "layers",
          "metadata", "write", "total"]
PHASE_LINE = re.compile(r"^pdfedit: time (\S+) ([0-9]+(?:\.[0-9]*)?)\s*$")


def parse_phases(stderr):
    """{phase: milliseconds} from pdfedit's stderr; a phase printed more than once
    (one per output file, say) is summed. Lines of any other shape are ignored."""
    phases = {}
    for line in stderr.splitlines():
        found = PHASE_LINE.match(line.strip())
        if found:
            phases[found.group(1)] = phases.get(found.group(1), 0.0) + float(found.group(2))
    return phases


def timed_phases(commands, cwd):
    """Runs `commands` once with PDFEDIT_TIMING=1 (not among the timed runs);
    returns {phase: ms} plus "wall" and "start-up" (wall - total) when pdfedit
    printed a total, or {} when it printed no phase at all."""
    env = dict(os.environ, PDFEDIT_TIMING="1")
    seconds, _, _, err = measure_full(commands, cwd, env, peak=False)
    phases = parse_phases(err)
    if phases:
        phases["wall"] = seconds * 1000
        if "total" in phases:
            phases["start-up"] = phases["wall"] - phases["total"]
    return phases


# ---------------------------------------------------------------------------
# A row of several tools


class Case:
    """One operation run by several tools. make(scratch) -> list of argv;
    check(scratch) -> problem or None. A tool whose output is wrong (or that
    fails) is recorded in `failed` and not run again: its row says FAILED."""

    def __init__(self, key, title, description):
        self.key = key
        self.title = title
        self.description = description
        self.tools = []
        self.samples = {}
        self.failed = {}
        self.check = None

    def add(self, label, make):
        self.tools.append((label, make))
        self.samples[label] = []


def phases_of(commands_for, work, runs):
    """{phase: median ms} of `runs` timed_phases runs of the commands
    `commands_for(scratch)` gives, each in a fresh scratch folder under `work`
    (removed after: an output left by one run would make the next refuse to
    replace it); {} when the tool failed or printed no phase."""
    collected = []
    for _ in range(runs):
        scratch = tempfile.mkdtemp(dir=work)
        try:
            phases = timed_phases(commands_for(scratch), scratch)
        except ToolFailed:
            return {}
        finally:
            shutil.rmtree(scratch)
        if phases:
            collected.append(phases)
    if not collected:
        return {}
    keys = {k for phases in collected for k in phases}
    return {k: statistics.median(p[k] for p in collected if k in p) for k in keys}
