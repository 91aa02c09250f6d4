# Vectorised dot-product blocks for prediction.
#
# Plain C loops the compiler turns into SIMD code. With GCC on x86-64 Linux each
# is compiled for x86-64-v4 (AVX-512), x86-64-v3 (AVX2 + FMA) and the baseline,
# and a call runs the widest the CPU has unless SVMX_ISA caps it (isa.pxd).
# Sums are formed in a fixed order (16 lanes, then the lanes by a fixed pairwise tree),
# so a result does not depend on which thread computes it; the paths differ only by
# the rounding of fused multiply-adds (1e-16 relative per product).

from svmx._engine.isa cimport isa_level  # noqa: F401 (its C code defines the dispatch)

cdef extern from *:
    """
    #include <stddef.h>
    #include <string.h>
    #define SVMX_DOT_LANES 16

    /* out[t] = sum_k values[k] * rows[indices[k] * stride + t] for t < n: the dot
       products of one sparse vector with n columns of a row-major matrix. The
       partial sums of 32 columns stay in registers while the vector's entries
       stream past (an AXPY per entry would reload them for every entry). GCC's
       vector types say so directly: left to itself it vectorises over k, with
       gathers. Every column's sum runs over k in order, whatever the block. */
    #if defined(__GNUC__)
    /* The body over vectors V of W doubles: strips of U * W columns. */
    #define SVMX_SPARSE_TIMES_ROWS(V, W, U) \\
        ptrdiff_t start = 0, k, t; \\
        int j; \\
        for (; start + (U) * (W) <= n; start += (U) * (W)) { \\
            V s[U]; \\
            for (j = 0; j < (U); j++) s[j] = (V){0.0}; \\
            for (k = 0; k < n_values; k++) { \\
                const double* row = rows + indices[k] * stride + start; \\
                const double value = values[k]; \\
                _Pragma("GCC unroll 16") \\
                for (j = 0; j < (U); j++) s[j] += value * SVMX_LOAD(V, row + j * (W)); \\
            } \\
            _Pragma("GCC unroll 16") \\
            for (j = 0; j < (U); j++) SVMX_STORE(V, out + start + j * (W), s[j]); \\
        } \\
        /* W-wide strips; the last one ends at n (it may overlap the one before: \\
           its columns are computed again, the same way) unless n < W. */ \\
        while (start < n && n >= (W)) { \\
            V s0 = {0.0}; \\
            if (start + (W) > n) start = n - (W); \\
            for (k = 0; k < n_values; k++) { \\
                s0 += values[k] * SVMX_LOAD(V, rows + indices[k] * stride + start); \\
            } \\
            SVMX_STORE(V, out + start, s0); \\
            start += (W); \\
        } \\
        for (t = start; t < n; t++) { \\
            double sum = 0.0; \\
            for (k = 0; k < n_values; k++) { \\
                sum += values[k] * rows[indices[k] * stride + t]; \\
            } \\
            out[t] = sum; \\
        }
    SVMX_MULTIVERSION_WIDTHS(svmx_sparse_times_rows,
        (const double* rows, ptrdiff_t stride, const int* indices, const double* values,
         ptrdiff_t n_values, ptrdiff_t n, double* out),
        (rows, stride, indices, values, n_values, n, out),
        SVMX_SPARSE_TIMES_ROWS, 4, 8, 8)
    /* The same for four sparse vectors at once, stored over the union of their
       entries: out[r * out_stride + t] = sum_k values[4 k + r] * rows[indices[k] *
       stride + t] for r < 4 (values[4 k + r] is 0 where vector r lacks entry k).
       Each block of the matrix, once loaded, serves all four vectors: strips of
       U * W columns, 4 U accumulators. */
    #define SVMX_SPARSE4_TIMES_ROWS(V, W, U) \\
        ptrdiff_t start = 0, k, t; \\
        int r, j; \\
        for (; start + (U) * (W) <= n; start += (U) * (W)) { \\
            V a[U], b[U], c[U], d[U]; \\
            for (j = 0; j < (U); j++) a[j] = b[j] = c[j] = d[j] = (V){0.0}; \\
            for (k = 0; k < n_values; k++) { \\
                const double* row = rows + indices[k] * stride + start; \\
                const double* x = values + 4 * k; \\
                _Pragma("GCC unroll 16") \\
                for (j = 0; j < (U); j++) { \\
                    const V block = SVMX_LOAD(V, row + j * (W)); \\
                    a[j] += x[0] * block; \\
                    b[j] += x[1] * block; \\
                    c[j] += x[2] * block; \\
                    d[j] += x[3] * block; \\
                } \\
            } \\
            _Pragma("GCC unroll 16") \\
            for (j = 0; j < (U); j++) { \\
                SVMX_STORE(V, out + start + j * (W), a[j]); \\
                SVMX_STORE(V, out + out_stride + start + j * (W), b[j]); \\
                SVMX_STORE(V, out + 2 * out_stride + start + j * (W), c[j]); \\
                SVMX_STORE(V, out + 3 * out_stride + start + j * (W), d[j]); \\
            } \\
        } \\
        /* W-wide strips, the last one ending at n, as in SVMX_SPARSE_TIMES_ROWS. */ \\
        while (start < n && n >= (W)) { \\
            V a0 = {0.0}, b0 = {0.0}, c0 = {0.0}, d0 = {0.0}; \\
            if (start + (W) > n) start = n - (W); \\
            for (k = 0; k < n_values; k++) { \\
                const V block = SVMX_LOAD(V, rows + indices[k] * stride + start); \\
                const double* x = values + 4 * k; \\
                a0 += x[0] * block; \\
                b0 += x[1] * block; \\
                c0 += x[2] * block; \\
                d0 += x[3] * block; \\
            } \\
            SVMX_STORE(V, out + start, a0); \\
            SVMX_STORE(V, out + out_stride + start, b0); \\
            SVMX_STORE(V, out + 2 * out_stride + start, c0); \\
            SVMX_STORE(V, out + 3 * out_stride + start, d0); \\
            start += (W); \\
        } \\
        for (t = start; t < n; t++) { \\
            for (r = 0; r < 4; r++) { \\
                double sum = 0.0; \\
                for (k = 0; k < n_values; k++) { \\
                    sum += values[4 * k + r] * rows[indices[k] * stride + t]; \\
                } \\
                out[r * out_stride + t] = sum; \\
            } \\
        }
    SVMX_MULTIVERSION_WIDTHS(svmx_sparse4_times_rows,
        (const double* rows, ptrdiff_t stride, const int* indices, const double* values,
         ptrdiff_t n_values, ptrdiff_t n, double* out, ptrdiff_t out_stride),
        (rows, stride, indices, values, n_values, n, out, out_stride),
        SVMX_SPARSE4_TIMES_ROWS, 2, 2, 2)
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
    SVMX_MULTIVERSION_VOID(svmx_sparse_times_columns,
        (const ptrdiff_t* column_starts, const int* column_rows, const double* column_values, const
         int* indices, const double* values, ptrdiff_t n_values, ptrdiff_t n, double* out),
        (column_starts, column_rows, column_values, indices, values, n_values, n, out),
        ptrdiff_t k, p;
        memset(out, 0, n * sizeof(double));
        for (k = 0; k < n_values; k++) {
            const double value = values[k];
            const ptrdiff_t end = column_starts[indices[k] + 1];
            for (p = column_starts[indices[k]]; p < end; p++) {
                out[column_rows[p]] += value * column_values[p];
            }
        }
    )

    /* sum_t a[t] b[t] in 16 lanes: lane t takes the products t, t + 16, ...; the last
       n % 16 products go to the first lanes, and every lane takes 0 * 0 when there
       are any (so that this is the vectorised sums' arithmetic to the bit, down to the
       sign of a zero lane). The lanes are then added by a tree: l[i] += l[i + h] for
       i < h, h = 8, 4, 2, 1: four dependent additions, not sixteen. */
    SVMX_INLINE double svmx_dot(const double* a, const double* b, ptrdiff_t n) {
        double sums[SVMX_DOT_LANES] = {0.0};
        ptrdiff_t start, t, h;
        for (start = 0; start + SVMX_DOT_LANES <= n; start += SVMX_DOT_LANES) {
            for (t = 0; t < SVMX_DOT_LANES; t++) {
                sums[t] += a[start + t] * b[start + t];
            }
        }
        if (start < n) {
            /* As a fused multiply-add of zeros: the lane plus +0 (a select of the
               products would keep the compiler from fusing the others). */
            for (t = 0; t < n - start; t++) {
                sums[t] += a[start + t] * b[start + t];
            }
            for (; t < SVMX_DOT_LANES; t++) {
                sums[t] += 0.0;
            }
        }
        for (h = SVMX_DOT_LANES / 2; h >= 1; h /= 2) {
            for (t = 0; t < h; t++) {
                sums[t] += sums[t + h];
            }
        }
        return sums[0];
    }
    #if defined(__GNUC__)
    /* The tree of svmx_dot over the lanes of one vector, after the vectors' own levels. */
    #define SVMX_LANE_TREE_2(v) ((v)[0] + (v)[1])
    #define SVMX_LANE_TREE_4(v) (((v)[0] + (v)[2]) + ((v)[1] + (v)[3]))
    #define SVMX_LANE_TREE_8(v) ((((v)[0] + (v)[4]) + ((v)[2] + (v)[6])) \\
                                 + (((v)[1] + (v)[5]) + ((v)[3] + (v)[7])))
    /* svmx_dot's total of 16 lanes held in 16 / W vectors acc[0..] (lanes j W .. j W +
       W - 1 in acc[j]), after the n_tail (< 16) last products of a and b: the tail
       goes in lane by lane (zeros past it), then the tree, in registers. acc is
       overwritten. */
    #define SVMX_LANES_TOTAL(V, W, acc, a, b, n_tail, total) { \\
        int lane_, half_; \\
        if ((n_tail) > 0) { \\
            _Pragma("GCC unroll 16") \\
            for (lane_ = 0; lane_ < SVMX_DOT_LANES / (W); lane_++) \\
                (acc)[lane_] += SVMX_LOAD_FIRST(W, (a) + lane_ * (W), (n_tail) - lane_ * (W)) \\
                    * SVMX_LOAD_FIRST(W, (b) + lane_ * (W), (n_tail) - lane_ * (W)); \\
        } \\
        _Pragma("GCC unroll 16") \\
        for (half_ = SVMX_DOT_LANES / (W) / 2; half_ >= 1; half_ /= 2) { \\
            _Pragma("GCC unroll 16") \\
            for (lane_ = 0; lane_ < half_; lane_++) (acc)[lane_] += (acc)[lane_ + half_]; \\
        } \\
        total = SVMX_LANE_TREE_##W((acc)[0]); \\
    }
    /* The body over vectors V of W doubles, U rows at a time (16 / W accumulators
       per row hold its 16 lanes). */
    #define SVMX_DOT_ROWS(V, W, U) \\
        ptrdiff_t q, start; \\
        int i, j; \\
        for (q = 0; q + (U) <= n_rows; q += (U)) { \\
            V acc[U][SVMX_DOT_LANES / (W)]; \\
            for (i = 0; i < (U); i++) \\
                for (j = 0; j < SVMX_DOT_LANES / (W); j++) acc[i][j] = (V){0.0}; \\
            for (start = 0; start + SVMX_DOT_LANES <= n; start += SVMX_DOT_LANES) { \\
                V xs[SVMX_DOT_LANES / (W)]; \\
                _Pragma("GCC unroll 16") \\
                for (j = 0; j < SVMX_DOT_LANES / (W); j++) \\
                    xs[j] = SVMX_LOAD(V, x + start + j * (W)); \\
                _Pragma("GCC unroll 16") \\
                for (i = 0; i < (U); i++) { \\
                    const double* r = rows + (q + i) * stride + start; \\
                    _Pragma("GCC unroll 16") \\
                    for (j = 0; j < SVMX_DOT_LANES / (W); j++) \\
                        acc[i][j] += SVMX_LOAD(V, r + j * (W)) * xs[j]; \\
                } \\
            } \\
            _Pragma("GCC unroll 16") \\
            for (i = 0; i < (U); i++) \\
                SVMX_LANES_TOTAL(V, W, acc[i], rows + (q + i) * stride + start, x + start, \\
                                 n - start, sums[q + i]) \\
        } \\
        for (; q < n_rows; q++) { \\
            sums[q] = svmx_dot(rows + q * stride, x, n); \\
        }
    /* sums[q] = svmx_dot(rows + q * stride, x, n) for q < n_rows, bit for bit: U
       rows at a time share each load of x, and their chains of additions keep
       both FMA units busy where one dot product waits on its two. */
    SVMX_MULTIVERSION_WIDTHS(svmx_dot_rows,
        (const double* rows, ptrdiff_t stride, ptrdiff_t n_rows, const double* x,
         ptrdiff_t n, double* sums),
        (rows, stride, n_rows, x, n, sums),
        SVMX_DOT_ROWS, 4, 2, 2)
    /* The same for four vectors x (x_stride apart) at once: sums[r * n_rows + q] =
       svmx_dot(rows + q * stride, x + r * x_stride, n), bit for bit. U rows of the
       matrix by R vectors at a time: each load of a row serves R vectors, so a
       matrix larger than the cache (the coefficient rows of many classes) is read a
       quarter or half as often as four calls of svmx_dot_rows read it. UR is
       "(U, R)". */
    #define SVMX_FIRST(a, b) a
    #define SVMX_SECOND(a, b) b
    #define SVMX_DOT_ROWS4(V, W, UR) \\
        ptrdiff_t q, start; \\
        int i, j, r, g; \\
        for (g = 0; g < 4; g += SVMX_SECOND UR) { \\
            for (q = 0; q + SVMX_FIRST UR <= n_rows; q += SVMX_FIRST UR) { \\
                V acc[SVMX_FIRST UR][SVMX_SECOND UR][SVMX_DOT_LANES / (W)]; \\
                for (i = 0; i < SVMX_FIRST UR; i++) \\
                    for (r = 0; r < SVMX_SECOND UR; r++) \\
                        for (j = 0; j < SVMX_DOT_LANES / (W); j++) acc[i][r][j] = (V){0.0}; \\
                for (start = 0; start + SVMX_DOT_LANES <= n; start += SVMX_DOT_LANES) { \\
                    V cs[SVMX_FIRST UR][SVMX_DOT_LANES / (W)]; \\
                    _Pragma("GCC unroll 16") \\
                    for (i = 0; i < SVMX_FIRST UR; i++) { \\
                        _Pragma("GCC unroll 16") \\
                        for (j = 0; j < SVMX_DOT_LANES / (W); j++) \\
                            cs[i][j] = SVMX_LOAD(V, rows + (q + i) * stride + start + j * (W)); \\
                    } \\
                    _Pragma("GCC unroll 16") \\
                    for (r = 0; r < SVMX_SECOND UR; r++) { \\
                        const double* xr = x + (g + r) * x_stride + start; \\
                        _Pragma("GCC unroll 16") \\
                        for (j = 0; j < SVMX_DOT_LANES / (W); j++) { \\
                            const V xs = SVMX_LOAD(V, xr + j * (W)); \\
                            _Pragma("GCC unroll 16") \\
                            for (i = 0; i < SVMX_FIRST UR; i++) acc[i][r][j] += cs[i][j] * xs; \\
                        } \\
                    } \\
                } \\
                _Pragma("GCC unroll 16") \\
                for (i = 0; i < SVMX_FIRST UR; i++) { \\
                    _Pragma("GCC unroll 16") \\
                    for (r = 0; r < SVMX_SECOND UR; r++) \\
                        SVMX_LANES_TOTAL(V, W, acc[i][r], rows + (q + i) * stride + start, \\
                                         x + (g + r) * x_stride + start, n - start, \\
                                         sums[(g + r) * n_rows + q + i]) \\
                } \\
            } \\
            for (; q < n_rows; q++) { \\
                for (r = 0; r < SVMX_SECOND UR; r++) \\
                    sums[(g + r) * n_rows + q] = svmx_dot(rows + q * stride, \\
                                                          x + (g + r) * x_stride, n); \\
            } \\
        }
    SVMX_MULTIVERSION_WIDTHS(svmx_dot_rows4,
        (const double* rows, ptrdiff_t stride, ptrdiff_t n_rows, const double* x,
         ptrdiff_t x_stride, ptrdiff_t n, double* sums),
        (rows, stride, n_rows, x, x_stride, n, sums),
        SVMX_DOT_ROWS4, (2, 4), (1, 2), (1, 2))
    #else
    static void svmx_dot_rows(const double* rows, ptrdiff_t stride, ptrdiff_t n_rows,
                              const double* x, ptrdiff_t n, double* sums) {
        ptrdiff_t q;
        for (q = 0; q < n_rows; q++) {
            sums[q] = svmx_dot(rows + q * stride, x, n);
        }
    }
    static void svmx_dot_rows4(const double* rows, ptrdiff_t stride, ptrdiff_t n_rows,
                               const double* x, ptrdiff_t x_stride, ptrdiff_t n,
                               double* sums) {
        int r;
        for (r = 0; r < 4; r++) {
            svmx_dot_rows(rows, stride, n_rows, x + r * x_stride, n, sums + r * n_rows);
        }
    }
    #endif

    /* out[t] = sum_k rows[t * n + k] * x[k] for t < n_rows, summed over k in order:
       a kernel column of dense rows of at most 8 features. Each width has its own
       loop, the features unrolled and the rows vectorised; BLAS's dgemv, made for
       wide rows, took 3.4x as long at 4 features and 1.8x at 8 (2,471 rows, Zen 4). */
    #define SVMX_NARROW_DOTS(N) \\
        case N: \\
            for (t = 0; t < n_rows; t++) { \\
                const double* row = rows + t * (N); \\
                double sum = 0.0; \\
                for (k = 0; k < (N); k++) sum += row[k] * x[k]; \\
                out[t] = sum; \\
            } \\
            return;
    #define SVMX_NARROW_MAX_FEATURES 8
    SVMX_MULTIVERSION_VOID(svmx_narrow_dots,
        (const double* rows, ptrdiff_t n_rows, int n, const double* x, double* out),
        (rows, n_rows, n, x, out),
        ptrdiff_t t;
        int k;
        switch (n) {
            SVMX_NARROW_DOTS(1) SVMX_NARROW_DOTS(2) SVMX_NARROW_DOTS(3)
            SVMX_NARROW_DOTS(4) SVMX_NARROW_DOTS(5) SVMX_NARROW_DOTS(6)
            SVMX_NARROW_DOTS(7) SVMX_NARROW_DOTS(8)
        }
        for (t = 0; t < n_rows; t++) {
            double sum = 0.0;
            for (k = 0; k < n; k++) sum += rows[t * n + k] * x[k];
            out[t] = sum;
        }
    )
    """
    enum: NARROW_MAX_FEATURES "SVMX_NARROW_MAX_FEATURES"
    void narrow_dots "svmx_narrow_dots"(const double* rows, Py_ssize_t n_rows, int n,
                                        const double* x, double* out) noexcept nogil
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
    void dot_rows4 "svmx_dot_rows4"(const double* rows, Py_ssize_t stride, Py_ssize_t n_rows,
                                    const double* x, Py_ssize_t x_stride, Py_ssize_t n,
                                    double* sums) noexcept nogil
