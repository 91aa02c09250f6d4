# cython: language_level=3, cdivision=True
"""The row storage the solvers work on: dense float64, dense float32, CSR, tiled.

Each storage gives the dot products of one row with a range of rows (a kernel
column of SMO), of one row with another, and of every row with a block of rows
(the block solver's kernel rows, in float32), and lets the solver swap rows.
"""

from cython.parallel cimport prange
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy
from scipy.linalg.cython_blas cimport dgemv, sgemm, sgemv

from svmx._engine.dotmath cimport NARROW_MAX_FEATURES, narrow_dots
from svmx._engine.isa cimport isa_level
from svmx._engine.fastmath cimport dense_row_times_block, sparse_row_times_block
from svmx._engine.kernel_map cimport KernelParams, map_block_rows, map_kernel_values32

import numpy as np

from svmx._engine.csr_structure import check_csr_structure

cdef enum:
    # Rows per OpenMP task in block products: large enough to amortise scheduling,
    # small enough to rebalance when another process takes a core.
    ROWS_PER_TASK = 256
    # Dense rows with at most this many features take the block product row by row
    # (the block's transpose stays in cache; no BLAS thread hand-offs); wider rows
    # take an SGEMM.
    OWN_PRODUCT_MAX_FEATURES = 128


cdef class Rows:
    """Abstract row storage; subclasses implement the dot products."""

    def __cinit__(self, *args, **kwargs):
        self.n_threads = 1

    def set_threads(self, int n_threads):
        """Let `dot_block` use up to `n_threads` OpenMP threads (results do not change)."""
        self.n_threads = max(1, n_threads)

    def block_kernel_rows(self, which, int kernel_type, int degree=3, double gamma=1.0,
                          double coef0=0.0):
        """K(x_t, x_which[b]) for every row t, as the block solver computes it.

        Returns a float32 array of shape (n_rows, len(which)); for inspection and
        tests of `kernel_rows`. Storage with a ``reserve_block`` method gets room for
        the block first (the base rows of `TiledRows` must have it already).

        Raises
        ------
        RuntimeError
            When the storage has no room for the block (``reserve_block`` was not
            called on the base rows of a `TiledRows`, or for fewer rows).
        MemoryError
            When memory ran out.

        Examples
        --------
        >>> rows = DenseRows(np.array([[1.0, 0.0], [0.0, 2.0]]))
        >>> rows.block_kernel_rows([1], kernel_type=0).tolist()
        [[0.0], [4.0]]
        """
        cdef KernelParams params
        cdef int[::1] members = np.ascontiguousarray(which, dtype=np.int32)
        cdef float[:, ::1] out = np.zeros((self.n_rows, max(1, members.shape[0])),
                                          dtype=np.float32)
        cdef double[::1] norms
        cdef int status
        if members.shape[0] == 0 or self.n_rows == 0:
            return np.asarray(out)[:, :members.shape[0]]
        if np.any(np.asarray(members) < 0) or np.any(np.asarray(members) >= self.n_rows):
            raise ValueError(f"which must hold row numbers in [0, {self.n_rows})")
        norms = np.asarray(self.sq_norms)[np.asarray(members)].copy()
        if hasattr(self, "reserve_block"):
            self.reserve_block(members.shape[0])
        params.kernel_type = kernel_type
        params.degree = degree
        params.gamma = gamma
        params.coef0 = coef0
        with nogil:
            status = self.kernel_rows(&members[0], <int> members.shape[0], &out[0, 0],
                                      out.shape[1], &params, &norms[0])
        if status == BLOCK_NOT_RESERVED:
            raise RuntimeError("the rows have no room for the block: call reserve_block "
                               "(on the base rows of TiledRows) first")
        if status != BLOCK_OK:
            raise MemoryError("no memory for the block's kernel rows")
        return np.asarray(out)

    cdef void dot_column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                         double* out) noexcept nogil:
        pass

    cdef double dot(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        return 0.0

    cdef void fill_sq_norms(self) noexcept nogil:
        """sq_norms[t] = dot(t, t): LIBSVM's x_square is its own dot(x, x), so the
        squared norms are summed in the same order as every other `dot` and an RBF
        diagonal exp(-gamma (|x|^2 + |x|^2 - 2 x.x)) is exactly 1 (a sum in another
        order, such as np.einsum's, leaves a few ulps and moves the solver's path)."""
        cdef Py_ssize_t t
        for t in range(self.n_rows):
            self.sq_norms[t] = self.dot(t, t)

    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil:
        return 0.0

    cdef void gram_column(self, Py_ssize_t i, const Py_ssize_t* original, Py_ssize_t start,
                          Py_ssize_t end, double* out) noexcept nogil:
        """Gram rows: out[t - start] = entry(i, original[t]), LIBSVM's precomputed K(x_i, x_t)."""
        cdef Py_ssize_t t
        for t in range(start, end):
            out[t - start] = self.entry(i, original[t])

    # Gram rows (else NULL, None): the Gram matrix's row of the sample now at i, indexed
    # by Gram index; `gram_order` holds the Gram index of each position, swapped with them.
    cdef const float* float_gram_row(self, Py_ssize_t i) noexcept nogil:
        return NULL

    cdef const double* double_gram_row(self, Py_ssize_t i) noexcept nogil:
        return NULL

    cdef object gram_order(self):
        return None

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        pass

    cdef int dot_block(self, const int* which, int n_which, float* out,
                       Py_ssize_t ld) noexcept nogil:
        """out[t * ld + b] = x_t . x_which[b] for every row t and b < n_which.

        Row t of the result holds the products of row t with the block, so a
        block occupies columns of a row-major (n_rows, ld) array. Returns a
        BlockStatus: BLOCK_OK, BLOCK_OUT_OF_MEMORY, or BLOCK_NOT_RESERVED when the
        storage needs `reserve_block` and it was not called (or for fewer rows).
        """
        return self.block_products(which, n_which, out, ld, NULL, NULL)

    cdef int kernel_rows(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                         const KernelParams* params, const double* block_sq_norms) noexcept nogil:
        """out[t * ld + b] = K(x_t, x_which[b]), as `dot_block` lays it out (block_sq_norms[b]
        is the squared norm of row which[b]); returns a BlockStatus, as `dot_block` does."""
        return self.block_products(which, n_which, out, ld, params, block_sq_norms)

    cdef int block_products(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                            const KernelParams* params,
                            const double* block_sq_norms) noexcept nogil:
        """`dot_block` (params NULL) and `kernel_rows`, column by column (subclasses: products)."""
        cdef Py_ssize_t b, t, n_rows = self.n_rows
        cdef double* column = <double*> malloc(n_rows * sizeof(double))
        if column == NULL:
            return BLOCK_OUT_OF_MEMORY
        for b in range(n_which):
            self.dot_column(which[b], 0, n_rows, column)
            for t in range(n_rows):
                out[t * ld + b] = <float> column[t]
        free(column)
        if params != NULL:
            map_block_rows(params, out, n_rows, ld, n_which, &self.sq_norms[0],
                           block_sq_norms, self.n_threads)
        return BLOCK_OK


# A BLAS call on fewer entries than this runs in the calling thread (OpenBLAS
# hands larger ones to its own threads). For one kernel column that hand-off
# costs far more than it saves -- measured: 3x slower training on mushrooms --
# so each column is computed as a series of blocks of this size. (Sharing the
# blocks among OpenMP threads was slower still: OpenBLAS serialises its
# buffer allocation between threads.)
cdef Py_ssize_t BLAS_BLOCK_ENTRIES = 8192


cdef inline void dot_rows_block(const double* rows, int n_rows, int n_features,
                                const double* vector, double* out) noexcept nogil:
    # out = A^T vector where the rows form a column-major (n_features x n_rows) A.
    cdef int one = 1
    cdef double alpha = 1.0, beta = 0.0
    cdef char trans = b"T"
    dgemv(&trans, &n_features, &n_rows, &alpha, <double*> rows, &n_features,
          <double*> vector, &one, &beta, out, &one)


ctypedef fused real:
    float
    double


cdef void swap_dense_rows(real[:, ::1] data, double[::1] sq_norms, Py_ssize_t i,
                          Py_ssize_t j) noexcept nogil:
    """Swap rows i and j of a dense matrix and of its squared norms."""
    cdef Py_ssize_t k
    cdef real held
    cdef double held_norm
    if i == j:
        return
    for k in range(data.shape[1]):
        held = data[i, k]
        data[i, k] = data[j, k]
        data[j, k] = held
    held_norm = sq_norms[i]
    sq_norms[i] = sq_norms[j]
    sq_norms[j] = held_norm


cdef class DenseRows(Rows):
    """Dense rows: takes ownership of a C-contiguous float64 array it may permute.

    Parameters
    ----------
    data : ndarray of shape (n_rows, n_features), float64, C-contiguous, writable
        The rows. The solver swaps them in place, so pass a copy you own.
    """

    def __cinit__(self, double[:, ::1] data not None):
        self.data = data
        self.n_rows = data.shape[0]
        self.n_features = data.shape[1]
        self.sq_norms = np.empty(self.n_rows, dtype=np.float64)
        with nogil:
            self.fill_sq_norms()

    cdef void dot_column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                         double* out) noexcept nogil:
        """out[t - start] = x_t . x_i for t in [start, end)."""
        cdef Py_ssize_t n_features = self.n_features
        cdef Py_ssize_t m = end - start
        cdef Py_ssize_t block_rows = max(1, BLAS_BLOCK_ENTRIES // n_features)
        cdef Py_ssize_t n_blocks = (m + block_rows - 1) // block_rows
        cdef Py_ssize_t block, first
        cdef const double* base = &self.data[0, 0]
        cdef const double* vector = &self.data[i, 0]
        if n_features <= NARROW_MAX_FEATURES:
            narrow_dots(base + start * n_features, m, <int> n_features, vector, out)
            return
        for block in range(n_blocks):
            first = start + block * block_rows
            dot_rows_block(base + first * n_features, <int> min(block_rows, end - first),
                           <int> n_features, vector, out + (first - start))

    cdef double dot(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t k
        cdef double total = 0.0
        for k in range(self.n_features):
            total += self.data[i, k] * self.data[j, k]
        return total

    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil:
        return self.data[i, column]

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        swap_dense_rows(self.data, self.sq_norms, i, j)


cdef class DenseRows32(Rows):
    """Dense float32 rows, used as they are (no float64 copy of the data).

    Dot products are accumulated by single-precision BLAS and returned as
    float64; kernel values then agree with float64 input to about 1e-6.

    Parameters
    ----------
    data : ndarray of shape (n_rows, n_features), float32, C-contiguous, writable
        The rows; swapped in place, so pass a copy you own.
    """

    def __cinit__(self, float[:, ::1] data not None):
        self.data = data
        self.n_rows = data.shape[0]
        self.n_features = data.shape[1]
        self.sq_norms = np.empty(self.n_rows, dtype=np.float64)
        with nogil:
            self.fill_sq_norms()
        self.block_buffer = np.empty(max(1, BLAS_BLOCK_ENTRIES // max(1, data.shape[1])),
                                     dtype=np.float32)

    cdef void dot_column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                         double* out) noexcept nogil:
        cdef int n_features = <int> self.n_features
        cdef Py_ssize_t block_rows = self.block_buffer.shape[0]
        cdef Py_ssize_t first, t
        cdef int m, one = 1
        cdef float alpha = 1.0, beta = 0.0
        cdef char trans = b"T"
        first = start
        while first < end:
            m = <int> min(block_rows, end - first)
            sgemv(&trans, &n_features, &m, &alpha, &self.data[first, 0], &n_features,
                  &self.data[i, 0], &one, &beta, &self.block_buffer[0], &one)
            for t in range(m):
                out[first - start + t] = self.block_buffer[t]
            first += m

    cdef double dot(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t k
        cdef double total = 0.0
        for k in range(self.n_features):
            total += <double> self.data[i, k] * self.data[j, k]
        return total

    cdef int block_products(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                            const KernelParams* params,
                            const double* block_sq_norms) noexcept nogil:
        """out[t * ld + b] = x_t . x_which[b] in float32, mapped by the kernel if params
        is not NULL.

        Few features: each row t times the block's dense transpose (in L1/L2
        cache), 64 results accumulated in registers at a time, rows shared among
        `n_threads` OpenMP threads (each row computed by one thread, in a fixed
        order), the map applied while the row is in cache. Many features: one
        SGEMM, which blocks for the cache itself, then the map.
        """
        cdef int n_features = <int> self.n_features, n_rows = <int> self.n_rows
        cdef int b, k, ldc = <int> ld, stride = (n_which + 15) // 16 * 16
        cdef Py_ssize_t t
        cdef float alpha = 1.0, beta = 0.0
        cdef char trans_t = b"T", trans_n = b"N"
        # Raw pointers for the parallel loop (see CsrRows.dot_column).
        cdef const float* data
        cdef const float* block
        cdef const double* row_sq_norms = &self.sq_norms[0]
        if n_which > self.reserved_rows:
            return BLOCK_NOT_RESERVED
        if n_features <= OWN_PRODUCT_MAX_FEATURES:
            # gathered_t holds the transpose: (n_features x stride), row-major, with
            # zeros in the padding columns.
            for k in range(n_features):
                for b in range(n_which):
                    self.gathered_t[k * stride + b] = self.data[which[b], k]
                for b in range(n_which, stride):
                    self.gathered_t[k * stride + b] = 0.0
            data = &self.data[0, 0]
            block = &self.gathered_t[0]
            for t in prange(n_rows, schedule="dynamic", chunksize=ROWS_PER_TASK,
                            num_threads=self.n_threads):
                dense_row_times_block(out + t * ld, n_which, data + t * n_features,
                                      n_features, block, stride)
                if params != NULL:
                    map_kernel_values32(params, out + t * ld, n_which, row_sq_norms[t],
                                        block_sq_norms)
            return BLOCK_OK
        for b in range(n_which):
            self.gathered[b, :] = self.data[which[b], :]
        # In BLAS's column-major terms `out` is the (n_which x n_rows) matrix
        # gathered @ X^T with leading dimension ld.
        sgemm(&trans_t, &trans_n, &n_which, &n_rows, &n_features, &alpha,
              &self.gathered[0, 0], &n_features, &self.data[0, 0], &n_features,
              &beta, out, &ldc)
        if params != NULL:
            map_block_rows(params, out, n_rows, ld, n_which, &self.sq_norms[0],
                           block_sq_norms, self.n_threads)
        return BLOCK_OK

    def reserve_block(self, int n_which):
        """Make room for `dot_block` calls over up to `n_which` rows."""
        self.gathered = np.empty((max(n_which, 1), max(self.n_features, 1)),
                                 dtype=np.float32)
        self.gathered_t = np.empty(max(1, (n_which + 15) // 16 * 16 * self.n_features),
                                   dtype=np.float32)
        self.reserved_rows = max(n_which, 1)

    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil:
        return self.data[i, column]

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        swap_dense_rows(self.data, self.sq_norms, i, j)


cdef class CsrRows(Rows):
    """Sparse rows in CSR form with sorted column indices.

    A kernel column scatters row i into a dense vector once, then takes one
    sparse-dense dot product per row: the cost is the number of stored
    entries, not n_rows * n_features.

    Parameters
    ----------
    values, indices, indptr : ndarrays of float64, int32 (sorted within each row), int64
        Checked by `check_csr_structure` (indices and pointers in range).
    n_features : int
    """

    def __cinit__(self, const double[::1] values not None, const int[::1] indices not None,
                  const long long[::1] indptr not None, Py_ssize_t n_features):
        check_csr_structure(values, indices, indptr, n_features)
        self.values, self.indices, self.indptr = values, indices, indptr
        self.n_rows = indptr.shape[0] - 1
        self.n_features = n_features
        self.order = np.arange(self.n_rows, dtype=np.intp)
        self.scattered = np.zeros(max(n_features, 1), dtype=np.float64)
        # LIBSVM's sparse dot(x, x): the stored entries' squares summed in order.
        self.sq_norms = np.empty(self.n_rows, dtype=np.float64)
        with nogil:
            self.fill_sq_norms()

    cdef void dot_column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                         double* out) noexcept nogil:
        # Serial on purpose: a column takes well under a millisecond, and threads
        # meeting at a barrier that often stall whenever another process holds a
        # core (measured: 25x slower training on reuters with a busy core).
        cdef Py_ssize_t t, k, row = self.order[i]
        if self.values.shape[0] == 0:  # no stored entry at all: every product is 0
            for t in range(start, end):
                out[t - start] = 0.0
            return
        for k in range(self.indptr[row], self.indptr[row + 1]):
            self.scattered[self.indices[k]] = self.values[k]
        for t in range(start, end):
            out[t - start] = sparse_dot_dense(&self.values[0], &self.indices[0],
                                              self.indptr[self.order[t]],
                                              self.indptr[self.order[t] + 1],
                                              &self.scattered[0])
        row = self.order[i]
        for k in range(self.indptr[row], self.indptr[row + 1]):
            self.scattered[self.indices[k]] = 0.0

    cdef int block_products(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                            const KernelParams* params,
                            const double* block_sq_norms) noexcept nogil:
        """out[t * ld + b] = x_t . x_which[b] in float32, mapped by the kernel if params
        is not NULL.

        The block's rows become a dense transpose over only the features they
        use (n_used x n_which); each row t then adds one contiguous, vectorised
        AXPY per stored entry into its own output row: the work is
        nnz(X) * n_which, with no scatter or gather per product. Rows are
        shared among `n_threads` OpenMP threads; each output row is computed by
        one thread in a fixed order, so the result does not depend on the
        thread count.
        """
        cdef Py_ssize_t n_rows = self.n_rows, t, k, row
        cdef int b, n_used = 0, feature
        cdef int* used = NULL
        cdef float* transposed = NULL
        cdef const double* values
        cdef const int* indices
        cdef const long long* indptr
        cdef const Py_ssize_t* order
        cdef const int* slots
        cdef const double* row_sq_norms
        # A flag, not the memoryview: reading one never assigned fails in a debug build.
        if not self.reserved:
            return BLOCK_NOT_RESERVED
        used = <int*> malloc(max(1, self.n_features) * sizeof(int))
        if used == NULL:
            return BLOCK_OUT_OF_MEMORY
        for b in range(n_which):
            row = self.order[which[b]]
            for k in range(self.indptr[row], self.indptr[row + 1]):
                feature = self.indices[k]
                if self.feature_slot[feature] < 0:
                    self.feature_slot[feature] = n_used
                    used[n_used] = feature
                    n_used += 1
        transposed = <float*> calloc(max(1, <Py_ssize_t> n_used * n_which), sizeof(float))
        if transposed != NULL:
            for b in range(n_which):
                row = self.order[which[b]]
                for k in range(self.indptr[row], self.indptr[row + 1]):
                    transposed[<Py_ssize_t> self.feature_slot[self.indices[k]] * n_which + b] = \
                        <float> self.values[k]
            # Raw pointers for the parallel loop (see dot_column).
            # NULL when nothing is stored (then no entry is read).
            values = &self.values[0] if self.values.shape[0] > 0 else NULL
            indices = &self.indices[0] if self.indices.shape[0] > 0 else NULL
            indptr = &self.indptr[0]
            order = &self.order[0]
            slots = &self.feature_slot[0]
            row_sq_norms = &self.sq_norms[0]
            for t in prange(n_rows, schedule="dynamic", chunksize=ROWS_PER_TASK,
                            num_threads=self.n_threads):
                sparse_row_times_block(out + t * ld, n_which, indptr[order[t]],
                                       indptr[order[t] + 1], indices, values, slots,
                                       transposed)
                if params != NULL:
                    map_kernel_values32(params, out + t * ld, n_which, row_sq_norms[t],
                                        block_sq_norms)
        for b in range(n_used):
            self.feature_slot[used[b]] = -1
        free(used)
        if transposed == NULL:
            return BLOCK_OUT_OF_MEMORY
        free(transposed)
        return BLOCK_OK

    def reserve_block(self, int n_which):
        """Make room for `dot_block` calls (one int per feature)."""
        self.feature_slot = np.full(max(self.n_features, 1), -1, dtype=np.int32)
        self.reserved = True

    cdef double dot(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t a = self.indptr[self.order[i]], a_end = self.indptr[self.order[i] + 1]
        cdef Py_ssize_t b = self.indptr[self.order[j]], b_end = self.indptr[self.order[j] + 1]
        cdef double total = 0.0
        while a < a_end and b < b_end:
            if self.indices[a] == self.indices[b]:
                total += self.values[a] * self.values[b]
                a += 1
                b += 1
            elif self.indices[a] < self.indices[b]:
                a += 1
            else:
                b += 1
        return total

    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil:
        cdef Py_ssize_t k, row = self.order[i]
        for k in range(self.indptr[row], self.indptr[row + 1]):
            if self.indices[k] == column:
                return self.values[k]
        return 0.0

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t held = self.order[i]
        cdef double held_norm = self.sq_norms[i]
        self.order[i] = self.order[j]
        self.order[j] = held
        self.sq_norms[i] = self.sq_norms[j]
        self.sq_norms[j] = held_norm


cdef inline double sparse_dot_dense(const double* values, const int* indices,
                                    long long start, long long end,
                                    const double* dense) noexcept nogil:
    """The dot product of stored entries [start, end) of a CSR matrix with a dense row."""
    cdef long long k
    cdef double total = 0.0
    for k in range(start, end):
        total += values[k] * dense[indices[k]]
    return total


cdef class TiledRows(Rows):
    """Rows repeated `copies` times: row v is row v mod n of `base`.

    Used for epsilon-SVR in the block solver, whose 2l variables alpha and
    alpha* share the kernel rows of the l samples.

    Parameters
    ----------
    base : Rows
    copies : int
    """

    def __cinit__(self, Rows base not None, int copies):
        self.base = base
        self.copies = copies
        self.n_rows = base.n_rows * copies
        self.n_features = base.n_features
        self.sq_norms = np.tile(np.asarray(base.sq_norms), copies)

    def set_threads(self, int n_threads):
        """Threads for these rows' block products and for the base rows'."""
        self.n_threads = max(1, n_threads)
        self.base.set_threads(n_threads)

    cdef void dot_column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                         double* out) noexcept nogil:
        cdef Py_ssize_t t, n = self.base.n_rows
        for t in range(start, end):
            out[t - start] = self.base.dot(i % n, t % n)

    cdef double dot(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t n = self.base.n_rows
        return self.base.dot(i % n, j % n)

    cdef int block_products(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                            const KernelParams* params,
                            const double* block_sq_norms) noexcept nogil:
        """The first n output rows from the base rows (mapped by the kernel if params
        is not NULL), then the same values for every copy: row t + copy * n of the
        output equals row t."""
        cdef Py_ssize_t t, n = self.base.n_rows
        cdef int b, copy, status
        cdef int* base_which = <int*> malloc(max(n_which, 1) * sizeof(int))
        if base_which == NULL:
            return BLOCK_OUT_OF_MEMORY
        for b in range(n_which):
            base_which[b] = <int> (which[b] % n)
        if params == NULL:
            status = self.base.dot_block(base_which, n_which, out, ld)
        else:
            status = self.base.kernel_rows(base_which, n_which, out, ld, params,
                                           block_sq_norms)
        if status == BLOCK_OK:
            for copy in range(1, self.copies):
                for t in range(n):
                    memcpy(out + (t + copy * n) * ld, out + t * ld, n_which * sizeof(float))
        free(base_which)
        return status


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
