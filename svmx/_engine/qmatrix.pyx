# cython: language_level=3, cdivision=True
"""Q matrices of the SVM duals over a kernel and an LRU column cache."""

import numpy as np

from svmx._engine.isa cimport isa_level
from svmx._engine.cache cimport KernelCache
from svmx._engine.kernel cimport Kernel


cdef class QMatrix:
    """Abstract Q matrix; see the .pxd for the contract."""

    cdef const float* get_Q(self, int i, int length) noexcept nogil:
        return NULL

    cdef void swap_index(self, int i, int j) noexcept nogil:
        pass

    # Python-visible inspection surface, for tests and debugging: thin wrappers
    # over get_Q, QD and swap_index with their arguments checked.

    @property
    def n_variables(self):
        """int : Number of dual variables, the order of Q (2l for SVR, 0 for this base)."""
        return self.QD.shape[0]

    def column(self, Py_ssize_t i, length=None):
        """A copy of the first `length` entries of column `i` (``get_Q``).

        Goes through the kernel cache exactly as the solver does: the column
        becomes the most recently used and only its uncached part is computed.

        Parameters
        ----------
        i : int
            Column, ``0 <= i < n_variables``.
        length : int, default=None
            Entries wanted, ``0 <= length <= n_variables``; None means all.

        Returns
        -------
        values : ndarray of shape (length,), float32

        Raises
        ------
        MemoryError
            If the cache could not hold the column.

        Examples
        --------
        >>> from svmx._engine.kernel import Kernel
        >>> from svmx._engine.rows import DenseRows
        >>> from svmx._engine.qmatrix import SvcQ
        >>> X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
        >>> y = np.array([1, -1, 1], dtype=np.int8)
        >>> Q = SvcQ(Kernel(DenseRows(X.copy()), 0, 3, 1.0, 0.0), y, 1e6)
        >>> Q.column(2).tolist(), Q.column(2, 2).tolist()
        ([1.0, -2.0, 2.0], [1.0, -2.0])
        """
        cdef Py_ssize_t t, n = self.QD.shape[0]
        cdef Py_ssize_t wanted = n if length is None else length
        cdef const float* data
        if not 0 <= i < n:
            raise IndexError(f"column {i} is out of range for {n} variables")
        if not 0 <= wanted <= n:
            raise ValueError(f"length {wanted} is out of range for {n} variables")
        data = self.get_Q(<int> i, <int> wanted)
        if data == NULL and wanted > 0:
            raise MemoryError("the kernel cache could not hold the column")
        out = np.empty(wanted, dtype=np.float32)
        cdef float[::1] view = out
        for t in range(wanted):
            view[t] = data[t]
        return out

    def diagonal(self):
        """A copy of the diagonal ``QD`` (float64, not rounded to float32).

        Returns
        -------
        QD : ndarray of shape (n_variables,), float64

        Examples
        --------
        >>> from svmx._engine.kernel import Kernel
        >>> from svmx._engine.rows import DenseRows
        >>> from svmx._engine.qmatrix import SvrQ
        >>> X = np.array([[1.0, 2.0], [0.5, 0.0]])
        >>> SvrQ(Kernel(DenseRows(X.copy()), 0, 3, 1.0, 0.0), 1e6).diagonal().tolist()
        [5.0, 0.25, 5.0, 0.25]
        """
        cdef Py_ssize_t t, n = self.QD.shape[0]
        out = np.empty(n, dtype=np.float64)
        cdef double[::1] view = out
        for t in range(n):
            view[t] = self.QD[t]
        return out

    def swap(self, Py_ssize_t i, Py_ssize_t j):
        """Swap variables `i` and `j`: rows and columns of Q and of QD (``swap_index``).

        Examples
        --------
        >>> from svmx._engine.kernel import Kernel
        >>> from svmx._engine.rows import DenseRows
        >>> from svmx._engine.qmatrix import OneClassQ
        >>> X = np.array([[1.0], [2.0], [3.0]])
        >>> Q = OneClassQ(Kernel(DenseRows(X.copy()), 0, 3, 1.0, 0.0), 1e6)
        >>> Q.swap(0, 2)
        >>> Q.column(0).tolist(), Q.diagonal().tolist()
        ([9.0, 6.0, 3.0], [9.0, 4.0, 1.0])
        """
        cdef Py_ssize_t n = self.QD.shape[0]
        if not (0 <= i < n and 0 <= j < n):
            raise IndexError(f"variables ({i}, {j}) are out of range for {n} variables")
        self.swap_index(<int> i, <int> j)


cdef inline void swap_double(double[::1] values, int i, int j) noexcept nogil:
    cdef double held = values[i]
    values[i] = values[j]
    values[j] = held


cdef class SvcQ(QMatrix):
    """Q matrix of (nu-)SVC.

    Parameters
    ----------
    kernel : Kernel
    y : ndarray of int8, +1 or -1
        Labels; copied (the solver permutes them).
    cache_size_bytes : float
    """

    def __cinit__(self, Kernel kernel, signed char[::1] y, double cache_size_bytes):
        cdef int k, l = <int> y.shape[0]
        self.kernel = kernel
        self.y = np.array(y, dtype=np.int8)
        self.cache = KernelCache(l, cache_size_bytes)
        self.buffer = np.empty(l, dtype=np.float64)
        self.QD = np.empty(l, dtype=np.float64)
        for k in range(l):
            self.QD[k] = kernel.value(k, k)

    cdef const float* get_Q(self, int i, int length) noexcept nogil:
        cdef float* data
        cdef int t, start = self.cache.get_data(i, &data, length)
        cdef double y_i = self.y[i]
        if start < 0:
            return NULL
        if start < length:
            self.kernel.column(i, start, length, &self.buffer[start])
            for t in range(start, length):
                data[t] = <float> (y_i * self.y[t] * self.buffer[t])
        return data

    cdef void swap_index(self, int i, int j) noexcept nogil:
        cdef signed char held = self.y[i]
        self.cache.swap_index(i, j)
        self.kernel.swap(i, j)
        self.y[i] = self.y[j]
        self.y[j] = held
        swap_double(self.QD, i, j)

    @property
    def cache(self):
        """KernelCache : The cache of kernel columns (read it; changing it desynchronises Q)."""
        return self.cache


cdef class OneClassQ(QMatrix):
    """Q matrix of the one-class SVM.

    Parameters
    ----------
    kernel : Kernel
    cache_size_bytes : float
    """

    def __cinit__(self, Kernel kernel, double cache_size_bytes):
        cdef int k, l = <int> kernel.rows.n_rows
        self.kernel = kernel
        self.cache = KernelCache(l, cache_size_bytes)
        self.buffer = np.empty(l, dtype=np.float64)
        self.QD = np.empty(l, dtype=np.float64)
        for k in range(l):
            self.QD[k] = kernel.value(k, k)

    cdef const float* get_Q(self, int i, int length) noexcept nogil:
        cdef float* data
        cdef int t, start = self.cache.get_data(i, &data, length)
        if start < 0:
            return NULL
        if start < length:
            self.kernel.column(i, start, length, &self.buffer[start])
            for t in range(start, length):
                data[t] = <float> self.buffer[t]
        return data

    cdef void swap_index(self, int i, int j) noexcept nogil:
        self.cache.swap_index(i, j)
        self.kernel.swap(i, j)
        swap_double(self.QD, i, j)

    @property
    def cache(self):
        """KernelCache : The cache of kernel columns (read it; changing it desynchronises Q)."""
        return self.cache


cdef class SvrQ(QMatrix):
    """Q matrix of epsilon-SVR and nu-SVR (2l variables over l kernel columns).

    Parameters
    ----------
    kernel : Kernel
    cache_size_bytes : float
    """

    def __cinit__(self, Kernel kernel, double cache_size_bytes):
        cdef int k, l = <int> kernel.rows.n_rows
        cdef double diagonal
        self.kernel = kernel
        self.l = l
        self.cache = KernelCache(l, cache_size_bytes)
        self.buffer = np.empty(l, dtype=np.float64)
        self.column_buffers = np.empty((2, 2 * l), dtype=np.float32)
        self.next_buffer = 0
        self.sign = np.empty(2 * l, dtype=np.int8)
        self.index = np.empty(2 * l, dtype=np.int32)
        self.QD = np.empty(2 * l, dtype=np.float64)
        for k in range(l):
            self.sign[k] = 1
            self.sign[k + l] = -1
            self.index[k] = k
            self.index[k + l] = k
            diagonal = kernel.value(k, k)
            self.QD[k] = diagonal
            self.QD[k + l] = diagonal

    cdef const float* get_Q(self, int i, int length) noexcept nogil:
        # The kernel rows are never swapped here: only the 2l-variable view is.
        cdef float* data
        cdef float* out
        cdef int t, real_i = self.index[i]
        cdef int start = self.cache.get_data(real_i, &data, self.l)
        cdef double sign_i = self.sign[i]
        if start < 0:
            return NULL
        if start < self.l:
            self.kernel.column(real_i, start, self.l, &self.buffer[start])
            for t in range(start, self.l):
                data[t] = <float> self.buffer[t]
        # Two alternating output buffers: the solver holds two columns at once.
        out = &self.column_buffers[self.next_buffer, 0]
        self.next_buffer = 1 - self.next_buffer
        for t in range(length):
            out[t] = <float> (sign_i * self.sign[t] * data[self.index[t]])
        return out

    cdef void swap_index(self, int i, int j) noexcept nogil:
        cdef signed char held_sign = self.sign[i]
        cdef int held_index = self.index[i]
        self.sign[i] = self.sign[j]
        self.sign[j] = held_sign
        self.index[i] = self.index[j]
        self.index[j] = held_index
        swap_double(self.QD, i, j)

    @property
    def cache(self):
        """KernelCache : The cache of kernel columns (read it; changing it desynchronises Q)."""
        return self.cache


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
