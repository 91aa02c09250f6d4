"""Reading LIBSVM data files for the command line, and building estimators from svm-train options.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import scipy.sparse as sp

import svmx
from svmx._cli._options import model_option_problem
from svmx.datasets import load_svmlight_file

__all__ = [
    "ESTIMATORS",
    "build_estimator",
    "fit_width",
    "is_classifier",
    "libsvm_class_order",
    "read_data",
]

# svm-train's -s and -t numbers.
ESTIMATORS = (svmx.SVC, svmx.NuSVC, svmx.OneClassSVM, svmx.SVR, svmx.NuSVR)
KERNELS = ("linear", "poly", "rbf", "sigmoid", "precomputed")


def is_classifier(svm_type: int) -> bool:
    """Whether ``-s svm_type`` is C-SVC or nu-SVC."""
    return svm_type in (0, 1)


def libsvm_class_order(y: np.ndarray) -> list:
    """The classes in svm-train's order: by first appearance in the training file,
    except that two classes -1 and +1 with -1 first are swapped, so that +1 is the
    positive class of the binary problem (LIBSVM's ``svm_group_classes``).

    Examples
    --------
    >>> libsvm_class_order(np.array([3.0, 1.0, 3.0, 2.0]))
    [3.0, 1.0, 2.0]
    >>> libsvm_class_order(np.array([-1.0, 1.0, 1.0]))
    [1.0, -1.0]
    """
    _, first = np.unique(y, return_index=True)
    order = y[np.sort(first)].tolist()
    if order == [-1, 1]:
        order.reverse()
    return order


def read_data(path: str, precomputed: bool = False) -> tuple[sp.csr_matrix, np.ndarray]:
    """Read a LIBSVM data file (1-based indices).

    For a precomputed kernel, each line is ``label 0:serial 1:K(x, x_1) ...``: the serial
    number is dropped and column ``i`` of the result is ``K(x, x_i)``.
    """
    # svmx cannot train on or predict infinite or NaN values: the file's line is named.
    if not precomputed:
        return load_svmlight_file(path, zero_based=False, finite=True)
    X, y = load_svmlight_file(path, zero_based=True, finite=True)
    if X.shape[1] == 0 or X[:, 0].nnz != X.shape[0]:
        raise ValueError(
            f"{path}: with a precomputed kernel (-t 4) every line needs 0:serial_number first"
        )
    return X[:, 1:].tocsr(), y


def fit_width(X: sp.csr_matrix, n_features: int) -> sp.csr_matrix:
    """X with exactly ``n_features`` columns: missing ones are zero, extra ones must be empty."""
    if X.shape[1] == n_features:
        return X
    if X.shape[1] < n_features:
        return sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], n_features))
    raise ValueError(f"the data has {X.shape[1]} features but the model uses {n_features}")


def widen_model(model: Any, n_features: int) -> None:
    """Give a loaded model zero-valued extra features so it accepts wider data.

    A model file only lists the non-zero features of its support vectors; LIBSVM's kernels
    still see every feature of the test vector (e.g. in |x|^2 for the RBF kernel), which zero
    columns in the support vectors reproduce exactly.
    """
    extra = n_features - model.n_features_in_
    if extra > 0 and model.kernel != "precomputed":
        vectors = model.support_vectors_
        if sp.issparse(vectors):  # wider in name only: no entry is copied
            model.support_vectors_ = fit_width(sp.csr_matrix(vectors), n_features)
        else:
            model.support_vectors_ = np.pad(vectors, ((0, 0), (0, extra)))
        model.n_features_in_ = n_features
        model.shape_fit_ = (model.shape_fit_[0], n_features)


def build_estimator(args: argparse.Namespace, n_features: int,
                    class_weight: dict | None = None, verbose: bool = False,
                    random_state: Any = 0) -> Any:
    """The svmx estimator that svm-train's options describe (gamma default 1/num_features).

    ``n_features`` is svm-train's num_features: the largest feature index in the
    training file. Options that svm_check_parameter refuses raise ValueError
    (`model_option_problem`). The solver is SMO, LIBSVM's; ``verbose`` prints its output, as
    svm-train does without ``-q``. ``random_state`` shuffles the folds of the
    classifiers' probability cross-validation (svm-train: a GlibcRand).
    """
    problem = model_option_problem(args)
    if problem is not None:
        raise ValueError(problem)
    kind = ESTIMATORS[args.svm_type]
    # svm-train: "-g 0" (its default) means 1/num_features.
    gamma = args.gamma if args.gamma else 1.0 / max(n_features, 1)
    # Only the polynomial kernel reads the degree (and only its model file stores it).
    degree = args.degree if args.kernel_type == 1 else max(args.degree, 0)
    params: dict[str, Any] = {
        "kernel": KERNELS[args.kernel_type], "degree": degree, "gamma": gamma,
        "coef0": args.coef0, "tol": args.tolerance, "cache_size": args.cache_size,
        "shrinking": bool(args.shrinking), "verbose": verbose, "solver": "smo",
        # one-vs-one pairs side by side on every core: the model does not depend on it
        "n_jobs": -1,
    }
    if args.svm_type in (0, 3, 4):
        params["C"] = args.cost
    if args.svm_type in (1, 2, 4):
        params["nu"] = args.nu
    if args.svm_type == 3:
        params["epsilon"] = args.epsilon
    if is_classifier(args.svm_type):
        params.update(probability=bool(args.probability), class_weight=class_weight,
                      random_state=random_state)
    estimator = kind(**params)
    estimator._show_fit_status = False  # svm-train's output only, no progress line
    return estimator
