# cython: language_level=3, cdivision=True
"""The steps of `svmx._free_set_newton` once the free block is factorised, compiled.

Each step costs a few passes over the free block and its inverse (symmetric
matrix-vector products and a rank-one downdate, through scipy's BLAS); in Python the
dozens of small vector operations around them cost more than the products.
"""

import numpy as np

from scipy.linalg.cython_blas cimport dsymv, dsyr

__all__ = ["newton_walk"]


cdef inline void add_symmetric_times(int n, const double* matrix, const double* x,
                                     double beta, double* out) noexcept nogil:
    """out = matrix x + beta out, `matrix` symmetric, read from its lower triangle
    (column-major, leading dimension n)."""
    cdef char lower = b"L"
    cdef int one = 1
    cdef double alpha = 1.0
    dsymv(&lower, &n, &alpha, <double*> matrix, &n, <double*> x, &one, &beta, out, &one)


cdef long walk(int n, double* inverse, const double* block, double* g, double* y,
               double* present, const double* limit, unsigned char* active,
               double* solved_g, double* solved_y, double* direction, double* delta,
               long max_steps) noexcept nogil:
    cdef long step = 0
    cdef int k, i, blocking, n_active = n, one = 1
    cdef double curvature_y, along, shift, slope, length, room, moved, scale
    cdef char lower = b"L"
    while step < max_steps:
        add_symmetric_times(n, inverse, g, 0.0, solved_g)
        add_symmetric_times(n, inverse, y, 0.0, solved_y)
        curvature_y = 0.0
        along = 0.0
        for k in range(n):
            curvature_y += y[k] * solved_y[k]
            along += y[k] * solved_g[k]
        if not curvature_y > 0:
            break
        # d = (y'M^-1 g / y'M^-1 y) M^-1 y - M^-1 g, then y'd = 0 made exact.
        shift = 0.0
        for k in range(n):
            direction[k] = (along / curvature_y) * solved_y[k] - solved_g[k] if active[k] \
                else 0.0
            shift += y[k] * direction[k]
        shift /= n_active
        slope = 0.0
        for k in range(n):
            if active[k]:
                direction[k] -= y[k] * shift
            slope += g[k] * direction[k]
        if not slope < 0:  # no descent left (rounding at the optimum)
            break
        # Along d up to 1, or to where the first variable reaches its bound.
        length = 1.0
        blocking = -1
        for k in range(n):
            if direction[k] > 0:
                room = (limit[k] - present[k]) / direction[k]
            elif direction[k] < 0:
                room = present[k] / -direction[k]
            else:
                continue
            if room < length:
                length = room
                blocking = k
        for k in range(n):
            moved = min(max(present[k] + length * direction[k], 0.0), limit[k])
            if k == blocking:  # lands on its bound exactly
                moved = limit[k] if direction[k] > 0 else 0.0
            delta[k] = moved - present[k]
            present[k] = moved
        add_symmetric_times(n, block, delta, 1.0, g)  # the gradient follows the step
        step += 1
        if blocking < 0 or n_active <= 2:
            break
        # The inverse less variable `blocking`: column k of the symmetric matrix (row k
        # left of the diagonal, then column k down), a rank-one downdate of the lower
        # triangle, then row and column k zeroed (in both triangles).
        for i in range(n):
            delta[i] = inverse[blocking + i * n] if i < blocking else inverse[i + blocking * n]
        scale = -1.0 / delta[blocking]
        dsyr(&lower, &n, &scale, delta, &one, inverse, &n)
        for i in range(n):
            inverse[blocking + i * n] = 0.0
            inverse[i + blocking * n] = 0.0
        active[blocking] = 0
        g[blocking] = y[blocking] = 0.0
        n_active -= 1
    return step


def newton_walk(double[::1, :] inverse, const double[::1, :] block, double[::1] g,
                double[::1] y, double[::1] present, const double[::1] limit,
                long max_steps):
    """Take up to `max_steps` Newton steps on the free variables; returns their number.

    `inverse` is the lower triangle (column-major) of the inverse of the regularised
    free block, `block` the free block itself (symmetric), `g` the gradient and `y` the
    labels of the free variables, `present` their values (moved in place) and `limit`
    their upper bounds. A variable that reaches its bound lands on it and leaves the
    free set (its row and column of `inverse`, and its `g` and `y`, become zero); the
    walk stops after a step that no bound blocks, or where no descent is left.
    `inverse`, `g` and `y` are overwritten.

    Examples
    --------
    min (a0^2 + a1^2) / 2 - a0 - 1.2 a1 subject to a0 + a1 = 0.6, from (0.3, 0.3):

    >>> present = np.array([0.3, 0.3])
    >>> newton_walk(np.eye(2, order="F"), np.eye(2, order="F"), np.array([-0.7, -0.9]),
    ...             np.ones(2), present, np.full(2, 10.0), 5)
    1
    >>> present.round(9).tolist()
    [0.2, 0.4]
    """
    cdef int n = present.shape[0]
    if not (inverse.shape[0] == inverse.shape[1] == block.shape[0] == block.shape[1]
            == g.shape[0] == y.shape[0] == limit.shape[0] == n):
        raise ValueError("newton_walk: inverse and block must be n x n and g, y, present "
                         f"and limit of length n = {n}")
    if n == 0:
        return 0
    cdef double[:, ::1] scratch = np.empty((4, n))
    cdef unsigned char[::1] active = np.ones(n, dtype=np.uint8)
    cdef long steps
    with nogil:
        steps = walk(n, &inverse[0, 0], &block[0, 0], &g[0], &y[0], &present[0], &limit[0],
                     &active[0], &scratch[0, 0], &scratch[1, 0], &scratch[2, 0],
                     &scratch[3, 0], max_steps)
    return steps
