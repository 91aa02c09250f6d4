"""Sparse matrices whose index arrays describe their shape, or a clear error.

scipy checks the lengths of a CSR or CSC matrix's arrays, not their values; the engine
trusts them, so a column index beyond the features (or pointers that decrease or run
past the stored entries) could write outside its buffers. The check is one pass in C
(`svmx._libsvm.compressed_structure_problem`; `csr_is_ready` checks a CSR matrix's
structure, order and values in one pass).
"""

from __future__ import annotations

from typing import Any

from svmx import _libsvm

__all__ = ["check_compressed_structure"]


def check_compressed_structure(matrix: Any, name: str) -> None:
    """Refuse a CSR or CSC matrix whose index arrays do not describe its shape:
    pointers from 0, nondecreasing, within the stored entries, and indices within the
    other axis.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> bad = sp.csr_matrix((np.ones(2), np.array([0, 3]), np.array([0, 1, 2])), shape=(2, 3))
    >>> check_compressed_structure(bad, "X")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: X is a malformed sparse matrix: index 3 is outside [0, 3) (its index arrays ...
    """
    n_major, n_minor = matrix.shape if matrix.format == "csr" else matrix.shape[::-1]
    problem = _libsvm.compressed_structure_problem(matrix.indptr, matrix.indices, n_major,
                                               n_minor, matrix.data.size)
    if problem is not None:
        raise ValueError(f"{name} is a malformed sparse matrix: {problem} (its index arrays "
                         f"do not fit its shape {matrix.shape})")
