# cython: language_level=3
"""Rows of a precomputed Gram matrix for the solver: the problem's samples, read from
the matrix in place and permuted through an index (an O(1) swap, where dense rows of
n entries would move 2n values per swap of shrinking)."""

import numpy as np

from svmx._engine.isa cimport isa_level
from svmx._engine.rows cimport Rows


cdef inline void swap_order(Py_ssize_t[::1] order, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    cdef Py_ssize_t held = order[i]
    order[i] = order[j]
    order[j] = held


cdef class GramRows(Rows):
    """The samples `positions` of a precomputed Gram matrix, without a copy of it.

    Parameters
    ----------
    gram : ndarray of shape (n, n), float64, C-contiguous
        K over all the samples; only read.
    positions : array-like of int
        The samples this problem is over (rows and columns of `gram`).

    A swap exchanges two entries of the permutation, not two rows of the matrix,
    so shrinking costs O(1) per swap (LIBSVM swaps row pointers).
    """

    def __cinit__(self, const double[:, ::1] gram, positions):
        self.gram = gram
        self.positions = np.array(positions, dtype=np.intp)
        self.order = np.array(positions, dtype=np.intp)
        self.n_rows = self.order.shape[0]
        self.n_features = self.n_rows
        self.sq_norms = np.zeros(self.n_rows, dtype=np.float64)

    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil:
        """K of the sample now at i with the sample first at position `column`."""
        return self.gram[self.order[i], self.positions[column]]

    cdef void gram_column(self, Py_ssize_t i, const Py_ssize_t* original, Py_ssize_t start,
                          Py_ssize_t end, double* out) noexcept nogil:
        # order[t] is positions[original[t]]: the Gram column of the sample now at t.
        cdef const double* row = &self.gram[self.order[i], 0]
        cdef Py_ssize_t t
        for t in range(start, end):
            out[t - start] = row[self.order[t]]

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        swap_order(self.order, i, j)


cdef class GramRows32(Rows):
    """`GramRows` over a float32 Gram matrix (the one the one-vs-one pairs share)."""

    def __cinit__(self, const float[:, ::1] gram, positions):
        self.gram = gram
        self.positions = np.array(positions, dtype=np.intp)
        self.order = np.array(positions, dtype=np.intp)
        self.n_rows = self.order.shape[0]
        self.n_features = self.n_rows
        self.sq_norms = np.zeros(self.n_rows, dtype=np.float64)

    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil:
        return self.gram[self.order[i], self.positions[column]]

    cdef void gram_column(self, Py_ssize_t i, const Py_ssize_t* original, Py_ssize_t start,
                          Py_ssize_t end, double* out) noexcept nogil:
        cdef const float* row = &self.gram[self.order[i], 0]
        cdef Py_ssize_t t
        for t in range(start, end):
            out[t - start] = row[self.order[t]]

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        swap_order(self.order, i, j)


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
