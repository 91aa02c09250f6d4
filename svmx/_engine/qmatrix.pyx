# cython: language_level=3, cdivision=True
"""Q matrices of the SVM duals over a kernel and an LRU column cache."""

import numpy as np

from svmx._engine.cache cimport KernelCache
from svmx._engine.kernel cimport Kernel


cdef class QMatrix:
    """Abstract Q matrix; see the .pxd for the contract."""

    cdef const float* get_Q(self, int i, int length) noexcept nogil:
        return NULL

    cdef void swap_index(self, int i, int j) noexcept nogil:
        pass


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
