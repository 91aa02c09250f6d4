# Instruction-set dispatch for the hand-vectorised loops (fastmath.pxd, dotmath.pxd).
#
# Each loop is compiled three times on GCC for x86-64 Linux: for x86-64-v4
# (AVX-512), x86-64-v3 (AVX2 + FMA) and the x86-64 baseline (SSE2); a call runs
# the widest version this CPU has, or a narrower one when the environment
# variable SVMX_ISA caps it ("sse2", "avx2", "avx512"). Each module keeps the
# level it read in its own static; every module of svmx calls isa_level() at its
# import, so all of them read SVMX_ISA at `import svmx` and agree. Elsewhere
# (other compilers, aarch64) a loop is compiled once, for the build's target.
# The cap lets one machine run and benchmark every path (tests/test_isa_paths.py,
# benchmarks/run.py --isa).
#
# SVMX_MULTIVERSION(return type, name, (parameters), (arguments), body...) defines
# name##_v4, name##_v3 and name##_v1 and the dispatching function `name`;
# SVMX_MULTIVERSION_VOID is the same for a function returning nothing. A body is
# macro text: pragmas in it are written _Pragma("omp simd"). Helpers a body calls
# are `SVMX_INLINE` (always inlined), so they compile for the caller's ISA.

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #define SVMX_ISA_BASELINE 1
    #define SVMX_ISA_AVX2 3
    #define SVMX_ISA_AVX512 4
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
    #define SVMX_MULTI_ISA 1
    #else
    #define SVMX_MULTI_ISA 0
    #endif
    #if defined(__GNUC__)
    #define SVMX_INLINE static inline __attribute__((always_inline))
    #define SVMX_UNUSED __attribute__((unused))
    #else
    #define SVMX_INLINE static inline
    #define SVMX_UNUSED
    #endif

    /* The level a SVMX_ISA value names: 0 when unset or empty, -1 when unknown. */
    SVMX_UNUSED static int svmx_isa_parse(const char* text) {
        char lower[16];
        size_t i;
        if (text == NULL || text[0] == '\\0') return 0;
        for (i = 0; text[i] != '\\0'; i++) {
            if (i + 1 >= sizeof lower) return -1;
            lower[i] = (text[i] >= 'A' && text[i] <= 'Z') ? (char)(text[i] + 32) : text[i];
        }
        lower[i] = '\\0';
        if (!strcmp(lower, "sse2") || !strcmp(lower, "x86-64") || !strcmp(lower, "baseline"))
            return SVMX_ISA_BASELINE;
        if (!strcmp(lower, "avx2") || !strcmp(lower, "x86-64-v3")) return SVMX_ISA_AVX2;
        if (!strcmp(lower, "avx512") || !strcmp(lower, "x86-64-v4")) return SVMX_ISA_AVX512;
        return -1;
    }

    /* The widest level this CPU runs (the baseline off x86-64 or without GCC). */
    SVMX_UNUSED static int svmx_isa_machine(void) {
    #if SVMX_MULTI_ISA
        __builtin_cpu_init();
        if (__builtin_cpu_supports("x86-64-v4")) return SVMX_ISA_AVX512;
        if (__builtin_cpu_supports("x86-64-v3")) return SVMX_ISA_AVX2;
    #endif
        return SVMX_ISA_BASELINE;
    }

    /* The level the loops run at: the machine's, capped by SVMX_ISA (an unknown
       value caps nothing here; importing svmx rejects it with a ValueError). */
    SVMX_UNUSED static int svmx_isa_level(void) {
        static int cached = 0;
        int level = __atomic_load_n(&cached, __ATOMIC_RELAXED);
        if (level == 0) {
            int cap = svmx_isa_parse(getenv("SVMX_ISA"));
            level = svmx_isa_machine();
            if (cap > 0 && cap < level) level = cap;
            __atomic_store_n(&cached, level, __ATOMIC_RELAXED);
        }
        return level;
    }

    #if SVMX_MULTI_ISA
    #define SVMX_TARGET_V4 __attribute__((target("arch=x86-64-v4")))
    #define SVMX_TARGET_V3 __attribute__((target("arch=x86-64-v3")))
    #define SVMX_MULTIVERSION(ret, name, params, args, ...) \\
        SVMX_TARGET_V4 SVMX_UNUSED static ret name##_v4 params { __VA_ARGS__ } \\
        SVMX_TARGET_V3 SVMX_UNUSED static ret name##_v3 params { __VA_ARGS__ } \\
        SVMX_UNUSED static ret name##_v1 params { __VA_ARGS__ } \\
        SVMX_UNUSED static ret name params { \\
            const int level = svmx_isa_level(); \\
            if (level >= SVMX_ISA_AVX512) return name##_v4 args; \\
            if (level >= SVMX_ISA_AVX2) return name##_v3 args; \\
            return name##_v1 args; \\
        }
    #define SVMX_MULTIVERSION_VOID(name, params, args, ...) \\
        SVMX_TARGET_V4 SVMX_UNUSED static void name##_v4 params { __VA_ARGS__ } \\
        SVMX_TARGET_V3 SVMX_UNUSED static void name##_v3 params { __VA_ARGS__ } \\
        SVMX_UNUSED static void name##_v1 params { __VA_ARGS__ } \\
        SVMX_UNUSED static void name params { \\
            const int level = svmx_isa_level(); \\
            if (level >= SVMX_ISA_AVX512) name##_v4 args; \\
            else if (level >= SVMX_ISA_AVX2) name##_v3 args; \\
            else name##_v1 args; \\
        }
    /* The same for a body written over vectors of any width: BODY(V, W, U) is a
       function-like macro of the vector type V (W doubles) and an unroll factor U;
       each level gets its own register width and unroll (U4, U3, U1), so a loop
       written over 8-double vectors is not split by the compiler on AVX2 or SSE2. */
    #define SVMX_MULTIVERSION_WIDTHS(name, params, args, BODY, U4, U3, U1) \\
        SVMX_TARGET_V4 SVMX_UNUSED static void name##_v4 params \\
            { BODY(svmx_f64x8, 8, U4) } \\
        SVMX_TARGET_V3 SVMX_UNUSED static void name##_v3 params \\
            { BODY(svmx_f64x4, 4, U3) } \\
        SVMX_UNUSED static void name##_v1 params { BODY(svmx_f64x2, 2, U1) } \\
        SVMX_UNUSED static void name params { \\
            const int level = svmx_isa_level(); \\
            if (level >= SVMX_ISA_AVX512) name##_v4 args; \\
            else if (level >= SVMX_ISA_AVX2) name##_v3 args; \\
            else name##_v1 args; \\
        }
    #else
    #define SVMX_MULTIVERSION(ret, name, params, args, ...) \\
        SVMX_UNUSED static ret name params { __VA_ARGS__ }
    #define SVMX_MULTIVERSION_VOID(name, params, args, ...) \\
        SVMX_UNUSED static void name params { __VA_ARGS__ }
    #define SVMX_MULTIVERSION_WIDTHS(name, params, args, BODY, U4, U3, U1) \\
        SVMX_UNUSED static void name params { BODY(svmx_f64x2, 2, U1) }
    #endif

    #if defined(__GNUC__)
    /* GCC vector types of 2, 4 and 8 doubles, and the same at any double's
       alignment (the _u types) for loads straight from memory. */
    typedef double svmx_f64x2 __attribute__((vector_size(16)));
    typedef double svmx_f64x4 __attribute__((vector_size(32)));
    typedef double svmx_f64x8 __attribute__((vector_size(64)));
    typedef double svmx_f64x2_u __attribute__((vector_size(16), aligned(8), may_alias));
    typedef double svmx_f64x4_u __attribute__((vector_size(32), aligned(8), may_alias));
    typedef double svmx_f64x8_u __attribute__((vector_size(64), aligned(8), may_alias));
    #define SVMX_LOAD(V, p) (*(const V##_u*)(p))
    /* A store of vector v to p, as SVMX_LOAD reads: in registers, where a memcpy of an
       element of an array of vectors kept the array on the stack. */
    #define SVMX_STORE(V, p, v) (*(V##_u*)(p) = (v))
    /* 64-bit integer lanes of the same widths; SVMX_I64(W) names the one of W lanes. */
    typedef long long svmx_i64x2 __attribute__((vector_size(16)));
    typedef long long svmx_i64x4 __attribute__((vector_size(32)));
    typedef long long svmx_i64x8 __attribute__((vector_size(64)));
    #define SVMX_I64(W) svmx_i64x##W
    /* SVMX_MAX(W, a, b): elementwise max of vectors of W doubles, as x86's maxpd (a > b ?
       a : b, so b where either is NaN). SVMX_LOAD_FIRST(W, p, k): the first k doubles
       from p (k clipped to [0, W]) in a vector of W, zeros after them, nothing past them
       read. One instruction each with AVX2 and AVX-512; a compare and a select, and
       element loads, for two lanes elsewhere. */
    #if defined(__x86_64__)
    #include <immintrin.h>
    #define SVMX_MAX_8(a, b) ((svmx_f64x8)_mm512_max_pd((__m512d)(a), (__m512d)(b)))
    #define SVMX_MAX_4(a, b) ((svmx_f64x4)_mm256_max_pd((__m256d)(a), (__m256d)(b)))
    #define SVMX_MAX_2(a, b) ((svmx_f64x2)_mm_max_pd((__m128d)(a), (__m128d)(b)))
    #define SVMX_LOAD_FIRST_8(p, k) ((svmx_f64x8)_mm512_maskz_loadu_pd( \\
        (__mmask8)((k) >= 8 ? 0xFF : (k) <= 0 ? 0 : (1u << (k)) - 1u), (p)))
    #define SVMX_LOAD_FIRST_4(p, k) ((svmx_f64x4)_mm256_maskload_pd((p), \\
        _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(k)), _mm256_setr_epi64x(0, 1, 2, 3))))
    #else
    #define SVMX_MAX_2(a, b) __extension__ ({ \\
        const svmx_f64x2 max_a_ = (a), max_b_ = (b); \\
        const svmx_i64x2 take_a_ = (svmx_i64x2)(max_a_ > max_b_); \\
        (svmx_f64x2)(((svmx_i64x2)max_a_ & take_a_) | ((svmx_i64x2)max_b_ & ~take_a_)); })
    #endif
    #define SVMX_LOAD_FIRST_2(p, k) \\
        ((svmx_f64x2){(k) > 0 ? (p)[0] : 0.0, (k) > 1 ? (p)[1] : 0.0})
    #define SVMX_MAX(W, a, b) SVMX_MAX_##W(a, b)
    #define SVMX_LOAD_FIRST(W, p, k) SVMX_LOAD_FIRST_##W(p, k)
    #endif
    """
    int isa_level "svmx_isa_level"() noexcept nogil
    int isa_machine "svmx_isa_machine"() noexcept nogil
    int isa_parse "svmx_isa_parse"(const char* text) noexcept nogil
    int MULTI_ISA "SVMX_MULTI_ISA"
