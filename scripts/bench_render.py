#!/usr/bin/env python3
"""The render row of BENCHMARKS.md (issue 44): 100 pages of a corpus book at
150 dpi, `pdfedit render` against `pdftoppm -r 150` (PPM, its default, and
PNG) and `mutool draw -r 150` (PNG), interleaved round after round, work files
on /dev/shm. Prints a Markdown table: median wall time (min-max), CPU time
(user+sys of the children), the ratio to the faster of pdftoppm and mutool.

usage: scripts/bench_render.py PDFEDIT BOOK.pdf [ROUNDS]"""
import os, resource, shutil, statistics, subprocess, sys, tempfile, time

pdfedit, book = sys.argv[1], os.path.abspath(sys.argv[2])
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
base = tempfile.mkdtemp(prefix="bench-render-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)

tools = {
    "pdfedit render (PNG)": lambda d: [pdfedit, "render", "1..100", book, "-o", d + "/p-{n}.png", "--dpi", "150", "--quiet"],
    "pdftoppm -r 150 (PPM)": lambda d: ["pdftoppm", "-r", "150", "-f", "1", "-l", "100", book, d + "/p"],
    "pdftoppm -r 150 -png": lambda d: ["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "100", book, d + "/p"],
    "mutool draw -r 150 (PNG)": lambda d: ["mutool", "draw", "-q", "-r", "150", "-o", d + "/p-%d.png", book, "1-100"],
}
times = {name: [] for name in tools}
cpus = {name: [] for name in tools}
for round_ in range(rounds):
    for name, command in tools.items():
        folder = os.path.join(base, "out")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command(folder), check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        files = len(os.listdir(folder))
        assert files == 100, (name, files)
        times[name].append(wall)
        cpus[name].append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
shutil.rmtree(base, ignore_errors=True)

median = {name: statistics.median(values) for name, values in times.items()}
faster = min(median["pdftoppm -r 150 (PPM)"], median["mutool draw -r 150 (PNG)"])
print(f"{rounds} rounds, {os.cpu_count()} cores, load before: {os.getloadavg()[0]:.2f}")
print()
print("| tool | wall time, median (min–max) | CPU time | ÷ faster of pdftoppm and mutool |")
print("|---|---|---|---|")
for name in tools:
    values = times[name]
    print(f"| {name} | {median[name]:.2f} s ({min(values):.2f}–{max(values):.2f}) | "
          f"{statistics.median(cpus[name]):.2f} s | {median[name] / faster:.2f} |")
