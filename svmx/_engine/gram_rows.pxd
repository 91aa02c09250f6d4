# Rows of a precomputed Gram matrix, read in place, or of one computed row by row on
# demand (gram_rows.pyx).

from cpython.pythread cimport PyThread_type_lock

from svmx._engine.kernel cimport Kernel
from svmx._engine.rows cimport Rows


cdef class GramRows(Rows):
    """Rows of a precomputed float64 Gram matrix, read in place (never copied or
    written): the samples at `positions`, permuted through `order`."""
    cdef const double[:, ::1] gram
    cdef Py_ssize_t[::1] positions   # the Gram row of each sample, in the original order
    cdef Py_ssize_t[::1] order       # the Gram row of the sample now at each position


cdef class GramRows32(Rows):
    """`GramRows` over a float32 Gram matrix (the one the one-vs-one pairs share)."""
    cdef const float[:, ::1] gram
    cdef Py_ssize_t[::1] positions
    cdef Py_ssize_t[::1] order


cdef class LazyGram:
    """K over a set of samples, each row computed (as `Kernel` computes a column) the
    first time it is read and kept as float32; safe to share between threads."""
    cdef Kernel kernel
    cdef float[:, ::1] values       # row p = K(x_p, every sample), once ready[p]
    cdef unsigned char[::1] ready
    cdef double[::1] diagonal
    cdef double[::1] buffer
    cdef PyThread_type_lock lock
    cdef readonly Py_ssize_t n_samples
    cdef readonly Py_ssize_t rows_computed
    cdef const float* row(self, Py_ssize_t p) noexcept nogil


cdef class LazyGramRows(Rows):
    """`GramRows32` over a `LazyGram`: the samples at `positions` of it, permuted."""
    cdef LazyGram gram
    cdef Py_ssize_t[::1] positions
    cdef Py_ssize_t[::1] order
