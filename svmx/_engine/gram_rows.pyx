# cython: language_level=3
"""Rows of a precomputed Gram matrix for the solver: the problem's samples, read from
the matrix in place and permuted through an index (an O(1) swap, where dense rows of
n entries would move 2n values per swap of shrinking).

`LazyGram` is such a matrix computed row by row on demand: the problems over one set
of samples and its subsets (a one-vs-one pair and its five Platt folds) read it through
`LazyGramRows`, so that a kernel row one of them computed serves the others.
"""

from cpython.pythread cimport (
    WAIT_LOCK,
    PyThread_acquire_lock,
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
)

import numpy as np

from svmx._engine.isa cimport isa_level
from svmx._engine.kernel cimport Kernel
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

    cdef const double* double_gram_row(self, Py_ssize_t i) noexcept nogil:
        return &self.gram[self.order[i], 0]

    cdef object gram_order(self):
        return self.order

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

    cdef const float* float_gram_row(self, Py_ssize_t i) noexcept nogil:
        return &self.gram[self.order[i], 0]

    cdef object gram_order(self):
        return self.order

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        swap_order(self.order, i, j)


cdef class LazyGram:
    """K over the rows of a `Kernel`, each row computed the first time it is read.

    Parameters
    ----------
    kernel : Kernel
        The kernel over the samples (never swapped: its rows stay in their order).

    Row p is ``kernel.column(p, 0, n)`` (K(x_t, x_p) for every t, the values a
    solver's kernel cache holds for that column) rounded to float32, computed on
    first use and kept; the diagonal is computed up front (float64, as Q's diagonal).
    Reads may come from several threads: a row is computed under a lock, and a thread
    reads it only after the lock says it is there.

    Examples
    --------
    >>> from svmx._engine.kernel import Kernel
    >>> from svmx._engine.rows import DenseRows
    >>> gram = LazyGram(Kernel(DenseRows(np.eye(3)), 0, 3, 1.0, 0.0))
    >>> gram.values_at([0, 2], [0, 1, 2]).tolist(), gram.rows_computed
    ([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], 2)
    """

    def __cinit__(self, Kernel kernel not None):
        cdef Py_ssize_t p
        self.kernel = kernel
        self.n_samples = kernel.rows.n_rows
        self.rows_computed = 0
        # np.empty: the pages of rows never read are never touched.
        self.values = np.empty((self.n_samples, max(self.n_samples, 1)), dtype=np.float32)
        self.ready = np.zeros(self.n_samples, dtype=np.uint8)
        self.buffer = np.empty(max(self.n_samples, 1), dtype=np.float64)
        # The diagonal in float64, as a solver's Q takes it from its kernel.
        self.diagonal = np.empty(max(self.n_samples, 1), dtype=np.float64)
        for p in range(self.n_samples):
            self.diagonal[p] = kernel.value(p, p)
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError("LazyGram: no lock could be allocated")

    def __dealloc__(self):
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    cdef const float* row(self, Py_ssize_t p) noexcept nogil:
        """Row p, computed now if no one has."""
        cdef Py_ssize_t t
        PyThread_acquire_lock(self.lock, WAIT_LOCK)
        if not self.ready[p]:
            self.kernel.column(p, 0, self.n_samples, &self.buffer[0])
            for t in range(self.n_samples):
                self.values[p, t] = <float> self.buffer[t]
            self.ready[p] = 1
            self.rows_computed += 1
        PyThread_release_lock(self.lock)
        return &self.values[p, 0]

    def values_at(self, rows, columns):
        """K[rows, columns] as float64 (rows computed as needed): held-out rows' kernel
        values against a model's support vectors."""
        cdef Py_ssize_t[::1] wanted = np.ascontiguousarray(rows, dtype=np.intp)
        cdef Py_ssize_t[::1] at = np.ascontiguousarray(columns, dtype=np.intp)
        cdef double[:, ::1] out = np.empty((wanted.shape[0], at.shape[0]), dtype=np.float64)
        cdef Py_ssize_t r, c
        cdef const float* values
        for r in range(wanted.shape[0]):
            if not 0 <= wanted[r] < self.n_samples:
                raise IndexError(f"row {wanted[r]} is not among {self.n_samples} samples")
        for c in range(at.shape[0]):
            if not 0 <= at[c] < self.n_samples:
                raise IndexError(f"column {at[c]} is not among {self.n_samples} samples")
        with nogil:
            for r in range(wanted.shape[0]):
                values = self.row(wanted[r])
                for c in range(at.shape[0]):
                    out[r, c] = values[at[c]]
        return np.asarray(out)


cdef class LazyGramRows(Rows):
    """The samples `positions` of a `LazyGram`, permuted through an index as `GramRows`.

    Parameters
    ----------
    gram : LazyGram
    positions : array-like of int
        The samples this problem is over.
    """

    def __cinit__(self, LazyGram gram not None, positions):
        cdef Py_ssize_t t
        self.gram = gram
        self.positions = np.array(positions, dtype=np.intp)
        self.order = np.array(positions, dtype=np.intp)
        # A loop, not np.min and np.max: their dispatch cost 20-30 us of each Platt
        # fold's solve (225 of them in a probability fit of pendigits).
        for t in range(self.order.shape[0]):
            if not 0 <= self.order[t] < gram.n_samples:
                raise IndexError(f"positions must lie in [0, {gram.n_samples})")
        self.n_rows = self.order.shape[0]
        self.n_features = self.n_rows
        self.sq_norms = np.zeros(self.n_rows, dtype=np.float64)

    cdef double entry(self, Py_ssize_t i, Py_ssize_t column) noexcept nogil:
        cdef Py_ssize_t a = self.order[i], b = self.positions[column]
        if a == b:  # the diagonal (Q's), without computing the row
            return self.gram.diagonal[a]
        return self.gram.row(a)[b]

    cdef void gram_column(self, Py_ssize_t i, const Py_ssize_t* original, Py_ssize_t start,
                          Py_ssize_t end, double* out) noexcept nogil:
        cdef const float* row = self.gram.row(self.order[i])
        cdef Py_ssize_t t
        for t in range(start, end):
            out[t - start] = row[self.order[t]]

    cdef const float* float_gram_row(self, Py_ssize_t i) noexcept nogil:
        return self.gram.row(self.order[i])

    cdef object gram_order(self):
        return self.order

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        swap_order(self.order, i, j)


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
