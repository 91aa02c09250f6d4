"""Grid search at the speed of a few fits: svmx's grouped search against scikit-learn's.

LIBSVM's practical-guide grid (``grid.py``'s default: log2 C = -5..15 step 2, log2 gamma =
3..-15 step -2, 110 candidates) with 5 stratified folds (plain 5-fold for regression), the
same folds for every search, the same ``n_jobs``:

* ``sklearn``: ``sklearn.model_selection.GridSearchCV(sklearn.svm.SVC())`` (or SVR);
* ``svmx cold``: ``svmx.model_selection.GridSearch(svmx.SVC(), share_kernels=False)``, one
  task per (candidate, fold), each fit from scratch, as every peer does;
* ``svmx``: ``GridSearch(svmx.SVC())``: one task per gamma, its Gram matrix computed once
  for all folds and C values, each fold's C values warm-started in increasing order.

Each search runs ``--repeats`` times (default 3) and its fastest run counts, the same for
all three: one run's time on a shared machine varies by up to 30%.

The report prints, per dataset, the wall time of each search, the ratios sklearn / svmx
(target >= 10) and svmx cold / svmx (target >= 5), whether the best parameters are
identical, and the largest difference of any candidate's mean CV score from
scikit-learn's (target <= 0.01). The machine line heads the report.

Data (``../shared/data``; skipped with a message when absent): dna.scale, svmguide1 (scaled
to [-1, 1] as svm-scale does), pendigits (scaled by 1/100) and housing_scale (SVR);
``--rows`` takes every k-th row down to that many, spread over the file where k would
be 1 (default 1,000), ``--quick`` 300 rows.

Usage (from the project root)::

    python benchmarks/bench_grid.py                     # four datasets, 1,000 rows each
    python benchmarks/bench_grid.py --datasets dna --rows 2000 --jobs 2
"""

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cli import machine_line  # noqa: E402

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DATASETS = {
    "dna": ("dna.scale", "classification"),
    "svmguide1": ("svmguide1", "classification"),
    "pendigits": ("pendigits", "classification"),
    "housing": ("housing_scale", "regression"),
}


def libsvm_default_grid():
    return {"C": [2.0 ** e for e in range(-5, 16, 2)],
            "gamma": [2.0 ** e for e in range(3, -16, -2)]}


def load(name, rows):
    from svmx.datasets import load_svmlight_file

    path = SHARED / DATASETS[name][0]
    if not path.exists():
        return None
    X, y = load_svmlight_file(str(path))
    X = X.toarray()
    if name == "svmguide1":
        low, high = X.min(axis=0), X.max(axis=0)
        X = 2.0 * (X - low) / np.where(high > low, high - low, 1.0) - 1.0
    elif name == "pendigits":
        X = X / 100.0
    # Every k-th row (k = n // rows); where k would be 1, rows spread evenly over the file,
    # not its prefix: a file sorted by class (svmguide1) keeps every class at any count.
    n, step = X.shape[0], X.shape[0] // max(rows, 1)
    keep = (np.arange(n) if rows >= n else np.arange(rows) * step if step >= 2
            else (np.arange(rows) * n) // rows)
    return np.ascontiguousarray(X[keep]), y[keep]


def searches(kind, folds, jobs):
    import sklearn.svm
    from sklearn.model_selection import GridSearchCV

    import svmx
    from svmx.model_selection import GridSearch

    grid = libsvm_default_grid()
    peer = sklearn.svm.SVC() if kind == "classification" else sklearn.svm.SVR()
    mine = svmx.SVC() if kind == "classification" else svmx.SVR()
    return {
        "sklearn": lambda: GridSearchCV(peer, grid, cv=folds, n_jobs=jobs, refit=False),
        "svmx cold": lambda: GridSearch(mine, grid, cv=folds, n_jobs=jobs, refit=False,
                                        share_kernels=False),
        "svmx": lambda: GridSearch(mine, grid, cv=folds, n_jobs=jobs, refit=False),
    }


def best_params(search):
    results = search.cv_results_
    return results["params"][int(np.argmin(results["rank_test_score"]))]


def run(name, rows, jobs, repeat=1):
    from sklearn.model_selection import KFold, StratifiedKFold

    data = load(name, rows)
    if data is None:
        print(f"| {name} | skipped: {SHARED / DATASETS[name][0]} is absent | | | | | |")
        return True
    X, y = data
    kind = DATASETS[name][1]
    splitter = (StratifiedKFold(5, shuffle=True, random_state=0) if kind == "classification"
                else KFold(5, shuffle=True, random_state=0))
    folds = list(splitter.split(X, y))
    seconds, fitted = {}, {}
    for label, make in searches(kind, folds, jobs).items():
        for _ in range(repeat):  # the fastest of `repeat` runs: this machine's noise is large
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # max_iter warnings of the largest C
                fitted[label] = make().fit(X, y)
            elapsed = time.perf_counter() - start
            seconds[label] = min(seconds.get(label, elapsed), elapsed)
        print(f"  {name}: {label} {seconds[label]:.2f} s", file=sys.stderr, flush=True)
    peer_ratio = seconds["sklearn"] / seconds["svmx"]
    cold_ratio = seconds["svmx cold"] / seconds["svmx"]
    same = best_params(fitted["svmx"]) == best_params(fitted["sklearn"])
    gap = float(np.max(np.abs(fitted["svmx"].cv_results_["mean_test_score"]
                              - fitted["sklearn"].cv_results_["mean_test_score"])))
    met = peer_ratio >= 10 and cold_ratio >= 5 and same and gap <= 0.01
    print(f"| {name} | {X.shape[0]} x {X.shape[1]} | {seconds['sklearn']:.3f} | "
          f"{seconds['svmx cold']:.3f} | {seconds['svmx']:.3f} | {peer_ratio:.1f} | "
          f"{cold_ratio:.1f} | {'yes' if same else 'NO'} {best_params(fitted['svmx'])} | "
          f"{gap:.4f} | {'met' if met else 'NOT met'} |", flush=True)
    return met


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="300 rows: a smoke test")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each search; the fastest counts (default 3)")
    args = parser.parse_args(argv)
    rows = 300 if args.quick else args.rows
    print(f"machine: {machine_line()}")
    print(f"grid: LIBSVM's default, 110 candidates x 5 folds; n_jobs={args.jobs} for every "
          f"search; at most {rows} rows per dataset; each search's fastest of "
          f"{max(1, args.repeats)} runs")
    print()
    print("| dataset | rows x features | sklearn s | svmx cold s | svmx s | sklearn/svmx "
          "(>= 10) | cold/svmx (>= 5) | same best | max mean-score diff (<= 0.01) | target |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    results = [run(name, rows, args.jobs, max(1, args.repeats))
               for name in args.datasets.split(",")]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
