# Kernel functions over rows that the engine owns.
#
# A training problem's rows live in a `Rows` object that the solver may permute
# (shrinking swaps indices), so each kernel column over the active rows is one
# contiguous block: one BLAS matrix-vector product followed by the kernel's
# elementwise map.

cdef enum KernelType:
    LINEAR = 0
    POLY = 1
    RBF = 2
    SIGMOID = 3
    PRECOMPUTED = 4


cdef struct KernelParams:
    int kernel_type
    int degree
    double gamma
    double coef0


cdef double power_int(double base, int exponent) noexcept nogil
cdef double kernel_from_dot(const KernelParams* params, double dot,
                            double sq_norm_a, double sq_norm_b) noexcept nogil


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
    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil
    cdef int dot_block(self, const int* which, int n_which, float* out,
                       Py_ssize_t ld) noexcept nogil
    cdef int kernel_rows(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                         const KernelParams* params, const double* block_sq_norms) noexcept nogil
    cdef int block_products(self, const int* which, int n_which, float* out, Py_ssize_t ld,
                            const KernelParams* params,
                            const double* block_sq_norms) noexcept nogil


cdef class DenseRows(Rows):
    """A C-contiguous float64 copy of the rows, swapped in place."""
    cdef double[:, ::1] data


cdef class DenseRows32(Rows):
    """A C-contiguous float32 copy of the rows, swapped in place (float64 results)."""
    cdef float[:, ::1] data
    cdef float[::1] block_buffer
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
    cdef int[::1] feature_slot


cdef class TiledRows(Rows):
    """`copies` back-to-back copies of other rows (row v is base row v mod n): the
    2l variables of SVR over l samples."""
    cdef Rows base
    cdef int copies


cdef class Kernel:
    """K(x_i, x_j) over a `Rows` object, with the row permutation it went through."""
    cdef Rows rows
    cdef KernelParams params
    # original_index[t] is the row's position before any swap: a precomputed
    # Gram matrix is looked up by it.
    cdef Py_ssize_t[::1] original_index
    cdef void column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                     double* out) noexcept nogil
    cdef double value(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil
    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil


cdef void map_block_rows(const KernelParams* params, float* dots, Py_ssize_t n_rows,
                         Py_ssize_t ld, int n_block, const double* row_sq_norms,
                         const double* block_sq_norms, int n_threads) noexcept nogil
cdef void map_dot_products(const KernelParams* params, double[:, ::1] dots,
                           const double[::1] X_sq_norms,
                           const double[::1] Y_sq_norms) noexcept nogil
cdef int kernel_block(const KernelParams* params,
                      const double[:, ::1] X, const double[::1] X_sq_norms,
                      const double[:, ::1] Y, const double[::1] Y_sq_norms,
                      double[:, ::1] out) noexcept nogil
