"""Writing a fitted svmx estimator as a LIBSVM model file (``svm_save_model``'s format)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx.exceptions import NotFittedError
from svmx.io._model_format import (
    CLASSIFIERS,
    KERNEL_NAMES,
    KERNEL_PARAMETERS,
    SVM_TYPES,
    reorder_classes,
)

__all__ = ["format_model", "save_model"]


def _numbers(values: Any) -> str:
    return " ".join(f"{float(value):.17g}" for value in np.ravel(values))


def _integral_labels(classes: np.ndarray) -> list[int]:
    """LIBSVM stores class labels as C ints; anything else cannot be written."""
    if classes.dtype.kind not in "biuf":
        raise ValueError(
            f"LIBSVM model files need numeric class labels; this model's classes are "
            f"{classes.tolist()!r} (dtype {classes.dtype}). Encode them as integers first."
        )
    as_float = classes.astype(np.float64)
    if not np.all(as_float == np.round(as_float)) or np.any(np.abs(as_float) > 2**31 - 1):
        raise ValueError(
            f"LIBSVM model files store class labels as 32-bit integers; got {classes.tolist()!r}"
        )
    return [int(label) for label in as_float]


def _check_fitted(estimator: Any) -> str:
    formulation = getattr(estimator, "_formulation", None)
    if formulation not in SVM_TYPES:
        raise TypeError(
            "save_model needs one of svmx's SVC, NuSVC, OneClassSVM, SVR or NuSVR; "
            f"got {type(estimator).__name__}"
        )
    if not hasattr(estimator, "_dual_coef_"):
        raise NotFittedError(
            f"this {type(estimator).__name__} is not fitted yet; call fit first"
        )
    if callable(estimator.kernel):
        raise ValueError("a model with a callable kernel cannot be written as a LIBSVM file")
    return formulation


def _in_class_order(estimator: Any, class_order: Any) -> dict:
    """The classifier's layout with its classes in ``class_order`` (default: as fitted)."""
    layout = {
        "classes": np.asarray(estimator.classes_),
        "order": np.arange(estimator._dual_coef_.shape[1]),
        "n_support": np.asarray(estimator._n_support),
        "dual_coef": np.asarray(estimator._dual_coef_, dtype=np.float64),
        "rho": -np.asarray(estimator._intercept_, dtype=np.float64),
        "prob_a": np.asarray(estimator.probA_, dtype=np.float64),
        "prob_b": np.asarray(estimator.probB_, dtype=np.float64),
    }
    if class_order is None:
        return layout
    wanted = list(class_order)
    current = layout["classes"].tolist()
    try:
        rank = np.array([wanted.index(label) for label in current])
    except ValueError:
        rank = None
    if rank is None or len(wanted) != len(current) or len(set(rank.tolist())) != len(current):
        raise ValueError(f"class_order must list each of the classes {current} once; got {wanted}")
    return reorder_classes(
        layout["classes"], layout["n_support"], layout["dual_coef"], layout["rho"],
        layout["prob_a"], layout["prob_b"], rank,
    )


def _header(estimator: Any, formulation: str, layout: dict | None) -> Iterator[str]:
    kernel = estimator.kernel
    yield f"svm_type {formulation}"
    yield f"kernel_type {KERNEL_NAMES[kernel]}"
    for name in KERNEL_PARAMETERS[kernel]:
        if name == "degree":
            yield f"degree {int(estimator.degree)}"
        elif name == "gamma":
            yield f"gamma {float(estimator._gamma):.17g}"
        else:
            yield f"coef0 {float(estimator.coef0):.17g}"
    n_classes = layout["classes"].size if layout is not None else 2
    yield f"nr_class {n_classes}"
    yield f"total_sv {estimator._dual_coef_.shape[1]}"
    rho = layout["rho"] if layout is not None else -np.asarray(estimator._intercept_)
    yield f"rho {_numbers(rho)}"
    if layout is not None:
        yield "label " + " ".join(str(label) for label in _integral_labels(layout["classes"]))
    prob_a = np.asarray(getattr(estimator, "probA_", ()), dtype=np.float64)
    if prob_a.size:
        if layout is not None:
            yield f"probA {_numbers(layout['prob_a'])}"
            yield f"probB {_numbers(layout['prob_b'])}"
        else:
            yield f"probA {_numbers(prob_a)}"
    marks = getattr(estimator, "prob_density_marks_", None)
    if formulation == "one_class" and marks is not None:
        yield f"prob_density_marks {_numbers(marks)}"
    if layout is not None:
        yield "nr_sv " + " ".join(str(int(count)) for count in layout["n_support"])


def _support_vector_lines(estimator: Any, layout: dict | None) -> Iterator[str]:
    if layout is None:
        coef = np.asarray(estimator._dual_coef_, dtype=np.float64)
        order = np.arange(coef.shape[1])
    else:
        coef, order = layout["dual_coef"], layout["order"]
    if estimator.kernel == "precomputed":
        # LIBSVM's precomputed models keep each support vector's serial number (1-based).
        support = np.asarray(estimator.support_)[order]
        for column, serial in enumerate(support):
            yield f"{_numbers(coef[:, column])} 0:{int(serial) + 1}"
        return
    for column, (indices, values) in enumerate(_nonzero_rows(estimator.support_vectors_,
                                                             order)):
        features = " ".join(
            f"{index + 1}:{value:.17g}"
            for index, value in zip(indices.tolist(), values.tolist(), strict=True)
        )
        yield f"{_numbers(coef[:, column])} {features}".rstrip()


def _nonzero_rows(vectors: Any, order: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(indices, values) of the non-zero entries of each row ``order[k]``; sparse support
    vectors (from CSR training data) are read row by row, never made dense."""
    if sp.issparse(vectors):
        vectors = sp.csr_matrix(vectors, dtype=np.float64)[order]
        vectors.sort_indices()
        for row in range(vectors.shape[0]):
            span = slice(vectors.indptr[row], vectors.indptr[row + 1])
            values = vectors.data[span]
            keep = values != 0
            yield vectors.indices[span][keep], values[keep]
        return
    vectors = np.asarray(vectors, dtype=np.float64)[order]
    for row in vectors:
        nonzero = np.flatnonzero(row)
        yield nonzero, row[nonzero]


def format_model(estimator: Any, class_order: Any = None) -> str:
    """The text of the LIBSVM model file of a fitted estimator.

    Parameters
    ----------
    estimator : SVC, NuSVC, OneClassSVM, SVR or NuSVR
        Fitted, with a named kernel (not a callable).
    class_order : sequence, optional
        For classifiers, the order of the classes in the file; see
        :func:`save_model`.

    Returns
    -------
    str

    Examples
    --------
    >>> from svmx import SVC
    >>> model = SVC(kernel="linear").fit([[0.0], [2.0]], [0, 1])
    >>> print(format_model(model))
    svm_type c_svc
    kernel_type linear
    nr_class 2
    total_sv 2
    rho -1
    label 0 1
    nr_sv 1 1
    SV
    0.5
    -0.5 1:2
    <BLANKLINE>
    """
    formulation = _check_fitted(estimator)
    layout = _in_class_order(estimator, class_order) if formulation in CLASSIFIERS else None
    lines = [
        *_header(estimator, formulation, layout), "SV", *_support_vector_lines(estimator, layout)
    ]
    return "\n".join(lines) + "\n"


def save_model(estimator: Any, path: str | os.PathLike, class_order: Any = None) -> None:
    """Write a fitted estimator as a LIBSVM model file.

    The file is what LIBSVM's ``svm_save_model`` writes, so ``svm-predict``
    and ``svmutil.svm_load_model`` read it; numbers have 17 significant
    digits, so nothing is lost. Only the model is stored, not the training
    parameters (C, nu, epsilon, tol, ...), nor the training-set indices in
    ``support_``.

    Parameters
    ----------
    estimator : SVC, NuSVC, OneClassSVM, SVR or NuSVR
        A fitted estimator with a named kernel. Classifiers need integer
        class labels (LIBSVM's labels are C ints).
    path : str or path-like
        Destination file.
    class_order : sequence, optional
        For classifiers, the order of the ``label`` line; by default
        ``classes_`` (sorted for a model svmx fitted). LIBSVM's ``svm-train``
        writes classes in order of first appearance in the training data,
        and the order decides which class wins a tied one-vs-one vote (the
        first); pass that order to make predictions identical to LIBSVM's.
        Decision values are the same in any order, up to the sign of the
        pairs whose order flips.

    Raises
    ------
    ValueError
        For an unfitted estimator, a callable kernel or non-integer classes.

    See Also
    --------
    load_model : read a model file back.

    Examples
    --------
    >>> import os, tempfile
    >>> from svmx import SVC
    >>> from svmx.io import load_model, save_model
    >>> model = SVC(kernel="rbf", gamma=0.5).fit([[0.0], [1.0], [3.0], [4.0]], [1, 1, 2, 2])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.txt")
    >>> save_model(model, path)
    >>> load_model(path).predict([[0.5], [3.5]]).tolist()
    [1, 2]
    """
    text = format_model(estimator, class_order)
    with open(path, "w", encoding="ascii", newline="\n") as handle:
        handle.write(text)
