"""cross_validate with kernel values shared across its folds, against per-fold fits.

Per data set, in one process, best of ``--repeats`` interleaved rounds, 5 stratified
folds (plain 5-fold for regression), gamma = 1 / n_features, C = 1:

* ``per fold``: ``svmx.model_selection.cross_validate(..., share_kernels=False)``: every
  fold fitted on its own rows, computing its own kernel columns (what scikit-learn does);
* ``shared``: ``cross_validate(...)`` (the default): where rows store enough entries
  (``svmx._shared_gram.kernel_values_dear``), one Gram matrix per worker serves the
  folds, which are solved in the binding; elsewhere the same per-fold fits;
* ``sklearn``: ``sklearn.model_selection.cross_validate(sklearn.svm.SVC(...))``, when
  scikit-learn is installed.

It prints the seconds, per fold / shared, sklearn / shared, whether svmx shared the
kernels, and the largest difference between the two svmx runs' fold scores (which must be
0 up to rounding). The machine line heads the report.

Data (``../shared/data``, skipped with a message when absent): dna.scale (CSR, 45 stored
entries a row), a9a (dense, 123 features), mnist_5k (dense, 784 features, scaled by
1/255), and two where per-fold fits are kept: pendigits (16 features) and a9a as CSR (14
entries a row); the first ``--rows`` rows (default 2,000).

Usage (from the project root)::

    python benchmarks/bench_cross_validate.py
    python benchmarks/bench_cross_validate.py --datasets dna --rows 1000 --repeats 1
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cli import machine_line  # noqa: E402

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
# name: (file, dense, scale)
DATASETS = {
    "dna": ("dna.scale", False, 1.0),
    "a9a dense": ("a9a", True, 1.0),
    "mnist_5k": ("mnist_5k.libsvm", True, 1.0 / 255),
    "pendigits": ("pendigits", True, 0.01),
    "a9a sparse": ("a9a", False, 1.0),
}


def load(name, rows):
    from svmx.datasets import load_svmlight_file

    file, dense, scale = DATASETS[name]
    path = SHARED / file
    if not path.exists():
        return None
    X, y = load_svmlight_file(str(path))
    X, y = X[:rows] * scale, y[:rows]
    return (X.toarray() if dense else X.tocsr()), y


def run(name, rows, repeats, jobs):
    import svmx
    from svmx.model_selection import StratifiedKFold, cross_validate
    from svmx.model_selection._kernel_groups import plan_shared_folds
    from svmx.model_selection._validation import FitOptions

    data = load(name, rows)
    if data is None:
        print(f"| {name} | skipped: {DATASETS[name][0]} not in ../shared/data | | | | | | |",
              flush=True)
        return
    X, y = data
    estimator = svmx.SVC(gamma=1.0 / X.shape[1])
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    shares = plan_shared_folds(estimator, X, list(cv.split(X, y)), None, {}, FitOptions(),
                               jobs) is not None
    runs = {
        "per fold": lambda: cross_validate(estimator, X, y, cv=cv, n_jobs=jobs,
                                           share_kernels=False),
        "shared": lambda: cross_validate(estimator, X, y, cv=cv, n_jobs=jobs),
    }
    try:
        import sklearn.model_selection
        import sklearn.svm

        runs["sklearn"] = lambda: sklearn.model_selection.cross_validate(
            sklearn.svm.SVC(gamma=1.0 / X.shape[1]), X, y, cv=cv, n_jobs=jobs)
    except ImportError:
        pass
    best, scores = {}, {}
    for _ in range(repeats):
        for label, call in runs.items():
            start = time.perf_counter()
            scores[label] = call()["test_score"]
            best[label] = min(best.get(label, np.inf), time.perf_counter() - start)
    gap = float(np.abs(scores["shared"] - scores["per fold"]).max())
    sklearn_cells = (f"{best['sklearn']:.3f} | {best['sklearn'] / best['shared']:.2f}"
                     if "sklearn" in best else "| ")
    print(f"| {name} | {X.shape[0]} x {X.shape[1]} | {'yes' if shares else 'no'} | "
          f"{best['per fold']:.3f} | {best['shared']:.3f} | "
          f"{best['per fold'] / best['shared']:.2f} | {sklearn_cells} | {gap:.1e} |",
          flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS),
                        help=f"comma-separated (default: {','.join(DATASETS)})")
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1, help="n_jobs of every run")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.datasets.split(",") if name.strip()]
    unknown = [name for name in names if name not in DATASETS]
    if unknown:
        parser.error(f"unknown datasets {unknown}; known: {list(DATASETS)}")
    print(f"machine: {machine_line()}")
    print(f"5-fold cross_validate, SVC(gamma=1/n_features, C=1), n_jobs={args.jobs}, "
          f"best of {args.repeats} interleaved rounds\n")
    print("| dataset | rows x features | shared | per fold s | shared s | per fold / shared "
          "| sklearn s | sklearn / shared | max score diff |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        run(name, args.rows, args.repeats, args.jobs)


if __name__ == "__main__":
    main()
