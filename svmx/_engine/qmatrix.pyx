# cython: language_level=3, cdivision=True
"""Q matrices of the SVM duals over a kernel and an LRU column cache."""

import numpy as np

from svmx._engine.isa cimport isa_level
from svmx._engine.cache cimport CacheMemories, KernelCache
from svmx._engine.kernel cimport Kernel
from svmx._engine.kernel_map cimport PRECOMPUTED

cdef extern from *:
    """
    #include <stdint.h>
    /* out[t] = sign_i sign[t] data[index[t]] for t < n (sign_i and sign[t] are +-1):
       an SVR column of Q from its kernel column. The product by +-1 is a flip of the
       sign bit, exact: the value svm-train's (float)(si * sign[j] * data[index[j]])
       gives, to the bit. With AVX2, 8 or 4 values at once. */
    SVMX_INLINE uint32_t svmx_sign_bit(signed char sign) {
        return (uint32_t)(int32_t)sign & 0x80000000u;
    }
    /* out = value with its sign bit flipped where `flip` has it (the bits through
       memcpy: no type punning of pointers). */
    SVMX_INLINE void svmx_store_flipped(float value, uint32_t flip, float* out) {
        uint32_t bits;
        memcpy(&bits, &value, sizeof bits);
        bits ^= flip;
        memcpy(out, &bits, sizeof bits);
    }
    SVMX_INLINE void svmx_signed_gather_tail(int t, int n, const float* data,
                                             const int* index, const signed char* sign,
                                             uint32_t flip, float* out) {
        for (; t < n; t++)
            svmx_store_flipped(data[index[t]], svmx_sign_bit(sign[t]) ^ flip, &out[t]);
    }
    /* The same from a float64 Gram row: out[t] = float32(sign_i sign[t] data[index[t]]),
       the value rounded to float32 with its sign bit flipped (rounding to nearest is
       symmetric: the bits of the product's rounding). */
    SVMX_INLINE void svmx_signed_gather64_tail(int t, int n, const double* data,
                                               const int* index, const signed char* sign,
                                               uint32_t flip, float* out) {
        for (; t < n; t++)
            svmx_store_flipped((float)data[index[t]], svmx_sign_bit(sign[t]) ^ flip, &out[t]);
    }
    #if SVMX_MULTI_ISA
    #include <immintrin.h>
    /* The sign bits of 4 or 8 entries of `sign` (+-1 bytes), each xor `flip`: macros,
       not functions, so that code of either target level takes them. */
    #define SVMX_SIGN_MASK4(sign, flip) _mm_xor_si128(_mm_and_si128(                     \\
        _mm_cvtepi8_epi32(_mm_cvtsi32_si128(svmx_load_int32(sign))),                     \\
        _mm_set1_epi32((int)0x80000000u)), (flip))
    #define SVMX_SIGN_MASK8(sign, flip) _mm256_xor_si256(_mm256_and_si256(               \\
        _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)(sign))),                   \\
        _mm256_set1_epi32((int)0x80000000u)), (flip))
    SVMX_INLINE int32_t svmx_load_int32(const signed char* bytes) {
        int32_t four;
        memcpy(&four, bytes, sizeof four);
        return four;
    }
    /* The loads are scalar, into a vector that converts and flips the signs at once:
       a hardware gather (vpgatherdd / vgatherdpd) took twice as long per entry on an AMD
       EPYC (AVX2: 0.53-0.76 against 0.32-0.43 ns for float32 rows, 1.13-1.26 against
       0.51-0.62 ns for float64 ones, 800 of 1,000 entries of each row of a 1,000 x
       1,000 Gram matrix), and Intel's microcode against Gather Data Sampling slows the
       gathers of Skylake to Ice Lake further; the plain loop above took 0.7-1.4 ns.
       AVX-512 CPUs take the same code. */
    SVMX_TARGET_V3 static void svmx_signed_gather_v3(
            int n, const float* data, const int* index, const signed char* sign,
            signed char sign_i, float* out) {
        const __m256i flip = _mm256_set1_epi32((int)svmx_sign_bit(sign_i));
        const int* at;
        int t = 0;
        for (; t + 8 <= n; t += 8) {
            at = index + t;
            __m256 value = _mm256_set_ps(data[at[7]], data[at[6]], data[at[5]], data[at[4]],
                                         data[at[3]], data[at[2]], data[at[1]], data[at[0]]);
            _mm256_storeu_si256((__m256i*)(out + t), _mm256_xor_si256(
                _mm256_castps_si256(value), SVMX_SIGN_MASK8(sign + t, flip)));
        }
        svmx_signed_gather_tail(t, n, data, index, sign, svmx_sign_bit(sign_i), out);
    }
    SVMX_TARGET_V3 static void svmx_signed_gather64_v3(
            int n, const double* data, const int* index, const signed char* sign,
            signed char sign_i, float* out) {
        const __m128i flip = _mm_set1_epi32((int)svmx_sign_bit(sign_i));
        const int* at;
        int t = 0;
        for (; t + 4 <= n; t += 4) {
            at = index + t;
            __m128 value = _mm256_cvtpd_ps(_mm256_set_pd(data[at[3]], data[at[2]],
                                                         data[at[1]], data[at[0]]));
            _mm_storeu_si128((__m128i*)(out + t), _mm_xor_si128(
                _mm_castps_si128(value), SVMX_SIGN_MASK4(sign + t, flip)));
        }
        svmx_signed_gather64_tail(t, n, data, index, sign, svmx_sign_bit(sign_i), out);
    }
    #endif
    /* Either gather at the level this CPU runs (the tail loop alone without the
       multi-ISA build). */
    #if SVMX_MULTI_ISA
    #define SVMX_GATHER_DISPATCH(name, tail, ...)                                      \\
        const int level = svmx_isa_level();                                            \\
        if (level >= SVMX_ISA_AVX2) { name##_v3(__VA_ARGS__); return; }                \\
        tail(0, n, data, index, sign, svmx_sign_bit(sign_i), out);
    #else
    #define SVMX_GATHER_DISPATCH(name, tail, ...)                                      \\
        tail(0, n, data, index, sign, svmx_sign_bit(sign_i), out);
    #endif
    static void svmx_signed_gather(int n, const float* data, const int* index,
                                   const signed char* sign, signed char sign_i, float* out) {
        SVMX_GATHER_DISPATCH(svmx_signed_gather, svmx_signed_gather_tail,
                             n, data, index, sign, sign_i, out)
    }
    static void svmx_signed_gather64(int n, const double* data, const int* index,
                                     const signed char* sign, signed char sign_i,
                                     float* out) {
        SVMX_GATHER_DISPATCH(svmx_signed_gather64, svmx_signed_gather64_tail,
                             n, data, index, sign, sign_i, out)
    }
    """
    void signed_gather "svmx_signed_gather"(int n, const float* data, const int* index,
                                            const signed char* sign, signed char sign_i,
                                            float* out) noexcept nogil
    void signed_gather64 "svmx_signed_gather64"(int n, const double* data, const int* index,
                                                const signed char* sign, signed char sign_i,
                                                float* out) noexcept nogil


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
    memories : CacheMemories, optional
        Where the kernel cache takes its block when it holds the whole matrix.
    """

    def __cinit__(self, Kernel kernel not None, signed char[::1] y not None,
                  double cache_size_bytes, CacheMemories memories=None):
        cdef int k, l = <int> y.shape[0]
        if y.shape[0] != kernel.rows.n_rows:
            raise ValueError(f"y has {y.shape[0]} labels but the kernel has "
                             f"{kernel.rows.n_rows} rows")
        if not np.isin(np.asarray(y), (-1, 1)).all():
            raise ValueError("y must hold the labels +1 and -1 only")
        self.kernel = kernel
        self.y = np.array(y, dtype=np.int8)
        self.cache = KernelCache(l, cache_size_bytes, memories)
        self.buffer = np.empty(l, dtype=np.float64)
        self.QD = np.empty(l, dtype=np.float64)
        for k in range(l):
            self.QD[k] = kernel.value(k, k)
        order = kernel.rows.gram_order() if kernel.params.kernel_type == PRECOMPUTED else None
        self.gathers = order is not None and l > 0
        if self.gathers:
            self.gram_index = np.asarray(order, dtype=np.int32)

    cdef const float* get_Q(self, int i, int length) noexcept nogil:
        cdef float* data
        cdef const float* row32
        cdef int t, start = self.cache.get_data(i, &data, length)
        cdef double y_i = self.y[i]
        if start < 0:
            return NULL
        if start < length and self.gathers:
            # y_i y_t K: the Gram value (rounded to float32) with its sign bit flipped
            # where y_i y_t is -1, the bits of the product below.
            row32 = self.kernel.rows.float_gram_row(i)
            if row32 != NULL:
                signed_gather(length - start, row32, &self.gram_index[start],
                              &self.y[start], self.y[i], data + start)
            else:
                signed_gather64(length - start, self.kernel.rows.double_gram_row(i),
                                &self.gram_index[start], &self.y[start], self.y[i],
                                data + start)
        elif start < length:
            self.kernel.column(i, start, length, &self.buffer[start])
            for t in range(start, length):
                data[t] = <float> (y_i * self.y[t] * self.buffer[t])
        return data

    cdef void swap_index(self, int i, int j) noexcept nogil:
        cdef signed char held = self.y[i]
        cdef int held_index
        self.cache.swap_index(i, j)
        self.kernel.swap(i, j)
        self.y[i] = self.y[j]
        self.y[j] = held
        swap_double(self.QD, i, j)
        if self.gathers:
            held_index = self.gram_index[i]
            self.gram_index[i] = self.gram_index[j]
            self.gram_index[j] = held_index

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
    memories : CacheMemories, optional
        Where the kernel cache takes its block when it holds the whole matrix.
    """

    def __cinit__(self, Kernel kernel not None, double cache_size_bytes,
                  CacheMemories memories=None):
        cdef int k, l = <int> kernel.rows.n_rows
        self.kernel = kernel
        self.cache = KernelCache(l, cache_size_bytes, memories)
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
    memories : CacheMemories, optional
        Where the kernel cache takes its block when it holds the whole matrix.
    """

    def __cinit__(self, Kernel kernel not None, double cache_size_bytes,
                  CacheMemories memories=None):
        cdef int k, l = <int> kernel.rows.n_rows
        cdef double diagonal
        self.kernel = kernel
        self.l = l
        self.cache = KernelCache(l, cache_size_bytes, memories)
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
        if start < 0:
            return NULL
        if start < self.l:
            self.kernel.column(real_i, start, self.l, &self.buffer[start])
            for t in range(start, self.l):
                data[t] = <float> self.buffer[t]
        # Two alternating output buffers: the solver holds two columns at once.
        out = &self.column_buffers[self.next_buffer, 0]
        self.next_buffer = 1 - self.next_buffer
        signed_gather(length, data, &self.index[0], &self.sign[0], self.sign[i], out)
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
