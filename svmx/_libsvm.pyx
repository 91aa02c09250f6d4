# cython: language_level=3, cdivision=True
"""The stateless binding: arrays in, arrays out.

Each `solve_*` function trains one LIBSVM formulation on the rows `rows` of
`X` and returns the signed dual coefficients with the offsets. Status codes
from the engine become exceptions here, after the GIL is taken back.
"""

import numpy as np

from svmx._engine.kernel cimport DenseRows, Kernel, KernelParams, kernel_block
from svmx._engine.qmatrix cimport OneClassQ, QMatrix, SvcQ, SvrQ
from svmx._engine.solver cimport (
    SOLVE_INTERRUPTED,
    SOLVE_OUT_OF_MEMORY,
    SolutionInfo,
    Solver,
    SolverNU,
)

KERNEL_TYPES = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3, "precomputed": 4}


cdef Kernel make_kernel(X, rows, int kernel_type, int degree, double gamma, double coef0):
    """A kernel over an owned, C-contiguous float64 copy of the rows `rows` of X."""
    rows = np.asarray(rows, dtype=np.intp)
    if kernel_type == KERNEL_TYPES["precomputed"]:
        data = np.ascontiguousarray(np.asarray(X)[np.ix_(rows, rows)], dtype=np.float64)
    else:
        data = np.ascontiguousarray(np.asarray(X)[rows], dtype=np.float64)
    return Kernel(DenseRows(data), kernel_type, degree, gamma, coef0)


cdef dict run_solver(Solver solver, QMatrix Q, double[::1] p, signed char[::1] y,
                     double[::1] alpha, double[::1] C, double tol, bint shrinking,
                     long max_iter):
    cdef SolutionInfo info
    cdef int l = <int> p.shape[0]
    with nogil:
        solver.solve(l, Q, &p[0], &y[0], &alpha[0], &C[0], tol, shrinking,
                     max_iter, True, &info)
    if info.status == SOLVE_OUT_OF_MEMORY:
        raise MemoryError("svmx: out of memory while training (try a smaller cache_size)")
    if info.status == SOLVE_INTERRUPTED:
        raise KeyboardInterrupt
    return {
        "rho": info.rho,
        "r": info.r,
        "obj": info.obj,
        "n_iter": int(info.n_iter),
        "status": int(info.status),
    }


def solve_c_svc(X, rows, signed char[::1] y, double[::1] C, *, int kernel_type, int degree,
                double gamma, double coef0, double tol, double cache_size, bint shrinking,
                long max_iter):
    """C-SVC on the rows `rows` of X with labels y (+1/-1) and upper bounds C.

    Returns a dict with the signed coefficients ``coef`` (y_i alpha_i), ``rho``,
    ``obj``, ``n_iter`` and ``status`` (0 converged, 1 stopped at max_iter).
    """
    cdef Py_ssize_t l = y.shape[0]
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = SvcQ(kernel, y, cache_size * 1048576.0)
    alpha = np.zeros(l, dtype=np.float64)
    p = np.full(l, -1.0)
    result = run_solver(Solver(), Q, p, y, alpha, C, tol, shrinking, max_iter)
    result["coef"] = alpha * np.asarray(y, dtype=np.float64)
    return result


def solve_nu_svc(X, rows, signed char[::1] y, double[::1] C, double nu, *, int kernel_type,
                 int degree, double gamma, double coef0, double tol, double cache_size,
                 bint shrinking, long max_iter):
    """nu-SVC; C holds the per-sample bounds (class and sample weights).

    The solution is rescaled by the offset r so that it has C-SVC's form.
    """
    cdef Py_ssize_t i, l = y.shape[0]
    cdef double half, sum_pos, sum_neg
    alpha = np.zeros(l, dtype=np.float64)
    half = nu * float(np.sum(C)) / 2.0
    sum_pos = half
    sum_neg = half
    for i in range(l):
        if y[i] == 1:
            alpha[i] = min(C[i], sum_pos)
            sum_pos -= alpha[i]
        else:
            alpha[i] = min(C[i], sum_neg)
            sum_neg -= alpha[i]
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = SvcQ(kernel, y, cache_size * 1048576.0)
    p = np.zeros(l, dtype=np.float64)
    result = run_solver(SolverNU(), Q, p, y, alpha, C, tol, shrinking, max_iter)
    r = result["r"]
    result["coef"] = alpha * np.asarray(y, dtype=np.float64) / r
    result["rho"] /= r
    result["obj"] /= r * r
    return result


def solve_one_class(X, rows, double[::1] C, double nu, *, int kernel_type, int degree,
                    double gamma, double coef0, double tol, double cache_size,
                    bint shrinking, long max_iter):
    """One-class SVM: the first variables are filled up to nu * sum(C)."""
    cdef Py_ssize_t i, l = C.shape[0]
    cdef double remaining = nu * float(np.sum(C))
    alpha = np.zeros(l, dtype=np.float64)
    for i in range(l):
        alpha[i] = min(C[i], remaining)
        remaining -= alpha[i]
        if remaining <= 0:
            break
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = OneClassQ(kernel, cache_size * 1048576.0)
    y = np.ones(l, dtype=np.int8)
    p = np.zeros(l, dtype=np.float64)
    result = run_solver(Solver(), Q, p, y, alpha, C, tol, shrinking, max_iter)
    result["coef"] = alpha
    return result


def solve_epsilon_svr(X, rows, double[::1] target, double[::1] C, double epsilon, *,
                      int kernel_type, int degree, double gamma, double coef0, double tol,
                      double cache_size, bint shrinking, long max_iter):
    """epsilon-SVR as a 2l-variable problem; coef = alpha - alpha*."""
    cdef Py_ssize_t l = target.shape[0]
    values = np.asarray(target, dtype=np.float64)
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = SvrQ(kernel, cache_size * 1048576.0)
    alpha = np.zeros(2 * l, dtype=np.float64)
    p = np.concatenate([epsilon - values, epsilon + values])
    y = np.concatenate([np.ones(l, dtype=np.int8), -np.ones(l, dtype=np.int8)])
    bounds = np.concatenate([C, C])
    result = run_solver(Solver(), Q, p, y, alpha, bounds, tol, shrinking, max_iter)
    result["coef"] = alpha[:l] - alpha[l:]
    return result


def solve_nu_svr(X, rows, double[::1] target, double[::1] C, double nu, *, int kernel_type,
                 int degree, double gamma, double coef0, double tol, double cache_size,
                 bint shrinking, long max_iter):
    """nu-SVR as a 2l-variable problem; also returns the found ``epsilon`` (-r)."""
    cdef Py_ssize_t i, l = target.shape[0]
    cdef double remaining = nu * float(np.sum(C)) / 2.0
    values = np.asarray(target, dtype=np.float64)
    alpha = np.zeros(2 * l, dtype=np.float64)
    for i in range(l):
        alpha[i] = min(remaining, C[i])
        alpha[i + l] = alpha[i]
        remaining -= alpha[i]
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = SvrQ(kernel, cache_size * 1048576.0)
    p = np.concatenate([-values, values])
    y = np.concatenate([np.ones(l, dtype=np.int8), -np.ones(l, dtype=np.int8)])
    bounds = np.concatenate([C, C])
    result = run_solver(SolverNU(), Q, p, y, alpha, bounds, tol, shrinking, max_iter)
    result["coef"] = alpha[:l] - alpha[l:]
    result["epsilon"] = -result["r"]
    return result


def kernel_matrix(const double[:, ::1] X, const double[:, ::1] Y, *, int kernel_type,
                  int degree, double gamma, double coef0):
    """K(X, Y) of shape (len(X), len(Y)) by GEMM plus the kernel's map, without the GIL.

    Examples
    --------
    >>> import numpy as np
    >>> K = kernel_matrix(np.eye(2), np.eye(2), kernel_type=0, degree=3, gamma=1.0,
    ...                   coef0=0.0)
    >>> K.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    cdef KernelParams params
    cdef double[:, ::1] out = np.empty((X.shape[0], Y.shape[0]), dtype=np.float64)
    cdef double[::1] x_norms, y_norms
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features, but the support vectors have {Y.shape[1]}"
        )
    params.kernel_type = kernel_type
    params.degree = degree
    params.gamma = gamma
    params.coef0 = coef0
    x_norms = np.einsum("ij,ij->i", X, X)
    y_norms = np.einsum("ij,ij->i", Y, Y)
    with nogil:
        kernel_block(&params, X, x_norms, Y, y_norms, out)
    return np.asarray(out)
