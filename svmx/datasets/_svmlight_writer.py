"""Writing a matrix and labels as a LIBSVM / SVMlight data file."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import IO, Any

import numpy as np
import scipy.sparse as sp

__all__ = ["dump_svmlight_file", "format_number"]


def format_number(value: float) -> str:
    """A float with 17 significant digits (exact round trip), integers without a fraction.

    Examples
    --------
    >>> format_number(1.0), format_number(-2.0), format_number(0.1)
    ('1', '-2', '0.10000000000000001')
    """
    value = float(value)
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return f"{value:.17g}"


def _rows(X: sp.csr_matrix, y: np.ndarray, shift: int) -> Iterator[str]:
    data, indices, indptr = X.data, X.indices, X.indptr
    for row in range(X.shape[0]):
        start, stop = indptr[row], indptr[row + 1]
        values = data[start:stop]
        columns = indices[start:stop]
        nonzero = values != 0
        features = " ".join(
            f"{column + shift}:{value:.17g}"
            for column, value in zip(columns[nonzero].tolist(), values[nonzero].tolist(),
                                     strict=True)
        )
        label = format_number(y[row])
        yield f"{label} {features}\n" if features else f"{label}\n"


def _as_csr(X: Any) -> sp.csr_matrix:
    if sp.issparse(X):
        # A copy: scipy shares the caller's index arrays even where it converts the values,
        # and sum_duplicates sorts them in place.
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)
        X.sum_duplicates()  # also sorts the indices of each row
        return X
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D of shape (n_samples, n_features); got shape {X.shape}")
    return sp.csr_matrix(X)


def dump_svmlight_file(
    X: Any, y: Any, f: str | os.PathLike | IO, zero_based: bool = False,
    comment: str | None = None,
) -> None:
    """Write X and y as a LIBSVM / SVMlight data file.

    One line per sample: the label (as an integer when integral), then
    ``index:value`` for each non-zero value, indices ascending. Values are
    written with 17 significant digits, so :func:`load_svmlight_file` reads
    back exactly the same numbers.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Numeric labels or targets.
    f : str, path-like or file object
        Destination; a file object may be binary or text.
    zero_based : bool, default=False
        Write column indices from 0 instead of LIBSVM's 1.
    comment : str, optional
        Written first (UTF-8), each of its lines prefixed by ``#`` and a space.

    Examples
    --------
    >>> import io
    >>> out = io.BytesIO()
    >>> dump_svmlight_file([[0.0, 2.5], [1.0, 0.0]], [1, -1], out)
    >>> print(out.getvalue().decode(), end="")
    1 2:2.5
    -1 1:1
    """
    if not isinstance(zero_based, bool | np.bool_):
        raise TypeError(f"zero_based must be True or False; got {zero_based!r}")
    X = _as_csr(X)
    y = np.asarray(y)
    if y.ndim > 1 and y.size != y.shape[0]:
        raise ValueError(f"y must be 1-D (one label per row); got shape {y.shape} (svmx "
                         "writes no multilabel files)")
    if y.dtype.kind not in "biuf":
        raise ValueError(f"y must be numeric to be written as LIBSVM labels; got dtype {y.dtype}")
    y = y.astype(np.float64).ravel()
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"y has {y.shape[0]} values but X has {X.shape[0]} rows")
    header = ""
    if comment:
        if "\0" in comment:
            raise ValueError("comment must not contain NUL bytes")
        header = "".join(f"# {line}\n" for line in comment.splitlines())
    text = header + "".join(_rows(X, y, 0 if zero_based else 1))
    if isinstance(f, str | os.PathLike):
        with open(f, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    elif isinstance(f, io.TextIOBase):
        f.write(text)
    else:
        f.write(text.encode("utf-8"))
