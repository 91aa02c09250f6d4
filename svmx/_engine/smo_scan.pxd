# The SMO solver's scans over the active variables, in vector lanes (solver.pyx).
#
# Each iteration of SMO scans every active variable three times: for the i of the
# working set (the maximal violation -y_t G_t over I_up), for the j (the minimal
# second-order gain -b^2 / a over I_low), and to add the pair's columns to the
# gradient. Written as LIBSVM writes them, branch by branch, they run one variable at
# a time; here each runs over W variables at once (8 on AVX-512, 4 on AVX2, 2 on
# SSE2, dispatched as isa.pxd says).
#
# The results are LIBSVM's to the last bit on every path:
# - every value is computed with the operations, operands and rounding of the scalar
#   loop (fp-contract is off: no fused multiply-add, which a baseline build of LIBSVM
#   never uses);
# - the selections keep LIBSVM's ties: the scalar loop keeps the last t whose value
#   reaches the running extreme (>=, <=), which is the last t holding the extreme of
#   all eligible values. Each lane keeps its own last extreme; the lanes are merged by
#   value, then by the larger index, and the tail continues the scan in order. NaN
#   never compares true, in a lane as in the scalar loop.

from svmx._engine.isa cimport isa_level  # noqa: F401 (its C code defines the dispatch)

cdef extern from *:
    """
    #include <math.h>
    #include <string.h>
    #pragma GCC push_options
    #pragma GCC optimize("fp-contract=off")

    #define SVMX_LOWER_BOUND 0
    #define SVMX_UPPER_BOUND 1

    /* W signed bytes (labels, statuses) widened to W 64-bit lanes: one sign-extending
       load on AVX-512 and AVX2 (GCC's generic conversion extracts byte by byte). The
       svmx_i64x* lane types are isa.pxd's. */
    SVMX_INLINE svmx_i64x2 svmx_widen_bytes_2(const signed char* p) {
        return (svmx_i64x2){p[0], p[1]};
    }
    #if SVMX_MULTI_ISA
    #include <immintrin.h>
    SVMX_TARGET_V3 SVMX_INLINE svmx_i64x4 svmx_widen_bytes_4(const signed char* p) {
        int bytes;
        memcpy(&bytes, p, sizeof bytes);
        return (svmx_i64x4)_mm256_cvtepi8_epi64(_mm_cvtsi32_si128(bytes));
    }
    SVMX_TARGET_V4 SVMX_INLINE svmx_i64x8 svmx_widen_bytes_8(const signed char* p) {
        return (svmx_i64x8)_mm512_cvtepi8_epi64(_mm_loadl_epi64((const __m128i*)p));
    }
    #endif

    /* The lane type of a body over V (W doubles): 64-bit integer masks. */
    #define SVMX_SCAN_TYPES(V, W) \\
        typedef long long IV __attribute__((vector_size(sizeof(V))));
    #define SVMX_BLEND(V, mask, a, b) ((V)(((IV)(a) & (mask)) | ((IV)(b) & ~(mask))))

    /* In a body's loop at t: each lane's label (positive: y = +1) and status. */
    #define SVMX_LANE_LABELS(W) \\
        const IV positive = svmx_widen_bytes_##W(y + t) == 1; \\
        const IV st = svmx_widen_bytes_##W(status + t);
    /* The lanes in I_low: y = +1 not at the lower bound, or y = -1 not at the upper. */
    #define SVMX_IN_I_LOW \\
        ((positive & (st != SVMX_LOWER_BOUND)) | (~positive & (st != SVMX_UPPER_BOUND)))
    /* Where `take`, the lane keeps value v and the index t of its lane. */
    #define SVMX_KEEP(V, take, v, value, index) \\
        value = SVMX_BLEND(V, take, v, value); \\
        index = ((take) & (lane + t)) | (~(take) & index);

    /* The lanes' (value, index) pairs merged as the scalar scan would have ended:
       the extreme value (largest where `larger`, else smallest) of the lanes that
       hold one, and of the lanes holding it the largest index. */
    #define SVMX_MERGE_LANES(W, values, indices, larger, out_value, out_index) \\
        for (j = 0; j < (W); j++) { \\
            if (indices[j] < 0) continue; \\
            if (out_index < 0 || (larger ? values[j] > out_value : values[j] < out_value) \\
                    || (values[j] == out_value && indices[j] > out_index)) { \\
                out_value = values[j]; \\
                out_index = (int)indices[j]; \\
            } \\
        }

    /* i of LIBSVM's WSS3: the last t maximising -y_t G_t over I_up (y_t = +1 and t
       not at its upper bound, or y_t = -1 and t not at its lower bound); -1 if I_up
       is empty. *out_max receives the maximum (-INFINITY if none). */
    #define SVMX_WSS_FIRST(V, W, U) \\
        SVMX_SCAN_TYPES(V, W) \\
        IV lane, best_index = (IV){0} - 1; \\
        V best = (V){0.0} - INFINITY; \\
        double value, found = -INFINITY; \\
        int t = 0, j, index = -1; \\
        for (j = 0; j < (W); j++) lane[j] = j; \\
        for (; t + (W) <= n; t += (W)) { \\
            V g; \\
            memcpy(&g, G + t, sizeof g); \\
            SVMX_LANE_LABELS(W) \\
            const IV eligible = (positive & (st != SVMX_UPPER_BOUND)) \\
                | (~positive & (st != SVMX_LOWER_BOUND)); \\
            const V v = SVMX_BLEND(V, positive, -g, g); \\
            const IV take = eligible & (v >= best); \\
            SVMX_KEEP(V, take, v, best, best_index) \\
        } \\
        SVMX_MERGE_LANES(W, best, best_index, 1, found, index) \\
        for (; t < n; t++) { \\
            if (y[t] == 1) { \\
                if (status[t] == SVMX_UPPER_BOUND) continue; \\
                value = -G[t]; \\
            } else { \\
                if (status[t] == SVMX_LOWER_BOUND) continue; \\
                value = G[t]; \\
            } \\
            if (value >= found) { found = value; index = t; } \\
        } \\
        *out_max = found; \\
        return index;

    /* j of LIBSVM's WSS3 for the chosen i: over I_low (y_t = +1 and t not at its
       lower bound, or y_t = -1 and t not at its upper bound), the last t minimising
       -b^2 / a among those with b = Gmax + y_t G_t > 0, where
       a = QD_i + QD_t - y_t (2 y_i) Q_it (a <= 0 replaced by tau); -1 if none.
       *out_max2 receives the maximum of y_t G_t over I_low (-INFINITY if empty) and
       *out_min the minimal gain. Q_i NULL (no i) only finds the maximum. */
    #define SVMX_WSS_SECOND(V, W, U) \\
        SVMX_SCAN_TYPES(V, W) \\
        typedef float FV __attribute__((vector_size(4 * (W)))); \\
        IV lane, max_index = (IV){0} - 1, min_index = (IV){0} - 1; \\
        V max_value = (V){0.0} - INFINITY, min_value = (V){0.0} + INFINITY; \\
        double grad_diff, quad_coef, gain, value, found_max = -INFINITY; \\
        double found_min = INFINITY; \\
        int t = 0, j, index_max = -1, index_min = -1; \\
        for (j = 0; j < (W); j++) lane[j] = j; \\
        for (; Q_i != NULL && t + (W) <= n; t += (W)) { \\
            V g, qd; FV q32; \\
            memcpy(&g, G + t, sizeof g); \\
            memcpy(&qd, QD + t, sizeof qd); \\
            memcpy(&q32, Q_i + t, sizeof q32); \\
            SVMX_LANE_LABELS(W) \\
            const IV eligible = SVMX_IN_I_LOW; \\
            const V v = SVMX_BLEND(V, positive, g, -g); \\
            const IV take_max = eligible & (v >= max_value); \\
            SVMX_KEEP(V, take_max, v, max_value, max_index) \\
            const V diff = Gmax + v; \\
            const V product = two_y_i * __builtin_convertvector(q32, V); \\
            V quad = (QD_i + qd) - SVMX_BLEND(V, positive, product, -product); \\
            quad = SVMX_BLEND(V, quad <= 0.0, (V){0.0} + tau, quad); \\
            const V gains = -(diff * diff) / quad; \\
            const IV take_min = eligible & (diff > 0.0) & (gains <= min_value); \\
            SVMX_KEEP(V, take_min, gains, min_value, min_index) \\
        } \\
        SVMX_MERGE_LANES(W, max_value, max_index, 1, found_max, index_max) \\
        SVMX_MERGE_LANES(W, min_value, min_index, 0, found_min, index_min) \\
        for (; t < n; t++) { \\
            if (y[t] == 1) { \\
                if (status[t] == SVMX_LOWER_BOUND) continue; \\
                value = G[t]; \\
            } else { \\
                if (status[t] == SVMX_UPPER_BOUND) continue; \\
                value = -G[t]; \\
            } \\
            if (value >= found_max) { found_max = value; index_max = t; } \\
            grad_diff = Gmax + value; \\
            if (grad_diff > 0) { \\
                quad_coef = y[t] == 1 ? (QD_i + QD[t]) - two_y_i * Q_i[t] \\
                                      : (QD_i + QD[t]) + two_y_i * Q_i[t]; \\
                if (quad_coef <= 0) quad_coef = tau; \\
                gain = -(grad_diff * grad_diff) / quad_coef; \\
                if (gain <= found_min) { found_min = gain; index_min = t; } \\
            } \\
        } \\
        *out_max2 = found_max; \\
        *out_min = found_min; \\
        return index_min;

    /* Solver_NU's i candidates: per label, the last t maximising -y_t G_t over I_up
       (ip among y = +1, in among y = -1; -1 where the group has none). */
    #define SVMX_WSS_FIRST_NU(V, W, U) \\
        SVMX_SCAN_TYPES(V, W) \\
        IV lane, index_p = (IV){0} - 1, index_n = (IV){0} - 1; \\
        V best_p = (V){0.0} - INFINITY, best_n = (V){0.0} - INFINITY; \\
        double found_p = -INFINITY, found_n = -INFINITY; \\
        int t = 0, j, ip = -1, in = -1; \\
        for (j = 0; j < (W); j++) lane[j] = j; \\
        for (; t + (W) <= n; t += (W)) { \\
            V g; \\
            memcpy(&g, G + t, sizeof g); \\
            SVMX_LANE_LABELS(W) \\
            const IV take_p = positive & (st != SVMX_UPPER_BOUND) & (-g >= best_p); \\
            const IV take_n = ~positive & (st != SVMX_LOWER_BOUND) & (g >= best_n); \\
            SVMX_KEEP(V, take_p, -g, best_p, index_p) \\
            SVMX_KEEP(V, take_n, g, best_n, index_n) \\
        } \\
        SVMX_MERGE_LANES(W, best_p, index_p, 1, found_p, ip) \\
        SVMX_MERGE_LANES(W, best_n, index_n, 1, found_n, in) \\
        for (; t < n; t++) { \\
            if (y[t] == 1) { \\
                if (status[t] != SVMX_UPPER_BOUND && -G[t] >= found_p) { \\
                    found_p = -G[t]; ip = t; \\
                } \\
            } else if (status[t] != SVMX_LOWER_BOUND && G[t] >= found_n) { \\
                found_n = G[t]; in = t; \\
            } \\
        } \\
        *out_max_p = found_p; \\
        *out_max_n = found_n; \\
        *out_in = in; \\
        return ip;

    /* Solver_NU's j: over I_low, the last t minimising -b^2 / a among those with
       b = Gmax_g + y_t G_t > 0, a = QD_g + QD_t - 2 Q_gt (a <= 0 replaced by tau),
       g the i candidate of t's label (ip for y_t = +1 with column Q_p, in for -1 with
       Q_n; a NULL column is a group without candidate). *out_max_p2 and *out_max_n2
       receive the maxima of y_t G_t over I_low per label, *out_min the gain. */
    #define SVMX_WSS_SECOND_NU(V, W, U) \\
        SVMX_SCAN_TYPES(V, W) \\
        typedef float FV __attribute__((vector_size(4 * (W)))); \\
        IV lane, index_p2 = (IV){0} - 1, index_n2 = (IV){0} - 1, min_index = (IV){0} - 1; \\
        V max_p2 = (V){0.0} - INFINITY, max_n2 = (V){0.0} - INFINITY; \\
        V min_value = (V){0.0} + INFINITY; \\
        double grad_diff, quad_coef, gain, found_p2 = -INFINITY, found_n2 = -INFINITY; \\
        double found_min = INFINITY; \\
        int t = 0, j, ip2 = -1, in2 = -1, index_min = -1; \\
        const float* column_p = Q_p != NULL ? Q_p : Q_n; \\
        const float* column_n = Q_n != NULL ? Q_n : Q_p; \\
        for (j = 0; j < (W); j++) lane[j] = j; \\
        for (; column_p != NULL && t + (W) <= n; t += (W)) { \\
            V g, qd; FV qp32, qn32; \\
            memcpy(&g, G + t, sizeof g); \\
            memcpy(&qd, QD + t, sizeof qd); \\
            memcpy(&qp32, column_p + t, sizeof qp32); \\
            memcpy(&qn32, column_n + t, sizeof qn32); \\
            SVMX_LANE_LABELS(W) \\
            const IV eligible = SVMX_IN_I_LOW; \\
            const V v = SVMX_BLEND(V, positive, g, -g); \\
            const IV take_p2 = eligible & positive & (v >= max_p2); \\
            const IV take_n2 = eligible & ~positive & (v >= max_n2); \\
            SVMX_KEEP(V, take_p2, v, max_p2, index_p2) \\
            SVMX_KEEP(V, take_n2, v, max_n2, index_n2) \\
            const V diff = SVMX_BLEND(V, positive, (V){0.0} + Gmax_p, (V){0.0} + Gmax_n) + v; \\
            const V q = SVMX_BLEND(V, positive, __builtin_convertvector(qp32, V), \\
                                   __builtin_convertvector(qn32, V)); \\
            const V qd_g = SVMX_BLEND(V, positive, (V){0.0} + QD_p, (V){0.0} + QD_n); \\
            V quad = (qd_g + qd) - 2.0 * q; \\
            quad = SVMX_BLEND(V, quad <= 0.0, (V){0.0} + tau, quad); \\
            const V gains = -(diff * diff) / quad; \\
            const IV take_min = eligible & (diff > 0.0) & (gains <= min_value); \\
            SVMX_KEEP(V, take_min, gains, min_value, min_index) \\
        } \\
        SVMX_MERGE_LANES(W, max_p2, index_p2, 1, found_p2, ip2) \\
        SVMX_MERGE_LANES(W, max_n2, index_n2, 1, found_n2, in2) \\
        SVMX_MERGE_LANES(W, min_value, min_index, 0, found_min, index_min) \\
        for (; t < n; t++) { \\
            if (y[t] == 1) { \\
                if (status[t] == SVMX_LOWER_BOUND) continue; \\
                grad_diff = Gmax_p + G[t]; \\
                if (G[t] >= found_p2) found_p2 = G[t]; \\
                if (!(grad_diff > 0)) continue; \\
                quad_coef = (QD_p + QD[t]) - 2.0 * Q_p[t]; \\
            } else { \\
                if (status[t] == SVMX_UPPER_BOUND) continue; \\
                grad_diff = Gmax_n - G[t]; \\
                if (-G[t] >= found_n2) found_n2 = -G[t]; \\
                if (!(grad_diff > 0)) continue; \\
                quad_coef = (QD_n + QD[t]) - 2.0 * Q_n[t]; \\
            } \\
            if (quad_coef <= 0) quad_coef = tau; \\
            gain = -(grad_diff * grad_diff) / quad_coef; \\
            if (gain <= found_min) { found_min = gain; index_min = t; } \\
        } \\
        (void)ip2; (void)in2; \\
        *out_max_p2 = found_p2; \\
        *out_max_n2 = found_n2; \\
        *out_min = found_min; \\
        return index_min;

    /* The W-wide bodies above need no unroll factor: each lane already keeps its
       own chain. */
    #if SVMX_MULTI_ISA
    #define SVMX_SCAN_VERSIONS(ret, name, params, args, BODY) \\
        SVMX_TARGET_V4 SVMX_UNUSED static ret name##_v4 params { BODY(svmx_f64x8, 8, 1) } \\
        SVMX_TARGET_V3 SVMX_UNUSED static ret name##_v3 params { BODY(svmx_f64x4, 4, 1) } \\
        SVMX_UNUSED static ret name##_v1 params { BODY(svmx_f64x2, 2, 1) } \\
        SVMX_UNUSED static ret name params { \\
            const int level = svmx_isa_level(); \\
            if (level >= SVMX_ISA_AVX512) return name##_v4 args; \\
            if (level >= SVMX_ISA_AVX2) return name##_v3 args; \\
            return name##_v1 args; \\
        }
    #else
    #define SVMX_SCAN_VERSIONS(ret, name, params, args, BODY) \\
        SVMX_UNUSED static ret name params { BODY(svmx_f64x2, 2, 1) }
    #endif

    SVMX_SCAN_VERSIONS(int, svmx_wss_first,
        (int n, const signed char* y, const signed char* status, const double* G,
         double* out_max),
        (n, y, status, G, out_max), SVMX_WSS_FIRST)
    SVMX_SCAN_VERSIONS(int, svmx_wss_second,
        (int n, const signed char* y, const signed char* status, const double* G,
         const float* Q_i, const double* QD, double QD_i, double two_y_i, double Gmax,
         double tau, double* out_max2, double* out_min),
        (n, y, status, G, Q_i, QD, QD_i, two_y_i, Gmax, tau, out_max2, out_min),
        SVMX_WSS_SECOND)

    SVMX_SCAN_VERSIONS(int, svmx_wss_first_nu,
        (int n, const signed char* y, const signed char* status, const double* G,
         double* out_max_p, double* out_max_n, int* out_in),
        (n, y, status, G, out_max_p, out_max_n, out_in), SVMX_WSS_FIRST_NU)
    SVMX_SCAN_VERSIONS(int, svmx_wss_second_nu,
        (int n, const signed char* y, const signed char* status, const double* G,
         const float* Q_p, const float* Q_n, const double* QD, double QD_p, double QD_n,
         double Gmax_p, double Gmax_n, double tau, double* out_max_p2, double* out_max_n2,
         double* out_min),
        (n, y, status, G, Q_p, Q_n, QD, QD_p, QD_n, Gmax_p, Gmax_n, tau, out_max_p2,
         out_max_n2, out_min),
        SVMX_WSS_SECOND_NU)
    /* out[k] += scale * column[k] for k < n (the products in float64, never fused). */
    SVMX_MULTIVERSION_VOID(svmx_add_scaled_column,
        (int n, double* out, double scale, const float* column),
        (n, out, scale, column),
        int k;
        for (k = 0; k < n; k++) out[k] += scale * (double)column[k];
    )
    /* G[k] += Q_i[k] * delta_i + Q_j[k] * delta_j for k < n: LIBSVM's gradient update
       after a pair moved (the two products added first, never fused). */
    SVMX_MULTIVERSION_VOID(svmx_add_two_columns,
        (int n, double* G, const float* Q_i, double delta_i, const float* Q_j,
         double delta_j),
        (n, G, Q_i, delta_i, Q_j, delta_j),
        int k;
        for (k = 0; k < n; k++) G[k] += (double)Q_i[k] * delta_i + (double)Q_j[k] * delta_j;
    )
    #pragma GCC pop_options
    """
    int wss_first "svmx_wss_first"(int n, const signed char* y, const signed char* status,
                                   const double* G, double* out_max) noexcept nogil
    int wss_second "svmx_wss_second"(int n, const signed char* y, const signed char* status,
                                     const double* G, const float* Q_i, const double* QD,
                                     double QD_i, double two_y_i, double Gmax, double tau,
                                     double* out_max2, double* out_min) noexcept nogil
    int wss_first_nu "svmx_wss_first_nu"(int n, const signed char* y,
                                         const signed char* status, const double* G,
                                         double* out_max_p, double* out_max_n,
                                         int* out_in) noexcept nogil
    int wss_second_nu "svmx_wss_second_nu"(
        int n, const signed char* y, const signed char* status, const double* G,
        const float* Q_p, const float* Q_n, const double* QD, double QD_p, double QD_n,
        double Gmax_p, double Gmax_n, double tau, double* out_max_p2, double* out_max_n2,
        double* out_min) noexcept nogil
    void add_scaled_column "svmx_add_scaled_column"(int n, double* out, double scale,
                                                    const float* column) noexcept nogil
    void add_two_columns "svmx_add_two_columns"(int n, double* G, const float* Q_i,
                                                double delta_i, const float* Q_j,
                                                double delta_j) noexcept nogil
