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
    "name_support_by_serial",
    "read_data",
    "read_training_gram",
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
    number is dropped and column ``i`` of the result is ``K(x, x_i)``, the kernel value
    against the training sample whose serial number is ``i + 1``.
    """
    # svmx cannot train on or predict infinite or NaN values: the file's line is named.
    if not precomputed:
        return load_svmlight_file(path, zero_based=False, finite=True)
    X, y, _ = _read_precomputed(path)
    return X, y


def _read_precomputed(path: str) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray]:
    """The kernel columns (``K(x, x_i)`` in column ``i - 1``), the labels and the ``0:``
    values of a precomputed-kernel file."""
    X, y = load_svmlight_file(path, zero_based=True, finite=True)
    serial_column = X[:, :1].tocsr() if X.shape[1] else sp.csr_matrix((X.shape[0], 1))
    first = serial_column.toarray().ravel()
    has_serial = np.diff(serial_column.indptr) > 0
    if not np.all(has_serial):
        raise ValueError(
            f"{path}, line {_line_of_row(path, int(np.argmin(has_serial)))}: with a precomputed "
            f"kernel (-t 4) every line needs 0:serial_number first"
        )
    return X[:, 1:].tocsr(), y, first


def read_training_gram(path: str) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray]:
    """A precomputed-kernel training file as svm-train reads it: (K, y, serials).

    Line ``i`` gives sample ``i`` its serial number (``0:s``, from 1 to the largest
    column index) and ``K(x_i, x_t)`` in column ``t``'s serial, so the rows may come in any
    order, and be a subset of the samples the columns cover. ``K[i, j]`` is sample ``i``'s
    value at sample ``j``'s serial; a model trained on it names its support vectors by
    their serials (`name_support_by_serial`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> text = "1 0:2 1:0.5 2:4\\n-1 0:1 1:1 2:0.5\\n"
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "kernel"
    ...     _ = path.write_text(text)
    ...     K, y, serials = read_training_gram(str(path))
    >>> K.toarray().tolist(), serials.tolist()
    ([[4.0, 0.5], [0.5, 1.0]], [2, 1])
    """
    X, y, values = _read_precomputed(path)
    # Checked as floats before the cast: 1e30 does not fit an int64.
    wrong = (values != np.floor(values)) | (values < 1) | (values > X.shape[1])
    if np.any(wrong):
        row = int(np.argmax(wrong))
        raise ValueError(
            f"{path}, line {_line_of_row(path, row)}: the serial number 0:{values[row]:g} must "
            f"be an integer from 1 to the largest kernel index ({X.shape[1]})"
        )
    serials = values.astype(np.int64)
    return X[:, serials - 1].tocsr(), y, serials


def name_support_by_serial(estimator: Any, serials: np.ndarray) -> None:
    """Give a model trained on `read_training_gram`'s matrix the support vectors' serial
    numbers (``support_`` = serial - 1), which its model file writes as ``0:serial``,
    as svm-train's does."""
    support = np.asarray(estimator.support_)
    estimator.support_ = (serials[support] - 1).astype(support.dtype)


def _line_of_row(path: str, row: int) -> int:
    """The line number of data row `row` (0-based) of a file whose blank and comment-only
    lines hold no row."""
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if line.split(b"#", 1)[0].strip():
                if row == 0:
                    return number
                row -= 1
    return number


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
