"""Fit and predict times of svmx.SVC next to its peers, on the shared LIBSVM data sets.

Every library runs in this one process on the same dense float64 arrays with the same
parameters: C-SVC, RBF kernel, C=1, gamma=1/n_features, tol=1e-3, cache_size=200 MB. Data is
loaded (and, for LIBSVM, converted to its own structures) before the clock starts, and each
library is warmed up once on a tiny problem so that import and first-call costs are not timed.

Peers: scikit-learn's ``SVC``, LIBSVM itself (``libsvm-official``) and, when importable,
scikit-learn-intelex (``sklearnex.svm.SVC``). A ratio is ``svmx time / peer time``, so a value
<= 1.0 means svmx is at least as fast as that peer.

Usage::

    python benchmarks/bench_svc.py --quick
    python benchmarks/bench_svc.py --datasets dna mushrooms --repeat 3

BLAS and OpenMP are limited to one thread by default (``--threads``, via threadpoolctl), so that
svmx, scikit-learn and LIBSVM are compared single-threaded: the pip build of LIBSVM uses OpenMP,
and idle OpenBLAS or OpenMP workers left spinning by one library slow down the next one measured
in the same process. scikit-learn-intelex keeps its own (TBB) threads.

The table is printed to stdout and written to ``benchmarks/results/bench_svc.md``; progress goes
to stderr.
"""

import argparse
import contextlib
import importlib
import os
import platform
import sys
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DATA_DIR = BENCH_DIR.parent.parent / "shared" / "data"
DEFAULT_OUTPUT = BENCH_DIR / "results" / "bench_svc.md"

# Benchmark the working tree's in-place build (python setup.py build_ext --inplace), not
# whatever svmx happens to be installed.
sys.path.insert(0, str(BENCH_DIR.parent))

QUICK_DATASETS = ["heart_scale", "dna", "mushrooms", "svmguide1"]
ALL_DATASETS = QUICK_DATASETS + ["a9a", "ijcnn1"]
C, TOL, CACHE_SIZE = 1.0, 1e-3, 200.0


def log(message):
    print(message, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------------------
# Data: every loader returns dense float64 (X_train, y_train, X_test, y_test)
# ----------------------------------------------------------------------------------------------


def _read(data_dir, name, n_features=None):
    X, y = load_svmlight_file(str(data_dir / name), n_features=n_features, dtype=np.float64)
    return np.ascontiguousarray(X.toarray()), y


def _split_every(k, X, y):
    """Every k-th row (index k-1, 2k-1, ...) goes to the test set."""
    is_test = np.arange(len(y)) % k == k - 1
    return X[~is_test], y[~is_test], X[is_test], y[is_test]


def _scale_to_unit_box(X_train, X_test):
    """Map features to [-1, 1] with the training minima and maxima, as svm-scale does."""
    low, high = X_train.min(axis=0), X_train.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    return 2 * (X_train - low) / span - 1, 2 * (X_test - low) / span - 1


def load_dataset(name, data_dir):
    if name == "heart_scale":
        X, y = _read(data_dir, "heart_scale")
        return X, y, X, y
    if name == "dna":
        return (*_read(data_dir, "dna.scale", 180), *_read(data_dir, "dna.scale.t", 180))
    if name == "mushrooms":
        return _split_every(4, *_read(data_dir, "mushrooms"))
    if name == "svmguide1":
        (X_train, y_train), (X_test, y_test) = (
            _read(data_dir, "svmguide1", 4),
            _read(data_dir, "svmguide1.t", 4),
        )
        X_train, X_test = _scale_to_unit_box(X_train, X_test)
        return X_train, y_train, X_test, y_test
    if name == "a9a":
        return (*_read(data_dir, "a9a", 123), *_read(data_dir, "a9a.t", 123))
    if name == "ijcnn1":
        return _split_every(5, *_read(data_dir, "ijcnn1", 22))
    raise ValueError(f"unknown dataset {name!r}; choose from {ALL_DATASETS}")


# ----------------------------------------------------------------------------------------------
# Libraries: each adapter prepares data untimed, then exposes fit() and predict()
# ----------------------------------------------------------------------------------------------


class EstimatorAdapter:
    """A scikit-learn-compatible SVC class (svmx, scikit-learn, scikit-learn-intelex)."""

    def __init__(self, label, module, class_name="SVC"):
        self.label = label
        self.estimator_class = getattr(importlib.import_module(module), class_name)
        self.model = None

    def prepare(self, X_train, y_train, X_test):
        self.X_train, self.y_train, self.X_test = X_train, y_train, X_test

    def fit(self, gamma):
        self.model = self.estimator_class(
            C=C, kernel="rbf", gamma=gamma, tol=TOL, cache_size=CACHE_SIZE
        ).fit(self.X_train, self.y_train)

    def predict(self):
        return np.asarray(self.model.predict(self.X_test))

    def n_support(self):
        return int(np.sum(self.model.n_support_))


class LibsvmAdapter:
    """LIBSVM's own Python interface; the data is converted to svm_node arrays before timing."""

    label = "libsvm"

    def __init__(self):
        from libsvm import svmutil

        self.svmutil = svmutil
        self.model = None

    def prepare(self, X_train, y_train, X_test):
        self.problem = self.svmutil.svm_problem(y_train, sp.csr_matrix(X_train))
        # svm_predict converts rows one by one whatever the input; CSR is its fastest path.
        self.X_test = sp.csr_matrix(X_test)
        self.y_test = np.zeros(X_test.shape[0])

    def fit(self, gamma):
        options = f"-s 0 -t 2 -c {C!r} -g {gamma!r} -e {TOL!r} -m {CACHE_SIZE!r} -q"
        self.model = self.svmutil.svm_train(self.problem, self.svmutil.svm_parameter(options))

    def predict(self):
        labels, _, _ = self.svmutil.svm_predict(self.y_test, self.X_test, self.model, "-q")
        return np.asarray(labels)

    def n_support(self):
        return int(self.model.get_nr_sv())


def make_adapters():
    """The libraries that can be imported here, svmx first."""
    factories = [
        ("svmx", lambda: EstimatorAdapter("svmx", "svmx")),
        ("sklearn", lambda: EstimatorAdapter("sklearn", "sklearn.svm")),
        ("libsvm", LibsvmAdapter),
        ("sklearnex", lambda: EstimatorAdapter("sklearnex", "sklearnex.svm")),
    ]
    adapters = []
    for label, factory in factories:
        try:
            adapters.append(factory())
        except (ImportError, AttributeError) as error:
            log(f"skipping {label}: {error}")
    return adapters


def warm_up(adapter):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    adapter.prepare(X, y, X)
    adapter.fit(1.0 / 3)
    adapter.predict()


def best_time(function, repeat):
    """Minimum wall-clock time of `repeat` calls, and the last call's result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def bench_dataset(name, data_dir, adapters, repeat):
    X_train, y_train, X_test, y_test = load_dataset(name, data_dir)
    gamma = 1.0 / X_train.shape[1]
    rows = []
    for adapter in adapters:
        adapter.prepare(X_train, y_train, X_test)
        log(f"  {name}: {adapter.label} fit ...")
        fit_seconds, _ = best_time(lambda a=adapter: a.fit(gamma), repeat)
        predict_seconds, predicted = best_time(adapter.predict, repeat)
        rows.append(
            {
                "dataset": name,
                "shape": f"{X_train.shape[0]} x {X_train.shape[1]}",
                "library": adapter.label,
                "fit": fit_seconds,
                "predict": predict_seconds,
                "accuracy": float(np.mean(predicted == y_test)),
                "n_sv": adapter.n_support(),
            }
        )
        log(f"  {name}: {adapter.label} fit {fit_seconds:.3f} s, predict {predict_seconds:.3f} s")
        adapter.model = None  # free the model before the next library runs
    return rows


# ----------------------------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------------------------


def _ratio(svmx_seconds, peer_seconds):
    if svmx_seconds is None or peer_seconds <= 0:
        return "n/a"
    return f"{svmx_seconds / peer_seconds:.2f}"


def render_table(rows, repeat, threads):
    svmx_times = {row["dataset"]: row for row in rows if row["library"] == "svmx"}
    lines = [
        "# svmx.SVC benchmark",
        "",
        f"C-SVC, RBF, C={C:g}, gamma=1/n_features, tol={TOL:g}, cache_size={CACHE_SIZE:g} MB; "
        f"dense float64 input; best of {repeat} run(s). Ratio = svmx time / peer time "
        "(<= 1.00 means svmx is at least as fast). libsvm predict includes svm_predict's "
        "per-row conversion of its input. "
        f"BLAS/OpenMP threads: {threads or 'library defaults'} "
        "(scikit-learn-intelex uses its own).",
        "",
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs, {_versions()}",
        "",
        "| dataset | n_train x n_features | library | fit s | fit ratio | predict s "
        "| predict ratio | test accuracy | n_SV |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        reference = svmx_times.get(row["dataset"])
        lines.append(
            f"| {row['dataset']} | {row['shape']} | {row['library']} | {row['fit']:.3f} "
            f"| {_ratio(reference and reference['fit'], row['fit'])} | {row['predict']:.3f} "
            f"| {_ratio(reference and reference['predict'], row['predict'])} "
            f"| {row['accuracy']:.4f} | {row['n_sv']} |"
        )
    return "\n".join(lines) + "\n"


def _versions():
    """Installed versions of the benchmarked distributions."""
    parts = []
    try:  # svmx is usually built in place rather than installed
        parts.append(f"svmx {importlib.import_module('svmx._version').__version__}")
    except ImportError:
        pass
    for distribution in ["scikit-learn", "libsvm-official", "scikit-learn-intelex"]:
        try:
            parts.append(f"{distribution} {metadata.version(distribution)}")
        except metadata.PackageNotFoundError:
            continue
    return ", ".join(parts)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--datasets",
        nargs="+",
        choices=ALL_DATASETS,
        metavar="NAME",
        help=f"data sets to run (default: all of {', '.join(ALL_DATASETS)})",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"only the small data sets ({', '.join(QUICK_DATASETS)})",
    )
    parser.add_argument("--repeat", type=int, default=1, help="timed runs per step; best kept")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="BLAS and OpenMP threads for every library (threadpoolctl); 0 leaves the defaults",
    )
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.datasets is None:
        args.datasets = QUICK_DATASETS if args.quick else ALL_DATASETS
    elif args.quick:
        args.datasets = [name for name in args.datasets if name in QUICK_DATASETS]
    return args


def _limit_threads(n_threads):
    """A context limiting BLAS and OpenMP to `n_threads` threads (no limit when 0)."""
    if n_threads == 0:
        return contextlib.nullcontext()
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=n_threads)


def main(argv=None):
    args = parse_args(argv)
    if not args.data_dir.is_dir():
        sys.exit(f"data directory {args.data_dir} not found: the data is on the team's machines")
    adapters = make_adapters()  # import first: threadpoolctl only limits loaded libraries
    with _limit_threads(args.threads):
        for adapter in adapters:
            log(f"warming up {adapter.label}")
            warm_up(adapter)

        rows = []
        for name in args.datasets:
            log(f"{name}: loading")
            rows.extend(bench_dataset(name, args.data_dir, adapters, args.repeat))

    table = render_table(rows, args.repeat, args.threads)
    print(table)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(table)
    log(f"table written to {args.output}")


if __name__ == "__main__":
    main()
