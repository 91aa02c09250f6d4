# cython: language_level=3, cdivision=True
"""One-pass scans of training inputs, in C: label checks and encoding, row norms.

A fit on a few hundred rows spends more time in its numpy calls than in the
solver: checking float labels (finite, integral), encoding them (``np.unique``)
and the squared norms of the rows took about 55 us of a 0.8 ms heart_scale fit,
in thirteen numpy calls. Each function here is one pass over the data and gives
what those calls gave.
"""

import numpy as np
import scipy.sparse as sp

from cython cimport floating
from libc.math cimport floor

__all__ = ["MAX_SCANNED_CLASSES", "encode_labels", "float_labels_problem",
           "row_norms_overflow"]

# Labels are encoded here while they have at most this many distinct values; more
# (a classifier asked to learn hundreds of classes) go to np.unique, whose sort then
# costs less than the insertions into a sorted list of classes.
cdef Py_ssize_t MAX_CLASSES = 64
MAX_SCANNED_CLASSES = MAX_CLASSES

ctypedef fused label_t:
    double
    long long


def float_labels_problem(const double[::1] values):
    """What makes float labels unfit for a classifier, or None.

    Returns ``"nonfinite"`` (a NaN or an infinity) or ``"continuous"`` (a value
    that is not a whole number), in that order of precedence, as validate_targets
    reports them.

    Examples
    --------
    >>> float_labels_problem(np.array([0.0, 1.0, -3.0]))
    >>> float_labels_problem(np.array([0.5, np.nan]))
    'nonfinite'
    >>> float_labels_problem(np.array([0.5, 1.0]))
    'continuous'
    """
    cdef Py_ssize_t i
    cdef bint nonfinite = False, continuous = False
    cdef double value
    with nogil:
        for i in range(values.shape[0]):
            value = values[i]
            if value - value != 0.0:  # NaN or an infinity
                nonfinite = True
                break
            if floor(value) != value:
                continuous = True
    if nonfinite:
        return "nonfinite"
    return "continuous" if continuous else None


cdef Py_ssize_t _encode(const label_t[::1] values, label_t* classes, Py_ssize_t* codes,
                        Py_ssize_t max_classes) noexcept nogil:
    """Sorted distinct values into ``classes`` and each value's index among them into
    ``codes``; returns the number of classes, or -1 past ``max_classes``."""
    cdef Py_ssize_t i, k, position, n_classes = 0
    for i in range(values.shape[0]):
        position = _position(classes, n_classes, values[i])
        if position < n_classes and classes[position] == values[i]:
            continue
        if n_classes == max_classes:
            return -1
        for k in range(n_classes, position, -1):  # the larger classes move up one
            classes[k] = classes[k - 1]
        classes[position] = values[i]
        n_classes += 1
    for i in range(values.shape[0]):
        codes[i] = _position(classes, n_classes, values[i])
    return n_classes


cdef inline Py_ssize_t _position(const label_t* classes, Py_ssize_t n_classes,
                                 label_t value) noexcept nogil:
    """The first index of the sorted ``classes`` whose class is not below ``value``."""
    cdef Py_ssize_t low = 0, high = n_classes, middle
    while low < high:
        middle = (low + high) // 2
        if classes[middle] < value:
            low = middle + 1
        else:
            high = middle
    return low


def encode_labels(values):
    """``np.unique(values, return_inverse=True)`` of float64 or int64 labels with at
    most MAX_SCANNED_CLASSES distinct values; None otherwise (other types, or more
    classes), for the caller to use np.unique.

    Examples
    --------
    >>> classes, codes = encode_labels(np.array([3.0, -1.0, 3.0, 2.0]))
    >>> classes.tolist(), codes.tolist()
    ([-1.0, 2.0, 3.0], [2, 0, 2, 1])
    >>> encode_labels(np.array(["a", "b"])) is None
    True
    """
    if not isinstance(values, np.ndarray) or values.ndim != 1 or values.shape[0] == 0 \
            or values.dtype not in (np.float64, np.int64):
        return None
    values = np.ascontiguousarray(values)
    classes = np.empty(MAX_CLASSES, dtype=values.dtype)
    codes = np.empty(values.shape[0], dtype=np.intp)
    cdef Py_ssize_t[::1] code_view = codes
    cdef const double[::1] float_values
    cdef const long long[::1] int_values
    cdef double[::1] float_classes
    cdef long long[::1] int_classes
    cdef Py_ssize_t n_classes
    if values.dtype == np.float64:
        float_values, float_classes = values, classes
        with nogil:
            n_classes = _encode(float_values, &float_classes[0], &code_view[0],
                                MAX_CLASSES)
    else:
        int_values, int_classes = values, classes
        with nogil:
            n_classes = _encode(int_values, &int_classes[0], &code_view[0],
                                MAX_CLASSES)
    if n_classes < 0:
        return None
    return classes[:n_classes].copy(), codes


cdef bint _dense_overflows(const floating[:, ::1] X) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef double total, value
    for i in range(X.shape[0]):
        total = 0.0
        for j in range(X.shape[1]):
            value = X[i, j]
            total += value * value
        if total - total != 0.0:
            return True
    return False


cdef bint _csr_overflows(const floating[::1] data, const long long[::1] indptr) noexcept nogil:
    cdef Py_ssize_t i, k
    cdef double total, value
    for i in range(indptr.shape[0] - 1):
        total = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            value = data[k]
            total += value * value
        if total - total != 0.0:
            return True
    return False


def row_norms_overflow(X):
    """Whether some row of X (finite float32/float64 values, C-contiguous dense or
    canonical CSR) has a squared norm, summed in float64, that is not finite.

    Examples
    --------
    >>> row_norms_overflow(np.array([[1.0, 2.0]]))
    False
    >>> row_norms_overflow(sp.csr_matrix(np.array([[0.0], [1e200]])))
    True
    """
    cdef bint overflows
    cdef const long long[::1] indptr
    cdef const float[::1] data32
    cdef const double[::1] data64
    cdef const float[:, ::1] dense32
    cdef const double[:, ::1] dense64
    if sp.issparse(X):
        indptr = np.asarray(X.indptr, dtype=np.longlong)
        if X.data.dtype == np.float32:
            data32 = X.data
            with nogil:
                overflows = _csr_overflows(data32, indptr)
        else:
            data64 = np.asarray(X.data, dtype=np.float64)
            with nogil:
                overflows = _csr_overflows(data64, indptr)
    elif X.dtype == np.float32:
        dense32 = np.ascontiguousarray(X)
        with nogil:
            overflows = _dense_overflows(dense32)
    else:
        dense64 = np.ascontiguousarray(X, dtype=np.float64)
        with nogil:
            overflows = _dense_overflows(dense64)
    return bool(overflows)
