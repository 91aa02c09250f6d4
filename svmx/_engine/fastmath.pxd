# Vectorisable elementwise maps for kernel blocks.
#
# `exp_float` is a branch-free float32 exponential (range reduction to
# 2^n * 2^f with |f| <= 1/2 by the round-to-nearest magic number, then a
# degree-7 Taylor polynomial of 2^f): a loop calling it compiles to SIMD code
# (with -fno-trapping-math), unlike libm's exp. Its relative error is that of
# rounding x to float32 times |x|: about 1e-7 for |x| <= 1, 4e-6 at |x| = 87.
# The row loops are compiled per instruction-set level and dispatched at run
# time, capped by SVMX_ISA (isa.pxd).

from svmx._engine.isa cimport isa_level  # noqa: F401 (its C code defines the dispatch)

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    SVMX_INLINE float svmx_exp_float(float x) {
        const float magic = 12582912.0f;  /* 1.5 * 2^23: adding it rounds to an integer */
        float t, r, f, p, scale;
        int32_t n, bits, magic_bits;
        x = x < -87.0f ? -87.0f : x;
        x = x > 88.0f ? 88.0f : x;
        t = x * 1.4426950408889634f;
        r = t + magic;
        memcpy(&bits, &r, sizeof(float));
        memcpy(&magic_bits, &magic, sizeof(float));
        n = bits - magic_bits;
        f = (t - (r - magic)) * 0.6931471805599453f;
        p = 1.0f + f * (1.0f + f * (0.5f + f * (0.16666667f + f * (0.041666668f
            + f * (0.008333334f + f * (0.0013888889f + f * 0.0001984127f))))));
        bits = (n + 127) << 23;
        memcpy(&scale, &bits, sizeof(float));
        return p * scale;
    }
    /* row[b] = exp(-gamma * max(0, sq_a + sq_b[b] - 2 row[b])): a row of RBF values
       from dot products, in one loop the compiler turns into SIMD code. */
    SVMX_MULTIVERSION_VOID(svmx_rbf_row,
        (float* row, int n, float sq_a, const double* sq_b, float gamma),
        (row, n, sq_a, sq_b, gamma),
        int b;
        for (b = 0; b < n; b++) {
            float distance = sq_a + (float)sq_b[b] - 2.0f * row[b];
            distance = distance > 0.0f ? distance : 0.0f;
            row[b] = svmx_exp_float(-gamma * distance);
        }
    )
    /* e^r ~ 1 + r + C2 r^2 + ... + C11 r^11 on |r| <= ln2 / 2 (see svmx_exp_double). */
    #define SVMX_EXP_LN2_HI 6.93147180369123816490e-01
    #define SVMX_EXP_LN2_LO 1.90821492927058770002e-10
    #define SVMX_EXP_C11 2.5110037605963777e-08
    #define SVMX_EXP_C10 2.763263963904103e-07
    #define SVMX_EXP_C9 2.755724091857897e-06
    #define SVMX_EXP_C8 2.4801485482328494e-05
    #define SVMX_EXP_C7 0.00019841269890047113
    #define SVMX_EXP_C6 0.0013888888952314775
    #define SVMX_EXP_C5 0.008333333333319601
    #define SVMX_EXP_C4 0.0416666666664881
    #define SVMX_EXP_C3 0.1666666666666668
    #define SVMX_EXP_C2 0.5000000000000019
    /* The float64 exponential, also branch-free: x = n ln2 + r with Cody-Waite's
       split of ln2 (n ln2_hi is exact), then e^r for |r| <= ln2 / 2 by a degree-11
       polynomial close to minimax (a Chebyshev fit: 3e-18 from e^r on that interval),
       summed by Horner's rule. Eleven FMAs: a row of kernel values is a loop bound by
       the FMA units, not by one value's latency (Estrin's order of the degree-12
       Taylor polynomial took four more products; this is 20% faster with AVX-512,
       12% with AVX2). Relative error below 2e-16 for x in [-708, 709]
       (test_rbf_values_are_exp_to_a_few_ulps); smaller x return exp(-708) ~ 3e-308
       (kernel values that small are zero for us). */
    SVMX_INLINE double svmx_exp_double(double x) {
        const double magic = 6755399441055744.0;  /* 1.5 * 2^52 */
        const double ln2_hi = SVMX_EXP_LN2_HI;
        const double ln2_lo = SVMX_EXP_LN2_LO;
        double t, n, r, p, scale;
        int64_t bits, magic_bits;
        x = x < -708.0 ? -708.0 : x;
        x = x > 709.0 ? 709.0 : x;
        t = x * 1.4426950408889634 + magic;
        memcpy(&bits, &t, sizeof(double));
        memcpy(&magic_bits, &magic, sizeof(double));
        bits -= magic_bits;
        n = t - magic;
        r = (x - n * ln2_hi) - n * ln2_lo;
        p = SVMX_EXP_C11 * r + SVMX_EXP_C10;
        p = p * r + SVMX_EXP_C9;
        p = p * r + SVMX_EXP_C8;
        p = p * r + SVMX_EXP_C7;
        p = p * r + SVMX_EXP_C6;
        p = p * r + SVMX_EXP_C5;
        p = p * r + SVMX_EXP_C4;
        p = p * r + SVMX_EXP_C3;
        p = p * r + SVMX_EXP_C2;
        p = p * r + 1.0;
        p = p * r + 1.0;
        bits = (bits + 1023) << 52;
        memcpy(&scale, &bits, sizeof(double));
        return p * scale;
    }
    /* One RBF value from a dot product and the squared norms, the distance clipped at 0. */
    SVMX_INLINE double svmx_rbf_value_double(double sq_a, double sq_b, double dot,
                                             double gamma) {
        double distance = sq_a + sq_b - 2.0 * dot;
        distance = distance > 0.0 ? distance : 0.0;
        return svmx_exp_double(-gamma * distance);
    }
    #if defined(__GNUC__)
    /* One Horner step p = p r + c of K polynomials side by side. */
    #define SVMX_HORNER_STEP(K, c) \\
        _Pragma("GCC unroll 16") \\
        for (j = 0; j < (K); j++) p[j] = p[j] * r[j] + (c);
    /* K vectors of W values of the row from b on (see SVMX_RBF_ROW_DOUBLE). */
    #define SVMX_RBF_VECTORS(V, W, K) { \\
        V p[K], r[K]; \\
        SVMX_I64(W) bits[K]; \\
        int j; \\
        _Pragma("GCC unroll 16") \\
        for (j = 0; j < (K); j++) { \\
            V distance = sq_a + SVMX_LOAD(V, sq_b + b + j * (W)) \\
                - 2.0 * SVMX_LOAD(V, row + b + j * (W)); \\
            V x, t, m; \\
            distance = SVMX_MAX(W, distance, zero); \\
            x = SVMX_MAX(W, lowest, -gamma * distance); \\
            t = x * 1.4426950408889634 + magic; \\
            memcpy(&bits[j], &t, sizeof t); \\
            m = t - magic; \\
            r[j] = (x - m * SVMX_EXP_LN2_HI) - m * SVMX_EXP_LN2_LO; \\
            p[j] = SVMX_EXP_C11 * r[j] + SVMX_EXP_C10; \\
        } \\
        SVMX_HORNER_STEP(K, SVMX_EXP_C9) SVMX_HORNER_STEP(K, SVMX_EXP_C8) \\
        SVMX_HORNER_STEP(K, SVMX_EXP_C7) SVMX_HORNER_STEP(K, SVMX_EXP_C6) \\
        SVMX_HORNER_STEP(K, SVMX_EXP_C5) SVMX_HORNER_STEP(K, SVMX_EXP_C4) \\
        SVMX_HORNER_STEP(K, SVMX_EXP_C3) SVMX_HORNER_STEP(K, SVMX_EXP_C2) \\
        SVMX_HORNER_STEP(K, 1.0) SVMX_HORNER_STEP(K, 1.0) \\
        _Pragma("GCC unroll 16") \\
        for (j = 0; j < (K); j++) { \\
            /* (bits(t) - bits(magic) + 1023) << 52, and bits(magic) << 52 is 0 */ \\
            const SVMX_I64(W) scale_bits = (bits[j] + 1023) << 52; \\
            V scale; \\
            memcpy(&scale, &scale_bits, sizeof scale); \\
            p[j] *= scale; \\
            SVMX_STORE(V, row + b + j * (W), p[j]); \\
        } \\
    }
    /* The float64 version of svmx_rbf_row: row[b] = exp(-gamma * (sq_a + sq_b[b] -
       2 row[b])), distances clipped at 0. For gamma >= 0 every exponent is <= 0, so
       svmx_exp_double's steps run on U vectors of W values side by side, with only the
       clamp at -708 (a max); the Horner steps of the U vectors interleave, so the FMA
       units are not left waiting on one chain (heart_scale's rows of 132 values: 1.8 ->
       1.2 ns a value with AVX2, as svmx_exp_double computes them, bit for bit). AVX2
       takes 8 vectors (two FMA units of 4-cycle latency want 8 chains: rows of 393
       values 1.25 -> 1.05 ns, 12 vectors 1.23); AVX-512 and SSE2 take 4 (SSE2 with 8
       gained 3%, spilling its 16 registers). The last values (fewer than W), and every
       value for gamma < 0, go one at a time. */
    #define SVMX_RBF_ROW_DOUBLE(V, W, U) \\
        const V zero = {0.0}; \\
        const V lowest = zero - 708.0, magic = zero + 6755399441055744.0; \\
        Py_ssize_t b = 0; \\
        if (gamma >= 0.0) { \\
            for (; b + (U) * (W) <= n; b += (U) * (W)) SVMX_RBF_VECTORS(V, W, U) \\
            for (; b + (W) <= n; b += (W)) SVMX_RBF_VECTORS(V, W, 1) \\
        } \\
        for (; b < n; b++) row[b] = svmx_rbf_value_double(sq_a, sq_b[b], row[b], gamma);
    SVMX_MULTIVERSION_WIDTHS(svmx_rbf_row_double,
        (double* row, Py_ssize_t n, double sq_a, const double* sq_b, double gamma),
        (row, n, sq_a, sq_b, gamma),
        SVMX_RBF_ROW_DOUBLE, 4, 8, 4)
    #else
    /* Without GCC's vector types: the same values, one at a time. */
    SVMX_MULTIVERSION_VOID(svmx_rbf_row_double,
        (double* row, Py_ssize_t n, double sq_a, const double* sq_b, double gamma),
        (row, n, sq_a, sq_b, gamma),
        Py_ssize_t b;
        for (b = 0; b < n; b++) row[b] = svmx_rbf_value_double(sq_a, sq_b[b], row[b], gamma);
    )
    #endif
    /* out[b] = sum over the stored entries k of one CSR row of values[k] *
       block[slot[indices[k]] * n_block + b]: a sparse row times the dense transpose
       of a block of rows (entries whose slot is -1 meet zeros and are skipped).
       One vectorised AXPY per entry. */
    SVMX_MULTIVERSION_VOID(svmx_sparse_row_times_block,
        (float* out, int n_block, long long start, long long end, const int* indices, const double*
         values, const int* slot, const float* block),
        (out, n_block, start, end, indices, values, slot, block),
        long long k;
        int b, s;
        float value;
        const float* source;
        for (b = 0; b < n_block; b++) out[b] = 0.0f;
        for (k = start; k < end; k++) {
            s = slot[indices[k]];
            if (s < 0) continue;
            value = (float)values[k];
            source = block + (long long)s * n_block;
            _Pragma("omp simd")
            for (b = 0; b < n_block; b++) out[b] += value * source[b];
        }
    )
    /* out[b] = sum_k x[k] * block[k * stride + b] for b < n_block: a dense row times
       the dense transpose of a block of rows (d x stride, stride a multiple of 16 >=
       n_block, padded with zeros). Strips of 64 (then 16) results are accumulated in
       registers over all k, so the block is read once per row and out written
       once; zeros of x are skipped. */
    SVMX_MULTIVERSION_VOID(svmx_dense_row_times_block,
        (float* out, int n_block, const float* x, int d, const float* block, int stride),
        (out, n_block, x, d, block, stride),
        float acc[64];
        float value;
        const float* source;
        int start, width, j, k;
        for (start = 0; start < n_block; ) {
            width = stride - start >= 64 ? 64 : 16;
            for (j = 0; j < 64; j++) acc[j] = 0.0f;
            if (width == 64) {
                for (k = 0; k < d; k++) {
                    value = x[k];
                    if (value == 0.0f) continue;
                    source = block + (long long)k * stride + start;
                    _Pragma("omp simd")
                    for (j = 0; j < 64; j++) acc[j] += value * source[j];
                }
            } else {
                for (k = 0; k < d; k++) {
                    value = x[k];
                    if (value == 0.0f) continue;
                    source = block + (long long)k * stride + start;
                    _Pragma("omp simd")
                    for (j = 0; j < 16; j++) acc[j] += value * source[j];
                }
            }
            if (width > n_block - start) width = n_block - start;
            for (j = 0; j < width; j++) out[start + j] = acc[j];
            start += width;
        }
    )
    /* sum_b row[b] * weights[b] in float64: one row of a block times the block's
       weights (a gradient update). */
    SVMX_MULTIVERSION(double, svmx_row_dot_weights,
        (const float* row, const double* weights, int n),
        (row, weights, n),
        double total = 0.0;
        int b;
        /* A fixed SIMD order of summation: the same result on every call. */
        _Pragma("omp simd reduction(+:total)")
        for (b = 0; b < n; b++) total += (double)row[b] * weights[b];
        return total;
    )
    """
    double exp_double "svmx_exp_double"(double x) noexcept nogil
    void rbf_row_double "svmx_rbf_row_double"(double* row, Py_ssize_t n, double sq_a,
                                              const double* sq_b, double gamma) noexcept nogil
    void rbf_row "svmx_rbf_row"(float* row, int n, float sq_a, const double* sq_b,
                                float gamma) noexcept nogil
    void sparse_row_times_block "svmx_sparse_row_times_block"(
        float* out, int n_block, long long start, long long end, const int* indices,
        const double* values, const int* slot, const float* block) noexcept nogil
    double row_dot_weights "svmx_row_dot_weights"(const float* row, const double* weights,
                                                  int n) noexcept nogil
    void dense_row_times_block "svmx_dense_row_times_block"(
        float* out, int n_block, const float* x, int d, const float* block,
        int stride) noexcept nogil
