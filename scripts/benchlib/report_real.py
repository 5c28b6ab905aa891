"""BENCHMARKS.md of the real-document rows, the small-file and start-up rows and
"Where the time goes" (pdfedit's PDFEDIT_TIMING phases), with their targets and
the chart of real-document ratios against qpdf."""
import os

from benchlib.measure import PHASES
from benchlib.report import relative, verdict
from benchlib.small import BARE_FLOOR, FLOOR

# Issue 41's budgets: a 20-page direct edit at most 2.0× qpdf (the 1.25× target
# is retired: the least program on pdfedit's stack sits at 1.34×, and no person
# sees 7 ms), its peak at most qpdf's + 10 MB. Start-up (`--version`) is
# reported without a target: it is the price of linking poppler, cairo and GLib
# as ordinary libraries (docs/ARCHITECTURE.md, Performance).
SMALL_TIME = 2.0       # × qpdf
SMALL_MEMORY = 10.0    # MB above qpdf's peak
REAL_TIME = 1.0        # × qpdf
REAL_SHORTFALL = 2     # rows allowed over REAL_TIME (issue 41: 34 of 36)


def fmt(value, pattern="{:.3f}"):
    return pattern.format(value) if value is not None else "—"


def small_report(series, have_hello):
    """(target rows, markdown)."""
    rows, lines = [], []
    lines += ["| case | tool | median ms | min ms | CPU ms (user+sys) | runs | peak MB |",
              "|---|---|---|---|---|---|---|"]
    for entry in series:
        for tool in entry.tools:
            name = f"**{tool}**" if tool == "pdfedit" else tool
            if tool in entry.failed:
                lines.append(f"| {entry.title} | {name} | **FAILED**: {entry.failed[tool][:200]} | | | | |")
                continue
            if not entry.samples[tool]:
                continue
            lines.append(f"| {entry.title} | {name} | {entry.median(tool) * 1000:.1f} | "
                         f"{entry.minimum(tool) * 1000:.1f} | {entry.median(tool, 2) * 1000:.1f} | "
                         f"{len(entry.samples[tool])} | {max(s[1] for s in entry.samples[tool]):.0f} |")
        mine, q = entry.median("pdfedit"), entry.median("qpdf")
        if entry.key == "version":
            if mine is None:
                rows.append("| `pdfedit --version` (start-up, reported) | no measurement | **FAILED** |")
            else:
                rows.append(f"| `pdfedit --version` (start-up, reported: the linked libraries' price) | "
                            f"{mine * 1000:.1f} ms (qpdf {fmt(q and q * 1000, '{:.1f}')} ms) | — |")
            continue
        if mine is None or q is None:
            rows.append(f"| {entry.title}: time ≤ {SMALL_TIME}× qpdf | no measurement | **FAILED** |")
            continue
        peak = max(s[1] for s in entry.samples["pdfedit"])
        qpeak = max(s[1] for s in entry.samples["qpdf"])
        rows.append(f"| {entry.title} (direct mode): time ≤ {SMALL_TIME}× qpdf | {mine / q:.2f} "
                    f"({mine * 1000:.1f} / {q * 1000:.1f} ms) | {verdict(mine / q <= SMALL_TIME)} |")
        rows.append(f"| {entry.title}: peak ≤ qpdf's + {SMALL_MEMORY:.0f} MB | {peak:.0f} / {qpeak:.0f} MB "
                    f"({peak - qpeak:+.0f} MB) | {verdict(peak <= qpeak + SMALL_MEMORY)} |")
        least = entry.median(FLOOR)
        if least is not None:
            fpeak = max(s[1] for s in entry.samples[FLOOR])
            rows.append(f"| {entry.title}: the least program on pdfedit's stack ({FLOOR}) vs qpdf (reported) | {least / q:.2f} "
                        f"({least * 1000:.1f} / {q * 1000:.1f} ms; peak {fpeak:.0f} / {qpeak:.0f} MB); "
                        f"pdfedit {mine / least:.2f}× the floor | — |")
        bare = entry.median(BARE_FLOOR)
        if bare is not None:
            bpeak = max(s[1] for s in entry.samples[BARE_FLOOR])
            parser = f"; ArgumentParser and FoundationEssentials {(least - bare) / q:.2f}× qpdf's time" \
                if least is not None else ""
            rows.append(f"| {entry.title}: the same without ArgumentParser or Foundation ({BARE_FLOOR}) vs qpdf "
                        f"(reported) | {bare / q:.2f} ({bare * 1000:.1f} / {q * 1000:.1f} ms; peak {bpeak:.0f} / "
                        f"{qpeak:.0f} MB){parser} | — |")
    floor = "" if have_hello else " (swiftc is not on PATH: no Swift hello world floor)"
    text = f"""## Small files and start-up

One edit of a 20-page generated text PDF in direct mode, file in, file out, against qpdf doing
the same (`qpdf IN --rotate=+90:2 OUT`, `qpdf IN --pages . 3-5,1-2,6-z -- OUT`); and
`--version`, which measures start-up alone, against qpdf's and a Swift hello world compiled
with `swiftc -O`, the floor of any Swift program here{floor}. The rotate edit is also made by
`scripts/bench-floor`, the least program with pdfedit's stack (the Swift runtime linked
statically, FoundationEssentials, swift-argument-parser with one subcommand, libqpdf's C API:
read, set `/Rotate`, write; no temporary file, no checks, no fidelity): the floor under any
pdfedit, and so under the small-file target; and by its twin `floor-bare`, the same edit with
the arguments read by hand, without swift-argument-parser or Foundation: the difference is what
the parser costs before pdfedit does anything. Medians of many interleaved runs; every output
checked (page count by qpdf, rotation by pdfinfo, order by pdftotext).

{chr(10).join(lines)}
"""
    return rows, text


def real_report(rows, docs, notes, ctx):
    """(target rows, markdown)."""
    if not rows:
        return ["| real documents: time ≤ 1.0× qpdf | no corpus | — |"], \
            "## Real documents\n\n" + "\n".join(notes) + "\n"
    grid = ["| document | operation | pdfedit s | qpdf s | × qpdf | time | CPU × qpdf | peak MB pdfedit / qpdf "
            "| memory |",
            "|---|---|---|---|---|---|---|---|---|"]
    detail = ["| document | operation | tool | median s | min s | CPU s | runs | peak MB | check | links kept | "
              "outline entries kept |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    met = total = mem_met = 0
    worst = None
    for row in rows:
        doc = row.doc
        mine, q = row.median("pdfedit"), row.median("qpdf")
        failed = "pdfedit" in row.failed or "qpdf" in row.failed or mine is None or q is None
        total += 1
        if failed:
            grid.append(f"| {doc.short} | {row.title} | **FAILED** | | | **FAILED** | | | |")
        else:
            peak = max(s[1] for s in row.samples["pdfedit"])
            qpeak = max(s[1] for s in row.samples["qpdf"])
            ok = mine / q <= REAL_TIME
            met += ok
            mem_met += peak <= qpeak + SMALL_MEMORY
            if worst is None or mine / q > worst[0]:
                worst = (mine / q, f"{doc.short} {row.op}")
            cpu = row.median("pdfedit", 2) / row.median("qpdf", 2) if row.median("qpdf", 2) else None
            grid.append(f"| {doc.short} | {row.title} | {mine:.3f} | {q:.3f} | {mine / q:.2f} | {verdict(ok)} | "
                        f"{fmt(cpu, '{:.2f}')} | {peak:.0f} / {qpeak:.0f} | {verdict(peak <= qpeak + SMALL_MEMORY)} |")
        for tool in row.tools:
            name = f"**{tool}**" if tool == "pdfedit" else tool
            if tool in row.failed:
                detail.append(f"| {doc.short} | {row.op} | {name} | **FAILED**: {row.failed[tool][:200]} "
                              "| | | | | | | |")
                continue
            samples = row.samples[tool]
            if not samples:
                continue
            links, outlines = row.kept.get(tool, (None, None))
            detail.append(
                f"| {doc.short} | {row.op} | {name} | {row.median(tool):.3f} | {min(s[0] for s in samples):.3f} | "
                f"{row.median(tool, 2):.3f} | {len(samples)} | {max(s[1] for s in samples):.0f} | "
                f"{row.check_rc.get(tool, '—')} | {fmt(links, '{}')} / {fmt(doc.links, '{}')} | "
                f"{fmt(outlines, '{}')} / {fmt(doc.outlines, '{}')} |")
    targets = [f"| real documents ({len(docs)}): time ≤ {REAL_TIME:.1f}× qpdf on at least {total - REAL_SHORTFALL} of "
               f"{total} rows | {met} of {total} rows met" + (f", worst {worst[0]:.2f} ({worst[1]})" if worst else "")
               + f" | {verdict(met >= total - REAL_SHORTFALL)} |",
               f"| real documents: peak memory ≤ qpdf's + {SMALL_MEMORY:.0f} MB on every row | {mem_met} of {total} rows met | "
               f"{verdict(mem_met == total)} |"]
    chart = real_chart(rows, ctx)
    listing = "\n".join(f"- {d.name}: {d.pages} pages, qpdf --check {d.check_rc}, {fmt(d.links, '{}')} links, "
                        f"{fmt(d.outlines, '{}')} outline entries" for d in docs)
    nl = "\n"
    text = f"""## Real documents

From `../shared/corpus` (beside the checkout):

{listing}

{nl.join('- ' + n for n in notes)}

qpdf runs with the input as its primary file (`qpdf IN --pages . RANGES -- OUT`, `qpdf IN
--rotate=+90:1-z:even OUT`, `qpdf --split-pages`, `qpdf IN --pages . IN -- OUT`), which keeps the
document's catalog as pdfedit does; mutool (`merge`, and `run` scripts for rotate and split) is
reported, no target. Every output is checked: page count (qpdf) on every run, the rotation of every
page (pdfinfo) for rotate, the text of the moved pages (pdftotext) for the others, three sampled
files of a split; on each tool's first run the links (`/Subtype /Link` annotations on the pages,
qpdf --json) and outline entries the output kept, as kept / in the input (a split is not counted);
on pdfedit's first run `qpdf --check` (0, or 3 where the input itself warns: the “check” column is
the worst exit code). Medians of {ctx.real_runs} interleaved runs (a peer other than qpdf slower than
{ctx.REAL_SLOW:.0f} s runs {ctx.slow_runs}×); “CPU × qpdf” divides user+sys CPU times, less sensitive
to the machine's load than wall time.

{nl.join(grid)}

{chart}

{nl.join(detail)}
"""
    return targets, text


def real_chart(rows, ctx):
    if not ctx.have["matplotlib"]:
        return "matplotlib is not installed: no chart"
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ops = []
    for row in rows:
        if row.op not in ops:
            ops.append(row.op)
    docs = []
    for row in rows:
        if row.doc.short not in docs:
            docs.append(row.doc.short)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    width = 0.8 / max(1, len(docs))
    for k, short in enumerate(docs):
        xs, ys = [], []
        for i, op in enumerate(ops):
            row = next((r for r in rows if r.doc.short == short and r.op == op), None)
            mine, q = (row.median("pdfedit"), row.median("qpdf")) if row else (None, None)
            if mine and q:
                xs.append(i + (k - (len(docs) - 1) / 2) * width)
                ys.append(mine / q)
        ax.bar(xs, ys, width=width, label=short)
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_xticks(range(len(ops)))
    ax.set_xticklabels(ops)
    ax.set_ylabel("pdfedit time ÷ qpdf time (median)")
    ax.set_title("Real documents: pdfedit against qpdf (below 1: faster)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    path = ctx.args.real_chart
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return f"![real documents against qpdf]({relative(path, ctx.args.out)})"


def phases_report(rows, series):
    """Where the time goes: median phase times (ms) of the extra PDFEDIT_TIMING=1 runs."""
    cases = [(f"{entry.title}", entry.phases) for entry in series if entry.key != "version"]
    cases += [(f"{row.doc.short}: {row.op}", row.phases) for row in rows]
    seen = [p for p in PHASES if any(p in phases for _, phases in cases)]
    known = set(PHASES) | {"wall", "start-up"}
    unknown = sorted({k for _, phases in cases for k in phases if k not in known})
    columns = ["wall", "start-up"] + seen + unknown
    head = ("## Where the time goes\n\nOne extra run per case with `PDFEDIT_TIMING=1` (not among the timed runs; "
            "three for the small files, medians), in which pdfedit prints `pdfedit: time PHASE MILLISECONDS` on "
            "stderr. Milliseconds; start-up is the wall time less pdfedit's own total (process start, dynamic "
            "linking, the runtime); a blank cell is a phase this case did not print.\n\n")
    if not any(phases for _, phases in cases):
        return head + "pdfedit printed no phase times: this build does not support `PDFEDIT_TIMING`.\n"
    lines = ["| case | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for name, phases in cases:
        if not phases:
            lines.append(f"| {name} | " + " | ".join("" for _ in columns) + " |")
            continue
        lines.append(f"| {name} | " + " | ".join(f"{phases[c]:.1f}" if c in phases else "" for c in columns) + " |")
    return head + "\n".join(lines) + "\n"
