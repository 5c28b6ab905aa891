"""BENCHMARKS.md of the generated rows: their targets, the operations' tables,
scaling (and its chart), image memory, batches and sessions."""
import os
import statistics

from benchlib.measure import tool_version


def verdict(ok):
    return "met" if ok else "**missed**"


def med(samples):
    return statistics.median(s for s, _ in samples)


def case_table(case):
    medians = {label: med(s) for label, s in case.samples.items() if s}
    q = medians.get("qpdf")
    lines = ["| tool | median s | min–max s | runs | peak MB | × qpdf | × best other |",
             "|---|---|---|---|---|---|---|"]
    for label, samples in sorted(case.samples.items(), key=lambda kv: med(kv[1]) if kv[1] else 1e9):
        name = f"**{label}**" if label == "pdfedit" else label
        if label in case.failed:
            lines.append(f"| {name} | **FAILED**: {case.failed[label][:200]} | | | | | |")
            continue
        if not samples:
            continue
        times = [s for s, _ in samples]
        rss = max(m for _, m in samples)
        others = {k: v for k, v in medians.items() if k != label}
        best_other = min(others.values()) if others else None
        lines.append(
            f"| {name} | {medians[label]:.3f} | {min(times):.3f}–{max(times):.3f} | {len(times)} | {rss:.0f} | "
            f"{medians[label] / q:.2f} | {medians[label] / best_other:.2f} |" if q and best_other else
            f"| {name} | {medians[label]:.3f} | {min(times):.3f}–{max(times):.3f} | {len(times)} | {rss:.0f} | | |")
    return "\n".join(lines), medians


def generated_report(g, ctx):
    """(target rows, markdown of the generated sections)."""
    sections, summary = [], {}
    for case in g.cases:
        text, medians = case_table(case)
        sections.append(f"### {case.title}\n\n{case.description}.\n\n{text}\n")
        peers = {k: v for k, v in medians.items() if k != "pdfedit"}
        best_label = min(peers, key=peers.get) if peers else None
        mine, q = medians.get("pdfedit"), medians.get("qpdf")
        rss = max((m for _, m in case.samples["pdfedit"]), default=None)
        qrss = max((m for _, m in case.samples["qpdf"]), default=None)
        summary[case.key] = (mine, q, best_label, peers.get(best_label), rss, qrss)

    rows = []

    def ratio_row(name, mine, other, limit, fmt="{:.2f}"):
        if mine is None or other is None:
            rows.append(f"| {name} | no measurement | **FAILED** |")
        else:
            rows.append(f"| {name} | {fmt.format(mine / other)} | {verdict(mine / other <= limit)} |")

    # Issue 41's budget: within 1.25× of the fastest other tool (the byte
    # reader that made the 20,000-page extract 0.97× mutool is gone).
    for key in ("reorder", "extract", "rotate", "merge", "burst"):
        mine, q, best_label, best, rss, qrss = summary[key]
        ratio_row(f"{key} ({g.N if key != 'burst' else g.small_pages} pages): time vs fastest other tool "
                  f"({best_label}) ≤ 1.25", mine, best, 1.25)
    mine, q, *_ = summary["burst"]
    ratio_row(f"burst {g.small_pages}: time vs qpdf --split-pages ≤ 0.6", mine, q, 0.6)
    e, r = (statistics.median(s for s, _ in v) for v in (g.edit_samples, g.rewrite_samples))
    rows.append(f"| session edit: time vs a qpdf rewrite ≤ 5% | {e / r * 100:.1f}% | {verdict(e / r <= 0.05)} |")
    for key in ("reorder", "extract", "rotate", "merge", "burst", "script"):
        mine, q, best_label, best, rss, qrss = summary[key]
        if rss is None or qrss is None:
            rows.append(f"| {key}: peak memory vs qpdf ≤ 1.0 | no measurement | **FAILED** |")
        else:
            rows.append(f"| {key}: peak memory vs qpdf ≤ 1.0 | {rss:.0f} / {qrss:.0f} MB = {rss / qrss:.2f} | "
                        f"{verdict(rss <= qrss)} |")
    for key in ("reorder", "extract", "rotate", "merge"):
        mine, q, *_ = summary[key]
        ratio_row(f"{key}: time vs qpdf ≤ 1.0 (±10%)", mine, q, 1.1)
    mine, q, *_ = summary["script"]
    if mine and q:
        rows.append(f"| edit script: qpdf chain ÷ pdfedit ≥ 10 | {q / mine:.1f}× | {verdict(q / mine >= 10)} |")
    img_mine = max(m for _, m in g.image_samples["pdfedit"])
    img_q = max(m for _, m in g.image_samples["qpdf"])
    base_rss = statistics.median(m for _, m in g.baseline)
    image_mb = os.path.getsize(g.image) / 1e6
    rows.append(f"| image PDF ({image_mb:.0f} MB): pdfedit peak above the same move on text ({base_rss:.0f} MB) | "
                f"{img_mine - base_rss:+.0f} MB | {verdict(img_mine - base_rss < image_mb / 4)} |")
    rows += g.apply_targets

    lead = []
    for key, (mine, q, best_label, best, rss, qrss) in summary.items():
        if best_label and best and mine and q:
            lead.append(f"| {key} | {mine:.3f} | {q:.3f} | {best_label} {best:.3f} | {mine / best:.2f} |")

    chart_note = scaling_chart(g, ctx)
    scale_rows = ["| pages | " + " | ".join(label for label, _ in g.scale_tools) + " |",
                  "|---|" + "---|" * len(g.scale_tools)]
    for pages in g.scaling:
        cells = []
        for label, _ in g.scale_tools:
            points = g.scale[label].get(pages)
            cells.append(f"{statistics.median(points):.3f}" if points else "—")
        scale_rows.append(f"| {pages} | " + " | ".join(cells) + " |")

    b1 = statistics.median(g.batch_results[1])
    bp = statistics.median(g.batch_results[g.cores])
    x, qx = (statistics.median(s for s, _ in v) for v in (g.export_samples, g.qexport_samples))
    nl = "\n"
    text = f"""## Generated inputs: pdfedit against the fastest other tool

A {g.N}-page text PDF ({os.path.getsize(g.big) / 1e6:.1f} MB), {g.small_pages}-page text PDFs, an image PDF
of {g.image_pages} pages ({image_mb:.0f} MB of incompressible images); the same bytes everywhere.

| operation | pdfedit s | qpdf s | fastest other s | pdfedit ÷ fastest other |
|---|---|---|---|---|
{nl.join(lead)}

## Operations on generated inputs

“× qpdf” and “× best other” are this tool's median divided by qpdf's and by the
fastest *other* tool's median (below 1: faster).

{nl.join(sections)}
## Scaling: move pages 3-5 to the front, time against page count

{nl.join(scale_rows)}

{chart_note}

## Memory does not grow with image data

Moving pages 3-5 to the front of the {image_mb:.0f} MB image PDF: pdfedit peaks at
{img_mine:.0f} MB ({img_mine - base_rss:+.0f} MB above the {base_rss:.0f} MB of the same move on a text PDF of as many
pages: the Swift runtime, FoundationEssentials, libqpdf and the libraries it loads, the pages'
objects), qpdf at {img_q:.0f} MB; median
{statistics.median(s for s, _ in g.image_samples['pdfedit']):.2f} s against
{statistics.median(s for s, _ in g.image_samples['qpdf']):.2f} s. Stream data is copied from the input
file to the output as it is written, never held in memory.

## Many documents: one process per document

{g.batch_docs} documents of 20 pages, `pdfedit move 3..5 --to 1 DOC -o OUT` each (direct mode, no session,
nothing shared between processes): {b1:.2f} s one at a time (`xargs -P 1`), {bp:.2f} s with
`xargs -P {g.cores}` ({b1 / bp:.2f}× faster, {g.batch_docs / bp:.0f} documents/s). With sessions, one folder
per document (open, rotate even, move, export: four processes each) under `xargs -P {g.cores}`:
{g.session_batch:.2f} s for {g.batch_docs} documents. Sessions live in their folder (`.pdfedit/`), locked
per session, so parallel jobs on different folders never meet.

{g.apply_section}
## Sessions

| | median s | peak MB |
|---|---|---|
| pdfedit session edit (move 3..5 --to 1) | {e:.3f} | {max(m for _, m in g.edit_samples):.0f} |
| qpdf --empty --pages rewrite of the file | {r:.3f} | {max(m for _, m in g.rewrite_samples):.0f} |
| pdfedit export of the session (the reorder) | {x:.3f} | {max(m for _, m in g.export_samples):.0f} |
| qpdf --empty --pages (same output) | {qx:.3f} | {max(m for _, m in g.qexport_samples):.0f} |

An edit in a session costs **{e / r * 100:.1f}%** of rewriting the file with qpdf (target: under 5%):
sessions edit items, not PDFs. Session file for a {g.N}-page document after 100 history steps (50 moves,
50 rotations, each its own command): **{g.session_size / 1e3:.0f} KB** (target: under 5 MB).
"""
    return rows, text


def scaling_chart(g, ctx):
    if not ctx.have["matplotlib"] or not g.scale:
        return "matplotlib is not installed: no chart"
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    for label, points in g.scale.items():
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
    os.makedirs(os.path.dirname(os.path.abspath(ctx.args.chart)), exist_ok=True)
    fig.savefig(ctx.args.chart)
    plt.close(fig)
    return f"![time against page count]({relative(ctx.args.chart, ctx.args.out)})"


def relative(path, out):
    return os.path.relpath(os.path.abspath(path), os.path.dirname(os.path.abspath(out)))


def versions(ctx):
    have, py = ctx.have, ctx.peers.python
    found = [f"pdfedit: `{tool_version([ctx.pdfedit, '--version'])}`",
             f"qpdf: `{tool_version(['qpdf', '--version'])}`"]
    if have["mutool"]:
        found.append(f"mutool: `{tool_version(['mutool', '-v'])}`")
    if have["pdftk"]:
        found.append(f"pdftk: `{tool_version(['pdftk', '--version'])}`")
    found.append(f"poppler: `{tool_version(['pdftotext', '-v'])}`")
    for module in ("pypdf", "pikepdf"):
        if have[module]:
            found.append(f"{module}: `{tool_version([py, '-c', f'import {module}; print({module}.__version__)'])}`")
    return found
