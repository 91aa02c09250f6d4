# cython: language_level=3
"""LIBSVM's one-vs-one vote, in C."""

cimport numpy as cnp

import numpy as np

cnp.import_array()


def ovo_vote(values, Py_ssize_t n_classes):
    """LIBSVM's one-vs-one vote over decision values (n_samples, n_pairs) in its pair
    order: a value > 0 votes for the pair's first class, anything else (NaN too) for
    the second; the most votes win, ties going to the lowest class index.

    In C, one row at a time (a prediction of 270 rows spent 2.3 us in numpy's three
    array operations for two classes).

    Examples
    --------
    >>> ovo_vote(np.array([[1.0, 1.0, -1.0], [-1.0, 1.0, 1.0]]), 3).tolist()
    [0, 1]
    >>> ovo_vote(np.array([[0.5], [0.0], [-2.0], [np.nan]]), 2).tolist()
    [0, 1, 1, 1]
    """
    cdef cnp.ndarray array = np.ascontiguousarray(values, dtype=np.float64)
    if n_classes < 2 or array.ndim != 2 or \
            array.shape[1] != n_classes * (n_classes - 1) // 2:
        raise ValueError(
            f"values must have n_classes * (n_classes - 1) / 2 columns for {n_classes} "
            f"classes; got shape {np.shape(values)}"
        )
    cdef Py_ssize_t n_rows = array.shape[0], n_pairs = array.shape[1]
    cdef const double* source = <const double*> cnp.PyArray_DATA(array)
    cdef cnp.ndarray codes = np.empty(n_rows, dtype=np.intp)
    cdef Py_ssize_t* winners = <Py_ssize_t*> cnp.PyArray_DATA(codes)
    cdef cnp.ndarray counts = np.empty(n_classes, dtype=np.intp)
    cdef Py_ssize_t* votes = <Py_ssize_t*> cnp.PyArray_DATA(counts)
    cdef Py_ssize_t row, i, j, p, best
    with nogil:
        for row in range(n_rows):
            if n_classes == 2:
                winners[row] = 0 if source[row] > 0 else 1
                continue
            for i in range(n_classes):
                votes[i] = 0
            p = row * n_pairs
            for i in range(n_classes):
                for j in range(i + 1, n_classes):
                    if source[p] > 0:
                        votes[i] += 1
                    else:
                        votes[j] += 1
                    p += 1
            best = 0
            for i in range(1, n_classes):
                if votes[i] > votes[best]:
                    best = i
            winners[row] = best
    return codes
