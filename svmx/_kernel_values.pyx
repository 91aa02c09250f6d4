# cython: language_level=3, cdivision=True
"""Kernel values for the Python side of svmx: K(X, Y) and squared norms.

Part of the binding (`svmx._libsvm` re-exports these): dense float64 blocks
take one GEMM and the engine's kernel map without the GIL; sparse ones form
their dot products with scipy.sparse first.
"""

import numpy as np
import scipy.sparse as sp

cimport cython
from cython cimport floating

from scipy.linalg.cython_blas cimport dsyrk

from svmx._engine.isa cimport isa_level
from svmx._engine.kernel_map cimport (
    KernelParams,
    kernel_block,
    kernel_params_of,
    map_dot_products,
    map_kernel_values,
    maps_dot_products,
)

__all__ = ["DENSE_ENOUGH", "dense_if_dense_enough", "kernel_matrix", "mirror_upper",
           "squared_norms", "symmetric_kernel_matrix"]


def squared_norms(X):
    """Squared Euclidean norm of each row of a dense or CSR matrix, as float64.

    Examples
    --------
    >>> squared_norms(np.array([[3.0, 4.0]])).tolist()
    [25.0]
    """
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1), dtype=np.float64).ravel()
    X = np.asarray(X)
    return np.einsum("ij,ij->i", X, X, dtype=np.float64)


# The side of the square tiles `mirror_upper` copies (16 measured faster than 8, 32 and
# 64 on a 1,000-row matrix: 0.34 ms against 0.41-0.50 ms).
cdef Py_ssize_t MIRROR_TILE = 16


def mirror_upper(floating[:, :] square):
    """Copy the upper triangle of a square float64 or float32 matrix (any strides: a
    diagonal block of a larger one too) onto its lower one, in place, and return it: K
    is then exactly symmetric, as the matrix products it comes from need not be. Tile by
    tile (a strided copy of the whole misses the cache on every row); compiled, where
    numpy's tiles took 0.74 ms of a 1,000-row Gram matrix's 1.9 ms (0.34 ms here).

    Examples
    --------
    >>> mirror_upper(np.array([[1.0, 2.0], [3.0, 4.0]])).tolist()
    [[1.0, 2.0], [2.0, 4.0]]
    """
    if square.shape[0] != square.shape[1]:
        raise ValueError(f"square must be a square matrix; got shape "
                         f"({square.shape[0]}, {square.shape[1]})")
    with nogil:
        copy_upper_to_lower(square)
    return np.asarray(square)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void copy_upper_to_lower(floating[:, :] square) noexcept nogil:
    cdef Py_ssize_t n = square.shape[0], top = 0, left, i, j
    while top < n:
        left = top
        while left < n:
            for i in range(top, min(top + MIRROR_TILE, n)):
                for j in range(max(left, i + 1), min(left + MIRROR_TILE, n)):
                    square[j, i] = square[i, j]
            left += MIRROR_TILE
        top += MIRROR_TILE


# Above this fraction of stored entries a sparse block is faster through a dense GEMM.
DENSE_ENOUGH = 0.05


def dense_if_dense_enough(M):
    """M as a dense array when it is not sparse enough to gain from sparse products.

    Examples
    --------
    >>> dense_if_dense_enough(sp.csr_matrix(np.eye(2))).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    if not sp.issparse(M):
        return np.asarray(M)
    if M.nnz > DENSE_ENOUGH * M.shape[0] * M.shape[1]:
        return M.toarray()
    return M


def kernel_matrix(X, Y, kernel, *, X_sq_norms=None, Y_sq_norms=None):
    """K(X, Y) of shape (len(X), len(Y)) for dense or CSR X and Y; `kernel` a KernelSpec.

    Dense float64 inputs take one GEMM plus the kernel's map, without the GIL;
    other inputs form their dot products with numpy / scipy.sparse first.
    Precomputed squared norms may be passed to save recomputing them.

    Examples
    --------
    >>> from svmx._specs import KernelSpec
    >>> K = kernel_matrix(np.eye(2), np.eye(2), KernelSpec.named("linear"))
    >>> K.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    cdef KernelParams params = kernel_params_of(kernel)
    cdef double[:, ::1] out
    cdef const double[:, ::1] X_view
    cdef const double[:, ::1] Y_view
    cdef const double[::1] x_norms
    cdef const double[::1] y_norms
    X = dense_if_dense_enough(X)
    Y = dense_if_dense_enough(Y)
    if X.ndim != 2 or Y.ndim != 2:
        raise ValueError(f"kernel_matrix needs 2-D inputs; got {X.ndim}-D and {Y.ndim}-D")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features, but the support vectors have {Y.shape[1]}"
        )
    x_norms = squared_norms(X) if X_sq_norms is None else X_sq_norms
    y_norms = squared_norms(Y) if Y_sq_norms is None else Y_sq_norms
    if sp.issparse(X) or sp.issparse(Y):
        dots = X @ Y.T
        dots = dots.toarray() if sp.issparse(dots) else np.asarray(dots)
        out = np.ascontiguousarray(dots, dtype=np.float64)
        with nogil:
            map_dot_products(&params, out, x_norms, y_norms)
        return np.asarray(out)
    X_view = np.ascontiguousarray(X, dtype=np.float64)
    Y_view = np.ascontiguousarray(Y, dtype=np.float64)
    out = np.empty((X_view.shape[0], Y_view.shape[0]), dtype=np.float64)
    with nogil:
        kernel_block(&params, X_view, x_norms, Y_view, y_norms, out)
    return np.asarray(out)


def symmetric_kernel_matrix(X, kernel, *, X_sq_norms=None):
    """K(X, X) for dense or CSR X, exactly symmetric: the dot products of the upper
    triangle (dense: one DSYRK, half a GEMM's multiply-adds; CSR: X X^T), the kernel's
    map on that triangle alone (half the exponentials of `kernel_matrix`'s RBF), then
    `mirror_upper`.

    Examples
    --------
    >>> from svmx._specs import KernelSpec
    >>> K = symmetric_kernel_matrix(np.array([[0.0], [1.0]]), KernelSpec.named("rbf", gamma=1.0))
    >>> np.round(K, 4).tolist()
    [[1.0, 0.3679], [0.3679, 1.0]]
    """
    cdef KernelParams params = kernel_params_of(kernel)
    cdef bint dense = not sp.issparse(X)
    if dense:
        X = np.ascontiguousarray(X, dtype=np.float64)
    cdef const double[:, ::1] data = X if dense else None
    cdef Py_ssize_t m = X.shape[0], a
    cdef const double[::1] norms = squared_norms(X) if X_sq_norms is None else X_sq_norms
    cdef int n = <int> m, k = <int> X.shape[1], ld = <int> max(X.shape[1], 1)
    cdef int ld_out = <int> max(m, 1)
    cdef double one = 1.0, zero = 0.0
    cdef char lower = b"L", transposed = b"T"
    if norms.shape[0] != m:
        raise ValueError(f"X_sq_norms must have one norm per row of X ({m}); "
                         f"got {norms.shape[0]}")
    if dense:
        result = np.zeros((m, m), dtype=np.float64)
    else:
        result = np.ascontiguousarray((X @ X.T).toarray(), dtype=np.float64)
    cdef double[:, ::1] out = result
    cdef double[:, :] square = result
    if m == 0:
        return result
    with nogil:
        if k > 0 and dense:  # column-major, X is (k x m): the lower triangle
            dsyrk(&lower, &transposed, &n, &k, &one, <double*> &data[0, 0], &ld, &zero,
                  &out[0, 0], &ld_out)  # of X X^T there is the upper one here
        if maps_dot_products(&params):
            for a in range(m):
                map_kernel_values(&params, &out[a, a], m - a, norms[a], &norms[a])
        copy_upper_to_lower(square)
    return result


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
