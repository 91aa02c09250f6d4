# cython: language_level=3, cdivision=True
"""Decision values of a fitted SVM, without forming the kernel matrix.

For each row x of X and output column p (a one-vs-one pair, or SVR's single problem)::

    out[x, p] = sum_s K(x, sv_s) W[s, p]

LIBSVM stores the support vectors grouped by class and ``dual_coef`` of shape
(n_classes - 1, n_SV): a vector of class c takes part only in the n_classes - 1
pairs (c, d), with its coefficient for pair (c, d) in row d - 1 when c < d and
in row d when c > d. So W is never formed: per row, the kernel values against
a tile of support vectors are computed, and each class group meets each of its
coefficient rows in one dot product added to that pair's column.

The support vectors are laid out by feature once per call. Usually as a dense transposed
copy (feature j of every vector is one contiguous row): a row of X, dense or CSR, then
costs one pass over its non-zero entries per tile of vectors, the tile's dot products
formed in registers while the entries stream past, and four rows that share most features
go together. Sparse vectors with few entries per feature (text-like data) are kept as
columns instead (CSC), and each row scatters the columns of its features.

Rows are shared among OpenMP threads in chunks; each row is computed by one
thread, in an order fixed by the data alone, so the values do not depend on the
thread count. Its dot products sum the row's entries in feature order whatever
the path, so they differ between paths at most in the sign of a zero.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cython.parallel cimport prange, threadid

from svmx._engine.dotmath cimport (
    dot_rows,
    dot_rows4,
    sparse4_times_rows,
    sparse_times_columns,
    sparse_times_rows,
)
from svmx._engine.kernel_map cimport (
    LINEAR,
    POLY,
    RBF,
    SIGMOID,
    KernelParams,
    map_kernel_values,
)
from svmx._engine.isa cimport isa_level
from svmx._engine.layout_cache cimport LayoutCache, kept_layout, scatter_is_cheaper
from svmx._engine.openmp cimport openmp_max_threads
from svmx._engine.row_gather cimport (
    RowSource,
    gather_row,
    merge_four,
    sq_norm_of,
    sq_norms_of_four,
)

cimport numpy as cnp

import numpy as np
import scipy.sparse as sp

cnp.import_array()

from svmx._engine.support_layout import (
    csr_arrays,
    output_columns,
    support_vector_columns,
    transposed_support_vectors,
)

# The largest transposed copy of the support vectors (n_features * n_SV entries,
# 128 MB of float64) made per call; callers take another path above it.
MAX_TRANSPOSED_ENTRIES = 1 << 24
# Rows per chunk handed to a thread, at most, and the non-zero entries of a
# chunk's rows gathered at once (this bounds the per-thread scratch memory).
cdef Py_ssize_t CHUNK_ROWS = 64
cdef Py_ssize_t GATHER_ENTRIES = 1 << 16
# Support vectors per tile: the tile's share of the transposed copy (n_features
# x tile doubles) should stay in the per-core cache while a chunk's rows use it.
cdef Py_ssize_t TILE_BYTES = 1 << 17
cdef Py_ssize_t MIN_TILE = 64, MAX_TILE = 2048
# Four rows are merged over the union of their features when UNION_COST union
# entries cost less than their own entries: a union entry takes four FMAs per load
# of the transposed copy, a row's entry one, so which is cheaper depends on whether
# the loads (from L1/L2) or the FMA units bind, which differs by vector width
# (measured on 12 data sets: 2 with AVX-512, 3 on the narrower paths; 2-4 are within
# 10% of each other on most).
cdef double UNION_COST_AVX512 = 2
cdef double UNION_COST_NARROW = 3
# Fewer kernel values than this run on the calling thread alone: a sleeping worker whose
# core is busy waits a time slice (2 cores, one busy, calls 10 ms apart: 270 x 132
# values took 5.9 ms on two threads, 354 us on one; back to back, 79 against 126 us).
cdef Py_ssize_t MIN_THREADED_KERNEL_VALUES = 1 << 17
MIN_THREADED_VALUES = MIN_THREADED_KERNEL_VALUES  # for Python callers
# Sparse rows and support vectors with at least this many features, and this many times
# more features than stored entries between them, are predicted over the features they
# store (`compact_features`).
COMPACT_MIN_FEATURES = 1 << 20
COMPACT_RATIO = 4


cdef struct SupportModel:
    # The vectors by feature: a dense transposed copy, or (sparse vectors with few
    # entries per feature) their CSC form, whose columns each row scatters.
    const double* transposed        # (n_features, n_support): row j = feature j of every SV
    const Py_ssize_t* column_starts  # (n_features + 1,), or NULL with a transposed copy
    const int* column_rows
    const double* column_values
    const double* sq_norms          # (n_support,)
    const double* coef              # (n_coef_rows, n_support)
    const Py_ssize_t* group_starts  # (n_groups + 1,): group g is [starts[g], starts[g + 1])
    const Py_ssize_t* columns       # (n_groups, n_coef_rows): output column of each row
    Py_ssize_t n_support
    Py_ssize_t n_groups
    Py_ssize_t n_coef_rows
    Py_ssize_t tile
    double union_cost               # see UNION_COST_AVX512
    KernelParams params


cdef void accumulate(const SupportModel* model, Py_ssize_t start, Py_ssize_t n,
                     const double* kernel_values, double* out_row, double* sums) noexcept nogil:
    """Add the tile [start, start + n)'s share of every output column of one row.

    ``sums`` is room for one value per coefficient row.
    """
    cdef Py_ssize_t group, row, first, last
    for group in range(model.n_groups):
        first = max(model.group_starts[group], start)
        last = min(model.group_starts[group + 1], start + n)
        if first >= last:
            continue
        dot_rows(model.coef + first, model.n_support, model.n_coef_rows,
                 kernel_values + (first - start), last - first, sums)
        for row in range(model.n_coef_rows):
            out_row[model.columns[group * model.n_coef_rows + row]] += sums[row]


cdef void accumulate_four(const SupportModel* model, Py_ssize_t start, Py_ssize_t n,
                          const double* kernel_values, Py_ssize_t stride, double** out_rows,
                          double* sums) noexcept nogil:
    """`accumulate` for four rows at once (kernel values ``stride`` apart): each
    coefficient row, read once, serves all four; the sums are accumulate's, bit for
    bit. ``sums`` is room for four values per coefficient row."""
    cdef Py_ssize_t group, row, first, last, r, column
    cdef Py_ssize_t n_coef = model.n_coef_rows
    for group in range(model.n_groups):
        first = max(model.group_starts[group], start)
        last = min(model.group_starts[group + 1], start + n)
        if first >= last:
            continue
        dot_rows4(model.coef + first, model.n_support, n_coef,
                  kernel_values + (first - start), stride, last - first, sums)
        for row in range(n_coef):
            column = model.columns[group * n_coef + row]
            for r in range(4):
                out_rows[r][column] += sums[r * n_coef + row]


cdef struct Scratch:
    # One thread's work space for a chunk of rows, carved from three arrays.
    int* indices                    # the rows' entries, row after row: (capacity,)
    double* values
    Py_ssize_t* row_starts          # (chunk_rows + 1,)
    double* row_sq_norms            # (chunk_rows,)
    int* union_indices              # blocks of four rows over their union: (capacity,)
    double* union_values            # (4 * capacity,): value of row r at union entry u is [4u + r]
    Py_ssize_t* block_starts        # (chunk_rows // 4 + 1,)
    double* kernel_values           # (4, tile)
    double* sums                    # (4, n_coef_rows)


cdef void finish_row(const SupportModel* model, Py_ssize_t start, Py_ssize_t n,
                     double* kernel_values, double sq_norm, double* out_row,
                     double* sums) noexcept nogil:
    """Map a row's dot products with the tile [start, start + n) and add their share."""
    map_kernel_values(&model.params, kernel_values, n, sq_norm, model.sq_norms + start)
    accumulate(model, start, n, kernel_values, out_row, sums)


cdef void predict_chunk(const SupportModel* model, const RowSource* rows,
                        Py_ssize_t first_row, Py_ssize_t end_row, double* out,
                        Py_ssize_t n_outputs, Scratch scratch) noexcept nogil:
    """Decision values of rows [first_row, end_row).

    With CSC vectors, each row scatters its features' columns. With the transposed
    copy, the vectors go tile by tile, and rows four at a time when they share enough
    features (each row of the transposed vectors, loaded once, then serves four
    rows), otherwise one at a time. A row's dot products are the same either way: a
    row without an entry of the four rows' union adds 0 at that entry.
    """
    cdef Py_ssize_t r, p, k, b, u, size, start, n
    cdef Py_ssize_t n_rows = end_row - first_row, stored = 0, merged = 0
    cdef Py_ssize_t n_blocks = n_rows // 4, tile = model.tile
    cdef Py_ssize_t* row_starts = scratch.row_starts
    cdef Py_ssize_t* block_starts = scratch.block_starts
    cdef double* out_rows[4]
    for r in range(n_rows):
        row_starts[r] = stored
        stored += gather_row(rows, first_row + r, scratch.indices + stored,
                             scratch.values + stored)
        for p in range(n_outputs):
            out[(first_row + r) * n_outputs + p] = 0.0
    row_starts[n_rows] = stored
    if model.column_starts != NULL:
        for r in range(n_rows):
            k = row_starts[r]
            sparse_times_columns(model.column_starts, model.column_rows, model.column_values,
                                 scratch.indices + k, scratch.values + k,
                                 row_starts[r + 1] - k, model.n_support, scratch.kernel_values)
            finish_row(model, 0, model.n_support, scratch.kernel_values,
                       sq_norm_of(scratch.values + k, row_starts[r + 1] - k),
                       out + (first_row + r) * n_outputs, scratch.sums)
        return
    # The squared norms of merged rows come from their union (four chains at once).
    for r in range(4 * n_blocks, n_rows):
        scratch.row_sq_norms[r] = sq_norm_of(scratch.values + row_starts[r],
                                             row_starts[r + 1] - row_starts[r])
    for b in range(n_blocks):
        block_starts[b] = merged
        size = merge_four(scratch.indices, scratch.values, row_starts + 4 * b,
                          scratch.union_indices + merged, scratch.union_values + 4 * merged)
        # A union entry costs about model.union_cost row entries (see
        # UNION_COST_AVX512); an empty union sends the block's rows one at a time.
        if model.union_cost * size < row_starts[4 * b + 4] - row_starts[4 * b]:
            sq_norms_of_four(scratch.union_values + 4 * merged, size,
                             scratch.row_sq_norms + 4 * b)
            merged += size
        else:
            for r in range(4 * b, 4 * b + 4):
                scratch.row_sq_norms[r] = sq_norm_of(scratch.values + row_starts[r],
                                                     row_starts[r + 1] - row_starts[r])
    block_starts[n_blocks] = merged
    start = 0
    while start < model.n_support:
        n = min(tile, model.n_support - start)
        for b in range(n_blocks):
            u = block_starts[b]
            size = block_starts[b + 1] - u
            if size == 0:
                rows_one_by_one(model, start, n, 4 * b, 4 * b + 4, first_row, out, n_outputs,
                                scratch)
                continue
            sparse4_times_rows(model.transposed + start, model.n_support,
                               scratch.union_indices + u, scratch.union_values + 4 * u,
                               size, n, scratch.kernel_values, tile)
            for r in range(4):
                map_kernel_values(&model.params, scratch.kernel_values + r * tile, n,
                                  scratch.row_sq_norms[4 * b + r], model.sq_norms + start)
                out_rows[r] = out + (first_row + 4 * b + r) * n_outputs
            accumulate_four(model, start, n, scratch.kernel_values, tile, out_rows,
                            scratch.sums)
        rows_one_by_one(model, start, n, 4 * n_blocks, n_rows, first_row, out, n_outputs,
                        scratch)
        start += n


cdef void rows_one_by_one(const SupportModel* model, Py_ssize_t start, Py_ssize_t n,
                          Py_ssize_t first, Py_ssize_t end, Py_ssize_t first_row,
                          double* out, Py_ssize_t n_outputs, Scratch scratch) noexcept nogil:
    """The tile [start, start + n)'s share for the chunk's rows [first, end), one at a time."""
    cdef Py_ssize_t r, k
    for r in range(first, end):
        k = scratch.row_starts[r]
        sparse_times_rows(model.transposed + start, model.n_support, scratch.indices + k,
                          scratch.values + k, scratch.row_starts[r + 1] - k, n,
                          scratch.kernel_values)
        finish_row(model, start, n, scratch.kernel_values, scratch.row_sq_norms[r],
                   out + (first_row + r) * n_outputs, scratch.sums)


cdef Scratch carve_scratch(int* ints, double* floats, Py_ssize_t* indices,
                           Py_ssize_t capacity, Py_ssize_t chunk_rows,
                           Py_ssize_t tile) noexcept nogil:
    """One thread's Scratch over its rows of the three scratch arrays."""
    cdef Scratch scratch
    scratch.indices = ints
    scratch.union_indices = ints + capacity
    scratch.values = floats
    scratch.union_values = floats + capacity
    scratch.row_sq_norms = floats + 5 * capacity
    scratch.kernel_values = floats + 5 * capacity + chunk_rows
    scratch.sums = scratch.kernel_values + 4 * tile
    scratch.row_starts = indices
    scratch.block_starts = indices + chunk_rows + 1
    return scratch


cdef struct ScratchBlock:
    # Every thread's scratch in one allocation: thread t's parts start at t * width.
    double* floats
    Py_ssize_t* indices
    int* ints
    Py_ssize_t float_width
    Py_ssize_t index_width
    Py_ssize_t int_width


cdef void predict_rows(const SupportModel* model, const RowSource* rows,
                       Py_ssize_t n_rows, Py_ssize_t chunk_rows, Py_ssize_t capacity,
                       double* out, Py_ssize_t n_outputs, ScratchBlock block,
                       int n_threads) noexcept nogil:
    """Fill out (n_rows, n_outputs), chunks of rows shared among n_threads threads.

    Each thread works in its own part of the scratch block, chosen by its OpenMP id.
    """
    cdef Py_ssize_t chunk, n_chunks = (n_rows + chunk_rows - 1) // chunk_rows
    cdef int thread
    for chunk in prange(n_chunks, schedule="dynamic", num_threads=n_threads):
        thread = threadid()
        predict_chunk(model, rows, chunk * chunk_rows, min(n_rows, (chunk + 1) * chunk_rows),
                      out, n_outputs,
                      carve_scratch(block.ints + thread * block.int_width,
                                    block.floats + thread * block.float_width,
                                    block.indices + thread * block.index_width,
                                    capacity, chunk_rows, model.tile))


def serves(support_vectors):
    """Whether `decision_values` takes these support vectors: sparse ones always, dense
    ones while their transposed copy stays within ``MAX_TRANSPOSED_ENTRIES``.

    Examples
    --------
    >>> serves(np.zeros((3, 4)))
    True
    """
    return sp.issparse(support_vectors) or \
        support_vectors.shape[0] * support_vectors.shape[1] <= MAX_TRANSPOSED_ENTRIES


cdef inline const void* data_of(cnp.ndarray array, int type_num, int ndim) except NULL:
    """The storage of an array this module made or normalised (C-contiguous, of the
    given type and number of dimensions): read straight from the array, where a typed
    memoryview per array took about 0.3 us (a dozen of them per call)."""
    # Equivalent types pass (a 64-bit int array may be numpy's long or long long).
    if (not cnp.PyArray_EquivTypenums(cnp.PyArray_TYPE(array), type_num)
            or cnp.PyArray_NDIM(array) != ndim or not cnp.PyArray_IS_C_CONTIGUOUS(array)):
        raise ValueError(
            f"expected a C-contiguous {ndim}-d array of numpy type {type_num}; got "
            f"{array.dtype} of shape {np.shape(array)}"
        )
    return cnp.PyArray_DATA(array)


cdef tuple set_rows(RowSource* rows, X, Py_ssize_t chunk_rows, Py_ssize_t* capacity):
    """Point `rows` at X's storage; set the most entries a chunk of rows can have.

    Returns the arrays the pointers refer to, to be kept alive.
    """
    cdef Py_ssize_t chunk, n_rows = X.shape[0], n_features = X.shape[1]
    cdef const Py_ssize_t* pointers
    rows.dense64 = rows.dense32 = NULL
    rows.values64 = rows.values32 = NULL
    rows.indices = NULL
    rows.indptr = NULL
    rows.n_features = n_features
    if not sp.issparse(X):
        capacity[0] = chunk_rows * n_features
        if X.dtype == np.float32:  # converted row by row, never as a whole
            dense = np.ascontiguousarray(X)
            rows.dense32 = <const float*> data_of(dense, cnp.NPY_FLOAT32, 2)
        else:
            dense = np.ascontiguousarray(X, dtype=np.float64)
            rows.dense64 = <const double*> data_of(dense, cnp.NPY_FLOAT64, 2)
        if n_features == 0:
            rows.dense32 = rows.dense64 = NULL
        return (dense,)
    # Rows are merged four at a time by feature, and their squared norms summed entry
    # by entry: their indices must ascend without repeats.
    data, index_array, indptr_array = csr_arrays(X)  # C-contiguous
    if data.dtype != np.float32:
        data = np.asarray(data, dtype=np.float64)
    pointers = <const Py_ssize_t*> data_of(indptr_array, cnp.NPY_INTP, 1)
    rows.indptr = pointers
    if index_array.shape[0]:
        rows.indices = <const int*> data_of(index_array, cnp.NPY_INT32, 1)
        if data.dtype == np.float32:
            rows.values32 = <const float*> data_of(data, cnp.NPY_FLOAT32, 1)
        else:
            rows.values64 = <const double*> data_of(data, cnp.NPY_FLOAT64, 1)
    capacity[0] = 0
    for chunk in range((n_rows + chunk_rows - 1) // chunk_rows):
        capacity[0] = max(capacity[0], pointers[min(n_rows, (chunk + 1) * chunk_rows)]
                          - pointers[chunk * chunk_rows])
    return data, index_array, indptr_array


cdef tuple set_support(SupportModel* model, support_vectors, X, int n_threads, str layout,
                       dict layouts):
    """Lay the support vectors out for X's rows; returns the arrays to keep alive.

    ``layouts`` (a `LayoutCache`'s, or None) keeps the layouts between calls."""
    cdef Py_ssize_t n_features = support_vectors.shape[1]
    model.transposed = NULL
    model.column_starts = NULL
    model.column_rows = NULL
    model.column_values = NULL
    model.n_support = support_vectors.shape[0]
    if sp.issparse(support_vectors) and (
        layout == "columns"
        or (layout == "auto"
            and scatter_is_cheaper(X, support_vectors, layouts, MAX_TRANSPOSED_ENTRIES))
    ):
        parts = kept_layout(layouts, "columns", support_vector_columns, (support_vectors,))
        column_starts, column_rows, column_values, sq_norms = parts
        model.column_starts = <const Py_ssize_t*> data_of(column_starts, cnp.NPY_INTP, 1)
        if column_rows.shape[0]:
            model.column_rows = <const int*> data_of(column_rows, cnp.NPY_INT32, 1)
            model.column_values = <const double*> data_of(column_values, cnp.NPY_FLOAT64, 1)
        model.sq_norms = <const double*> data_of(sq_norms, cnp.NPY_FLOAT64, 1)
        model.tile = model.n_support
        return parts
    parts = kept_layout(layouts, "transposed", transposed_support_vectors,
                        (support_vectors, n_threads))
    transposed, sq_norms = parts
    if n_features > 0:
        model.transposed = <const double*> data_of(transposed, cnp.NPY_FLOAT64, 2)
    model.sq_norms = <const double*> data_of(sq_norms, cnp.NPY_FLOAT64, 1)
    model.tile = min(MAX_TILE, max(MIN_TILE, TILE_BYTES // (8 * max(n_features, 1)) // 32 * 32))
    return parts


def compact_features(X, support_vectors):
    """X and the support vectors over only the features either stores, where both are
    sparse and far wider than their entries; else None.

    The support vectors' column layout takes one entry per feature, so a test row with
    a feature index of 10^8 (hashed features, or one a model never saw) cost 1.6 GB and
    16 s (svm-predict: 3 MB, no time). Dropping the features neither stores changes no
    dot product or squared norm, and keeps every sum's order (the columns keep theirs).

    Examples
    --------
    >>> X = sp.csr_matrix(([1.0, 2.0], [5, 10**7], [0, 2]), shape=(1, 10**7 + 1))
    >>> vectors = sp.csr_matrix(([3.0], [5], [0, 1]), shape=(1, 10**7 + 1))
    >>> small_X, small_vectors = compact_features(X, vectors)
    >>> small_X.toarray().tolist(), small_vectors.toarray().tolist()
    ([[1.0, 2.0]], [[3.0, 0.0]])
    """
    if not (sp.issparse(X) and sp.issparse(support_vectors)):
        return None
    X, support_vectors = sp.csr_matrix(X), sp.csr_matrix(support_vectors)
    joined, n_used = stored_columns(np.concatenate((X.indices, support_vectors.indices)),
                                    X.shape[1])
    if n_used == X.shape[1]:
        return None
    split = X.indices.size
    return tuple(sp.csr_matrix((matrix.data, columns, matrix.indptr),
                               shape=(matrix.shape[0], n_used))
                 for matrix, columns in ((X, joined[:split]), (support_vectors, joined[split:])))


def stored_columns(indices, n_features):
    """Indices renumbered over the columns they use, and how many, where `n_features` is at
    least COMPACT_MIN_FEATURES and COMPACT_RATIO times the entries (else unchanged). The
    columns keep their order: every dot product is the same sum.

    Examples
    --------
    >>> stored_columns(np.array([5, 10**7, 5]), 10**7 + 1)
    (array([0, 1, 0], dtype=int32), 2)
    """
    if n_features < COMPACT_MIN_FEATURES or n_features < COMPACT_RATIO * len(indices):
        return indices, n_features
    used = np.unique(indices)
    return np.searchsorted(used, indices).astype(np.int32), int(used.size)


def decision_values(X, support_vectors, dual_coef, n_support, *, int kernel_type, int degree,
                    double gamma, double coef0, int n_threads=1, str layout="auto",
                    LayoutCache cache=None):
    """Decision values K(X, SV) W of a fitted SVM, without the intercept.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64 or float32, or sparse matrix
        Sparse input needs no particular index order.
    support_vectors : ndarray or sparse matrix of shape (n_SV, n_features)
        Grouped by class, as LIBSVM stores them.
    dual_coef : ndarray of shape (n_classes - 1, n_SV), or (1, n_SV) for a single problem
    n_support : array-like of shape (n_classes,), or (1,) for a single problem
        Support vectors per class.
    kernel_type : int
        LIBSVM's code: 0 linear, 1 poly, 2 rbf, 3 sigmoid.
    degree, gamma, coef0 : int, float, float
        The kernel's parameters.
    n_threads : int, default=1
        OpenMP threads, at most ``omp_get_max_threads()``; the values do not depend on it.
    layout : {"auto", "transposed", "columns"}, default="auto"
        How the support vectors are laid out: a dense transposed copy, or (sparse
        vectors only) their columns, scattered by each row; "auto" picks the cheaper.
        The values agree to rounding.

    Returns
    -------
    ndarray of shape (n_samples, n_classes * (n_classes - 1) / 2), or (n_samples, 1)
        For each one-vs-one pair in LIBSVM's order (positive: the pair's first class),
        or for the single problem.

    Examples
    --------
    >>> sv = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> decision_values(np.array([[0.0, 1.0]]), sv, np.array([[1.0, -1.0]]), [1, 1],
    ...                 kernel_type=0, degree=3, gamma=1.0, coef0=0.0).tolist()
    [[1.0]]
    """
    cdef SupportModel model
    cdef RowSource rows
    cdef const Py_ssize_t* starts
    cdef cnp.ndarray out
    cdef ScratchBlock block
    cdef void* memory
    cdef Py_ssize_t n_rows, n_features
    cdef Py_ssize_t n_support_vectors = support_vectors.shape[0], capacity, chunk_rows
    cdef Py_ssize_t n_outputs
    if kernel_type not in (LINEAR, POLY, RBF, SIGMOID):
        raise ValueError(
            f"kernel_type must be 0, 1, 2 or 3 (a built-in kernel); got {kernel_type}"
        )
    if X.ndim != 2:
        raise ValueError(f"X must be 2-d (n_samples, n_features); got shape {np.shape(X)}")
    n_rows, n_features = X.shape[0], X.shape[1]
    if layout not in ("auto", "transposed", "columns"):
        raise ValueError(f"layout must be 'auto', 'transposed' or 'columns'; got {layout!r}")
    if support_vectors.shape[1] != n_features:
        raise ValueError(
            f"X has {n_features} features, but the support vectors have "
            f"{support_vectors.shape[1]}"
        )
    coef_array = np.ascontiguousarray(dual_coef, dtype=np.float64)
    compact = compact_features(X, support_vectors)
    if compact is not None:
        X, support_vectors = compact
        n_features = X.shape[1]
    if cache is None:
        group_starts, columns = output_columns(n_support)
        layouts = None
    else:
        group_starts, columns = cache.output_columns(n_support, output_columns)
        layouts = None if compact is not None else cache.layouts_for(support_vectors)
    model.n_groups = group_starts.shape[0] - 1
    model.n_coef_rows = columns.shape[1]
    starts = <const Py_ssize_t*> data_of(group_starts, cnp.NPY_INTP, 1)
    if coef_array.shape != (model.n_coef_rows, n_support_vectors) \
            or starts[model.n_groups] != n_support_vectors:
        raise ValueError(
            f"dual_coef of shape {coef_array.shape} and n_support {list(n_support)} do not "
            f"fit {n_support_vectors} support vectors in {model.n_groups} group(s)"
        )
    n_outputs = 1 if model.n_groups == 1 else model.n_groups * (model.n_groups - 1) // 2
    if n_rows == 0 or n_support_vectors == 0:
        return np.zeros((n_rows, n_outputs), dtype=np.float64)
    out = np.empty((n_rows, n_outputs), dtype=np.float64)  # each chunk zeroes its rows
    model.coef = <const double*> data_of(coef_array, cnp.NPY_FLOAT64, 2)
    model.group_starts = starts
    model.columns = <const Py_ssize_t*> data_of(columns, cnp.NPY_INTP, 2)
    model.params.kernel_type = kernel_type
    model.union_cost = UNION_COST_AVX512 if isa_level() >= 4 else UNION_COST_NARROW
    model.params.degree = degree
    model.params.gamma = gamma
    model.params.coef0 = coef0
    # The arrays behind the pointers of `model` and `rows`, alive until the end.
    _support_arrays = set_support(&model, support_vectors, X, n_threads, layout, layouts)
    chunk_rows = max(1, min(CHUNK_ROWS, GATHER_ENTRIES // max(n_features, 1)))
    n_threads = max(1, min(n_threads, openmp_max_threads()))
    if n_rows * n_support_vectors < MIN_THREADED_KERNEL_VALUES:
        n_threads = 1
    if n_threads > 1:  # two chunks a thread at least (of whole blocks of four rows)
        chunk_rows = min(chunk_rows, max(4, (n_rows // (2 * n_threads) + 3) // 4 * 4))
    _row_arrays = set_rows(&rows, X, chunk_rows, &capacity)
    n_chunks = (n_rows + chunk_rows - 1) // chunk_rows
    n_threads = min(n_threads, n_chunks)
    # Per-thread scratch (see Scratch), allocated here: nothing is allocated without the
    # GIL. One block, not three arrays (a call on a few rows is mostly fixed costs).
    capacity = max(capacity, 1)
    block.float_width = 5 * capacity + chunk_rows + 4 * model.tile + 4 * model.n_coef_rows
    block.index_width = chunk_rows + 1 + chunk_rows // 4 + 1
    block.int_width = 2 * capacity
    memory = PyMem_Malloc(n_threads * (block.float_width * sizeof(double)
                                       + block.index_width * sizeof(Py_ssize_t)
                                       + block.int_width * sizeof(int)))
    if memory == NULL:
        raise MemoryError("no room for the prediction's scratch space")
    block.floats = <double*> memory
    block.indices = <Py_ssize_t*> (block.floats + n_threads * block.float_width)
    block.ints = <int*> (block.indices + n_threads * block.index_width)
    try:
        with nogil:
            predict_rows(&model, &rows, n_rows, chunk_rows, capacity,
                         <double*> cnp.PyArray_DATA(out), n_outputs, block, n_threads)
    finally:
        PyMem_Free(memory)
    return out


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
