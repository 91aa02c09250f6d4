# The kernel over the rows a solver works on.
#
# `Kernel` evaluates K(x_i, x_j) over a `Rows` object (rows.pxd), following the
# permutation the solver puts the rows through; its columns are the rows' dot
# products mapped by kernel_map.pxd.

from svmx._engine.kernel_map cimport KernelParams
from svmx._engine.rows cimport Rows


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
