"""Threads inside a parallel search: svmx's default against an oversubscribed fit.

``GridSearchCV(svmx.SVC(), n_jobs=k)`` runs its fits in k joblib worker processes. svmx's
default ``n_jobs=None`` takes the cores the process may use within the OpenMP limit in
force, and joblib gives each worker a limit of cores / k, so each fit runs
``cores // k`` threads. This script measures the search three ways on the same folds:

* ``default``: the estimator's default, inside ``GridSearchCV(n_jobs=k)``;
* ``oversubscribed``: every fit forced to all the cores (``n_jobs=cores``), k of them at
  once, which is what a default of "all cores, ignoring limits" would do;
* ``sequential``: ``GridSearchCV(n_jobs=1)``, one fit at a time with every core.

It reports the wall time of each, the threads each fit used (recorded inside the workers;
the target: cores // k under the default, and the same best parameters) and the ratio of
the default's wall time to the oversubscribed search's.
The data is generated: a binary problem of ``--rows`` rows and 20 features; with the
default 8,000 rows each training fold has 6,000, so ``solver='auto'`` takes the block
solver, whose kernel blocks and gradient updates are OpenMP loops.

Usage (from the project root)::

    python benchmarks/bench_threads.py                 # 8,000 rows, k = 2, best of 2
    python benchmarks/bench_threads.py --rows 3000 --repeat 1 --jobs 2
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cli import machine_line  # noqa: E402


def make_problem(rows, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, 20))
    score = X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) + 0.3 * rng.normal(size=rows)
    y = (score > 0).astype(int)
    return X, y


def recording_svc():
    import svmx

    class RecordingSVC(svmx.SVC):  # local: sent to the workers by value
        def fit(self, X, y, sample_weight=None):
            self.threads_used_ = self._solve_spec().threads
            return super().fit(X, y, sample_weight)

    return RecordingSVC


GRID = {"C": [1.0, 10.0], "gamma": [0.02, 0.05]}


def run_search(X, y, estimator_jobs, search_jobs, folds):
    """One GridSearchCV (refit=False: only the parallel part) and the threads its fits use."""
    from sklearn.model_selection import GridSearchCV, cross_validate

    model = recording_svc()(n_jobs=estimator_jobs)
    started = time.perf_counter()
    search = GridSearchCV(model, GRID, cv=folds, n_jobs=search_jobs, refit=False).fit(X, y)
    seconds = time.perf_counter() - started
    # The same fits' thread counts, recorded inside the workers (not timed).
    recorded = cross_validate(model, X, y, cv=folds, n_jobs=search_jobs,
                              return_estimator=True)["estimator"]
    best = search.cv_results_["params"][int(np.argmax(search.cv_results_["mean_test_score"]))]
    return {"seconds": seconds, "threads": sorted({fit.threads_used_ for fit in recorded}),
            "best": best}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=8000)
    parser.add_argument("--jobs", type=int, default=2, help="the search's n_jobs (k)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    from sklearn.model_selection import StratifiedKFold

    from svmx._specs import available_cores

    cores = available_cores()
    X, y = make_problem(args.rows)
    folds = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    configurations = {
        "default": (None, args.jobs),
        "oversubscribed": (cores, args.jobs),
        "sequential": (None, 1),
    }
    print(f"machine: {machine_line()}")
    print(f"data: {args.rows} x 20, 2 classes; GridSearchCV over {GRID}, 4 folds = 16 fits "
          f"per search (refit=False); best of {args.repeat}")
    print()
    print("| search | estimator n_jobs | search n_jobs | threads per fit | wall s | best |")
    print("| --- | --- | --- | --- | --- | --- |")
    measured = {}
    for name, (estimator_jobs, search_jobs) in configurations.items():
        runs = [run_search(X, y, estimator_jobs, search_jobs, folds)
                for _ in range(args.repeat)]
        fastest = min(runs, key=lambda run: run["seconds"])
        measured[name] = fastest
        print(f"| {name} | {estimator_jobs} | {search_jobs} | "
              f"{', '.join(map(str, fastest['threads']))} | {fastest['seconds']:.2f} | "
              f"{fastest['best']} |", flush=True)
    ratio = measured["default"]["seconds"] / measured["oversubscribed"]["seconds"]
    same = measured["default"]["best"] == measured["oversubscribed"]["best"]
    share = max(1, cores // args.jobs)
    met = measured["default"]["threads"] == [share] and same
    print()
    print(f"threads per fit under the default: {measured['default']['threads']} "
          f"(cores {cores} // search n_jobs {args.jobs} = {share}): "
          f"{'met' if met else 'NOT met'} (no oversubscription, same best parameters)")
    print(f"default / oversubscribed wall time: {ratio:.2f} (information: on few cores "
          "the extra threads of an oversubscribed search can fill the cores while the "
          "other worker is in its serial parts; on many cores k workers x all cores "
          "threads contend at every OpenMP barrier)")
    return 0 if met else 1


if __name__ == "__main__":
    os.environ.pop("OMP_NUM_THREADS", None)
    sys.exit(main())
