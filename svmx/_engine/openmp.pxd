# OpenMP helpers with a fallback for builds without OpenMP (setup.py defines
# SVMX_OPENMP_BUILD and compiles with the OpenMP flags only when the compiler has them).
# `cython.parallel.prange` itself runs serially in such builds.

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    static int svmx_openmp_max_threads(void) { return omp_get_max_threads(); }
    #else
    static int svmx_openmp_max_threads(void) { return 1; }
    #endif
    """
    int openmp_max_threads "svmx_openmp_max_threads"() noexcept nogil
