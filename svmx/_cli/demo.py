"""``svmx demo``: the LIBSVM practical guide's recipe on a 4 x 4 checkerboard, end to end.

No files or network: the data is generated from a fixed seed, so every run prints the same.
"""

from __future__ import annotations

import argparse

import numpy as np

from svmx import SVC
from svmx._cli._options import CommandParser
from svmx.model_selection import GridSearch, libsvm_grid
from svmx.preprocessing import SvmScaler, shuffled_split_indices

__all__ = ["checkerboard", "make_parser", "run"]

DESCRIPTION = """\
Run the whole recipe of LIBSVM's practical guide on a generated 2-D checkerboard (4 x 4
squares, 1000 points, fixed seed): scale to [-1, 1], grid-search C and gamma by 3-fold
cross-validation, train on 75% of the points and report the accuracy on the other 25%. When
matplotlib is installed, draw the decision regions and support vectors."""

SEED = 0
N_POINTS = 1000
N_SQUARES = 4


def checkerboard(n_points: int = N_POINTS, n_squares: int = N_SQUARES,
                 seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """Points uniform in [0, n_squares)^2, labelled +1 / -1 by the colour of their square.

    Examples
    --------
    >>> X, y = checkerboard(4, seed=1)
    >>> X.shape, sorted(set(y.tolist())) <= [-1, 1]
    ((4, 2), True)
    """
    X = np.random.default_rng(seed).uniform(0.0, n_squares, size=(n_points, 2))
    y = np.where(np.floor(X).sum(axis=1) % 2 == 0, 1, -1)
    return X, y


def make_parser(prog: str) -> argparse.ArgumentParser:
    parser = CommandParser(prog=prog, description=DESCRIPTION, add_help=False,
                           allow_abbrev=False, usage="%(prog)s [--output PATH] [-j n_jobs]")
    parser.add_argument("--output", default="svmx-demo.png", metavar="PATH",
                        help="where to write the plot (default svmx-demo.png)")
    parser.add_argument("-j", dest="n_jobs", type=int, default=1, metavar="n_jobs",
                        help="parallel joblib workers for the grid search (default 1)")
    parser.add_argument("--help", action="help", help="show this help message and exit")
    return parser


def _plot(path: str, scaler: SvmScaler, model: SVC, X: np.ndarray, y: np.ndarray) -> bool:
    """Decision regions, points and support vectors; False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    grid = np.linspace(0.0, N_SQUARES, 200)
    xx, yy = np.meshgrid(grid, grid)
    mesh = scaler.transform(np.c_[xx.ravel(), yy.ravel()])
    regions = model.decision_function(mesh).reshape(xx.shape)
    figure, axes = plt.subplots(figsize=(6, 6))
    axes.contourf(xx, yy, regions > 0, levels=1, colors=["#f4c7c3", "#c6dbef"], alpha=0.8)
    axes.contour(xx, yy, regions, levels=[0.0], colors="k", linewidths=1)
    axes.scatter(X[:, 0], X[:, 1], c=np.where(y > 0, "#2166ac", "#b2182b"), s=8)
    vectors = scaler.inverse_transform(model.support_vectors_)
    axes.scatter(vectors[:, 0], vectors[:, 1], s=40, facecolors="none", edgecolors="k",
                 linewidths=0.6, label=f"{len(vectors)} support vectors")
    axes.set_title(f"svmx demo: SVC(C={model.C:g}, gamma={model.gamma:g})")
    axes.legend(loc="upper right")
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return True


def run(args: argparse.Namespace) -> int:
    X, y = checkerboard()
    train, test = shuffled_split_indices(len(y), test_ratio=0.25, seed=SEED)
    print(f"checkerboard: {len(y)} points, {N_SQUARES}x{N_SQUARES} squares, seed {SEED}; "
          f"{train.size} for training, {test.size} held out")
    scaler = SvmScaler(lower=-1.0, upper=1.0).fit(X[train])  # svm-scale, as the guide does
    X_train, X_test = scaler.transform(X[train]), scaler.transform(X[test])
    grid = libsvm_grid(log2c=(3, 13, 5), log2g=(-1, 3, 2))
    print(f"grid search: {len(grid['C'])} values of C x {len(grid['gamma'])} of gamma, "
          "3-fold cross-validation")
    search = GridSearch(SVC(), grid, cv=3, n_jobs=args.n_jobs).fit(X_train, y[train])
    best = search.best_params_
    print(f"best: C={best['C']:g} gamma={best['gamma']:g} "
          f"(cross-validation accuracy {100 * search.best_score_:.1f}%)")
    model = search.best_estimator_
    accuracy = 100.0 * np.mean(model.predict(X_test) == y[test])
    print(f"held-out accuracy: {accuracy:.1f}% with {model.support_.size} support vectors")
    if _plot(args.output, scaler, model, X, y):
        print(f"plot written to {args.output}")
    else:
        print("matplotlib is not installed: skipped the plot")
    return 0
