# cython: language_level=3, cdivision=True
"""The kernel over the rows a solver works on: its columns and single values."""

from svmx._engine.isa cimport isa_level
from svmx._engine.kernel_map cimport POLY, PRECOMPUTED, kernel_from_dot, map_kernel_values
from svmx._engine.rows cimport Rows

import numpy as np


cdef class Kernel:
    """A kernel over `Rows`.

    Parameters
    ----------
    rows : Rows
        The training rows (for 'precomputed', the rows of the Gram matrix).
    kernel_type : int
        One of LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED.
    degree, gamma, coef0 : LIBSVM's kernel parameters.
    """

    def __cinit__(self, Rows rows not None, int kernel_type, int degree, double gamma,
                  double coef0):
        if not 0 <= kernel_type <= PRECOMPUTED:
            raise ValueError(f"kernel_type must be LINEAR, POLY, RBF, SIGMOID or PRECOMPUTED "
                             f"(0-4); got {kernel_type}")
        if kernel_type == POLY and degree < 0:
            raise ValueError(f"degree must be non-negative for POLY; got {degree}")
        if kernel_type == PRECOMPUTED and rows.n_features < rows.n_rows:
            raise ValueError(f"a PRECOMPUTED kernel's rows need a value for each of the "
                             f"{rows.n_rows} samples; got {rows.n_features} columns")
        self.rows = rows
        self.params.kernel_type = kernel_type
        self.params.degree = degree
        self.params.gamma = gamma
        self.params.coef0 = coef0
        self.original_index = np.arange(rows.n_rows, dtype=np.intp)

    cdef void column(self, Py_ssize_t i, Py_ssize_t start, Py_ssize_t end,
                     double* out) noexcept nogil:
        """out[t - start] = K(x_t, x_i) for t in [start, end)."""
        if self.params.kernel_type == PRECOMPUTED:
            # LIBSVM's K(x_i, x_t): row i of the Gram matrix (contiguous), at the columns
            # of the samples now at positions start..end.
            self.rows.gram_column(i, &self.original_index[0], start, end, out)
            return
        self.rows.dot_column(i, start, end, out)
        map_kernel_values(&self.params, out, end - start, self.rows.sq_norms[i],
                          &self.rows.sq_norms[start])

    cdef double value(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        if self.params.kernel_type == PRECOMPUTED:
            return self.rows.entry(i, self.original_index[j])
        return kernel_from_dot(&self.params, self.rows.dot(i, j),
                               self.rows.sq_norms[i], self.rows.sq_norms[j])

    cdef void swap(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        cdef Py_ssize_t held
        self.rows.swap(i, j)
        held = self.original_index[i]
        self.original_index[i] = self.original_index[j]
        self.original_index[j] = held


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
