"""The benchmark suite: svmx next to scikit-learn, LIBSVM and scikit-learn-intelex.

For each data set, this one process fits and predicts with svmx and every installed peer on the
same data with the same parameters: RBF kernel, C=1, gamma=1/n_features (after the scaling a
data set's recipe applies), tol=1e-3, cache 200 MB; C-SVC, or epsilon-SVR (epsilon=0.1) for
the regression sets (cpusmall, abalone, housing). Input is CSR for every library except the
dense MNIST set; LIBSVM gets its own ``svm_node`` arrays, built before the clock starts. Each
library is warmed up on a tiny problem first. BLAS and OpenMP threads are left at their
defaults (the header reports them).

Per library and data set the table shows fit and predict seconds (best of ``--repeat``), the
ratio svmx time / peer time (<= 1.00 means svmx is faster), test accuracy (MSE for SVR), the
number of support vectors, the dual objective computed by the same numpy code from every fitted
model with its relative difference to svmx's, and the peak RSS above the baseline during fit.
A second table checks svmx's ratios against issue 15's targets: fit <= 1.0x the fastest peer
(and <= 0.5x scikit-learn-intelex from 15,000 training rows), predict <= 0.5x
scikit-learn-intelex and <= 0.1x scikit-learn, accuracy within 0.5 points of scikit-learn's (MSE
within 1%).

``--isa avx2`` (or ``sse2``) re-runs the suite in a child process with svmx's vectorised loops
capped at that level (``SVMX_ISA``) and OpenBLAS's kernels capped likewise
(``OPENBLAS_CORETYPE``), so one machine measures the paths an AVX2 or older CPU runs. The header
prints the CPU model, its caches and the level each library ran at.

Usage (from the project root)::

    python benchmarks/run.py --quick
    python benchmarks/run.py --datasets a9a,w8a --peers svmx,sklearnex --repeat 3
    python benchmarks/run.py --isa avx2 --output benchmarks/results/run-avx2.md

The report goes to stdout and ``benchmarks/results/run.md``; with matplotlib, a bar chart of the
fit-time ratios goes to ``benchmarks/results/run.png``. Progress goes to stderr.
"""

import argparse
import gc
import importlib
import os
import platform
import sys
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import numpy as np
from _datasets import (
    FULL,
    LARGE,
    QUICK,
    RECIPES,
    REGRESSION,
    SYNTHETIC,
    load_dataset,
    tiny_dataset,
)
from _memory import PeakMemory
from _peers import CACHE_SIZE, EPSILON, PEER_NAMES, TOL, C, dual_objective, make_peers

BENCH_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = BENCH_DIR.parent
DEFAULT_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
DEFAULT_OUTPUT = BENCH_DIR / "results" / "run.md"
TABLE_COLUMNS = [
    "dataset",
    "n_train x n_features",
    "library",
    "fit s",
    "fit svmx/peer",
    "predict s",
    "predict svmx/peer",
    "accuracy / MSE",
    "n_SV",
    "dual objective",
    "objective rel. diff",
    "fit peak MB",
]


def log(message):
    """Progress message on stderr."""
    print(message, file=sys.stderr, flush=True)


def make_svmx_importable():
    """Use the installed svmx, or else the project's in-place build."""
    try:
        importlib.import_module("svmx")
    except ImportError:
        sys.path.insert(0, str(PROJECT_ROOT))
        importlib.invalidate_caches()


# ----------------------------------------------------------------------------------------------
# Measuring
# ----------------------------------------------------------------------------------------------


# Steps shorter than this are repeated until their runs add up to it: one run of a
# millisecond-long step measures the scheduler, not the library. Fits are repeated up
# to MAX_FIT_RUNS times (each after a gc.collect, which costs more than a small fit),
# predictions up to MAX_PREDICT_RUNS times (a sub-millisecond prediction's best of 20
# moved by 1.5x between runs on a shared 2-vCPU machine).
MIN_TOTAL_SECONDS = 1.0
MAX_FIT_RUNS = 20
MAX_PREDICT_RUNS = 500


def runs_wanted(repeat, seconds, max_runs=MAX_FIT_RUNS):
    """Whether to time another run, given the seconds of the runs so far."""
    if len(seconds) < repeat:
        return True
    return sum(seconds) < MIN_TOTAL_SECONDS and len(seconds) < max_runs


def timed_fit(peer, gamma, repeat):
    """Best fit time of at least ``repeat`` runs (short fits: more, see MIN_TOTAL_SECONDS)
    and the largest peak memory above baseline (MB)."""
    seconds, peaks = [], []
    while runs_wanted(repeat, seconds):
        peer.model = None
        gc.collect()
        with PeakMemory() as memory:
            start = time.perf_counter()
            peer.fit(gamma)
            seconds.append(time.perf_counter() - start)
        peaks.append(memory.peak_mb)
    known = [peak for peak in peaks if peak is not None]
    return min(seconds), (max(known) if known else None)


def timed_predict(peer, repeat):
    """Best predict time of at least ``repeat`` runs (as timed_fit) and the predictions."""
    seconds, predictions = [], None
    while runs_wanted(repeat, seconds, MAX_PREDICT_RUNS):
        start = time.perf_counter()
        predictions = peer.predict()
        seconds.append(time.perf_counter() - start)
    return min(seconds), predictions


def score(data, predictions):
    """Test accuracy for classification, mean squared error for regression."""
    if data.task == REGRESSION:
        return float(np.mean((predictions - data.y_test) ** 2))
    return float(np.mean(predictions == data.y_test))


def bench_peer(peer, data, repeat):
    """Fit, predict and inspect one library on one data set; a failure becomes a row note."""
    gamma = 1.0 / data.n_features
    row = {
        "dataset": data.name,
        "shape": data.shape_label,
        "n_train": data.X_train.shape[0],
        "library": peer.label,
        "task": data.task,
    }
    try:
        peer.prepare(data)
        log(f"  {data.name}: {peer.label} fit ...")
        row["fit"], row["peak_mb"] = timed_fit(peer, gamma, repeat)
        row["predict"], predictions = timed_predict(peer, repeat)
        row["score"] = score(data, predictions)
        row["n_sv"] = peer.n_support()
        row["objective"] = dual_objective(peer.dual_parts(), gamma, EPSILON)
        log(
            f"  {data.name}: {peer.label} fit {row['fit']:.3f} s, predict {row['predict']:.3f} s,"
            f" score {row['score']:.4f}, n_SV {row['n_sv']}"
        )
    except Exception as error:  # noqa: BLE001 - one broken library must not stop the suite
        row["error"] = f"{type(error).__name__}: {error}"
        log(f"  {data.name}: {peer.label} FAILED: {row['error']}")
    finally:
        peer.release()
        gc.collect()
    return row


def warm_up(peers, task):
    """Run each library once on a tiny problem, so first-call costs are not timed.

    Returns the peers that warmed up and one note per peer that failed (and is dropped).
    """
    data, ready, failures = tiny_dataset(task), [], []
    for peer in peers:
        log(f"warming up {peer.label} ({task})")
        try:
            peer.probe_sparse(data)
            peer.prepare(data)
            peer.fit(1.0 / data.n_features)
            peer.predict()
            ready.append(peer)
        except Exception as error:  # noqa: BLE001 - drop the library, keep the suite going
            failures.append(f"{peer.label}: warm-up failed ({type(error).__name__}: {error})")
            log(failures[-1])
        finally:
            peer.release()
    return ready, failures


class PeerSet:
    """Adapters per task (C-SVC or SVR), created and warmed up on first use."""

    def __init__(self, names, libsvm_threads=None):
        self.names = names
        self.libsvm_threads = libsvm_threads
        self.by_task = {}
        self.skipped = []

    def for_task(self, task):
        """The warmed-up adapters for ``task``."""
        if task not in self.by_task:
            peers, skipped = make_peers(self.names, task, self.libsvm_threads)
            peers, failures = warm_up(peers, task)
            # The libraries' own objects (modules, classes, caches) live as long as the
            # run: frozen out of the collector, the gc.collect() before each timed fit walks
            # only what the runs made. A collection walking all of them flushed the CPU
            # caches before every fit: a cold heart_scale fit took svmx 1.1 ms instead of
            # 0.63 and LIBSVM 1.07 ms instead of 0.78 (AVX2 Zen 4).
            gc.collect()
            gc.freeze()
            self.skipped.extend(line for line in skipped + failures if line not in self.skipped)
            self.by_task[task] = peers
        return self.by_task[task]

    def notes(self):
        """Notes the adapters collected (dense fallbacks, scikit-learn-intelex fallbacks...)."""
        lines = []
        for peers in self.by_task.values():
            for peer in peers:
                lines.extend(f"{peer.label}: {note}" for note in sorted(peer.notes))
        return sorted(set(lines))


def skip_reason(peer, name, args):
    """Why ``peer`` is not run on data set ``name``, or None."""
    if args.skip_slow_peers and peer.label == "libsvm" and name in LARGE:
        return "--skip-slow-peers"
    return None


def bench_dataset(data, peer_set, args):
    """Rows for every library on one data set."""
    rows = []
    for peer in peer_set.for_task(data.task):
        reason = skip_reason(peer, data.name, args)
        if reason:
            log(f"  {data.name}: {peer.label} skipped ({reason})")
            continue
        rows.append(bench_peer(peer, data, args.repeat))
    return rows


# ----------------------------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------------------------


def _ratio(svmx_value, peer_value):
    """svmx / peer as text, or an empty cell when either is missing."""
    if svmx_value is None or not peer_value:
        return ""
    return f"{svmx_value / peer_value:.2f}"


def _score_text(row):
    """Accuracy in percent, or MSE."""
    if row["task"] == REGRESSION:
        return f"MSE {row['score']:.3f}"
    return f"{100 * row['score']:.2f}%"


def _relative_difference(reference, row):
    """(peer objective - svmx objective) / |svmx objective| as text."""
    if reference is None or "objective" not in reference or not reference["objective"]:
        return ""
    difference = (row["objective"] - reference["objective"]) / abs(reference["objective"])
    return f"{difference:+.1e}"


def svmx_reference(rows, dataset):
    """The default svmx row of a data set (the reference of every ratio), or None."""
    for row in rows:
        if row["dataset"] == dataset and row["library"] == "svmx" and "error" not in row:
            return row
    return None


def _seconds(value):
    """Seconds with three decimals, or three significant digits below 0.1 s (a
    millisecond-long step would read 0.001 otherwise)."""
    return f"{value:.3f}" if value >= 0.1 else f"{value:.3g}"


def table_row(row, reference):
    """One Markdown table line."""
    head = f"| {row['dataset']} | {row['shape']} | {row['library']} |"
    if "error" in row:
        return head + f" failed: {row['error'][:120]} |" + " |" * (len(TABLE_COLUMNS) - 4)
    svmx_fit = reference and reference["fit"]
    svmx_predict = reference and reference["predict"]
    peak = "" if row["peak_mb"] is None else f"{row['peak_mb']:.0f}"
    cells = [
        _seconds(row["fit"]),
        _ratio(svmx_fit, row["fit"]),
        _seconds(row["predict"]),
        _ratio(svmx_predict, row["predict"]),
        _score_text(row),
        str(row["n_sv"]),
        f"{row['objective']:.6g}",
        _relative_difference(reference, row),
        peak,
    ]
    return head + " " + " | ".join(cells) + " |"


def results_table(rows):
    """The main Markdown table, one line per (data set, library)."""
    lines = [
        "| " + " | ".join(TABLE_COLUMNS) + " |",
        "|" + "---|" * 3 + "---:|" * (len(TABLE_COLUMNS) - 3),
    ]
    lines += [table_row(row, svmx_reference(rows, row["dataset"])) for row in rows]
    return lines


# Issue 15's targets (svmx time / peer time, at most).
FIT_VS_FASTEST = 1.0
FIT_VS_SKLEARNEX_LARGE, LARGE_ROWS = 0.5, 15_000
PREDICT_VS_SKLEARNEX, PREDICT_VS_SKLEARN = 0.5, 0.1
ACCURACY_POINTS, MSE_RELATIVE = 0.005, 0.01


def _target_cell(ratio, target):
    """``"0.35 (<= 0.5) yes"`` style cell."""
    if ratio is None:
        return "", None
    if target is None:
        return f"{ratio:.2f}", None
    met = ratio <= target
    return f"{ratio:.2f} (<= {target:g}) {'yes' if met else 'NO'}", met


def _peer_row(rows, dataset, library):
    """The successful row of ``library`` on ``dataset``, or None."""
    for row in rows:
        if row["dataset"] == dataset and row["library"] == library and "error" not in row:
            return row
    return None


def _fastest_peer(rows, dataset):
    """The successful peer row (not svmx) with the shortest fit, or None."""
    peers = [
        row
        for row in rows
        if row["dataset"] == dataset
        and not row["library"].startswith("svmx")
        and "error" not in row
    ]
    return min(peers, key=lambda row: row["fit"], default=None)


def _accuracy_cell(reference, sklearn):
    """svmx's score next to scikit-learn's, within the target's margin."""
    if sklearn is None:
        return "", None
    ours, theirs = reference["score"], sklearn["score"]
    if reference["task"] == REGRESSION:
        met = ours <= theirs * (1 + MSE_RELATIVE)
        return f"MSE {ours:.4g} vs {theirs:.4g} {'yes' if met else 'NO'}", met
    met = ours >= theirs - ACCURACY_POINTS
    return f"{100 * ours:.2f}% vs {100 * theirs:.2f}% {'yes' if met else 'NO'}", met


def targets_table(rows):
    """svmx's (default solver) ratios next to issue 15's targets, one line per data set."""
    lines = [
        "| dataset | fit vs fastest peer | fit vs sklearnex (>= 15k rows) | predict vs sklearnex "
        "| predict vs sklearn | accuracy vs sklearn | all targets met |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for dataset in dict.fromkeys(row["dataset"] for row in rows):
        reference = svmx_reference(rows, dataset)
        if reference is None:
            continue
        cells, verdicts = [], []
        fastest = _fastest_peer(rows, dataset)
        if fastest is None:
            continue  # no peer ran on this data set: nothing to compare with
        cell, met = _target_cell(fastest and reference["fit"] / fastest["fit"], FIT_VS_FASTEST)
        cells.append(f"{cell} ({fastest['library']})" if fastest else "")
        verdicts.append(met)
        sklearnex = _peer_row(rows, dataset, "sklearnex")
        large = reference["n_train"] >= LARGE_ROWS
        ratio = sklearnex and reference["fit"] / sklearnex["fit"]
        cell, met = _target_cell(ratio, FIT_VS_SKLEARNEX_LARGE if large else None)
        cells.append(cell)
        verdicts.append(met)
        ratio = sklearnex and reference["predict"] / sklearnex["predict"]
        cell, met = _target_cell(ratio, PREDICT_VS_SKLEARNEX)
        cells.append(cell)
        verdicts.append(met)
        sklearn = _peer_row(rows, dataset, "sklearn")
        ratio = sklearn and reference["predict"] / sklearn["predict"]
        cell, met = _target_cell(ratio, PREDICT_VS_SKLEARN)
        cells.append(cell)
        verdicts.append(met)
        cell, met = _accuracy_cell(reference, sklearn)
        cells.append(cell)
        verdicts.append(met)
        checked = [met for met in verdicts if met is not None]
        overall = ("yes" if all(checked) else "NO") if checked else ""
        lines.append(f"| {dataset} | " + " | ".join(cells) + f" | {overall} |")
    return lines


def thread_settings():
    """BLAS and OpenMP thread counts of the loaded libraries, via threadpoolctl when installed."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl not installed; thread counts unknown"
    counts = {}
    for pool in threadpool_info():
        key = f"{pool['internal_api']} ({pool['user_api']})"
        counts.setdefault(key, set()).add(pool["num_threads"])
    pools = ", ".join(
        f"{key}: {'/'.join(map(str, sorted(threads)))}" for key, threads in sorted(counts.items())
    )
    return f"{pools or 'no BLAS/OpenMP pools loaded'}; scikit-learn-intelex uses its own TBB pool"


def versions():
    """Versions of Python, svmx and the installed peers."""
    parts = [f"Python {platform.python_version()}"]
    try:
        parts.append(f"svmx {importlib.import_module('svmx').__version__}")
    except ImportError:
        pass
    for distribution in ["scikit-learn", "libsvm-official", "scikit-learn-intelex", "numpy"]:
        try:
            parts.append(f"{distribution} {metadata.version(distribution)}")
        except metadata.PackageNotFoundError:
            continue
    return ", ".join(parts)


def _load():
    """The 1-minute load average (nan where unsupported)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


# SVMX_ISA level -> the OpenBLAS core type whose kernels use no wider instructions.
OPENBLAS_CORETYPES = {"sse2": "Prescott", "avx2": "Haswell"}


def _core_name(architecture):
    """OpenBLAS's core name, with its one confusing alias spelled out."""
    if architecture == "Katmai":  # OpenBLAS names its Prescott (SSE3) kernels "Katmai"
        return "Prescott (SSE3; OpenBLAS reports it as Katmai)"
    return architecture


def machine_line():
    """The CPU, its caches and the instruction-set level each library ran at."""
    import svmx._config as config

    info, isa = config.build_info(), config.isa_info()
    blas = []
    try:
        from threadpoolctl import threadpool_info

        blas = sorted(
            {
                f"{pool['internal_api']} {_core_name(pool.get('architecture'))}"
                for pool in threadpool_info()
                if pool["user_api"] == "blas"
            }
        )
    except ImportError:
        pass
    cap = f"capped by SVMX_ISA={isa['cap']}" if isa["cap"] else "not capped"
    return (
        f"**Machine:** {info['cpu']}, {info['cpu_count']} logical CPUs, caches {info['caches']}. "
        f"svmx's loops ran at **{isa['active']}** (the CPU runs {isa['machine']}; {cap}); "
        f"BLAS kernels: {', '.join(blas) or 'unknown'}"
        + (
            f" (OPENBLAS_CORETYPE={os.environ['OPENBLAS_CORETYPE']})"
            if os.environ.get("OPENBLAS_CORETYPE")
            else ""
        )
        + "; scikit-learn's libsvm has no vectorised dispatch; scikit-learn-intelex's oneDAL "
        "picks its own kernels (its CPU cannot be capped from outside: `setCpuId` is refused "
        "once loaded), so under a cap it keeps the CPU's widest path, which only favours it."
    )


def header(args):
    """Title and the lines explaining how to read the tables."""
    return [
        "# svmx benchmark suite",
        "",
        machine_line(),
        "",
        "**Ratios are svmx time / peer time: <= 1.00 means svmx is faster.** The reference is "
        "default `svmx.SVC` / `svmx.SVR`; svmx[smo] and svmx[block] rows, when present, pin "
        "the `solver` parameter. BLAS/OpenMP threads at library defaults"
        + (f" (libsvm: OpenMP {args.libsvm_threads})" if args.libsvm_threads else "")
        + f": {thread_settings()}; {os.cpu_count()} CPUs.",
        "",
        f"RBF kernel, C={C:g}, gamma=1/n_features, tol={TOL:g}, cache {CACHE_SIZE:g} MB; "
        f"epsilon-SVR with epsilon={EPSILON:g} for regression; best of {args.repeat} run(s), "
        f"more for steps under {MIN_TOTAL_SECONDS:g} s (until their runs add up to it, at most "
        f"{MAX_FIT_RUNS} fits and {MAX_PREDICT_RUNS} predictions). "
        "Dual objective (minimised, the same numpy code for every model): "
        "0.5 c'Kc - sum|c| per one-vs-one problem, summed; SVR 0.5 c'Kc + eps sum|c| - y'c. "
        "Objective rel. diff = (peer - svmx) / |svmx|. Fit peak MB = peak RSS above the RSS at "
        "the start of the fit (VmRSS sampled every 5 ms, and VmHWM).",
        "",
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {versions()}; "
        f"1-minute load average {args.load_before:.2f} before the run, {_load():.2f} after "
        "(other work on the machine slows every library, OpenMP ones most).",
        "",
    ]


def notes_section(notes):
    """A bullet list of notes, or nothing."""
    if not notes:
        return []
    return ["", "## Notes", ""] + [f"- {note}" for note in notes]


def render_report(rows, args, notes):
    """The whole Markdown report."""
    lines = header(args) + results_table(rows)
    lines += ["", "## Performance targets (default svmx; issue 15)", ""] + targets_table(rows)
    lines += notes_section(notes)
    return "\n".join(lines) + "\n"


def plot_fit_ratios(rows, path):
    """Bar chart of svmx's fit-time ratio to each peer, per data set (log scale).

    Returns the path written, or None when matplotlib is not installed or nothing ran.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    datasets = list(dict.fromkeys(row["dataset"] for row in rows))
    if not datasets:
        return None
    peers = ["sklearn", "libsvm", "sklearnex"]
    figure, axes = plt.subplots(figsize=(max(6, 1.1 * len(datasets) + 2), 4.5))
    width = 0.8 / len(peers)
    for index, peer in enumerate(peers):
        ratios = []
        for dataset in datasets:
            reference, other = svmx_reference(rows, dataset), _peer_row(rows, dataset, peer)
            ratios.append(reference["fit"] / other["fit"] if reference and other else np.nan)
        positions = np.arange(len(datasets)) + (index - (len(peers) - 1) / 2) * width
        axes.bar(positions, ratios, width, label=f"vs {peer}")
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_yscale("log")
    axes.set_xticks(np.arange(len(datasets)), datasets, rotation=30, ha="right")
    axes.set_ylabel("fit time svmx / peer (< 1: svmx faster)")
    axes.set_title("svmx fit-time ratios")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


# ----------------------------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------------------------


def _names(text, known, option):
    """Split a comma-separated option value and check every name."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown {option} {', '.join(unknown)}; choose from {', '.join(known)}"
        )
    return names


def parse_args(argv=None):
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--datasets",
        type=lambda text: _names(text, list(RECIPES), "data set"),
        help=f"comma-separated data sets (default: {','.join(FULL)}; also the synthetic "
        f"{', '.join(SYNTHETIC)})",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"only the small data sets ({','.join(QUICK)}); with --datasets, their intersection",
    )
    parser.add_argument(
        "--peers",
        type=lambda text: _names(text, PEER_NAMES, "library"),
        default=PEER_NAMES,
        help=f"comma-separated libraries (default: {','.join(PEER_NAMES)})",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help=f"timed runs per step, the best kept (default: 1; steps under "
        f"{MIN_TOTAL_SECONDS:g} s run more)",
    )
    parser.add_argument(
        "--skip-slow-peers",
        action="store_true",
        help=f"skip libsvm-official on {', '.join(sorted(LARGE))}",
    )
    parser.add_argument(
        "--libsvm-threads",
        type=int,
        help="limit libsvm-official's OpenMP threads while it runs (default: not limited); "
        "its per-row OpenMP regions crawl when other processes share the cores",
    )
    parser.add_argument(
        "--isa",
        choices=["sse2", "avx2", "avx512"],
        help="cap svmx's vectorised loops (SVMX_ISA) and OpenBLAS (OPENBLAS_CORETYPE) at this "
        "level; the suite re-runs itself in a child process with those set",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help="the shared LIBSVM data files (default: %(default)s)",
    )
    parser.add_argument(
        "--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown report (default: %(default)s)"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.datasets is None:
        args.datasets = QUICK if args.quick else FULL
    elif args.quick:
        args.datasets = [name for name in args.datasets if name in QUICK]
    return args


def run(args):
    """Benchmark every requested data set; returns the rows and the notes."""
    peer_set, rows, notes = PeerSet(args.peers, args.libsvm_threads), [], []
    for name in args.datasets:
        log(f"{name}: loading")
        try:
            data = load_dataset(name, args.data_dir)
        except FileNotFoundError as error:
            notes.append(f"{name} skipped: {error}")
            log(f"{name}: skipped ({error})")
            continue
        notes.append(f"{name}: {'; '.join(data.notes)}")
        rows.extend(bench_dataset(data, peer_set, args))
        del data
        gc.collect()
    if args.skip_slow_peers and "libsvm" in args.peers:
        notes.append(f"libsvm not run on {', '.join(sorted(LARGE))} (--skip-slow-peers)")
    notes += [f"not run: {line}" for line in peer_set.skipped] + peer_set.notes()
    return rows, notes


def publish_report(report, output):
    """Print the Markdown report and write it to ``output`` (its folder made if missing)."""
    print(report)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(report)
    log(f"report written to {output}")


def rerun_capped(isa, argv, script=None):
    """Run ``script`` (this one by default) again with the libraries' dispatch capped at
    ``isa``; its exit status.

    The caps are environment variables read when a library loads (or first runs its loops),
    hence the child process."""
    import subprocess

    env = dict(os.environ, SVMX_ISA=isa)
    env.pop("OPENBLAS_CORETYPE", None)
    if isa in OPENBLAS_CORETYPES:
        env["OPENBLAS_CORETYPE"] = OPENBLAS_CORETYPES[isa]
    coretype = env.get("OPENBLAS_CORETYPE")
    log(f"re-running with SVMX_ISA={isa}, "
        + (f"OPENBLAS_CORETYPE={coretype}" if coretype else "OPENBLAS_CORETYPE unset"))
    script = Path(script or __file__).resolve()
    return subprocess.call([sys.executable, str(script), *argv], env=env)


def main(argv=None):
    """Run the suite, print the report and write it (and the chart) to ``--output``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    if args.isa and os.environ.get("SVMX_ISA") != args.isa:
        sys.exit(rerun_capped(args.isa, argv))
    if not args.data_dir.is_dir() and set(args.datasets) - set(SYNTHETIC):
        sys.exit(f"data directory {args.data_dir} not found: the data is on the team's machines")
    make_svmx_importable()
    args.load_before = _load()
    rows, notes = run(args)
    publish_report(render_report(rows, args, notes), args.output)
    chart = plot_fit_ratios(rows, args.output.with_suffix(".png"))
    log(f"chart written to {chart}" if chart else "no chart (matplotlib missing or no rows)")


if __name__ == "__main__":
    main()
