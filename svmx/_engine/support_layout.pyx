# cython: language_level=3, cdivision=True
"""The support vectors laid out by feature, for prediction (see svmx._engine.predict).

A dense transposed copy (n_features x n_SV: feature j of every vector is one
contiguous row) or, for sparse vectors, their columns (CSC); either way with the
vectors' squared norms, summed feature by feature so that both layouts give the
same norms. Also where each class group's coefficient rows add their share.
"""

from cython.parallel cimport prange
from libc.string cimport memcpy

from svmx._engine.isa cimport isa_level
from svmx._engine.openmp cimport openmp_max_threads

import numpy as np
import scipy.sparse as sp

# Square blocks of the transposed copy.
cdef Py_ssize_t TRANSPOSE_BLOCK = 16


cdef void transpose_features(const double[:, :] vectors, double[:, ::1] transposed,
                             Py_ssize_t first, Py_ssize_t end) noexcept nogil:
    """transposed[j, s] = vectors[s, j] for the features j in [first, end).

    Square blocks keep both the rows read and the rows written in cache (a plain
    transposed copy reads or writes one entry per cache line).
    """
    cdef Py_ssize_t block, s, j, s_end
    cdef Py_ssize_t n_support = vectors.shape[0]
    for block in range((n_support + TRANSPOSE_BLOCK - 1) // TRANSPOSE_BLOCK):
        s_end = min(n_support, (block + 1) * TRANSPOSE_BLOCK)
        for j in range(first, end):
            for s in range(block * TRANSPOSE_BLOCK, s_end):
                transposed[j, s] = vectors[s, j]


def transposed_support_vectors(support_vectors, int n_threads=1):
    """The support vectors as a (n_features, n_SV) float64 array, and their squared norms.

    Parameters
    ----------
    support_vectors : ndarray or sparse matrix of shape (n_SV, n_features)
    n_threads : int, default=1
        OpenMP threads for a dense transpose.

    Returns
    -------
    transposed : ndarray of shape (n_features, n_SV), C-contiguous
    sq_norms : ndarray of shape (n_SV,)

    Examples
    --------
    >>> transposed, sq_norms = transposed_support_vectors(np.array([[1.0, 2.0], [3.0, 0.0]]))
    >>> transposed.tolist(), sq_norms.tolist()
    ([[1.0, 3.0], [2.0, 0.0]], [5.0, 9.0])
    """
    cdef double[:, ::1] transposed
    cdef double[::1] sq_norms
    cdef const double[:, :] dense
    cdef const double[::1] data
    cdef const int[::1] indices
    cdef const Py_ssize_t[::1] indptr
    cdef Py_ssize_t s, j, k, block, n_blocks
    cdef Py_ssize_t n_support = support_vectors.shape[0], n_features = support_vectors.shape[1]
    if not sp.issparse(support_vectors):
        dense = np.asarray(support_vectors, dtype=np.float64)
        transposed = np.empty((n_features, n_support), dtype=np.float64)
        n_blocks = (n_features + TRANSPOSE_BLOCK - 1) // TRANSPOSE_BLOCK
        n_threads = max(1, min(n_threads, openmp_max_threads(), n_blocks))
        for block in prange(n_blocks, nogil=True, schedule="static", num_threads=n_threads):
            transpose_features(dense, transposed, block * TRANSPOSE_BLOCK,
                               min(n_features, (block + 1) * TRANSPOSE_BLOCK))
    else:
        parts = csr_arrays(support_vectors, canonical=False)
        data, indices, indptr = np.asarray(parts[0], dtype=np.float64), parts[1], parts[2]
        transposed = np.zeros((n_features, n_support), dtype=np.float64)
        with nogil:
            for s in range(n_support):
                for k in range(indptr[s], indptr[s + 1]):
                    transposed[indices[k], s] += data[k]
    sq_norms = np.zeros(n_support, dtype=np.float64)
    with nogil:
        for j in range(n_features):
            for s in range(n_support):
                sq_norms[s] += transposed[j, s] * transposed[j, s]
    return np.asarray(transposed), np.asarray(sq_norms)


def support_vector_columns(support_vectors):
    """The sparse support vectors by feature (CSC), and their squared norms.

    Parameters
    ----------
    support_vectors : sparse matrix of shape (n_SV, n_features)

    Returns
    -------
    column_starts : ndarray of shape (n_features + 1,)
    column_rows : ndarray of shape (nnz,), int32, ascending within each column
    column_values : ndarray of shape (nnz,)
    sq_norms : ndarray of shape (n_SV,)
        Summed feature by feature, as `transposed_support_vectors` sums them.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> parts = support_vector_columns(sp.csr_matrix(np.array([[1.0, 2.0], [3.0, 0.0]])))
    >>> [part.tolist() for part in parts]
    [[0, 2, 3], [0, 1, 0], [1.0, 3.0, 2.0], [5.0, 9.0]]
    """
    cdef const double[::1] data
    cdef const int[::1] indices
    cdef const Py_ssize_t[::1] indptr
    cdef Py_ssize_t n_support = support_vectors.shape[0], n_features = support_vectors.shape[1]
    cdef Py_ssize_t s, j, k, p
    parts = csr_arrays(support_vectors)
    data, indices, indptr = np.asarray(parts[0], dtype=np.float64), parts[1], parts[2]
    cdef Py_ssize_t[::1] starts = np.zeros(n_features + 1, dtype=np.intp)
    cdef Py_ssize_t[::1] next_slot = np.empty(n_features, dtype=np.intp)
    cdef int[::1] rows = np.empty(indices.shape[0], dtype=np.intc)
    cdef double[::1] values = np.empty(indices.shape[0], dtype=np.float64)
    cdef double[::1] sq_norms = np.zeros(n_support, dtype=np.float64)
    with nogil:
        # A counting sort by feature; rows ascend in each column as they are visited.
        for k in range(indices.shape[0]):
            starts[indices[k] + 1] += 1
        for j in range(n_features):
            starts[j + 1] += starts[j]
            next_slot[j] = starts[j]
        for s in range(n_support):
            for k in range(indptr[s], indptr[s + 1]):
                p = next_slot[indices[k]]
                rows[p] = <int> s
                values[p] = data[k]
                next_slot[indices[k]] = p + 1
        for j in range(n_features):
            for p in range(starts[j], starts[j + 1]):
                sq_norms[rows[p]] += values[p] * values[p]
    return np.asarray(starts), np.asarray(rows), np.asarray(values), np.asarray(sq_norms)


def output_columns(n_support):
    """Where each (class group, dual_coef row) adds its share: group starts and columns.

    One group is a single problem (SVR, one-class SVM) with one output column.
    For k > 1 classes, row r of class c's coefficients belongs to the pair
    (r, c) when r < c and to (c, r + 1) otherwise, numbered in LIBSVM's order.

    Parameters
    ----------
    n_support : array-like of shape (n_groups,)
        Support vectors per class, in the order they are stored.

    Returns
    -------
    group_starts : ndarray of shape (n_groups + 1,)
    columns : ndarray of shape (n_groups, max(n_groups - 1, 1))

    Examples
    --------
    >>> starts, columns = output_columns([2, 1, 3])
    >>> starts.tolist(), columns.tolist()
    ([0, 2, 3, 6], [[0, 1], [0, 2], [1, 2]])
    """
    cdef const Py_ssize_t[::1] counts = np.asarray(n_support, dtype=np.intp).ravel()
    cdef Py_ssize_t n_groups = counts.shape[0], c, r
    cdef Py_ssize_t[::1] starts = np.empty(n_groups + 1, dtype=np.intp)
    cdef Py_ssize_t[:, ::1] columns = np.zeros((n_groups, max(n_groups - 1, 1)), dtype=np.intp)
    starts[0] = 0
    for c in range(n_groups):
        starts[c + 1] = starts[c] + counts[c]
        for r in range(n_groups - 1):
            columns[c, r] = pair_column(r, c, n_groups) if r < c \
                else pair_column(c, r + 1, n_groups)
    return np.asarray(starts), np.asarray(columns)


cdef inline Py_ssize_t pair_column(Py_ssize_t i, Py_ssize_t j, Py_ssize_t n_classes):
    """The position of the pair (i, j), i < j, in LIBSVM's order (0, 1), (0, 2), ..."""
    return i * n_classes - i * (i + 1) // 2 + (j - i - 1)


def csr_arrays(matrix, canonical=True):
    """data, indices (int32) and indptr (intp) of a sparse matrix's CSR form.

    With ``canonical``, each row's indices ascend without repeats (duplicates
    summed; a copy is made only when needed).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> data, indices, indptr = csr_arrays(sp.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0]])))
    >>> data.tolist(), indices.tolist(), indptr.tolist()
    ([2.0, 3.0], [1, 0], [0, 1, 2])
    """
    if matrix.format != "csr":
        matrix = matrix.tocsr()
    if canonical and not matrix.has_canonical_format:
        matrix = matrix.copy()
        matrix.sum_duplicates()
    return (np.ascontiguousarray(matrix.data),
            np.ascontiguousarray(matrix.indices, dtype=np.intc),
            np.ascontiguousarray(matrix.indptr, dtype=np.intp))


def gather_csr_rows(matrix, rows):
    """The rows `rows` of a sparse matrix as CSR arrays: float64 data, int32 indices
    ascending within each row (duplicates summed), intp indptr.

    The fast form of ``matrix[rows]`` (scipy's fancy indexing costs tens of
    microseconds of Python per call, which a small fit pays twice).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = sp.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]]))
    >>> data, indices, indptr = gather_csr_rows(m, np.array([2, 0]))
    >>> data.tolist(), indices.tolist(), indptr.tolist()
    ([4.0, 5.0, 2.0], [0, 1, 1], [0, 2, 3])
    """
    data_in, indices_array, indptr_array = csr_arrays(matrix)
    cdef const Py_ssize_t[::1] indptr = indptr_array
    cdef const int[::1] indices = indices_array
    cdef const Py_ssize_t[::1] chosen = np.ascontiguousarray(rows, dtype=np.intp)
    cdef Py_ssize_t n_rows = indptr.shape[0] - 1, n_chosen = chosen.shape[0]
    cdef Py_ssize_t i, row, start, length, total = 0
    for i in range(n_chosen):
        row = chosen[i]
        if row < 0 or row >= n_rows:
            raise IndexError(f"row {row} is out of range for a matrix of {n_rows} rows")
        total += indptr[row + 1] - indptr[row]
    values = np.asarray(data_in, dtype=np.float64)
    cdef const double[::1] source = values
    out_data = np.empty(total, dtype=np.float64)
    out_indices = np.empty(total, dtype=np.intc)
    out_indptr = np.empty(n_chosen + 1, dtype=np.intp)
    cdef double[::1] data_view = out_data
    cdef int[::1] index_view = out_indices
    cdef Py_ssize_t[::1] indptr_view = out_indptr
    total = 0
    indptr_view[0] = 0
    with nogil:
        for i in range(n_chosen):
            row = chosen[i]
            start = indptr[row]
            length = indptr[row + 1] - start
            if length:
                memcpy(&data_view[total], &source[start], length * sizeof(double))
                memcpy(&index_view[total], &indices[start], length * sizeof(int))
            total += length
            indptr_view[i + 1] = total
    return out_data, out_indices, out_indptr


def gather_csr_rows_dense(matrix, rows):
    """The rows `rows` of a sparse matrix as a dense, C-contiguous float64 array
    (duplicate entries summed, as `gather_csr_rows` sums them).

    The fast form of ``matrix[rows].toarray()`` for the solver's rows.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> m = sp.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]]))
    >>> gather_csr_rows_dense(m, np.array([2, 0])).tolist()
    [[4.0, 5.0], [0.0, 2.0]]
    """
    data_in, indices_array, indptr_array = csr_arrays(matrix)
    cdef const Py_ssize_t[::1] indptr = indptr_array
    cdef const int[::1] indices = indices_array
    cdef const Py_ssize_t[::1] chosen = np.ascontiguousarray(rows, dtype=np.intp)
    cdef Py_ssize_t n_rows = indptr.shape[0] - 1, n_chosen = chosen.shape[0]
    cdef Py_ssize_t i, k, row
    for i in range(n_chosen):
        row = chosen[i]
        if row < 0 or row >= n_rows:
            raise IndexError(f"row {row} is out of range for a matrix of {n_rows} rows")
    values = np.asarray(data_in, dtype=np.float64)
    cdef const double[::1] source = values
    out = np.zeros((n_chosen, matrix.shape[1]), dtype=np.float64)
    cdef double[:, ::1] dense = out
    cdef int feature = 0, n_features = matrix.shape[1]
    cdef bint outside = False
    with nogil:
        for i in range(n_chosen):
            row = chosen[i]
            for k in range(indptr[row], indptr[row + 1]):
                feature = indices[k]
                if feature < 0 or feature >= n_features:
                    outside = True
                    break
                dense[i, feature] += source[k]
            if outside:
                break
    if outside:
        raise IndexError(f"column index {feature} is out of range for {n_features} features")
    return out


ctypedef fused index_t:
    int
    long long


cdef int _structure_kind(const index_t[::1] ptr, const index_t[::1] idx, Py_ssize_t n_major,
                         Py_ssize_t n_minor, Py_ssize_t end,
                         long long* bad) noexcept nogil:
    """0: sound; 1: pointers decrease; 2: an index outside [0, n_minor) (in ``bad``)."""
    cdef Py_ssize_t i, k
    for i in range(n_major):
        if ptr[i + 1] < ptr[i]:
            return 1
    for k in range(end):
        if idx[k] < 0 or idx[k] >= n_minor:
            bad[0] = idx[k]
            return 2
    return 0


ctypedef fused value_t:
    float
    double


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* Whether no value is infinite or NaN: those have every exponent bit set, so adding
       one to the exponent field alone carries into the sign bit. Integer operations
       the compiler vectorises (a loop of isfinite calls stays scalar). */
    SVMX_MULTIVERSION(int, svmx_doubles_finite, (const double* values, Py_ssize_t n),
                      (values, n),
        const uint64_t exponent = 0x7ff0000000000000ULL, one = 0x0010000000000000ULL;
        uint64_t carried = 0, bits;
        Py_ssize_t k;
        for (k = 0; k < n; k++) {
            memcpy(&bits, values + k, sizeof bits);
            carried |= (bits & exponent) + one;
        }
        return (carried >> 63) == 0;
    )
    SVMX_MULTIVERSION(int, svmx_floats_finite, (const float* values, Py_ssize_t n),
                      (values, n),
        const uint32_t exponent = 0x7f800000U, one = 0x00800000U;
        uint32_t carried = 0, bits;
        Py_ssize_t k;
        for (k = 0; k < n; k++) {
            memcpy(&bits, values + k, sizeof bits);
            carried |= (bits & exponent) + one;
        }
        return (carried >> 31) == 0;
    )
    /* Of int32 indices [0, n): how many are not above their predecessor, and the
       largest as unsigned (a negative index reads as one above 2^31). */
    SVMX_MULTIVERSION(Py_ssize_t, svmx_int32_descents,
                      (const int* indices, Py_ssize_t n, uint32_t* largest),
                      (indices, n, largest),
        Py_ssize_t k, descents = 0;
        uint32_t top = 0, value;
        for (k = 1; k < n; k++) descents += indices[k] <= indices[k - 1];
        for (k = 0; k < n; k++) {
            value = (uint32_t)indices[k];
            top = value > top ? value : top;
        }
        *largest = top;
        return descents;
    )
    """
    bint doubles_finite "svmx_doubles_finite"(const double* values, Py_ssize_t n) noexcept nogil
    bint floats_finite "svmx_floats_finite"(const float* values, Py_ssize_t n) noexcept nogil
    Py_ssize_t int32_descents "svmx_int32_descents"(const int* indices, Py_ssize_t n,
                                                    unsigned int* largest) noexcept nogil


cdef inline Py_ssize_t index_descents(const index_t* indices, Py_ssize_t n,
                                      size_t* largest) noexcept nogil:
    """How many of indices[1:n] are not above their predecessor; the largest index as
    unsigned (a negative one wraps above every feature count)."""
    cdef Py_ssize_t k, descents = 0
    cdef unsigned int largest32 = 0
    cdef size_t top = 0
    if index_t is int:
        descents = int32_descents(indices, n, &largest32)
        largest[0] = largest32 if n == 0 or largest32 < 0x80000000u else <size_t> -1
        return descents
    for k in range(1, n):
        descents += indices[k] <= indices[k - 1]
    for k in range(n):
        top = max(top, <size_t> indices[k])
    largest[0] = top
    return descents


cdef inline bint values_finite(const value_t* values, Py_ssize_t n) noexcept nogil:
    if value_t is double:
        return doubles_finite(values, n)
    return floats_finite(values, n)


cdef bint _csr_ready(const index_t[::1] ptr, const index_t[::1] idx, const value_t[::1] data,
                     Py_ssize_t n_rows, Py_ssize_t n_features) noexcept nogil:
    """`csr_is_ready`'s checks, in loops the compiler vectorises (no early exits)."""
    cdef Py_ssize_t i, k, end = ptr[n_rows], descents, row_starts_descending = 0
    cdef size_t largest = 0
    cdef const index_t* indices = &idx[0] if idx.shape[0] else NULL
    if ptr[0] != 0 or end > idx.shape[0] or end > data.shape[0]:
        return False
    for i in range(n_rows):
        if ptr[i + 1] < ptr[i]:
            return False
    # Every entry after the first is either the first of a (non-empty) row or follows an
    # entry of its row: the rows ascend when the only entries not above their
    # predecessor are first entries.
    descents = index_descents(indices, end, &largest)
    for i in range(n_rows):
        k = ptr[i]
        if 0 < k < ptr[i + 1] and indices[k] <= indices[k - 1]:
            row_starts_descending += 1
    if descents != row_starts_descending or (end > 0 and largest >= <size_t> n_features):
        return False
    return values_finite(&data[0] if data.shape[0] else NULL, data.shape[0])


def csr_is_ready(indptr, indices, data, Py_ssize_t n_rows, Py_ssize_t n_features):
    """Whether a CSR matrix's arrays can go to the engine as they are: int32 or int64
    index arrays of one type, float32 or float64 values, pointers from 0, nondecreasing
    and within the stored entries, each row's indices ascending without repeats and in
    [0, n_features), and every stored value finite.

    In C, in loops the compiler vectorises: a prediction's input check (the structure,
    the canonical order and the finite values were three passes, 7 us of a 270-row
    prediction). False
    says only that the slower checks must find what is wrong, or repair the order.

    Examples
    --------
    >>> csr_is_ready(np.array([0, 1, 2], np.int32), np.array([1, 0], np.int32),
    ...              np.array([1.0, 2.0]), 2, 2)
    True
    >>> csr_is_ready(np.array([0, 2], np.int32), np.array([1, 0], np.int32),
    ...              np.array([1.0, 2.0]), 1, 2)
    False
    """
    if (type(indptr) is not np.ndarray or type(indices) is not np.ndarray
            or type(data) is not np.ndarray or indptr.dtype != indices.dtype
            or indptr.shape[0] != n_rows + 1 or indptr.ndim != 1 or indices.ndim != 1
            or data.ndim != 1 or not (indptr.flags.c_contiguous and indices.flags.c_contiguous
                                      and data.flags.c_contiguous)):
        return False
    cdef const int[::1] ptr32, idx32
    cdef const long long[::1] ptr64, idx64
    if indptr.dtype == np.intc:
        ptr32, idx32 = indptr, indices
        return _ready_with_values(ptr32, idx32, data, n_rows, n_features)
    if indptr.dtype == np.longlong:
        ptr64, idx64 = indptr, indices
        return _ready_with_values(ptr64, idx64, data, n_rows, n_features)
    return False


cdef bint _ready_with_values(const index_t[::1] ptr, const index_t[::1] idx, data,
                             Py_ssize_t n_rows, Py_ssize_t n_features) except -1:
    """`_csr_ready` for float64 or float32 values; False for any other type."""
    cdef const double[::1] values64
    cdef const float[::1] values32
    cdef bint ready
    if data.dtype == np.float64:
        values64 = data
        with nogil:
            ready = _csr_ready(ptr, idx, values64, n_rows, n_features)
    elif data.dtype == np.float32:
        values32 = data
        with nogil:
            ready = _csr_ready(ptr, idx, values32, n_rows, n_features)
    else:
        return False
    return ready


def _as_index_array(values):
    array = np.ascontiguousarray(values)
    if array.dtype == np.intc or array.dtype == np.longlong:
        return array
    return array.astype(np.longlong)


def compressed_structure_problem(indptr, indices, Py_ssize_t n_major, Py_ssize_t n_minor,
                                 Py_ssize_t n_data):
    """What is wrong with a CSR/CSC matrix's index arrays, or None: pointers from 0,
    nondecreasing and within the ``n_data`` stored entries, indices in [0, n_minor).

    One pass in C (numpy's four reductions took 9 us of a 80 us prediction).

    Examples
    --------
    >>> compressed_structure_problem(np.array([0, 1, 2]), np.array([0, 3], np.int32), 2, 3, 2)
    'index 3 is outside [0, 3)'
    >>> compressed_structure_problem(np.array([0, 1, 2]), np.array([0, 2], np.int32), 2, 3, 2)
    """
    pointers, index_array = _as_index_array(indptr), _as_index_array(indices)
    if pointers.dtype != index_array.dtype:
        pointers, index_array = pointers.astype(np.longlong), index_array.astype(np.longlong)
    if pointers.shape[0] != n_major + 1 or pointers[0] != 0:
        return "its pointers do not start at 0"
    cdef Py_ssize_t end = pointers[n_major]
    if end > index_array.shape[0] or end > n_data:
        return f"its pointers reach entry {end} of {index_array.shape[0]}"
    cdef long long bad = 0
    cdef int kind
    cdef const int[::1] ptr32, idx32
    cdef const long long[::1] ptr64, idx64
    if pointers.dtype == np.intc:
        ptr32, idx32 = pointers, index_array
        with nogil:
            kind = _structure_kind(ptr32, idx32, n_major, n_minor, end, &bad)
    else:
        ptr64, idx64 = pointers, index_array
        with nogil:
            kind = _structure_kind(ptr64, idx64, n_major, n_minor, end, &bad)
    if kind == 1:
        return "its pointers decrease"
    if kind == 2:
        return f"index {bad} is outside [0, {n_minor})"
    return None


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
