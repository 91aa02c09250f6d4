from svmx._engine.cache cimport KernelCache
from svmx._engine.kernel cimport Kernel


cdef class QMatrix:
    """The Q matrix of a dual problem, served column by column as float32.

    `get_Q(i, length)` returns the first `length` entries of column i (NULL
    when memory ran out); the pointer stays valid until the next-but-one call.
    `QD` holds the diagonal in float64. `swap_index` permutes rows/columns
    in step with the solver's shrinking.
    """
    cdef double[::1] QD
    cdef const float* get_Q(self, int i, int length) noexcept nogil
    cdef void swap_index(self, int i, int j) noexcept nogil


cdef class SvcQ(QMatrix):
    """Q_ij = y_i y_j K(x_i, x_j) for C-SVC and nu-SVC."""
    cdef Kernel kernel
    cdef KernelCache cache
    cdef signed char[::1] y
    cdef double[::1] buffer
    # Over a Gram matrix (Rows.gram_order), a column is a signed gather from its Gram row: the
    # Gram index of the sample now at each position (swapped as the rows are).
    cdef bint gathers
    cdef int[::1] gram_index


cdef class OneClassQ(QMatrix):
    """Q_ij = K(x_i, x_j) for the one-class SVM."""
    cdef Kernel kernel
    cdef KernelCache cache
    cdef double[::1] buffer


cdef class SvrQ(QMatrix):
    """The 2l x 2l matrix of epsilon- and nu-SVR, built from l cached kernel columns.

    Variable k < l is alpha_k (sign +1), variable k >= l is alpha*_{k-l} (sign -1):
    Q_ab = sign_a sign_b K(x_{a mod l}, x_{b mod l}).
    """
    cdef Kernel kernel
    cdef KernelCache cache
    cdef int l
    cdef signed char[::1] sign
    cdef int[::1] index
    cdef double[::1] buffer
    cdef float[:, ::1] column_buffers
    cdef int next_buffer
