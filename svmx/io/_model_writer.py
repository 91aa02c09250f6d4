"""Writing a fitted svmx estimator as a LIBSVM model file (``svm_save_model``'s format).

The text is LIBSVM 3.37's byte for byte: header numbers with ``%.17g`` (integers
``%d``), and on each support-vector line every coefficient as ``%.17g`` and every
feature as ``%d:%.8g``, each followed by one space. The file is written atomically.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from typing import Any, TextIO

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

# Support-vector lines gathered before each write to the file.
_LINES_PER_WRITE = 256


def _numbers(values: Any) -> str:
    """Header values: `` %.17g`` each, as LIBSVM writes rho, probA, probB and the marks."""
    return "".join(f" {value:.17g}" for value in np.ravel(values).astype(np.float64).tolist())


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


def _header(estimator: Any, formulation: str, layout: dict | None) -> list[str]:
    """The header lines, in svm_save_model's order, each ending in a newline."""
    kernel = estimator.kernel
    lines = [f"svm_type {formulation}\n", f"kernel_type {KERNEL_NAMES[kernel]}\n"]
    for name in KERNEL_PARAMETERS[kernel]:
        if name == "degree":
            lines.append(f"degree {int(estimator.degree)}\n")
        elif name == "gamma":
            lines.append(f"gamma {float(estimator._gamma):.17g}\n")
        else:
            lines.append(f"coef0 {float(estimator.coef0):.17g}\n")
    n_classes = layout["classes"].size if layout is not None else 2
    lines.append(f"nr_class {n_classes}\n")
    lines.append(f"total_sv {estimator._dual_coef_.shape[1]}\n")
    rho = layout["rho"] if layout is not None else -np.asarray(estimator._intercept_)
    lines.append(f"rho{_numbers(rho)}\n")
    if layout is not None:
        labels = _integral_labels(layout["classes"])
        lines.append("label" + "".join(f" {label}" for label in labels) + "\n")
    prob_a = np.asarray(getattr(estimator, "probA_", ()), dtype=np.float64)
    if prob_a.size:
        if layout is not None:
            lines.append(f"probA{_numbers(layout['prob_a'])}\n")
            lines.append(f"probB{_numbers(layout['prob_b'])}\n")
        else:  # a regression's Laplace scale
            lines.append(f"probA{_numbers(prob_a)}\n")
    marks = getattr(estimator, "prob_density_marks_", None)
    if formulation == "one_class" and marks is not None:
        lines.append(f"prob_density_marks{_numbers(marks)}\n")
    if layout is not None:
        counts = np.asarray(layout["n_support"]).tolist()
        lines.append("nr_sv" + "".join(f" {count}" for count in counts) + "\n")
    lines.append("SV\n")
    return lines


def _coefficient_text(coef: np.ndarray) -> Iterator[str]:
    """Per support vector, its coefficients as ``%.17g `` each (columns of coef), one
    support vector at a time (a model's whole text is never held at once)."""
    for column in coef.T:
        yield "".join(f"{value:.17g} " for value in column.tolist())


def _feature_text(indices: np.ndarray, values: np.ndarray) -> str:
    """``index:value `` per non-zero feature (1-based, ascending), values as ``%.8g``."""
    keep = values != 0
    pairs = zip((indices[keep] + 1).tolist(), values[keep].tolist(), strict=True)
    return "".join(f"{index}:{value:.8g} " for index, value in pairs)


def _sparse_rows(vectors: Any, order: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(column indices, values) of the rows `order` of a sparse matrix, columns ascending."""
    csr = sp.csr_matrix(vectors)
    if not csr.has_sorted_indices:
        csr = csr.sorted_indices()
    indptr = csr.indptr
    for row in order.tolist():
        start, end = indptr[row], indptr[row + 1]
        yield csr.indices[start:end], csr.data[start:end].astype(np.float64)


def _dense_rows(vectors: np.ndarray, order: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(column indices, values) of the non-zero entries of the rows `order`."""
    for row in order.tolist():
        nonzero = np.flatnonzero(vectors[row])
        yield nonzero, vectors[row, nonzero].astype(np.float64)


def _support_vector_lines(estimator: Any, layout: dict | None) -> Iterator[str]:
    """One line per support vector, in the file's order, without densifying sparse vectors."""
    if layout is None:
        coef = np.asarray(estimator._dual_coef_, dtype=np.float64)
        order = np.arange(coef.shape[1])
    else:
        coef, order = layout["dual_coef"], layout["order"]
    coefficients = _coefficient_text(coef)
    if estimator.kernel == "precomputed":
        # LIBSVM's precomputed models keep each support vector's serial number (1-based).
        serials = (np.asarray(estimator.support_, dtype=np.int64)[order] + 1).tolist()
        for text, serial in zip(coefficients, serials, strict=True):
            yield f"{text}0:{serial} \n"
        return
    vectors = estimator.support_vectors_
    if sp.issparse(vectors):
        rows = _sparse_rows(vectors, order)
    else:
        rows = _dense_rows(np.asarray(vectors), order)
    for text, (indices, values) in zip(coefficients, rows, strict=True):
        yield text + _feature_text(indices, values) + "\n"


def _model_lines(estimator: Any, class_order: Any) -> tuple[list[str], Iterator[str]]:
    """The header lines (checked, so nothing is written for a model that cannot be) and
    a generator of the support-vector lines."""
    formulation = _check_fitted(estimator)
    layout = _in_class_order(estimator, class_order) if formulation in CLASSIFIERS else None
    return _header(estimator, formulation, layout), _support_vector_lines(estimator, layout)


def _write_lines(handle: TextIO, header: list[str], lines: Iterator[str]) -> None:
    handle.write("".join(header))
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == _LINES_PER_WRITE:
            handle.write("".join(batch))
            batch.clear()
    handle.write("".join(batch))


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
        What :func:`save_model` writes; as LIBSVM does, every number on a
        support-vector line is followed by a space.

    Examples
    --------
    >>> from svmx import SVC
    >>> model = SVC(kernel="linear").fit([[0.0], [2.0]], [0, 1])
    >>> print(format_model(model).replace(" \\n", "|\\n"))
    svm_type c_svc
    kernel_type linear
    nr_class 2
    total_sv 2
    rho -1
    label 0 1
    nr_sv 1 1
    SV
    0.5|
    -0.5 1:2|
    <BLANKLINE>
    """
    header, lines = _model_lines(estimator, class_order)
    return "".join(header) + "".join(lines)


def _keep_mode_and_owner(temporary: str, existing: os.stat_result) -> None:
    """Give the file that replaces another that file's permission bits and, where allowed,
    its owner and group."""
    os.chmod(temporary, stat.S_IMODE(existing.st_mode))
    if hasattr(os, "chown") and (existing.st_uid, existing.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.chown(temporary, existing.st_uid, existing.st_gid)
        except OSError:  # not permitted: the new file is the process's own
            pass


def _atomic_write(path: str | os.PathLike, write: Any) -> None:
    """Call ``write(handle)`` on a new file next to `path`, then move it over `path`.

    The temporary file is flushed and synced before :func:`os.replace`, so `path` holds
    the old content or the new, never part of it; on any error the temporary is removed.
    A symbolic link is followed (the file it names is replaced, the link stays), a
    replaced file keeps its permission bits (and owner, where the process may set it),
    and what is not a regular file (a pipe, ``/dev/stdout``) is written into directly,
    as svm-train writes.
    """
    asked = os.fspath(path)
    target = os.path.realpath(asked)
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(asked, "w", encoding="ascii", newline="\n") as handle:
            write(handle)
        return
    directory, name = os.path.split(target)
    temporary = os.path.join(directory, f".{name}.{secrets.token_hex(6)}.tmp")
    # os.open with mode 0o666 gives the permissions a plain open() would (the umask applies).
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:  # name the file asked for, not the temporary beside it
        raise type(error)(error.errno, error.strerror, asked) from None
    try:
        with open(descriptor, "w", encoding="ascii", newline="\n") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        if existing is not None:
            _keep_mode_and_owner(temporary, existing)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable where the platform allows it
        directory_descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory_descriptor)
    except OSError:
        pass
    finally:
        os.close(directory_descriptor)


def save_model(estimator: Any, path: str | os.PathLike, class_order: Any = None) -> None:
    """Write a fitted estimator as a LIBSVM model file.

    The file is what LIBSVM 3.37's ``svm_save_model`` writes, byte for byte,
    so ``svm-predict`` and ``svmutil.svm_load_model`` read it: coefficients,
    rho and the probability parameters with 17 significant digits (nothing
    is lost), support-vector features as ``index:value`` with 8 (LIBSVM's
    precision; a model read back predicts within about 1e-8 of this one).
    Only the non-zero features are written. Models fitted on dense (float64
    or float32) or sparse (CSR) data, and models read by :func:`load_model`,
    can be saved; sparse support vectors are written row by row, never as
    a dense matrix. Only the model is stored, not the training parameters
    (C, nu, epsilon, tol, ...), nor the training-set indices in ``support_``
    (except a precomputed kernel's serial numbers).

    The write is atomic: the text goes to a temporary file in the same
    directory, which is synced to disk and then renamed over `path`, so an
    interrupted save leaves the old file (or none), never a truncated one. A
    symbolic link is followed, a replaced file keeps its permissions, and a
    path that is not a regular file (a pipe, ``/dev/stdout``) is written into.

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
    header, lines = _model_lines(estimator, class_order)
    _atomic_write(path, lambda handle: _write_lines(handle, header, lines))
