"""Reading a LIBSVM model file back into a fitted svmx estimator.

LIBSVM orders classes by first appearance in its training data, while
svmx's ``fit`` sorts them. By default :func:`load_model` keeps the file's
order (its ``label`` line) in ``classes_``, which reproduces LIBSVM exactly:
the same vote tie-breaking, the same pairwise coupling of probabilities, and
``predict_proba`` columns in LIBSVM's order. As for every svmx classifier, a
binary ``decision_function`` is positive for ``classes_[1]``, so for a file
with ``label 1 -1`` it is LIBSVM's decision value negated.
``sort_classes=True`` re-expresses the model for sorted classes instead (see
:func:`svmx.io._model_format.sort_classes`). The file stores labels as C ints, so a
classifier's ``classes_`` read back are int64 whatever the fitted model's were (bool,
uint8, or floats with integral values): ``predict`` then returns those integers.
"""

from __future__ import annotations

import math
import os
from array import array
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import svm
from svmx._fitted import WIDTH_FROM_MODEL_FILE, FittedModel, write_fitted_state
from svmx.io import _model_format
from svmx.io._model_format import CLASSIFIERS, KERNEL_NAMES, SVM_TYPES

__all__ = ["load_model", "read_model_file"]

_KERNELS_BY_LIBSVM_NAME = {libsvm: svmx for svmx, libsvm in KERNEL_NAMES.items()}
# Every integer in a LIBSVM model file (labels, counts, indices) is a C int.
_INT_MAX = 2**31 - 1
# Header keywords and how many values each takes (None: a list).
_HEADER_KEYS = {
    "svm_type": 1, "kernel_type": 1, "degree": 1, "gamma": 1, "coef0": 1, "nr_class": 1,
    "total_sv": 1, "rho": None, "label": None, "probA": None, "probB": None,
    "prob_density_marks": None, "nr_sv": None,
}


class _ModelFileError(ValueError):
    """A ValueError that knows the line it is about."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _to_float(token: str, line: int, what: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise _ModelFileError(line, f"could not read {what} {token!r} as a number") from None
    if not math.isfinite(value):
        # A trained model is finite; NaN or infinity here would only give NaN predictions.
        raise _ModelFileError(line, f"{what} {token!r} is not a finite number")
    return value


def _to_int(token: str, line: int, what: str) -> int:
    try:
        value = int(token)
    except ValueError:
        raise _ModelFileError(line, f"could not read {what} {token!r} as an integer") from None
    if not -_INT_MAX - 1 <= value <= _INT_MAX:
        raise _ModelFileError(line, f"{what} {token!r} is out of the range of a C int")
    return value


def _read_header(lines: Iterator[tuple[int, str]]) -> tuple[dict, dict, int]:
    """Header values, the line each came from, and the number of the ``SV`` line.

    ``lines`` yields (1-based line number, text); it is consumed up to the ``SV`` line.
    """
    header: dict[str, Any] = {}
    where: dict[str, int] = {}
    number = 0
    for number, text in lines:
        tokens = text.split()
        if not tokens:
            continue
        key, values = tokens[0], tokens[1:]
        if key == "SV":
            return header, where, number
        if key not in _HEADER_KEYS:
            raise _ModelFileError(number, f"unknown text in the model header: {text.strip()!r}")
        arity = _HEADER_KEYS[key]
        if header.get("nr_class") == 1 and header.get("svm_type") in CLASSIFIERS:
            raise _ModelFileError(where["nr_class"], _ONE_CLASS_LABEL)
        if arity is not None and len(values) != arity or not values:
            raise _ModelFileError(number, f"{key} needs {arity or 'at least one'} value(s)")
        where[key] = number
        if key in ("svm_type", "kernel_type"):
            header[key] = values[0]
        elif key in ("degree", "nr_class", "total_sv"):
            header[key] = _to_int(values[0], number, key)
        elif key in ("label", "nr_sv"):
            header[key] = np.array([_to_int(v, number, key) for v in values], dtype=np.int64)
        elif key in ("gamma", "coef0"):
            header[key] = _to_float(values[0], number, key)
        else:
            header[key] = np.array([_to_float(v, number, key) for v in values], dtype=np.float64)
    raise _ModelFileError(number, "the file ends before the 'SV' line (truncated?)")


_ONE_CLASS_LABEL = (
    "nr_class 1: svm-train's model of training data with a single label (no support "
    "vectors; svm-predict gives that label to every sample); svmx's classifiers need two "
    "classes at least")


def _check_header(header: dict, where: dict, sv_line: int) -> None:
    for key in ("svm_type", "kernel_type", "nr_class", "total_sv", "rho"):
        if key not in header:
            raise _ModelFileError(sv_line, f"the header has no {key} line")
    if header["svm_type"] not in SVM_TYPES:
        raise _ModelFileError(
            where["svm_type"], f"unknown svm_type {header['svm_type']!r}; expected one of "
            f"{', '.join(SVM_TYPES)}"
        )
    if header["kernel_type"] not in _KERNELS_BY_LIBSVM_NAME:
        raise _ModelFileError(
            where["kernel_type"], f"unknown kernel_type {header['kernel_type']!r}; expected one "
            f"of {', '.join(_KERNELS_BY_LIBSVM_NAME)}"
        )
    k, total = header["nr_class"], header["total_sv"]
    if k == 1 and header["svm_type"] in CLASSIFIERS:
        raise _ModelFileError(where["nr_class"], _ONE_CLASS_LABEL)
    if k < 2 or total < 0:
        raise _ModelFileError(where["nr_class"], f"nr_class {k} / total_sv {total} is invalid")
    n_pairs = k * (k - 1) // 2
    expected = {"rho": n_pairs, "probA": n_pairs, "probB": n_pairs}
    if header["svm_type"] in CLASSIFIERS:
        for key in ("label", "nr_sv"):
            if key not in header:
                raise _ModelFileError(sv_line, f"a {header['svm_type']} model needs a {key} line")
        expected.update(label=k, nr_sv=k)
    elif header["svm_type"] in ("epsilon_svr", "nu_svr"):
        expected.update(probA=1)
    for key, count in expected.items():
        if key in header and header[key].size != count:
            raise _ModelFileError(
                where[key], f"{key} has {header[key].size} values; expected {count}"
            )
    if "nr_sv" in header and (int(header["nr_sv"].sum()) != total or (header["nr_sv"] < 0).any()):
        raise _ModelFileError(where["nr_sv"], f"nr_sv does not add up to total_sv = {total}")
    if "probA" in header and header["svm_type"] in CLASSIFIERS and "probB" not in header:
        raise _ModelFileError(where["probA"], "probA without probB")


def _read_support_vectors(
    lines: Iterator[tuple[int, str]], sv_line: int, header: dict
) -> dict:
    """Coefficients (n_coef, n_SV) and the (index, value) pairs of each support vector,
    from the lines after the ``SV`` line (number ``sv_line``)."""
    n_coef = header["nr_class"] - 1
    total = header["total_sv"]
    # Grown line by line, not allocated from total_sv, which may be corrupt; typed arrays
    # (8 bytes an entry), not lists of Python numbers (about 40), so a wide text model
    # needs little more than its own size.
    coef = array("d")
    rows, columns, values = array("q"), array("q"), array("d")
    count = 0
    number = sv_line
    for number, text in lines:
        tokens = text.split()
        if not tokens:
            continue
        if count == total:
            raise _ModelFileError(number, f"more support vectors than total_sv = {total}")
        if len(tokens) < n_coef:
            raise _ModelFileError(
                number, f"a support vector line needs {n_coef} coefficient(s) first"
            )
        coef.extend([_to_float(tokens[c], number, "the coefficient") for c in range(n_coef)])
        line_columns, line_values = [], []
        for token in tokens[n_coef:]:
            feature, colon, value = token.partition(":")
            if not colon:
                raise _ModelFileError(number, f"malformed feature {token!r} (expected index:value)")
            column = _to_int(feature, number, "the feature index")
            if column < 0:
                raise _ModelFileError(number, f"negative feature index in {token!r}")
            line_columns.append(column)
            line_values.append(_to_float(value, number, "the feature value"))
        rows.extend([count] * len(line_columns))
        columns.extend(line_columns)
        values.extend(line_values)
        count += 1
    if count < total:
        raise _ModelFileError(
            number, f"expected {total} support vectors after 'SV', found {count} (truncated?)"
        )
    return {
        "coef": np.frombuffer(coef, dtype=np.float64).reshape(total, n_coef).T.copy(),
        "rows": np.frombuffer(rows, dtype=np.int64).astype(np.intp),
        "columns": np.frombuffer(columns, dtype=np.int64).astype(np.intp),
        "values": np.frombuffer(values, dtype=np.float64).copy(),
    }


def read_model_file(path: str | os.PathLike) -> dict:
    """Parse a LIBSVM model file into its header and support-vector arrays.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    dict
        The header values by LIBSVM keyword, plus ``coef`` of shape
        (nr_class - 1, total_sv) and ``rows``, ``columns``, ``values``: the
        support vectors' features as coordinates (``columns`` as written,
        1-based; for precomputed kernels ``0`` with the serial number).

    Raises
    ------
    ValueError
        For a malformed or truncated file, naming the file and the line.
    """
    name = os.fspath(path)
    # Two passes over the file, line by line, so that its text is never held whole (a wide
    # model's would be several times its size as Python strings): the first finds a
    # non-ASCII byte or a NUL anywhere (they are reported before any other error), the
    # second parses.
    first_non_ascii = first_nul = None
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if first_non_ascii is None and not raw.isascii():
                first_non_ascii = number
                break
            if first_nul is None and b"\0" in raw:
                first_nul = number
    if first_non_ascii is not None:
        raise ValueError(
            f"{name}, line {first_non_ascii}: not a LIBSVM model file (non-text bytes)"
        )
    if first_nul is not None:
        raise ValueError(f"{name}, line {first_nul}: not a LIBSVM model file (NUL byte)")
    with open(path, "rb") as handle:
        lines = ((number, raw.decode("ascii")) for number, raw in enumerate(handle, start=1))
        try:
            header, where, sv_line = _read_header(lines)
            _check_header(header, where, sv_line)
            model = {**header, **_read_support_vectors(lines, sv_line, header)}
        except _ModelFileError as error:
            raise ValueError(f"{name}, line {error.line}: {error.message}") from None
    return model


def _sparse_support(model: dict, width: int) -> sp.csr_matrix:
    """The support vectors as CSR, with the dense matrix's values: a feature written twice on
    one line keeps its last value, explicit zeros are dropped."""
    rows, columns, values = model["rows"], model["columns"] - 1, model["values"]
    if rows.size > 1:
        # Lines are read in order and (in a valid file) with ascending features, so a
        # duplicate is rare; keep each (row, column)'s last value, as the dense fill does.
        keys = rows.astype(np.int64) * max(width, 1) + columns
        ordered = np.all(keys[1:] > keys[:-1])
        if not ordered:
            last = keys.size - 1 - np.unique(keys[::-1], return_index=True)[1]
            rows, columns, values = rows[last], columns[last], values[last]
    keep = values != 0
    small = max(width, int(np.count_nonzero(keep))) <= np.iinfo(np.int32).max
    index_type = np.int32 if small else np.int64
    counts = np.bincount(rows[keep], minlength=model["total_sv"])
    indptr = np.zeros(model["total_sv"] + 1, dtype=index_type)
    np.cumsum(counts, out=indptr[1:])
    vectors = sp.csr_matrix(
        (values[keep].astype(np.float64), columns[keep].astype(index_type), indptr),
        shape=(model["total_sv"], width),
    )
    vectors.has_sorted_indices = True
    return vectors


def _support_matrix(
    model: dict, n_features: int | None, name: str, sparse: bool = False
) -> np.ndarray | sp.csr_matrix:
    columns = model["columns"]
    if columns.size and columns.min() < 1:
        raise ValueError(f"{name}: feature index 0 in a model whose kernel is not precomputed")
    width = int(columns.max()) if columns.size else 0
    if n_features is not None:
        if n_features < width:
            raise ValueError(
                f"n_features={n_features} is smaller than the largest feature index ({width}) "
                f"of the support vectors in {name}"
            )
        width = n_features
    if sparse:
        return _sparse_support(model, width)
    try:
        vectors = np.zeros((model["total_sv"], width), dtype=np.float64)
    except MemoryError:
        raise ValueError(
            f"{name}: the largest feature index ({width}) makes the {model['total_sv']} support "
            "vectors too large to hold in memory"
        ) from None
    vectors[model["rows"], columns - 1] = model["values"]
    return vectors


def _precomputed_support(model: dict, name: str) -> np.ndarray:
    serial = np.full(model["total_sv"], -1, dtype=np.int64)
    zero = model["columns"] == 0
    marks = model["values"][zero]
    if not np.all((marks >= 1) & (marks <= _INT_MAX)):  # False for NaN too
        raise ValueError(f"{name}: a serial number 0:{marks.min()} is out of range")
    serial[model["rows"][zero]] = marks.astype(np.int64)
    if (serial < 1).any():
        raise ValueError(
            f"{name}: every support vector of a precomputed-kernel model needs 0:serial_number "
            "with serial_number >= 1"
        )
    return serial - 1


def _make_estimator(model: dict) -> Any:
    kernel = _KERNELS_BY_LIBSVM_NAME[model["kernel_type"]]
    params: dict[str, Any] = {"kernel": kernel}
    for key in ("degree", "gamma", "coef0"):
        if key in model:
            params[key] = model[key]
    if model["svm_type"] in CLASSIFIERS:
        params["probability"] = "probA" in model
    return getattr(svm, SVM_TYPES[model["svm_type"]])(**params)


def _classifier_layout(model: dict, sort: bool) -> dict:
    """The classifier's classes, coefficients and Platt parameters, in the file's class
    order or sorted; ``order`` is the row order of the support vectors."""
    empty = np.empty(0, dtype=np.float64)
    layout = {
        "classes": model["label"], "order": np.arange(model["total_sv"]),
        "n_support": model["nr_sv"], "dual_coef": model["coef"], "rho": model["rho"],
        "prob_a": model.get("probA", empty), "prob_b": model.get("probB", empty),
    }
    if sort:
        layout = _model_format.sort_classes(
            layout["classes"], layout["n_support"], layout["dual_coef"], layout["rho"],
            layout["prob_a"], layout["prob_b"],
        )
    return layout


def _single_problem_layout(model: dict) -> dict:
    """One-class and regression models: one problem over every support vector."""
    empty = np.empty(0, dtype=np.float64)
    return {
        "classes": None, "order": np.arange(model["total_sv"]),
        "n_support": np.array([model["total_sv"]], dtype=np.int32),
        "dual_coef": model["coef"], "rho": model["rho"],
        "prob_a": model.get("probA", empty), "prob_b": empty,
    }


def _support_of(
    model: dict, order: np.ndarray, n_features: int | None, name: str, sparse: bool = False
) -> tuple:
    """(support_, support_vectors_, shape_fit_) of a model file's support vectors."""
    if _KERNELS_BY_LIBSVM_NAME[model["kernel_type"]] == "precomputed":
        support = _precomputed_support(model, name)[order]
        n_train = int(support.max()) + 1 if support.size else 0
        if n_features is not None:
            if n_features < n_train:
                raise ValueError(
                    f"n_features={n_features} is smaller than the largest serial number "
                    f"({n_train}) of the support vectors in {name}"
                )
            n_train = n_features
        return support.astype(np.int32), np.empty((0, 0), dtype=np.float64), (n_train, n_train)
    vectors = _support_matrix(model, n_features, name, sparse)
    if not np.array_equal(order, np.arange(order.size)):
        vectors = vectors[order]
    support = np.arange(model["total_sv"], dtype=np.int32)
    return support, vectors, (model["total_sv"], vectors.shape[1])


def _fitted_model(
    model: dict, sort: bool, n_features: int | None, name: str, sparse: bool = False
) -> FittedModel:
    """The fitted state a model file describes (training details it lacks left unset)."""
    if model["svm_type"] in CLASSIFIERS:
        layout = _classifier_layout(model, sort)
    else:
        layout = _single_problem_layout(model)
    support, vectors, shape_fit = _support_of(model, layout["order"], n_features, name, sparse)
    extra = {}
    if n_features is None:
        extra[WIDTH_FROM_MODEL_FILE] = True
    if "prob_density_marks" in model:
        extra["prob_density_marks_"] = model["prob_density_marks"]
    return FittedModel(
        support=support,
        support_vectors=vectors,
        n_support=layout["n_support"],
        dual_coef=layout["dual_coef"],
        intercept=-layout["rho"],
        n_iter=None,
        fit_status=0,
        gamma=float(model.get("gamma", 0.0)),
        shape_fit=shape_fit,
        classes=layout["classes"],
        prob_a=layout["prob_a"],
        prob_b=layout["prob_b"],
        extra=extra,
    )


def load_model(
    path: str | os.PathLike,
    n_features: int | None = None,
    *,
    sort_classes: bool = False,
    sparse: bool = False,
) -> Any:
    """Read a LIBSVM model file into a fitted svmx estimator.

    Works for the files of ``svm-train`` / ``svmutil.svm_save_model`` and of
    :func:`save_model`: C-SVC, nu-SVC, one-class, epsilon-SVR and nu-SVR,
    with or without probability information. The returned estimator
    predicts what LIBSVM's ``svm_predict`` predicts with that file; see the
    module docstring for how the classes' order is kept.

    Parameters
    ----------
    path : str or path-like
        The model file.
    n_features : int, optional
        Number of features of the data to predict. By default the largest
        feature index of the support vectors. For a precomputed kernel, the
        number of training samples (columns of the kernel matrix); by default
        the largest serial number.
    sort_classes : bool, default=False
        Re-order a classifier's classes to sorted order, scikit-learn's
        convention. Decision values are then the same up to the sign of
        flipped pairs, but a tied multi-class vote goes to the smallest
        label and the coupled probabilities of three or more classes can
        differ from LIBSVM's by up to the coupling tolerance (about 1e-3).
    sparse : bool, default=False
        Keep the support vectors sparse: ``support_vectors_`` becomes a CSR
        matrix (as after fitting on sparse data) holding only the features
        the file lists, instead of a dense (n_SV, n_features) array. Use it
        for wide sparse models (text), whose dense support vectors would
        take n_SV * n_features * 8 bytes. Predictions are the same.

    Returns
    -------
    SVC, NuSVC, OneClassSVM, SVR or NuSVR
        Fitted. The training parameters (C, nu, epsilon, tol, ...) are not
        part of a model file and keep their defaults. ``support_`` is
        ``arange(n_SV)`` because a model file does not record the support
        vectors' rows in the training set (for a precomputed kernel it does:
        the serial numbers minus one). ``probA_``/``probB_`` are set from the
        file; for SVR and NuSVR a ``probA`` line (LIBSVM's Laplace scale) is
        kept in ``probA_``, and a one-class ``prob_density_marks`` line in
        ``prob_density_marks_``, so that :func:`save_model` writes them back.

    Raises
    ------
    ValueError
        For a malformed or truncated file, naming the file and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "model.txt")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("svm_type c_svc\\nkernel_type linear\\nnr_class 2\\ntotal_sv 2\\n"
    ...                      "rho 0\\nlabel 1 -1\\nnr_sv 1 1\\nSV\\n1 1:1\\n-1 1:-1\\n")
    >>> model = load_model(path)
    >>> model.classes_.tolist(), model.predict([[2.0], [-2.0]]).tolist()
    ([1, -1], [1, -1])
    >>> model.decision_function([[2.0]]).tolist()  # positive means classes_[1], here -1
    [-4.0]
    >>> load_model(path, sort_classes=True).classes_.tolist()
    [-1, 1]
    >>> load_model(path, sparse=True).support_vectors_.format
    'csr'
    """
    name = os.fspath(path)
    model = read_model_file(path)
    estimator = _make_estimator(model)
    write_fitted_state(estimator, _fitted_model(model, sort_classes, n_features, name, sparse))
    return estimator
