"""Fit time and peak memory against the number of training rows, svmx next to its peers.

Two series, C-SVC with an RBF kernel (C=1, gamma=1/n_features, tol=1e-3, cache 200 MB, as
``run.py``):

- ijcnn1 (the shared file, CSR): its first 10,000, 20,000, 35,000 and all 49,990 rows;
- a synthetic binary problem of 22 dense features (ijcnn1's width, classes overlapping
  near a curved boundary: about a fifth of the rows become support vectors) from 50,000
  to 500,000 rows.

Each library fits each size once (svmx twice up to 100,000 rows, the best kept); a library
whose previous size took longer than ``--max-seconds`` skips the larger sizes (scikit-learn
and LIBSVM grow as n^2 and would run for hours at 500,000 rows), as does one run out of
memory. The
table gives seconds and the peak RSS above the start of the fit (MB), and the growth
exponent of each library's fit time over the sizes it ran (the slope of log time against
log n). The header prints the machine and the instruction-set level; ``--isa avx2`` caps it
as ``run.py --isa`` does.

Usage (from the project root)::

    python benchmarks/bench_scale.py
    python benchmarks/bench_scale.py --peers svmx,sklearnex --synthetic-sizes 50000,500000
"""

import argparse
import gc
import os
import sys
import time
from pathlib import Path

import numpy as np
from _datasets import CLASSIFICATION, Dataset, _read, tiny_dataset
from _memory import PeakMemory
from _peers import PEER_NAMES, make_peers
from run import log, machine_line, make_svmx_importable, publish_report, rerun_capped

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DATA_DIR = BENCH_DIR.parent.parent / "shared" / "data"
DEFAULT_OUTPUT = BENCH_DIR / "results" / "scale.md"
IJCNN1_SIZES = [10_000, 20_000, 35_000, 49_990]
SYNTHETIC_SIZES = [50_000, 100_000, 200_000, 500_000]


def synthetic_binary(n_rows, n_features=22, seed=0):
    """A reproducible binary problem: the sign of a smooth function of the features plus
    noise, so the classes overlap near the boundary."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n_rows, n_features))
    score = np.sin(2.0 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.5 * X[:, 3] - 0.3 * X[:, 4] ** 2
    y = np.where(score + 0.15 * rng.normal(size=n_rows) > 0.0, 1.0, -1.0)
    return X, y


def series(args):
    """(label, Dataset) for every size of both series."""
    out = []
    if args.ijcnn1_sizes:
        try:
            X, y = _read(args.data_dir, "ijcnn1", 22)
        except FileNotFoundError:
            log(f"ijcnn1 not found in {args.data_dir}: that series is skipped")
        else:
            for n in args.ijcnn1_sizes:
                n = min(n, X.shape[0])
                out.append(("ijcnn1", Dataset(f"ijcnn1[:{n}]", CLASSIFICATION, X[:n], y[:n],
                                              X[:1], y[:1])))
    for n in args.synthetic_sizes:
        X, y = synthetic_binary(n)
        out.append(("synthetic", Dataset(f"synthetic {n}", CLASSIFICATION, X, y, X[:1], y[:1])))
    return out


def fit_once(peer, data):
    """Seconds and peak MB of one fit of ``peer`` on ``data``."""
    peer.prepare(data)
    peer.model = None
    gc.collect()
    with PeakMemory() as memory:
        start = time.perf_counter()
        peer.fit(1.0 / data.n_features)
        seconds = time.perf_counter() - start
    n_sv = peer.n_support()
    peer.release()
    gc.collect()
    return seconds, memory.peak_mb, n_sv


def growth(points):
    """The slope of log(seconds) against log(n) over ``points`` [(n, seconds)]."""
    if len(points) < 2:
        return None
    n, seconds = np.log([p[0] for p in points]), np.log([p[1] for p in points])
    return float(np.polyfit(n, seconds, 1)[0])


def run(args):
    """Fit every size with every library; returns the table rows."""
    peers, skipped = make_peers(args.peers, CLASSIFICATION)
    peers = [peer for peer in peers if peer.label in args.peers]  # svmx's default solver only
    for line in skipped:
        log(f"not run: {line}")
    warm = tiny_dataset(CLASSIFICATION, sparse=False)
    for peer in peers:
        fit_once(peer, warm)
    rows, stopped, timings = [], {}, {}
    for series_name, data in series(args):
        for peer in peers:
            key = (series_name, peer.label)
            if key in stopped:
                rows.append({"data": data.name, "library": peer.label, "note": stopped[key]})
                continue
            log(f"  {data.name}: {peer.label} fit ...")
            try:
                repeats = 2 if peer.label == "svmx" and data.X_train.shape[0] <= 100_000 else 1
                runs = [fit_once(peer, data) for _ in range(repeats)]
            except MemoryError:
                stopped[key] = "skipped: ran out of memory at a smaller size"
                rows.append({"data": data.name, "library": peer.label, "note": "out of memory"})
                continue
            seconds = min(run[0] for run in runs)
            peak = max((run[1] for run in runs if run[1] is not None), default=None)
            log(f"  {data.name}: {peer.label} {seconds:.3g} s, {peak or 0:.0f} MB")
            rows.append({"data": data.name, "library": peer.label, "n": data.X_train.shape[0],
                         "seconds": seconds, "peak_mb": peak, "n_sv": runs[0][2],
                         "series": series_name})
            timings.setdefault(key, []).append((data.X_train.shape[0], seconds))
            if seconds > args.max_seconds:
                stopped[key] = f"skipped: the previous size took {seconds:.0f} s"
    return rows, timings


def report(rows, timings, args):
    """The Markdown report."""
    lines = [
        "# Fit time and peak memory against n (bench_scale.py)",
        "",
        machine_line(),
        "",
        "C-SVC, RBF, C=1, gamma=1/n_features, tol=1e-3, cache 200 MB; seconds of one fit "
        "(svmx: best of 2 up to 100,000 rows) and peak RSS above the start of the fit. A library "
        f"whose fit took more than {args.max_seconds:g} s skips the larger sizes of that series.",
        "",
        "| data | n | library | fit s | svmx / this | peak MB | n_SV |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    ours = {row["data"]: row for row in rows if row["library"] == "svmx" and "seconds" in row}
    for row in rows:
        if "seconds" not in row:
            lines.append(f"| {row['data']} | | {row['library']} | {row['note']} | | | |")
            continue
        reference = ours.get(row["data"])
        ratio = f"{reference['seconds'] / row['seconds']:.2f}" if reference else ""
        peak = f"{row['peak_mb']:.0f}" if row["peak_mb"] is not None else ""
        lines.append(
            f"| {row['data']} | {row['n']:,} | {row['library']} | {row['seconds']:.3g} | "
            f"{ratio} | {peak} | {row['n_sv']:,} |"
        )
    lines += ["", "Growth of fit time (exponent b of time ~ n^b over the sizes run):", ""]
    for (series_name, library), points in sorted(timings.items()):
        slope = growth(points)
        if slope is not None:
            sizes = f"{points[0][0]:,} .. {points[-1][0]:,} rows"
            lines.append(f"- {series_name}, {library}: n^{slope:.2f} ({sizes})")
        else:
            lines.append(f"- {series_name}, {library}: one size only, no exponent")
    return "\n".join(lines) + "\n"


def _sizes(text):
    """A comma-separated list of row counts, each at least 2 ("" for none)."""
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated row counts; got {text!r}"
        ) from None
    if any(size < 2 for size in sizes):
        raise argparse.ArgumentTypeError(f"every size must be at least 2 rows; got {text!r}")
    return sizes


def parse_args(argv=None):
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--peers",
        default="svmx,sklearnex,sklearn,libsvm",
        type=lambda text: [name for name in text.split(",") if name],
        help="comma-separated libraries (default: %(default)s)",
    )
    parser.add_argument(
        "--ijcnn1-sizes",
        type=_sizes,
        default=IJCNN1_SIZES,
        help="training rows of the ijcnn1 series, its first n rows, CSR (default: "
        + ",".join(map(str, IJCNN1_SIZES)) + '; "" for none)',
    )
    parser.add_argument(
        "--synthetic-sizes",
        type=_sizes,
        default=SYNTHETIC_SIZES,
        help="training rows of the synthetic series: 22 dense features in [-1, 1], labels "
        "the sign of a smooth function plus noise (default: "
        + ",".join(map(str, SYNTHETIC_SIZES)) + '; "" for none)',
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=120.0,
        help="a fit longer than this skips the library's larger sizes (default: %(default)s)",
    )
    parser.add_argument("--isa", choices=["sse2", "avx2", "avx512"],
                        help="cap the instruction set as run.py --isa does")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                        help="the shared data folder, for ijcnn1 (default: %(default)s)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT,
                        help="Markdown report (default: %(default)s)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.peers if name not in PEER_NAMES]
    if unknown:
        parser.error(f"unknown peers {unknown}; choose from {PEER_NAMES}")
    if not args.ijcnn1_sizes and not args.synthetic_sizes:
        parser.error("both series are empty: give --ijcnn1-sizes or --synthetic-sizes")
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    if args.isa and os.environ.get("SVMX_ISA") != args.isa:
        sys.exit(rerun_capped(args.isa, argv, __file__))
    make_svmx_importable()
    rows, timings = run(args)
    publish_report(report(rows, timings, args), args.output)


if __name__ == "__main__":
    main()
