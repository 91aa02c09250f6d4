# Vectorisable elementwise maps for kernel blocks.
#
# `exp_float` is a branch-free float32 exponential (range reduction to
# 2^n * 2^f with |f| <= 1/2 by the round-to-nearest magic number, then a
# degree-7 Taylor polynomial of 2^f): a loop calling it compiles to SIMD code
# (with -fno-trapping-math), unlike libm's exp. Its relative error is that of
# rounding x to float32 times |x|: about 1e-7 for |x| <= 1, 4e-6 at |x| = 87.

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    static inline float svmx_exp_float(float x) {
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
       from dot products, in one loop the compiler turns into SIMD code. With GCC on
       x86-64 Linux it is also compiled for AVX2 and AVX-512, chosen at load time. */
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
    __attribute__((target_clones("avx512f", "avx2", "default")))
    #endif
    static void svmx_rbf_row(float* row, int n, float sq_a, const double* sq_b,
                             float gamma) {
        int b;
        for (b = 0; b < n; b++) {
            float distance = sq_a + (float)sq_b[b] - 2.0f * row[b];
            distance = distance > 0.0f ? distance : 0.0f;
            row[b] = svmx_exp_float(-gamma * distance);
        }
    }
    """
    float exp_float "svmx_exp_float"(float x) noexcept nogil
    void rbf_row "svmx_rbf_row"(float* row, int n, float sq_a, const double* sq_b,
                                float gamma) noexcept nogil
