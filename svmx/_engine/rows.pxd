# Row storage the solvers work on.
#
# A training problem's rows live in a `Rows` object that the solver may permute
# (shrinking swaps indices), so each kernel column over the active rows is one
# contiguous block: one BLAS matrix-vector product followed by the kernel's
# elementwise map.

from svmx._engine.kernel_map cimport KernelParams


cdef enum BlockStatus:
    # What dot_block, kernel_rows and block_products return.
    BLOCK_OK = 0
    BLOCK_OUT_OF_MEMORY = -1
    # The storage needs reserve_block(n_which) before block products, and it was not
    # called (or for fewer rows): a programming error, not a lack of memory.
    BLOCK_NOT_RESERVED = -2


cdef class Rows:
    """Row storage the solver may permute: dot products of one row with a block."""
    cdef readonly Py_ssize_t n_rows
    cdef readonly Py_ssize_t n_features
    # OpenMP threads for block products (dot_block); 1 unless set_threads says otherwise.
    cdef int n_threads
    cdef double[::1] sq_norms
    cdef void dot_column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                         double* out) noexcept nogil
    cdef double dot(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil
    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil
    cdef void gram_column(self, Py_ssize_t i, const Py_ssize_t* original, Py_ssize_t start,
                          Py_ssize_t end, double* out) noexcept nogil
    cdef const float* float_gram_row(self, Py_ssize_t i) noexcept nogil
    cdef const double* double_gram_row(self, Py_ssize_t i) noexcept nogil
    cdef object gram_order(self)
    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil
    cdef int dot_block(self, const int* which, int n_which, float* out,
                       Py_ssize_t ld) noexcept nogil
    cdef int kernel_rows(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                         const KernelParams* params, const double* block_sq_norms) noexcept nogil
    cdef int block_products(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                            const KernelParams* params,
                            const double* block_sq_norms) noexcept nogil
    cdef void fill_sq_norms(self) noexcept nogil


cdef class DenseRows(Rows):
    """A C-contiguous float64 copy of the rows, swapped in place."""
    cdef double[:, ::1] data


cdef class DenseRows32(Rows):
    """A C-contiguous float32 copy of the rows, swapped in place (float64 results)."""
    cdef float[:, ::1] data
    cdef float[::1] block_buffer
    # Block rows reserve_block made room for (0 until it is called); a plain int, so the
    # check reads no memoryview that was never assigned.
    cdef Py_ssize_t reserved_rows
    cdef float[:, ::1] gathered
    cdef float[::1] gathered_t  # the block's transpose, (n_features x padded n_which)


cdef class CsrRows(Rows):
    """Rows of a CSR matrix (sorted indices), permuted through `order` instead of moved."""
    cdef const double[::1] values
    cdef const int[::1] indices
    cdef const long long[::1] indptr
    cdef Py_ssize_t[::1] order
    cdef double[::1] scattered
    # dot_block's map from a feature to its row in the block's dense transpose (-1: none).
    cdef bint reserved
    cdef int[::1] feature_slot


cdef class TiledRows(Rows):
    """`copies` back-to-back copies of other rows (row v is base row v mod n): the
    2l variables of SVR over l samples."""
    cdef Rows base
    cdef int copies
