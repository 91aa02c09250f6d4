"""``svmx grid`` next to LIBSVM's grid.py (``svm-grid``), with and without ``--share-kernels``.

Each search runs as its own child process, as a user would run it, on LIBSVM's default grid
(log2 C = -5..15 step 2, log2 gamma = 3..-15 step -2: 110 candidates, 5 folds):

* ``grid.py``: LIBSVM's ``svm-grid`` (one local worker, as shipped) driving ``svm-train``;
* ``svmx grid -j 1`` and ``svmx grid -j 1 --share-kernels``: one worker, as grid.py;
* ``svmx grid -j 2 --share-kernels``: two workers.

The report gives each search's wall time, its speed-up over grid.py, whether its best
``C gamma rate`` line equals grid.py's, and the largest difference of any candidate's rate
from grid.py's (svmx grid without ``--share-kernels`` reproduces grid.py's rates; with it
the models are the same optima within ``-e``, so a rate may move by a row on the margin).
The machine line heads the report.

Data (``../shared/data``; skipped with a message when absent): heart_scale and dna.scale
(``--datasets``). ``--quick`` runs heart_scale on a 4 x 4 grid. ``svm-grid`` comes with
Debian's libsvm-tools (``apt-get install libsvm-tools``); without it, only svmx's searches
run and the comparisons with grid.py are left empty.

Usage (from the project root)::

    python benchmarks/bench_grid_cli.py
    python benchmarks/bench_grid_cli.py --datasets dna.scale
"""

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cli import machine_line, measure, svmx_command, svmx_environment  # noqa: E402

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DATASETS = ["heart_scale", "dna.scale"]
OUT_LINE = re.compile(r"log2c=(?P<c>-?[\d.]+) log2g=(?P<g>-?[\d.]+) rate=(?P<rate>[\d.]+)")


def searches(grid_options):
    """(label, argv builder taking the output file) of each search."""
    svm_grid = shutil.which("svm-grid")
    svm_train = shutil.which("svm-train")
    runs = []
    if svm_grid and svm_train:
        runs.append(("grid.py", lambda data, out: [
            svm_grid, "-svmtrain", svm_train, "-gnuplot", "null", "-out", out,
            *grid_options, data]))
    for label, options in (("svmx grid -j 1", ["-j", "1"]),
                           ("svmx grid -j 1 --share-kernels", ["-j", "1", "--share-kernels"]),
                           ("svmx grid -j 2 --share-kernels", ["-j", "2", "--share-kernels"])):
        runs.append((label, lambda data, out, options=options: svmx_command(
            "grid", "-q", "-out", out, *options, *grid_options, data)))
    return runs


def rates(path):
    """{(log2c, log2g): rate} of a grid.py-format output file."""
    found = {}
    for line in Path(path).read_text().splitlines():
        match = OUT_LINE.fullmatch(line.strip())
        if match:
            found[float(match["c"]), float(match["g"])] = float(match["rate"])
    return found


def run(name, grid_options, work):
    data = SHARED / name
    if not data.is_file():
        print(f"| {name} | skipped: {data} is absent | | | | |", flush=True)
        return
    results = {}
    for label, argv in searches(grid_options):
        out = work / f"{name}.{len(results)}.out"
        env = None if label == "grid.py" else svmx_environment()
        result = measure(argv(str(data), str(out)), 1, env=env, cwd=work)
        results[label] = (result.seconds, result.stdout.strip().splitlines()[-1], rates(out))
        print(f"  {name}: {label} {result.seconds:.1f} s", file=sys.stderr, flush=True)
    reference = results.get("grid.py")
    for label, (seconds, best, found) in results.items():
        if reference is None or label == "grid.py":
            speedup = same = gap = ""
        else:
            speedup = f"{reference[0] / seconds:.1f}"
            same = "yes" if best == reference[1] else f"NO ({best})"
            common = reference[2].keys() & found.keys()
            gap = f"{max(abs(found[k] - reference[2][k]) for k in common):.4g}" if common \
                else "no common candidate"
        print(f"| {name} | {label} | {seconds:.1f} | {speedup} | {same} | {gap} |", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--quick", action="store_true",
                        help="heart_scale on a 4 x 4 grid (a smoke test)")
    args = parser.parse_args(argv)
    grid_options = ["-log2c", "-1,5,2", "-log2g", "-7,-1,2"] if args.quick else []
    names = ["heart_scale"] if args.quick else args.datasets.split(",")
    print(f"machine: {machine_line()}")
    print("grid: " + ("4 x 4 (quick)" if args.quick else "LIBSVM's default, 110 candidates")
          + ", 5 folds; one run of each search")
    print()
    print("| dataset | search | seconds | grid.py / this | same best line | "
          "max rate difference from grid.py |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            run(name, grid_options, Path(work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
