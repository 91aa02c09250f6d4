# cython: language_level=3
"""A fitted model's support-vector layouts for prediction: which to use, kept between calls.

`svmx._engine.predict.decision_values` lays the support vectors out by feature
(a dense transposed copy, or CSC columns) and maps each class group to its output
columns on every call: on a model of 137 vectors of 13 features that was 15 us of a
115 us prediction of 270 rows. An estimator keeps one `LayoutCache` and passes it in.

The cache holds a copy of the arrays its layouts were built from, and every call
compares the support vectors given with that copy, byte for byte (a memcmp, about
1 us per 20 KB): support vectors replaced or changed in place are laid out again,
never read from a stale layout. Only a C-contiguous float64 array or a CSR matrix
is kept, of at most ``MAX_CACHED_ENTRIES`` stored entries, and a layout of at most as
many (a sparse model's transposed copy is n_SV x n_features: on a9a 12 MB for 2 MB of
vectors); anything else is laid out per call as before.

`scatter_is_cheaper` chooses between the two layouts of sparse vectors for given rows.
"""

from libc.string cimport memcmp

cimport numpy as cnp

import numpy as np
import scipy.sparse as sp

cnp.import_array()

from svmx._engine.support_layout import csr_arrays

# Sparse support vectors are scattered column by column when that takes fewer than
# 1 / SCATTER_COST of the transposed copy's products (a scalar scatter against
# vectorised passes).
cdef double SCATTER_COST = 5.0
# Support vectors with more stored entries than this are not kept, nor a layout of more
# entries (`kept_layout`): those are built on every call.
# A model then holds at most its vectors' copy and two layouts of 2^22 float64 (32 MB).
MAX_CACHED_ENTRIES = 1 << 22


cdef bint same_bytes(cnp.ndarray a, cnp.ndarray b) except -1:
    """Whether two C-contiguous arrays of the same dtype and shape hold the same bytes
    (read straight from the arrays: this runs on every prediction)."""
    cdef int k
    if (cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(b) or cnp.PyArray_NDIM(a) != cnp.PyArray_NDIM(b)
            or not cnp.PyArray_IS_C_CONTIGUOUS(a) or not cnp.PyArray_IS_C_CONTIGUOUS(b)):
        return False
    for k in range(cnp.PyArray_NDIM(a)):
        if cnp.PyArray_DIMS(a)[k] != cnp.PyArray_DIMS(b)[k]:
            return False
    return memcmp(cnp.PyArray_DATA(a), cnp.PyArray_DATA(b), cnp.PyArray_NBYTES(a)) == 0


cdef inline bint c_contiguous(array) except -1:
    return isinstance(array, np.ndarray) and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> array)


cdef tuple source_arrays(support_vectors):
    """The arrays a layout of these support vectors is built from, or None if they are
    not kept (see the module docstring). Written out test by test: it runs on every
    prediction, where a generator over the arrays took a microsecond."""
    if isinstance(support_vectors, np.ndarray):
        if (support_vectors.dtype == np.float64 and support_vectors.ndim == 2
                and c_contiguous(support_vectors)
                and support_vectors.size <= MAX_CACHED_ENTRIES):
            return (support_vectors,)
        return None
    if not sp.issparse(support_vectors) or support_vectors.format != "csr":
        return None
    data, indices, indptr = support_vectors.data, support_vectors.indices, support_vectors.indptr
    if (data.size > MAX_CACHED_ENTRIES or not c_contiguous(data) or not c_contiguous(indices)
            or not c_contiguous(indptr)):
        return None
    return (data, indices, indptr)


cdef bint scatter_is_cheaper(X, support_vectors, dict layouts,
                             Py_ssize_t max_transposed) except -1:
    """Whether scattering the sparse vectors' columns beats the dense transposed copy.

    A row's scatter costs the entries of its features' columns, against one pass
    over all n_SV vectors per entry of the row for the transposed copy (vectorised,
    about SCATTER_COST times cheaper per product); a dense row counts every feature.
    Vectors whose transposed copy would exceed ``max_transposed`` entries are always
    scattered. The entries per feature are kept in ``layouts`` (a `LayoutCache`'s)
    when given.
    """
    cdef Py_ssize_t n_support = support_vectors.shape[0], n_features = support_vectors.shape[1]
    cdef const int[::1] vector_indices
    cdef const int[::1] row_indices
    cdef Py_ssize_t[::1] column_counts
    cdef Py_ssize_t k, feature
    cdef double scattered = 0.0, products
    if n_support * n_features > max_transposed:
        return True
    if not sp.issparse(X):
        scattered = float(X.shape[0]) * support_vectors.nnz
        products = float(X.shape[0]) * n_features * n_support
        return SCATTER_COST * scattered < products
    # The entries of the columns each stored entry of X meets, counted in C (numpy's
    # bincount and fancy indexing took 12 us of a 95 us prediction of 270 rows).
    kept = None if layouts is None else layouts.get("column_counts")
    if kept is None:
        vector_indices = csr_arrays(support_vectors, canonical=False)[1]
        column_counts = np.zeros(max(n_features, 1), dtype=np.intp)
        with nogil:
            for k in range(vector_indices.shape[0]):
                feature = vector_indices[k]
                if 0 <= feature < n_features:
                    column_counts[feature] += 1
        counts = np.asarray(column_counts)
        kept = (counts, int(counts.min()), int(counts.max()))
        if layouts is not None:
            layouts["column_counts"] = kept
    counts, fewest, most = kept
    # Every entry of X meets between `fewest` and `most` column entries: when that
    # decides, X is not read (a scan of a 270-row CSR matrix took 3 us).
    if SCATTER_COST * fewest >= n_support:
        return False
    if SCATTER_COST * most < n_support and X.nnz > 0:
        return True
    column_counts = counts
    row_indices = csr_arrays(X, canonical=False)[1]
    with nogil:
        for k in range(row_indices.shape[0]):
            feature = row_indices[k]
            if 0 <= feature < n_features:
                scattered += column_counts[feature]
    products = float(row_indices.shape[0]) * n_support
    return SCATTER_COST * scattered < products


cdef tuple kept_layout(dict layouts, str kind, build, tuple args):
    """``layouts[kind]``, built by ``build(*args)`` when missing, and kept when its arrays
    hold at most ``MAX_CACHED_ENTRIES`` entries (a sparse model's transposed copy can be
    far larger than its vectors: it is then built on every call, as without a cache).
    ``layouts`` None keeps nothing."""
    parts = None if layouts is None else layouts.get(kind)
    if parts is None:
        parts = build(*args)
        if layouts is not None and sum(part.size for part in parts) <= MAX_CACHED_ENTRIES:
            layouts[kind] = parts
    return parts


cdef class LayoutCache:
    """Layouts of one model's support vectors, checked against a copy on every use.

    Examples
    --------
    >>> cache = LayoutCache()
    >>> vectors = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> layouts = cache.layouts_for(vectors)
    >>> layouts["transposed"] = "built once"
    >>> cache.layouts_for(vectors)["transposed"]
    'built once'
    >>> vectors[0, 0] = 5.0  # changed in place: the layouts start again
    >>> cache.layouts_for(vectors)
    {}
    """

    def __init__(self):
        self._source = None
        self._layouts = None
        self._n_support = None

    def layouts_for(self, support_vectors):
        """The layouts built so far for these support vectors (a dict to read and fill),
        or None when they are not kept."""
        arrays = source_arrays(support_vectors)
        if arrays is None:
            return None
        cdef tuple shape = tuple(support_vectors.shape)
        cdef Py_ssize_t k
        # One array (dense) or three (CSR); the shape holds a CSR matrix's columns.
        if (self._source is not None and self._shape == shape
                and len(self._source) == len(arrays)):
            for k in range(len(arrays)):
                if not same_bytes(arrays[k], self._source[k]):
                    break
            else:
                return self._layouts
        self._source = tuple(np.array(array, copy=True) for array in arrays)
        self._shape = shape
        self._layouts = {}
        return self._layouts

    def output_columns(self, n_support, build):
        """``build(n_support)`` (`svmx._engine.support_layout.output_columns`), kept for
        the same class sizes."""
        # A fitted model's int32 counts are read as they are (no conversion); the key
        # holds the element type, so equal bytes of other counts never match.
        if (isinstance(n_support, np.ndarray)
                and cnp.PyArray_TYPE(<cnp.ndarray> n_support) == cnp.NPY_INT32):
            key = (cnp.NPY_INT32, n_support.tobytes())
        else:
            key = (cnp.NPY_INTP, np.asarray(n_support, dtype=np.intp).tobytes())
        if key != self._n_support:
            self._output_columns = tuple(build(n_support))
            self._n_support = key
        return self._output_columns

    def __eq__(self, other):
        # What a cache holds is derived from the model, not part of it: any two are
        # interchangeable, so fitted states compare equal whatever their caches hold.
        return isinstance(other, LayoutCache)

    __hash__ = None

    def __reduce__(self):
        # What it holds is rebuilt on first use: a copy starts empty.
        return (LayoutCache, ())
