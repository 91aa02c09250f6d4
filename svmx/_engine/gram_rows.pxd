# Rows of a precomputed Gram matrix, read in place (gram_rows.pyx).

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
