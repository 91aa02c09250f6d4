"""Reading LIBSVM / SVMlight data files into a sparse matrix and a label vector."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx.datasets._sources import FileLike, read_source, source_name
from svmx.datasets._svmlight_reader import ERROR_MESSAGES, parse_svmlight

__all__ = ["load_svmlight_file", "load_svmlight_files"]

_ZERO_BASED_OPTIONS = (True, False, "auto")


def _parse(source: FileLike) -> dict:
    """Parse one source; raise ValueError naming the source and line of a malformed line."""
    name = source_name(source)
    content = read_source(source)
    nul = content.find(b"\0")
    if nul >= 0:
        line = content.count(b"\n", 0, nul) + 1
        raise ValueError(f"{name}, line {line}: contains a NUL byte (is this a binary file?)")
    parsed = parse_svmlight(content)
    if parsed["error"] is not None:
        status, line, token, previous, current = parsed["error"]
        message = ERROR_MESSAGES[status].format(token=token, previous=previous, current=current)
        raise ValueError(f"{name}, line {line}: {message}")
    parsed["name"] = name
    return parsed


def _refuse_nonfinite(parsed: list[dict]) -> None:
    """Raise ValueError naming the file and line of the first infinite or NaN number."""
    for p in parsed:
        if p["first_nonfinite"] is not None:
            line, token = p["first_nonfinite"]
            raise ValueError(f"{p['name']}, line {line}: {token!r} is not a finite number "
                             "(infinite or NaN)")


def _values_as(p: dict, dtype: np.dtype, finite: bool) -> np.ndarray:
    """The parsed values in `dtype`; with `finite`, refuse one that float32 cannot hold (it
    would become infinite), naming the file and the sample."""
    with np.errstate(over="ignore"):  # beyond float32's range: infinite, as numbers are
        values = p["data"].astype(dtype, copy=False)
    if finite and values.dtype != p["data"].dtype and not np.isfinite(values).all():
        at = int(np.flatnonzero(~np.isfinite(values))[0])
        sample = int(np.searchsorted(p["indptr"], at, side="right"))
        raise ValueError(f"{p['name']}, sample {sample}: {float(p['data'][at])!r} is beyond "
                         "float32's range (it would be infinite; finite=True)")
    return values


def _check_options(n_features: int | None, dtype: Any, zero_based: Any) -> np.dtype:
    if zero_based not in _ZERO_BASED_OPTIONS or not isinstance(zero_based, bool | str):
        raise ValueError(f"zero_based must be True, False or 'auto'; got {zero_based!r}")
    if n_features is not None and (
        isinstance(n_features, bool) or not isinstance(n_features, int | np.integer)
        or n_features < 0
    ):
        raise ValueError(f"n_features must be None or a non-negative integer; got {n_features!r}")
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise ValueError(f"dtype must be float32 or float64; got {dtype}")
    return dtype


def load_svmlight_files(
    files: Sequence[FileLike],
    n_features: int | None = None,
    dtype: Any = np.float64,
    zero_based: bool | str = "auto",
    *,
    finite: bool = False,
) -> list[Any]:
    """Load several LIBSVM / SVMlight files with a common number of features.

    Parameters
    ----------
    files : sequence of path, binary file object or bytes
        The sources, e.g. a training and a test file.
    n_features : int, optional
        Number of columns of every matrix; by default the largest index in
        any of the files decides.
    dtype : {numpy.float64, numpy.float32}, default=numpy.float64
        Type of the matrices' values.
    zero_based : bool or 'auto', default='auto'
        Whether column indices start at 0. With 'auto', the files are taken
        as zero-based when any of them uses index 0, else as one-based.
    finite : bool, default=False
        Refuse a label or value that is infinite or NaN (``inf``, ``nan``, or a
        number beyond float64 such as ``1e400``) with a ValueError naming its
        file and line; svmx's estimators refuse such data in any case.

    Returns
    -------
    list
        ``[X_1, y_1, X_2, y_2, ...]``: each ``X_i`` a
        ``scipy.sparse.csr_matrix`` of shape (n_samples_i, n_features) and
        each ``y_i`` a float64 array of shape (n_samples_i,).

    Examples
    --------
    >>> X_train, y_train, X_test, y_test = load_svmlight_files([b"1 1:2 4:1\\n", b"-1 2:3\\n"])
    >>> X_train.shape, X_test.shape
    ((1, 4), (1, 4))
    """
    dtype = _check_options(n_features, dtype, zero_based)
    if isinstance(files, str | bytes) or not isinstance(files, Sequence):
        raise TypeError("files must be a list of paths, binary file objects or bytes")
    parsed = [_parse(source) for source in files]
    if finite:
        _refuse_nonfinite(parsed)
    if zero_based == "auto":
        zero_based = any(p["min_index"] == 0 for p in parsed)
    elif not zero_based:
        for p in parsed:
            if p["first_zero_line"]:
                raise ValueError(
                    f"{p['name']}, line {p['first_zero_line']}: feature index 0 in a one-based "
                    "file (LIBSVM's features are numbered from 1; in Python, zero_based=True "
                    "or 'auto' reads a zero-based file)"
                )
    shift = 0 if zero_based else 1
    needed = max((max(int(p["max_index"]) + 1 - shift, 0) for p in parsed), default=0)
    if n_features is None:
        n_features = needed
    elif n_features < needed:
        raise ValueError(
            f"n_features={n_features} is too small: the data uses {needed} features "
            f"(largest column index {needed - 1 + shift}, "
            f"{'zero' if zero_based else 'one'}-based)"
        )
    result: list[Any] = []
    index_type = np.int32 if n_features <= np.iinfo(np.int32).max else np.int64
    for p in parsed:
        indices = p["indices"] - shift if shift else p["indices"]
        X = sp.csr_matrix(
            (_values_as(p, dtype, finite), indices.astype(index_type),
             p["indptr"].astype(index_type)),
            shape=(p["labels"].size, n_features),
        )
        result += [X, p["labels"]]
    return result


def load_svmlight_file(
    f: FileLike,
    n_features: int | None = None,
    dtype: Any = np.float64,
    zero_based: bool | str = "auto",
    *,
    finite: bool = False,
) -> tuple[sp.csr_matrix, np.ndarray]:
    """Load a data file in LIBSVM / SVMlight format.

    Each line is ``label index:value index:value ...`` with ascending
    indices. Labels may be written ``+1``, ``-1.0`` or ``1e0``; text after
    ``#`` is a comment; blank lines, trailing blanks and CRLF line ends are
    accepted; ``qid:n`` tokens are checked and skipped. The parser is
    compiled and runs without the GIL.

    Parameters
    ----------
    f : str, path-like, binary file object or bytes
        The file; paths ending in ``.gz`` or ``.bz2`` are decompressed.
    n_features : int, optional
        Number of columns; by default the largest index decides. Pass it
        when a test file uses fewer features than its training file.
    dtype : {numpy.float64, numpy.float32}, default=numpy.float64
        Type of the matrix's values.
    zero_based : bool or 'auto', default='auto'
        Whether indices start at 0. 'auto' treats the file as zero-based
        if any index is 0, as one-based (LIBSVM's convention) otherwise.
    finite : bool, default=False
        Refuse a label or value that is infinite or NaN (``inf``, ``nan``, or a
        number beyond float64 such as ``1e400``) with a ValueError naming the
        line; svmx's estimators refuse such data in any case.

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), float64

    Raises
    ------
    ValueError
        On a malformed line, naming the file and the 1-based line number,
        e.g. ``heart_scale, line 17: feature indices must be ascending
        (got 5 after 7)``.

    See Also
    --------
    dump_svmlight_file : write the format.

    Examples
    --------
    >>> X, y = load_svmlight_file(b"+1 1:0.5 3:2  # first\\n-1 2:1.5\\n")
    >>> X.toarray().tolist(), y.tolist()
    ([[0.5, 0.0, 2.0], [0.0, 1.5, 0.0]], [1.0, -1.0])
    >>> load_svmlight_file(b"1 1:1\\n1 3:1 2:1\\n")
    Traceback (most recent call last):
    ...
    ValueError: <bytes>, line 2: feature indices must be ascending (got 2 after 3)
    """
    X, y = load_svmlight_files([f], n_features=n_features, dtype=dtype, zero_based=zero_based,
                               finite=finite)
    return X, y
