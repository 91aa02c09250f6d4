"""Peak memory of fitting a large dense problem with a small kernel cache.

The kernel cache is bounded by ``cache_size`` (MB), so a fit should need little more than
its input: this script fits SVC on 50,000 x 50 float64 random rows with a structured label
and ``cache_size=50``, and prints the peak resident memory above the baseline measured
just before ``fit`` (``/proc/self/status`` VmRSS sampled in a thread, see ``_memory.py``)
against the budget ``X.nbytes + 100 MB``. Linux only.

Usage::

    python benchmarks/bench_memory.py [--rows 50000] [--features 50] [--cache-size 50]
                                      [--solver auto|smo|block] [--estimator SVC|SVR]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _memory import PeakMemory, read_status_kib  # noqa: E402

import svmx  # noqa: E402

BUDGET_MB = 100.0


def make_problem(rows, features, seed=0):
    """Gaussian rows; the label is the sign of a smooth function of three features."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, features))
    score = X[:, 0] + 0.5 * np.sin(2.0 * X[:, 1]) + 0.25 * X[:, 2] ** 2 - 0.25
    score += 0.1 * rng.normal(size=rows)
    return X, np.where(score > 0, 1.0, -1.0), score


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--features", type=int, default=50)
    parser.add_argument("--cache-size", type=float, default=50.0)
    parser.add_argument("--solver", default="auto", choices=["auto", "smo", "block"])
    parser.add_argument("--estimator", default="SVC", choices=["SVC", "SVR"])
    args = parser.parse_args(argv)
    if read_status_kib("VmRSS") is None:
        print("bench_memory: /proc/self/status is not available (Linux only)")
        return 2

    X, labels, score = make_problem(args.rows, args.features)
    estimator = getattr(svmx, args.estimator)(cache_size=args.cache_size, solver=args.solver)
    y = labels if args.estimator == "SVC" else score
    x_mb = X.nbytes / 1e6
    baseline_mb = read_status_kib("VmRSS") * 1024 / 1e6
    start = time.perf_counter()
    with PeakMemory() as memory:
        estimator.fit(X, y)
    elapsed = time.perf_counter() - start
    budget_mb = x_mb + BUDGET_MB
    n_support = int(estimator.support_.size)
    print(f"{args.estimator} solver={args.solver} on {args.rows:,} x {args.features} float64, "
          f"cache_size={args.cache_size:g} MB")
    print(f"  fit: {elapsed:.1f} s, {n_support:,} support vectors, "
          f"n_iter={np.sum(estimator.n_iter_):,}, fit_status={estimator.fit_status_}")
    print(f"  baseline RSS before fit: {baseline_mb:.1f} MB")
    print(f"  peak RSS above baseline: {memory.peak_mb:.1f} MB")
    print(f"  budget: X {x_mb:.1f} MB + {BUDGET_MB:.0f} MB = {budget_mb:.1f} MB -> "
          f"{'within' if memory.peak_mb <= budget_mb else 'OVER'} "
          f"({memory.peak_mb / budget_mb:.2f} x budget)")
    return 0 if memory.peak_mb <= budget_mb else 1


if __name__ == "__main__":
    sys.exit(main())
