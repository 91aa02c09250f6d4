# cython: language_level=3, cdivision=True
"""The dense linear algebra of `svmx._free_set_newton`, compiled and single-threaded.

- `spd_inverse`: the inverse of the regularised free block (Cholesky, then the
  inverse of the factor, then its product), by 64 x 64 tiles: the tiles' products
  go to scipy's BLAS ``dgemm``, whose OpenBLAS runs a product of at most 64^3 terms
  on the calling thread, and the diagonal tiles' factorisations to small loops here;
- `free_gradient`: the free variables' gradient from the shared Gram matrix;
- `free_set_steps`: both, the free block, and the steps once the block is inverted
  (symmetric matrix-vector products and a rank-one downdate per variable that reaches
  its bound), in one call.

None of it starts a thread. OpenBLAS's threaded LAPACK and level-2 calls (dpotrf and
dpotri, dsymv, dsyr, dgemv of order 1,000) wait on a worker that a busy core does not
run, or that numpy's own OpenBLAS pool starves: measured with another process on one of
two cores, a 256 x 256 dpotrf + dpotri took 860 ms (median) against 1.5 ms on one
thread, and a grid search on svmguide1 spent 4.6 of its 6.1 s there.
"""

import numpy as np

cimport cython

from scipy.linalg.cython_blas cimport dgemm

from svmx._engine.isa cimport isa_level

__all__ = ["free_gradient", "free_set_steps", "spd_inverse"]

# Tiles of the blocked inverse: a product of two tiles is at most TILE^3 = 262,144
# multiply-adds, which OpenBLAS's dgemm runs on the calling thread.
cdef enum:
    TILE = 64

cdef extern from *:
    """
    #include <math.h>
    /* out = M x + beta out for M symmetric, read from its lower triangle (column-major,
       leading dimension n): column j adds M[j+1:, j] x_j below the diagonal and
       M[j+1:, j]'x[j+1:] to out_j. Compiled per instruction set (isa.pxd). */
    SVMX_MULTIVERSION_VOID(svmx_symv_lower,
        (int n, const double* m, const double* x, double beta, double* out),
        (n, m, x, beta, out),
        long long i, j, size = n;
        for (i = 0; i < size; i++) out[i] = beta == 0.0 ? 0.0 : beta * out[i];
        for (j = 0; j < size; j++) {
            const double* column = m + j * size + j + 1;
            const double* xs = x + j + 1;
            double* outs = out + j + 1;
            long long length = size - j - 1;
            double xj = x[j], s = m[j * size + j] * xj;
            _Pragma("omp simd reduction(+:s)")
            for (i = 0; i < length; i++) {
                outs[i] += column[i] * xj;
                s += column[i] * xs[i];
            }
            out[j] += s;
        }
    )
    /* svmx_symv_lower for two vectors in one pass over M: out1 = M x1, out2 = M x2. */
    SVMX_MULTIVERSION_VOID(svmx_symv2_lower,
        (int n, const double* m, const double* x1, const double* x2, double* out1,
         double* out2),
        (n, m, x1, x2, out1, out2),
        long long i, j, size = n;
        for (i = 0; i < size; i++) out1[i] = out2[i] = 0.0;
        for (j = 0; j < size; j++) {
            const double* column = m + j * size + j + 1;
            const double* as = x1 + j + 1;
            const double* bs = x2 + j + 1;
            double* out_a = out1 + j + 1;
            double* out_b = out2 + j + 1;
            long long length = size - j - 1;
            double a = x1[j], b = x2[j], diagonal = m[j * size + j];
            double s1 = diagonal * a, s2 = diagonal * b;
            _Pragma("omp simd reduction(+:s1, s2)")
            for (i = 0; i < length; i++) {
                out_a[i] += column[i] * a;
                out_b[i] += column[i] * b;
                s1 += column[i] * as[i];
                s2 += column[i] * bs[i];
            }
            out1[j] += s1;
            out2[j] += s2;
        }
    )
    /* The lower triangle of M += scale x x' (column-major, leading dimension n). */
    SVMX_MULTIVERSION_VOID(svmx_syr_lower,
        (int n, double scale, const double* x, double* m),
        (n, scale, x, m),
        long long i, j, size = n;
        for (j = 0; j < size; j++) {
            double* column = m + j * size + j;
            const double* xs = x + j;
            long long length = size - j;
            double factor = scale * x[j];
            if (factor == 0.0) continue;
            _Pragma("omp simd")
            for (i = 0; i < length; i++) column[i] += factor * xs[i];
        }
    )
    /* The Cholesky factor L (lower, in place) of an m x m tile (leading dimension ld);
       returns 0, or j + 1 when the leading minor of order j + 1 is not positive. */
    static int svmx_potrf_tile(int m, double* a, int ld) {
        int i, j, k;
        for (j = 0; j < m; j++) {
            double* column = a + (long long)j * ld;
            for (k = 0; k < j; k++) {
                const double* left = a + (long long)k * ld;
                double factor = left[j];
                _Pragma("omp simd")
                for (i = j; i < m; i++) column[i] -= factor * left[i];
            }
            if (!(column[j] > 0.0) || !isfinite(column[j])) return j + 1;
            column[j] = sqrt(column[j]);
            double scale = 1.0 / column[j];
            _Pragma("omp simd")
            for (i = j + 1; i < m; i++) column[i] *= scale;
        }
        return 0;
    }
    /* out = L^-1 for a lower triangular m x m tile L (leading dimensions ld, ld_out),
       column by column by forward substitution; out's upper triangle is zeroed. */
    static void svmx_trtri_tile(int m, const double* l, int ld, double* out, int ld_out) {
        int i, j, k;
        for (j = 0; j < m; j++) {
            double* x = out + (long long)j * ld_out;
            for (i = 0; i < m; i++) x[i] = 0.0;
            x[j] = 1.0;
            for (k = j; k < m; k++) {
                const double* column = l + (long long)k * ld;
                double value = x[k] / column[k];
                x[k] = value;
                _Pragma("omp simd")
                for (i = k + 1; i < m; i++) x[i] -= column[i] * value;
            }
        }
    }
    """
    void symv_lower "svmx_symv_lower"(int n, const double* m, const double* x, double beta,
                                      double* out) noexcept nogil
    void symv2_lower "svmx_symv2_lower"(int n, const double* m, const double* x1,
                                        const double* x2, double* out1,
                                        double* out2) noexcept nogil
    void syr_lower "svmx_syr_lower"(int n, double scale, const double* x,
                                    double* m) noexcept nogil
    int potrf_tile "svmx_potrf_tile"(int m, double* a, int ld) noexcept nogil
    void trtri_tile "svmx_trtri_tile"(int m, const double* l, int ld, double* out,
                                      int ld_out) noexcept nogil


cdef inline void tile_product(char trans_a, char trans_b, int m, int n, int k, double alpha,
                              const double* a, int lda, const double* b, int ldb,
                              double beta, double* c, int ldc) noexcept nogil:
    """c = alpha op(a) op(b) + beta c through dgemm (m, n, k <= TILE: one thread)."""
    dgemm(&trans_a, &trans_b, &m, &n, &k, &alpha, <double*> a, &lda, <double*> b, &ldb,
          &beta, c, &ldc)


cdef inline double* tile_at(double* a, int n, int i, int j) noexcept nogil:
    return a + <long long> i * TILE + <long long> j * TILE * n


cdef inline int tile_size(int n, int i) noexcept nogil:
    return min(TILE, n - i * TILE)


cdef int invert_in_place(int n, double* a, double* diagonal_inverses,
                         double* scratch) noexcept nogil:
    """The lower triangle of A^-1 over A's (column-major, n x n, symmetric positive
    definite; lower triangle read). Returns 0, or the order of the first leading minor
    found not positive (A is then garbage). `diagonal_inverses` holds one TILE x TILE
    tile per diagonal tile, `scratch` one tile."""
    cdef int tiles = (n + TILE - 1) // TILE
    cdef int i, j, k, m_i, m_j, m_k, r, c, info
    cdef double* inverse_kk
    # 1. A = L L' by tiles: factor the diagonal tile, turn the tiles below it into
    # L_ik = A_ik L_kk^-T, take their products from the trailing tiles.
    for k in range(tiles):
        m_k = tile_size(n, k)
        info = potrf_tile(m_k, tile_at(a, n, k, k), n)
        if info != 0:
            return k * TILE + info
        inverse_kk = diagonal_inverses + <long long> k * TILE * TILE
        trtri_tile(m_k, tile_at(a, n, k, k), n, inverse_kk, TILE)
        for i in range(k + 1, tiles):
            m_i = tile_size(n, i)
            tile_product(b"N", b"T", m_i, m_k, m_k, 1.0, tile_at(a, n, i, k), n,
                         inverse_kk, TILE, 0.0, scratch, TILE)
            for c in range(m_k):
                for r in range(m_i):
                    tile_at(a, n, i, k)[r + <long long> c * n] = scratch[r + c * TILE]
        for i in range(k + 1, tiles):
            m_i = tile_size(n, i)
            for j in range(k + 1, i + 1):
                tile_product(b"N", b"T", m_i, tile_size(n, j), m_k, -1.0,
                             tile_at(a, n, i, k), n, tile_at(a, n, j, k), n, 1.0,
                             tile_at(a, n, i, j), n)
    # 2. W = L^-1 in place, tile row by tile row, each row's tiles left to right (W_ij
    # reads L_ik for k >= j only): W_ij = -L_ii^-1 sum_{k=j}^{i-1} L_ik W_kj.
    for i in range(1, tiles):
        m_i = tile_size(n, i)
        for j in range(i):
            m_j = tile_size(n, j)
            tile_product(b"N", b"N", m_i, m_j, m_j, 1.0, tile_at(a, n, i, j), n,
                         diagonal_inverses + <long long> j * TILE * TILE, TILE, 0.0,
                         scratch, TILE)
            for k in range(j + 1, i):
                tile_product(b"N", b"N", m_i, m_j, tile_size(n, k), 1.0,
                             tile_at(a, n, i, k), n, tile_at(a, n, k, j), n, 1.0,
                             scratch, TILE)
            tile_product(b"N", b"N", m_i, m_j, m_i, -1.0,
                         diagonal_inverses + <long long> i * TILE * TILE, TILE,
                         scratch, TILE, 0.0, tile_at(a, n, i, j), n)
    for k in range(tiles):  # the diagonal tiles of W, upper triangles zero
        m_k = tile_size(n, k)
        for c in range(m_k):
            for r in range(m_k):
                tile_at(a, n, k, k)[r + <long long> c * n] = \
                    diagonal_inverses[<long long> k * TILE * TILE + r + c * TILE]
    # 3. A^-1 = W'W, lower tiles in place, rows top-down and each row left to right:
    # X_ij = sum_{k>=i} W_ki' W_kj reads rows >= i and, of row i, W_ij and W_ii.
    for i in range(tiles):
        m_i = tile_size(n, i)
        for j in range(i + 1):
            m_j = tile_size(n, j)
            for k in range(i, tiles):
                tile_product(b"T", b"N", m_i, m_j, tile_size(n, k), 1.0,
                             tile_at(a, n, k, i), n, tile_at(a, n, k, j), n,
                             0.0 if k == i else 1.0, scratch, TILE)
            for c in range(m_j):
                for r in range(m_i):
                    tile_at(a, n, i, j)[r + <long long> c * n] = scratch[r + c * TILE]
    return 0


def spd_inverse(double[::1, :] a):
    """Overwrite the lower triangle of `a` (symmetric positive definite, column-major;
    its lower triangle is read) with that of its inverse; returns 0, or the order of
    the first leading minor found not positive (`a` is then overwritten with garbage).

    Examples
    --------
    >>> a = np.array([[4.0, 2.0], [2.0, 3.0]], order="F")
    >>> spd_inverse(a)
    0
    >>> np.tril(a).round(6).tolist()
    [[0.375, 0.0], [-0.25, 0.5]]
    >>> spd_inverse(np.array([[1.0, 2.0], [2.0, 1.0]], order="F"))
    2
    """
    cdef int n = a.shape[0]
    if a.shape[1] != n:
        raise ValueError(f"spd_inverse: a must be square; got shape {tuple(a.shape)[:2]}")
    if n == 0:
        return 0
    cdef int tiles = (n + TILE - 1) // TILE
    cdef double[::1] diagonal_inverses = np.empty(tiles * TILE * TILE)
    cdef double[::1] scratch = np.empty(TILE * TILE)
    cdef int info
    with nogil:
        info = invert_in_place(n, &a[0, 0], &diagonal_inverses[0], &scratch[0])
    return info


def free_gradient(const double[:, ::1] gram, const Py_ssize_t[::1] free_rows,
                  const Py_ssize_t[::1] used_rows, const double[::1] weights):
    """sum_j K[free_rows_i, used_rows_j] weights_j with K = `gram` rounded to float32
    (as SMO's kernel cache holds it), for every i.

    Examples
    --------
    >>> gram = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> free_gradient(gram, np.array([0, 1]), np.array([1]), np.array([3.0])).tolist()
    [3.0, 6.0]
    """
    cdef Py_ssize_t n_free = free_rows.shape[0], n_used = used_rows.shape[0], i, j
    cdef Py_ssize_t n = gram.shape[0]
    if used_rows.shape[0] != weights.shape[0] or gram.shape[1] != n:
        raise ValueError("free_gradient: gram must be square, and used_rows and weights of "
                         "the same length")
    for j in range(n_used):
        if not 0 <= used_rows[j] < n:
            raise ValueError("free_gradient: used_rows must index the square gram")
    for i in range(n_free):
        if not 0 <= free_rows[i] < n:
            raise ValueError("free_gradient: free_rows must index the gram")
    out = np.zeros(n_free)
    cdef double[::1] result = out
    with nogil:
        gradient_sums(gram, free_rows, used_rows, weights, result)
    return out


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void gradient_sums(const double[:, ::1] gram, const Py_ssize_t[::1] free_rows,
                        const Py_ssize_t[::1] used_rows, const double[::1] weights,
                        double[::1] out) noexcept nogil:
    """out_i = sum_j float32(K[free_rows_i, used_rows_j]) weights_j (`free_gradient`)."""
    cdef Py_ssize_t i, j
    cdef const double* row
    cdef double total
    for i in range(free_rows.shape[0]):
        row = &gram[free_rows[i], 0]
        total = 0.0
        for j in range(used_rows.shape[0]):
            total = total + <double> (<float> row[used_rows[j]]) * weights[j]
        out[i] = total


cdef long walk(int n, double* inverse, const double* block, double* g, double* y,
               double* present, const double* limit, unsigned char* active,
               double* solved_g, double* solved_y, double* direction, double* delta,
               long max_steps) noexcept nogil:
    cdef long step = 0
    cdef int k, i, blocking, n_active = n
    cdef double curvature_y, along, shift, slope, length, room, moved, scale
    while step < max_steps:
        symv2_lower(n, inverse, g, y, solved_g, solved_y)
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
        symv_lower(n, block, delta, 1.0, g)  # the gradient follows the step
        step += 1
        if blocking < 0 or n_active <= 2:
            break
        # The inverse less variable `blocking`: column k of the symmetric matrix (row k
        # left of the diagonal, then column k down), a rank-one downdate of the lower
        # triangle, then row and column k zeroed (in both triangles).
        for i in range(n):
            delta[i] = inverse[blocking + i * n] if i < blocking else inverse[i + blocking * n]
        scale = -1.0 / delta[blocking]
        syr_lower(n, scale, delta, inverse)
        for i in range(n):
            inverse[blocking + i * n] = 0.0
            inverse[i + blocking * n] = 0.0
        active[blocking] = 0
        g[blocking] = y[blocking] = 0.0
        n_active -= 1
    return step


@cython.boundscheck(False)
@cython.wraparound(False)
def free_set_steps(const double[:, ::1] gram, rows, labels, p, bounds, double[::1] alpha,
                   long max_steps, Py_ssize_t max_free, double ridge_start,
                   double ridge_growth, double ridge_limit):
    """`svmx._free_set_newton.newton_steps` in one compiled call (its docstring says
    what it does; the ridge's start, growth and limit and the largest free set are its
    constants): the free variables' gradient (`free_gradient`), their block of Q at
    float32 kernel values, the regularised block's inverse (`spd_inverse`, the ridge
    grown until Cholesky succeeds) and the walk, without a numpy call
    per stage. Most of a grid search's steps have 10-20 free variables, where those
    calls cost about 60 us a round against a few us of arithmetic.

    Examples
    --------
    >>> alpha = np.array([0.3, 0.3])
    >>> free_set_steps(np.eye(2), np.array([0, 1]), np.array([1.0, 1.0]),
    ...                np.array([-1.0, -1.2]), np.array([10.0, 10.0]), alpha, 5, 3000,
    ...                1e-10, 100.0, 1e-2)
    1
    >>> alpha.round(9).tolist()
    [0.2, 0.4]
    """
    cdef const Py_ssize_t[::1] at = np.ascontiguousarray(rows, dtype=np.intp)
    cdef const double[::1] sign = np.ascontiguousarray(labels, dtype=np.float64)
    cdef const double[::1] linear = np.ascontiguousarray(p, dtype=np.float64)
    cdef const double[::1] limit_all = np.ascontiguousarray(bounds, dtype=np.float64)
    cdef Py_ssize_t n = alpha.shape[0], k, i, j, n_free = 0, n_used = 0
    if not (at.shape[0] == sign.shape[0] == linear.shape[0] == limit_all.shape[0] == n):
        raise ValueError("free_set_steps: rows, labels, p, bounds and alpha must have one "
                         "entry per variable")
    if gram.shape[1] != gram.shape[0]:
        raise ValueError("free_set_steps: gram must be square")
    for k in range(n):
        if not 0 <= at[k] < gram.shape[0]:
            raise ValueError("free_set_steps: rows must index the gram")
        n_free += 0.0 < alpha[k] < limit_all[k]
        n_used += sign[k] * alpha[k] != 0.0
    if not 2 <= n_free <= max_free:
        return 0
    cdef Py_ssize_t[::1] free = np.empty(n_free, dtype=np.intp)
    cdef Py_ssize_t[::1] free_rows = np.empty(n_free, dtype=np.intp)
    cdef Py_ssize_t[::1] used = np.empty(n_used, dtype=np.intp)
    cdef double[::1] weights = np.empty(n_used)
    i = j = 0
    for k in range(n):
        if 0.0 < alpha[k] < limit_all[k]:
            free[i], free_rows[i] = k, at[k]
            i += 1
        if sign[k] * alpha[k] != 0.0:
            used[j], weights[j] = at[k], sign[k] * alpha[k]
            j += 1
    cdef int m = <int> n_free
    cdef double[:, ::1] vectors = np.empty((9, n_free))  # g, y, present, limit, walk's 4
    cdef double[::1] g = vectors[0], y = vectors[1], present = vectors[2]
    cdef double[::1] limit = vectors[3]
    block_array = np.empty((n_free, n_free), order="F")
    cdef double[::1, :] block = block_array
    cdef const double* row
    cdef double scale = 0.0
    gradient_sums(gram, free_rows, used, weights, g)
    for i in range(n_free):
        k = free[i]
        y[i], present[i], limit[i] = sign[k], alpha[k], limit_all[k]
        g[i] = y[i] * g[i] + linear[k]
    for j in range(n_free):
        row = &gram[free_rows[j], 0]
        for i in range(n_free):  # K symmetric: column j of the block from row j of K
            block[i, j] = <double> (<float> row[free_rows[i]]) * (y[i] * y[j])
    scale = float(np.mean(np.diagonal(block_array)))
    scale = scale if scale > 0 else 1.0
    shifted_array = np.empty((n_free, n_free), order="F")
    cdef double[::1, :] shifted = shifted_array
    cdef int tiles = (m + TILE - 1) // TILE, info = 1
    cdef double[::1] diagonal_inverses = np.empty(tiles * TILE * TILE)
    cdef double[::1] scratch = np.empty(TILE * TILE)
    cdef double ridge = ridge_start
    while ridge <= ridge_limit:
        shifted[:, :] = block
        for i in range(n_free):
            shifted[i, i] += ridge * scale
        info = invert_in_place(m, &shifted[0, 0], &diagonal_inverses[0], &scratch[0])
        if info == 0:
            break
        ridge *= ridge_growth
    if info != 0:
        return 0
    cdef unsigned char[::1] active = np.ones(n_free, dtype=np.uint8)
    cdef long steps
    with nogil:
        steps = walk(m, &shifted[0, 0], &block[0, 0], &g[0], &y[0], &present[0],
                     &limit[0], &active[0], &vectors[4, 0], &vectors[5, 0], &vectors[6, 0],
                     &vectors[7, 0], max_steps)
    for i in range(n_free):
        alpha[free[i]] = present[i]
    return steps


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, as every compiled module of svmx (see svmx._engine.isa).
_ISA_LEVEL = isa_level()
