# Kernel types, their parameters, and the elementwise map from dot products to kernel
# values.
#
# Every kernel map in the engine goes through `map_kernel_values` (float64 values) or
# `map_kernel_values32` (float32 block rows), so a kernel is defined in one place: the RBF
# kernel by the vectorised rows of fastmath.pxd, the polynomial and sigmoid kernels by
# gamma * dot + coef0 raised to `degree` or passed through tanh. Linear and precomputed
# kernels leave the values as they are.

from libc.math cimport tanh

from svmx._engine.fastmath cimport rbf_row, rbf_row_double


cdef enum KernelType:
    LINEAR = 0
    POLY = 1
    RBF = 2
    SIGMOID = 3
    PRECOMPUTED = 4


cdef struct KernelParams:
    int kernel_type
    int degree
    double gamma
    double coef0


cdef inline KernelParams kernel_params_of(object kernel):
    """The KernelParams of an object with ``kernel_type``, ``degree``, ``gamma`` and
    ``coef0`` (a ``svmx._specs.KernelSpec``)."""
    cdef KernelParams params
    params.kernel_type = kernel.kernel_type
    params.degree = kernel.degree
    params.gamma = kernel.gamma
    params.coef0 = kernel.coef0
    return params


cdef inline double power_int(double base, int exponent) noexcept nogil:
    """base ** exponent by repeated squaring (exponent >= 0)."""
    cdef double result = 1.0
    while exponent > 0:
        if exponent & 1:
            result *= base
        base *= base
        exponent >>= 1
    return result


cdef inline bint maps_dot_products(const KernelParams* params) noexcept nogil:
    """False for the kernels whose values are the dot products (linear, precomputed)."""
    cdef int kind = params.kernel_type
    return kind == RBF or kind == POLY or kind == SIGMOID


cdef inline void map_kernel_values(const KernelParams* params, double* values, Py_ssize_t n,
                                   double row_sq_norm,
                                   const double* other_sq_norms) noexcept nogil:
    """values[t] = x . y_t -> K(x, y_t) in place, for t < n.

    row_sq_norm is |x|^2 and other_sq_norms[t] is |y_t|^2; only the RBF kernel reads
    them (its distances are clipped at 0).
    """
    cdef Py_ssize_t t
    cdef int kind = params.kernel_type, degree = params.degree
    cdef double gamma = params.gamma, coef0 = params.coef0
    if kind == RBF:
        rbf_row_double(values, n, row_sq_norm, other_sq_norms, gamma)
    elif kind == POLY:
        for t in range(n):
            values[t] = power_int(gamma * values[t] + coef0, degree)
    elif kind == SIGMOID:
        for t in range(n):
            values[t] = tanh(gamma * values[t] + coef0)


cdef inline void map_kernel_values32(const KernelParams* params, float* values, int n,
                                     double row_sq_norm,
                                     const double* other_sq_norms) noexcept nogil:
    """The float32 version of `map_kernel_values`, for a row of a kernel block.

    RBF values come from the float32 `rbf_row`; the other kernels are evaluated in
    float64 from the float32 dot product and rounded back.
    """
    cdef int t
    cdef int kind = params.kernel_type, degree = params.degree
    cdef double gamma = params.gamma, coef0 = params.coef0
    if kind == RBF:
        rbf_row(values, n, <float> row_sq_norm, other_sq_norms, <float> gamma)
    elif kind == POLY:
        for t in range(n):
            values[t] = <float> power_int(gamma * values[t] + coef0, degree)
    elif kind == SIGMOID:
        for t in range(n):
            values[t] = <float> tanh(gamma * values[t] + coef0)


cdef double kernel_from_dot(const KernelParams* params, double dot,
                            double sq_norm_a, double sq_norm_b) noexcept nogil
cdef void map_block_rows(const KernelParams* params, float* dots, Py_ssize_t n_rows,
                         Py_ssize_t ld, int n_block, const double* row_sq_norms,
                         const double* block_sq_norms, int n_threads) noexcept nogil
cdef void map_dot_products(const KernelParams* params, double[:, ::1] dots,
                           const double[::1] X_sq_norms,
                           const double[::1] Y_sq_norms) noexcept nogil
cdef int kernel_block(const KernelParams* params,
                      const double[:, ::1] X, const double[::1] X_sq_norms,
                      const double[:, ::1] Y, const double[::1] Y_sq_norms,
                      double[:, ::1] out) noexcept nogil
