"""
Solver speed against the number of samples
==========================================

Fit time of :class:`~svmx.svm.SVC` with ``solver="smo"`` (LIBSVM's algorithm) and
``solver="block"`` (svmx's batched solver) as the training set grows, on a generated
two-class problem with 50 features and overlapping classes (about half the rows end up as
support vectors). Both solvers stop at the same optimality gap: the printed numbers of
support vectors and test accuracies agree closely.

This example runs when the documentation is built, so it stays small: up to 6,000
samples and the best of two fits per point, on every core of the machine that built these
pages (``n_jobs=-1``); the printed times are that machine's. SMO's time grows fastest; the
block solver pays a fixed cost for its batches and matrix products and wins on larger
problems, which is why ``solver="auto"`` picks it from 5,000 samples on. Where the two
curves cross depends on the machine and the data. The performance page of the user guide
has the benchmark on real data sets of up to 50,000 rows, measured with
``benchmarks/run.py``.
"""

import os
import time

import matplotlib.pyplot as plt
import numpy as np

from svmx import SVC

rng = np.random.default_rng(0)
n_features = 50
weights = rng.normal(size=n_features)


def make_problem(n_samples):
    """Gaussian rows labelled by a noisy quadratic rule."""
    X = rng.normal(size=(n_samples, n_features))
    score = X @ weights + 0.5 * (X[:, 0] ** 2 - 1) + rng.normal(scale=3.0, size=n_samples)
    return X, (score > 0).astype(int)


def best_fit_time(model, X, y, repeats=2):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        model.fit(X, y)
        times.append(time.perf_counter() - start)
    return min(times)


X_test, y_test = make_problem(2000)
sizes = [500, 1000, 2000, 4000, 6000]
timings = {"smo": [], "block": []}
for n_samples in sizes:
    X, y = make_problem(n_samples)
    for solver, times in timings.items():
        model = SVC(kernel="rbf", solver=solver, n_jobs=-1)
        times.append(best_fit_time(model, X, y))
        print(f"n={n_samples:5d} solver={solver:5s} fit {times[-1]:.3f} s, "
              f"{model.n_support_.sum()} SVs, test accuracy {model.score(X_test, y_test):.3f}")

fig, ax = plt.subplots(figsize=(7, 5))
for solver, times in timings.items():
    ax.loglog(sizes, times, "o-", label=f'solver="{solver}"')
# A line of slope 2 (time proportional to n squared) for reference.
reference = timings["smo"][0] * (np.array(sizes) / sizes[0]) ** 2
ax.loglog(sizes, reference, "k:", label="proportional to n²")
ax.set_xlabel("training samples")
ax.set_ylabel("fit time (s), best of 2")
ax.set_title(f"RBF SVC fit time, {n_features} features, {os.cpu_count()} CPUs")
ax.legend()
ax.grid(True, which="both", alpha=0.3)
fig.tight_layout()
plt.show()
