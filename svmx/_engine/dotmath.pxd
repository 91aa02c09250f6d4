# Vectorised dot-product blocks for prediction.
#
# Plain C loops the compiler turns into SIMD code. With GCC on x86-64 Linux each
# is also compiled for x86-64-v3 (AVX2 + FMA) and x86-64-v4 (AVX-512), chosen
# at load time. Sums are formed in a fixed order (lane by lane, then the lanes
# in order), so a result does not depend on which thread computes it, only on
# the machine's instruction set.

cdef extern from *:
    """
    #include <stddef.h>
    #include <string.h>
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
    #define SVMX_CLONES \
        __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
    #else
    #define SVMX_CLONES
    #endif
    #define SVMX_DOT_LANES 16

    /* out[t] = sum_k values[k] * rows[indices[k] * stride + t] for t < n: the dot
       products of one sparse vector with n columns of a row-major matrix. The
       partial sums of 32 columns stay in registers while the vector's entries
       stream past (an AXPY per entry would reload them for every entry). GCC's
       vector types say so directly: left to itself it vectorises over k, with
       gathers. Every column's sum runs over k in order, whatever the block. */
    #if defined(__GNUC__)
    typedef double svmx_v8 __attribute__((vector_size(64)));
    /* The same type at any double's alignment, for loads straight from memory. */
    typedef double svmx_v8_unaligned __attribute__((vector_size(64), aligned(8), may_alias));
    #define svmx_load8(p) (*(const svmx_v8_unaligned*)(p))
    SVMX_CLONES
    static void svmx_sparse_times_rows(const double* rows, ptrdiff_t stride,
                                       const int* indices, const double* values,
                                       ptrdiff_t n_values, ptrdiff_t n, double* out) {
        ptrdiff_t start = 0, k, t;
        for (; start + 32 <= n; start += 32) {
            svmx_v8 s0 = {0.0}, s1 = {0.0}, s2 = {0.0}, s3 = {0.0};
            for (k = 0; k < n_values; k++) {
                const double* row = rows + indices[k] * stride + start;
                const double value = values[k];
                s0 += value * svmx_load8(row);
                s1 += value * svmx_load8(row + 8);
                s2 += value * svmx_load8(row + 16);
                s3 += value * svmx_load8(row + 24);
            }
            memcpy(out + start, &s0, sizeof s0);
            memcpy(out + start + 8, &s1, sizeof s1);
            memcpy(out + start + 16, &s2, sizeof s2);
            memcpy(out + start + 24, &s3, sizeof s3);
        }
        for (; start + 8 <= n; start += 8) {
            svmx_v8 s0 = {0.0};
            for (k = 0; k < n_values; k++) {
                s0 += values[k] * svmx_load8(rows + indices[k] * stride + start);
            }
            memcpy(out + start, &s0, sizeof s0);
        }
        for (t = start; t < n; t++) {
            double sum = 0.0;
            for (k = 0; k < n_values; k++) {
                sum += values[k] * rows[indices[k] * stride + t];
            }
            out[t] = sum;
        }
    }
    /* The same for four sparse vectors at once, stored over the union of their
       entries: out[r * out_stride + t] = sum_k values[4 k + r] * rows[indices[k] *
       stride + t] for r < 4 (values[4 k + r] is 0 where vector r lacks entry k).
       Each block of the matrix, once loaded, serves all four vectors. */
    SVMX_CLONES
    static void svmx_sparse4_times_rows(const double* rows, ptrdiff_t stride,
                                        const int* indices, const double* values,
                                        ptrdiff_t n_values, ptrdiff_t n, double* out,
                                        ptrdiff_t out_stride) {
        ptrdiff_t start = 0, k, t;
        int r;
        for (; start + 16 <= n; start += 16) {
            svmx_v8 a0 = {0.0}, a1 = {0.0}, b0 = {0.0}, b1 = {0.0};
            svmx_v8 c0 = {0.0}, c1 = {0.0}, d0 = {0.0}, d1 = {0.0};
            for (k = 0; k < n_values; k++) {
                const double* row = rows + indices[k] * stride + start;
                const double* x = values + 4 * k;
                const svmx_v8 low = svmx_load8(row), high = svmx_load8(row + 8);
                a0 += x[0] * low;
                a1 += x[0] * high;
                b0 += x[1] * low;
                b1 += x[1] * high;
                c0 += x[2] * low;
                c1 += x[2] * high;
                d0 += x[3] * low;
                d1 += x[3] * high;
            }
            memcpy(out + start, &a0, sizeof a0);
            memcpy(out + start + 8, &a1, sizeof a1);
            memcpy(out + out_stride + start, &b0, sizeof b0);
            memcpy(out + out_stride + start + 8, &b1, sizeof b1);
            memcpy(out + 2 * out_stride + start, &c0, sizeof c0);
            memcpy(out + 2 * out_stride + start + 8, &c1, sizeof c1);
            memcpy(out + 3 * out_stride + start, &d0, sizeof d0);
            memcpy(out + 3 * out_stride + start + 8, &d1, sizeof d1);
        }
        for (t = start; t < n; t++) {
            for (r = 0; r < 4; r++) {
                double sum = 0.0;
                for (k = 0; k < n_values; k++) {
                    sum += values[4 * k + r] * rows[indices[k] * stride + t];
                }
                out[r * out_stride + t] = sum;
            }
        }
    }
    #else
    static void svmx_sparse_times_rows(const double* rows, ptrdiff_t stride,
                                       const int* indices, const double* values,
                                       ptrdiff_t n_values, ptrdiff_t n, double* out) {
        ptrdiff_t k, t;
        for (t = 0; t < n; t++) {
            out[t] = 0.0;
        }
        for (k = 0; k < n_values; k++) {
            const double* row = rows + indices[k] * stride;
            for (t = 0; t < n; t++) {
                out[t] += values[k] * row[t];
            }
        }
    }
    static void svmx_sparse4_times_rows(const double* rows, ptrdiff_t stride,
                                        const int* indices, const double* values,
                                        ptrdiff_t n_values, ptrdiff_t n, double* out,
                                        ptrdiff_t out_stride) {
        ptrdiff_t k, t;
        int r;
        for (r = 0; r < 4; r++) {
            for (t = 0; t < n; t++) {
                double sum = 0.0;
                for (k = 0; k < n_values; k++) {
                    sum += values[4 * k + r] * rows[indices[k] * stride + t];
                }
                out[r * out_stride + t] = sum;
            }
        }
    }
    #endif

    /* out[s] = sum over k of values[k] * (column indices[k] of a CSC matrix)[s], for
       s < n: a sparse vector times a sparse matrix's transpose, by scattering each
       column's entries. Each out[s] sums over k in order, as svmx_sparse_times_rows
       does (which also adds the zero products), with the same contraction. */
    SVMX_CLONES
    static void svmx_sparse_times_columns(const ptrdiff_t* column_starts,
                                          const int* column_rows,
                                          const double* column_values, const int* indices,
                                          const double* values, ptrdiff_t n_values,
                                          ptrdiff_t n, double* out) {
        ptrdiff_t k, p;
        memset(out, 0, n * sizeof(double));
        for (k = 0; k < n_values; k++) {
            const double value = values[k];
            const ptrdiff_t end = column_starts[indices[k] + 1];
            for (p = column_starts[indices[k]]; p < end; p++) {
                out[column_rows[p]] += value * column_values[p];
            }
        }
    }

    /* sum_t a[t] b[t] in 16 lanes, then the lanes in order. */
    SVMX_CLONES
    static double svmx_dot(const double* a, const double* b, ptrdiff_t n) {
        double sums[SVMX_DOT_LANES] = {0.0};
        double total = 0.0;
        ptrdiff_t start, t;
        for (start = 0; start + SVMX_DOT_LANES <= n; start += SVMX_DOT_LANES) {
            for (t = 0; t < SVMX_DOT_LANES; t++) {
                sums[t] += a[start + t] * b[start + t];
            }
        }
        for (t = start; t < n; t++) {
            sums[t - start] += a[t] * b[t];
        }
        for (t = 0; t < SVMX_DOT_LANES; t++) {
            total += sums[t];
        }
        return total;
    }
    /* sums[q] = svmx_dot(rows + q * stride, x, n) for q < n_rows, bit for bit: four
       rows at a time share each load of x, and their eight chains of additions keep
       both FMA units busy where one dot product waits on its two. */
    #if defined(__GNUC__)
    /* Vectors go in memory, not by value: a vector argument's ABI differs between
       this function and a caller compiled for AVX-512 whenever it is not inlined. */
    static inline double svmx_lanes_total(const svmx_v8* low, const svmx_v8* high,
                                          const double* a, const double* b,
                                          ptrdiff_t n_tail) {
        double lanes[SVMX_DOT_LANES];
        double total = 0.0;
        ptrdiff_t t;
        memcpy(lanes, low, sizeof *low);
        memcpy(lanes + 8, high, sizeof *high);
        for (t = 0; t < n_tail; t++) {
            lanes[t] += a[t] * b[t];
        }
        for (t = 0; t < SVMX_DOT_LANES; t++) {
            total += lanes[t];
        }
        return total;
    }
    SVMX_CLONES
    static void svmx_dot_rows(const double* rows, ptrdiff_t stride, ptrdiff_t n_rows,
                              const double* x, ptrdiff_t n, double* sums) {
        ptrdiff_t q, start;
        for (q = 0; q + 4 <= n_rows; q += 4) {
            const double* r0 = rows + q * stride;
            const double* r1 = r0 + stride;
            const double* r2 = r1 + stride;
            const double* r3 = r2 + stride;
            svmx_v8 a0 = {0.0}, a1 = {0.0}, b0 = {0.0}, b1 = {0.0};
            svmx_v8 c0 = {0.0}, c1 = {0.0}, d0 = {0.0}, d1 = {0.0};
            for (start = 0; start + SVMX_DOT_LANES <= n; start += SVMX_DOT_LANES) {
                const svmx_v8 low = svmx_load8(x + start), high = svmx_load8(x + start + 8);
                a0 += svmx_load8(r0 + start) * low;
                a1 += svmx_load8(r0 + start + 8) * high;
                b0 += svmx_load8(r1 + start) * low;
                b1 += svmx_load8(r1 + start + 8) * high;
                c0 += svmx_load8(r2 + start) * low;
                c1 += svmx_load8(r2 + start + 8) * high;
                d0 += svmx_load8(r3 + start) * low;
                d1 += svmx_load8(r3 + start + 8) * high;
            }
            sums[q] = svmx_lanes_total(&a0, &a1, r0 + start, x + start, n - start);
            sums[q + 1] = svmx_lanes_total(&b0, &b1, r1 + start, x + start, n - start);
            sums[q + 2] = svmx_lanes_total(&c0, &c1, r2 + start, x + start, n - start);
            sums[q + 3] = svmx_lanes_total(&d0, &d1, r3 + start, x + start, n - start);
        }
        for (; q < n_rows; q++) {
            sums[q] = svmx_dot(rows + q * stride, x, n);
        }
    }
    #else
    static void svmx_dot_rows(const double* rows, ptrdiff_t stride, ptrdiff_t n_rows,
                              const double* x, ptrdiff_t n, double* sums) {
        ptrdiff_t q;
        for (q = 0; q < n_rows; q++) {
            sums[q] = svmx_dot(rows + q * stride, x, n);
        }
    }
    #endif
    """
    void sparse_times_rows "svmx_sparse_times_rows"(
        const double* rows, Py_ssize_t stride, const int* indices, const double* values,
        Py_ssize_t n_values, Py_ssize_t n, double* out) noexcept nogil
    void sparse4_times_rows "svmx_sparse4_times_rows"(
        const double* rows, Py_ssize_t stride, const int* indices, const double* values,
        Py_ssize_t n_values, Py_ssize_t n, double* out, Py_ssize_t out_stride) noexcept nogil
    void sparse_times_columns "svmx_sparse_times_columns"(
        const Py_ssize_t* column_starts, const int* column_rows, const double* column_values,
        const int* indices, const double* values, Py_ssize_t n_values, Py_ssize_t n,
        double* out) noexcept nogil
    void dot_rows "svmx_dot_rows"(const double* rows, Py_ssize_t stride, Py_ssize_t n_rows,
                                  const double* x, Py_ssize_t n, double* sums) noexcept nogil
