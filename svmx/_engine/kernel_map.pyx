# cython: language_level=3, cdivision=True
"""Kernel values from dot products: one value, rows of a block, a whole matrix."""

from cython.parallel cimport prange
from scipy.linalg.cython_blas cimport dgemm

from svmx._engine.isa cimport isa_level
from svmx._engine.fastmath cimport exp_double

cdef enum:
    # Rows per OpenMP task in block maps: large enough to amortise scheduling,
    # small enough to rebalance when another process takes a core.
    ROWS_PER_TASK = 256


cdef double kernel_from_dot(const KernelParams* params, double dot,
                            double sq_norm_a, double sq_norm_b) noexcept nogil:
    """The kernel value of two rows given their dot product and squared norms."""
    if params.kernel_type == RBF:
        # One value, as LIBSVM computes it: the distance is not clipped at 0 (the
        # diagonal of a Q matrix comes from here).
        return exp_double(-params.gamma * (sq_norm_a + sq_norm_b - 2.0 * dot))
    map_kernel_values(params, &dot, 1, 0.0, NULL)
    return dot


cdef void map_block_rows(const KernelParams* params, float* dots, Py_ssize_t n_rows,
                         Py_ssize_t ld, int n_block, const double* row_sq_norms,
                         const double* block_sq_norms, int n_threads) noexcept nogil:
    """Turn float32 dot products dots[t * ld + b] (b < n_block) into kernel values.

    Rows are shared among `n_threads` OpenMP threads; the RBF map uses the
    vectorised `exp_float`, which keeps a block's map cheap next to its
    matrix product.
    """
    cdef Py_ssize_t t
    if not maps_dot_products(params) or n_block == 0:
        return
    for t in prange(n_rows, schedule="dynamic", chunksize=ROWS_PER_TASK,
                    num_threads=n_threads):
        map_kernel_values32(params, dots + t * ld, n_block, row_sq_norms[t], block_sq_norms)


cdef void map_dot_products(const KernelParams* params, double[:, ::1] dots,
                           const double[::1] X_sq_norms,
                           const double[::1] Y_sq_norms) noexcept nogil:
    """Turn dot products dots[a, b] = X[a] . Y[b] into kernel values in place.

    Squared norms are only read for the RBF kernel.
    """
    cdef Py_ssize_t a
    cdef bint needs_norms = params.kernel_type == RBF
    if not maps_dot_products(params) or dots.shape[1] == 0:
        return
    for a in range(dots.shape[0]):
        map_kernel_values(params, &dots[a, 0], dots.shape[1],
                          X_sq_norms[a] if needs_norms else 0.0,
                          &Y_sq_norms[0] if needs_norms else NULL)


cdef int kernel_block(const KernelParams* params,
                      const double[:, ::1] X, const double[::1] X_sq_norms,
                      const double[:, ::1] Y, const double[::1] Y_sq_norms,
                      double[:, ::1] out) noexcept nogil:
    """out[a, b] = K(X[a], Y[b]) with one GEMM and the kernel's elementwise map.

    Squared norms are only read for the RBF kernel. Returns 0, or -1 (nothing written)
    where the shapes do not agree: X and Y of one width, out of shape (len(X), len(Y)),
    and for RBF one squared norm per row.
    """
    cdef int n_x = <int> X.shape[0], n_y = <int> Y.shape[0]
    cdef int n_features = <int> X.shape[1]
    cdef double alpha = 1.0, beta = 0.0
    cdef char trans_t = b"T", trans_n = b"N"
    if (Y.shape[1] != X.shape[1] or out.shape[0] != X.shape[0] or out.shape[1] != Y.shape[0]
            or params.kernel_type == RBF and (X_sq_norms.shape[0] != X.shape[0]
                                              or Y_sq_norms.shape[0] != Y.shape[0])):
        return -1
    if n_x == 0 or n_y == 0:
        return 0
    if n_features == 0:
        out[:, :] = 0.0
    else:
        # Row-major out (n_x, n_y) is column-major (n_y, n_x) = Y X^T.
        dgemm(&trans_t, &trans_n, &n_y, &n_x, &n_features, &alpha,
              <double*> &Y[0, 0], &n_features, <double*> &X[0, 0], &n_features,
              &beta, &out[0, 0], &n_y)
    map_dot_products(params, out, X_sq_norms, Y_sq_norms)
    return 0


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
