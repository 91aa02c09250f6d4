# cython: language_level=3, cdivision=True
"""The stateless binding: arrays in, arrays out.

Each `solve_*` function trains one LIBSVM formulation on the rows `rows` of
`X` and returns the signed dual coefficients with the offsets. Status codes
from the engine become exceptions here, after the GIL is taken back.
"""

from cpython.exc cimport PyErr_Occurred

import threading

import numpy as np
import scipy.sparse as sp

from svmx._engine.block_solver cimport BlockSolver
from svmx._engine.kernel cimport Kernel
from svmx._engine.kernel_map cimport KernelParams, kernel_block, map_dot_products
from svmx._engine.openmp cimport openmp_max_threads
from svmx._engine.qmatrix cimport OneClassQ, QMatrix, SvcQ, SvrQ
from svmx._engine.rows cimport CsrRows, DenseRows, DenseRows32, Rows, TiledRows
from svmx._engine.solver cimport (
    SOLVE_BLOCK_NOT_RESERVED,
    SOLVE_INTERRUPTED,
    SOLVE_OUT_OF_MEMORY,
    SolutionInfo,
    Solver,
    SolverNU,
)

KERNEL_TYPES = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3, "precomputed": 4}


cdef Rows gather_rows(X, rows):
    """An engine-owned copy of the rows `rows` of X, in X's own storage.

    CSR input stays sparse; float32 input stays float32; the rest is float64.
    """
    if sp.issparse(X):
        subset = X[rows]
        subset.sort_indices()
        return CsrRows(
            np.ascontiguousarray(subset.data, dtype=np.float64),
            np.ascontiguousarray(subset.indices, dtype=np.int32),
            np.ascontiguousarray(subset.indptr, dtype=np.int64),
            X.shape[1],
        )
    X = np.asarray(X)
    if X.dtype == np.float32:
        return DenseRows32(np.ascontiguousarray(X[rows]))
    return DenseRows(np.ascontiguousarray(X[rows], dtype=np.float64))


cdef Kernel make_kernel(X, rows, int kernel_type, int degree, double gamma, double coef0):
    """A kernel over the rows `rows` of X (for 'precomputed', X is the Gram matrix)."""
    rows = np.asarray(rows, dtype=np.intp)
    if kernel_type == KERNEL_TYPES["precomputed"]:
        X = np.asarray(X)
        if X.dtype == np.float32:  # the Gram matrix one-vs-one pairs share
            return Kernel(DenseRows32(np.ascontiguousarray(X[rows][:, rows])),
                          kernel_type, degree, gamma, coef0)
        gram = np.ascontiguousarray(X[np.ix_(rows, rows)], dtype=np.float64)
        return Kernel(DenseRows(gram), kernel_type, degree, gamma, coef0)
    return Kernel(gather_rows(X, rows), kernel_type, degree, gamma, coef0)


cdef int raise_pending_interrupt() except -1:
    """Re-raise the exception a signal handler left pending during the solve."""
    if PyErr_Occurred() != NULL:
        return -1
    raise KeyboardInterrupt


cdef dict solution_of(const SolutionInfo* info):
    """The engine's solution info as a dict; failures become exceptions here."""
    if info.status == SOLVE_OUT_OF_MEMORY:
        raise MemoryError("svmx: out of memory while training (try a smaller cache_size)")
    if info.status == SOLVE_INTERRUPTED:
        raise_pending_interrupt()
    if info.status == SOLVE_BLOCK_NOT_RESERVED:
        raise RuntimeError("svmx: the block solver's rows have no room for a block "
                           "(reserve_block was not called); this is a bug in svmx")
    return {
        "rho": info.rho,
        "r": info.r,
        "obj": info.obj,
        "n_iter": int(info.n_iter),
        "n_kernel_rows": int(info.n_kernel_rows),
        "status": int(info.status),
    }


cdef dict run_solver(Solver solver, QMatrix Q, double[::1] p, signed char[::1] y,
                     double[::1] alpha, double[::1] C, double tol, bint shrinking,
                     long max_iter):
    cdef SolutionInfo info
    cdef int l = <int> p.shape[0]
    # Only the main thread receives signals: worker threads need not poll for them.
    cdef bint on_main_thread = threading.current_thread() is threading.main_thread()
    with nogil:
        solver.solve(l, Q, &p[0], &y[0], &alpha[0], &C[0], tol, shrinking,
                     max_iter, on_main_thread, &info)
    return solution_of(&info)


def block_size_for(Py_ssize_t l, double cache_size):
    """Working-set size of the block solver: its kernel rows take at most half the cache.

    Examples
    --------
    >>> block_size_for(100_000, 200.0)
    256
    """
    cdef Py_ssize_t size = <Py_ssize_t> (cache_size * 1048576.0 / 2.0 / (4.0 * max(l, 1)))
    size = min(1024, size)
    size -= size % 2
    return int(max(2, min(size, l)))


# Sparse data at most this dense keeps its CSR form in the block solver: sparse-times-
# dense block products then cost less than an SGEMM over the zeros.
SPARSE_BLOCK_DENSITY = 0.25


cdef Rows block_rows(X, rows, double cache_size):
    """Rows for the block solver: float32 for dense data, and for sparse data that is
    dense enough and whose dense float32 form fits in the cache budget (an SGEMM then
    beats sparse products)."""
    cdef Rows sparse_rows
    if sp.issparse(X):
        density = X.nnz / max(1.0, float(X.shape[0]) * X.shape[1])
        if (density > SPARSE_BLOCK_DENSITY
                and X.shape[1] * len(rows) * 4.0 <= cache_size * 1048576.0):
            subset = X[rows]
            dense = np.zeros((len(rows), X.shape[1]), dtype=np.float32)
            for start in range(0, len(rows), 4096):
                dense[start:start + 4096] = subset[start:start + 4096].toarray()
            return DenseRows32(dense)
        sparse_rows = gather_rows(X, rows)
        sparse_rows.reserve_block(0)
        return sparse_rows
    return DenseRows32(np.ascontiguousarray(np.asarray(X)[rows], dtype=np.float32))


cdef dict run_block_solver(X, rows, double[::1] p, signed char[::1] y, double[::1] alpha,
                           double[::1] C, int kernel_type, int degree, double gamma,
                           double coef0, double tol, double cache_size, long max_iter,
                           int copies=1, int n_threads=1):
    cdef SolutionInfo info
    cdef KernelParams params
    cdef Rows data = block_rows(X, rows, cache_size / copies)
    cdef BlockSolver solver = BlockSolver()
    cdef bint on_main_thread = threading.current_thread() is threading.main_thread()
    cdef int size = block_size_for(p.shape[0], cache_size)
    if kernel_type == KERNEL_TYPES["precomputed"]:
        raise ValueError("solver='block' does not support kernel='precomputed'; use 'smo'")
    params.kernel_type = kernel_type
    params.degree = degree
    params.gamma = gamma
    params.coef0 = coef0
    if isinstance(data, DenseRows32):
        (<DenseRows32> data).reserve_block(size)
    # At most OpenMP's limit, so that threadpoolctl's limits hold.
    n_threads = max(1, min(n_threads, openmp_max_threads()))
    if copies > 1:
        data = TiledRows(data, copies)
    data.set_threads(n_threads)
    with nogil:
        solver.solve(data, &params, &p[0], &y[0], &alpha[0], &C[0], tol, max_iter, size,
                     on_main_thread, &info)
    return solution_of(&info)


def solve_c_svc(X, rows, signed char[::1] y, double[::1] C, *, int kernel_type, int degree,
                double gamma, double coef0, double tol, double cache_size, bint shrinking,
                long max_iter, str solver="smo", int n_threads=1):
    """C-SVC on the rows `rows` of X with labels y (+1/-1) and upper bounds C.

    ``solver='block'`` uses the batched working-set solver (float32 kernel
    blocks); 'smo' is LIBSVM's algorithm step for step.

    Returns a dict with the signed coefficients ``coef`` (y_i alpha_i), ``rho``,
    ``obj``, ``n_iter`` and ``status`` (0 converged, 1 stopped at max_iter).
    """
    cdef Py_ssize_t l = y.shape[0]
    if solver == "block":
        alpha = np.zeros(l, dtype=np.float64)
        result = run_block_solver(X, rows, np.full(l, -1.0), y, alpha, C, kernel_type,
                                  degree, gamma, coef0, tol, cache_size, max_iter, 1,
                                  n_threads)
        result["coef"] = alpha * np.asarray(y, dtype=np.float64)
        return result
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = SvcQ(kernel, y, cache_size * 1048576.0)
    alpha = np.zeros(l, dtype=np.float64)
    p = np.full(l, -1.0)
    result = run_solver(Solver(), Q, p, y, alpha, C, tol, shrinking, max_iter)
    result["coef"] = alpha * np.asarray(y, dtype=np.float64)
    return result


def solve_nu_svc(X, rows, signed char[::1] y, double[::1] C, double nu, *, int kernel_type,
                 int degree, double gamma, double coef0, double tol, double cache_size,
                 bint shrinking, long max_iter, str solver="smo", int n_threads=1):
    """nu-SVC; C holds the per-sample bounds (class and sample weights).

    The solution is rescaled by the offset r so that it has C-SVC's form.
    """
    if solver != "smo":
        raise ValueError(f"solver={solver!r} is not available for this formulation; use 'smo'")
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
    if not r > 0:
        raise ZeroDivisionError("nu-SVC: the margin r is 0 (nu is too large for the data)")
    result["coef"] = alpha * np.asarray(y, dtype=np.float64) / r
    result["rho"] /= r
    result["obj"] /= r * r
    return result


def solve_one_class(X, rows, double[::1] C, double nu, *, int kernel_type, int degree,
                    double gamma, double coef0, double tol, double cache_size,
                    bint shrinking, long max_iter, str solver="smo", int n_threads=1):
    """One-class SVM: the first variables are filled up to nu * sum(C)."""
    cdef Py_ssize_t i, l = C.shape[0]
    cdef double remaining = nu * float(np.sum(C))
    alpha = np.zeros(l, dtype=np.float64)
    for i in range(l):
        alpha[i] = min(C[i], remaining)
        remaining -= alpha[i]
        if remaining <= 0:
            break
    y = np.ones(l, dtype=np.int8)
    p = np.zeros(l, dtype=np.float64)
    if solver == "block":
        result = run_block_solver(X, rows, p, y, alpha, C, kernel_type, degree, gamma,
                                  coef0, tol, cache_size, max_iter, 1, n_threads)
        result["coef"] = alpha
        return result
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = OneClassQ(kernel, cache_size * 1048576.0)
    result = run_solver(Solver(), Q, p, y, alpha, C, tol, shrinking, max_iter)
    result["coef"] = alpha
    return result


def solve_epsilon_svr(X, rows, double[::1] target, double[::1] C, double epsilon, *,
                      int kernel_type, int degree, double gamma, double coef0, double tol,
                      double cache_size, bint shrinking, long max_iter, str solver="smo",
                      int n_threads=1):
    """epsilon-SVR as a 2l-variable problem; coef = alpha - alpha*."""
    cdef Py_ssize_t l = target.shape[0]
    values = np.asarray(target, dtype=np.float64)
    alpha = np.zeros(2 * l, dtype=np.float64)
    p = np.concatenate([epsilon - values, epsilon + values])
    y = np.concatenate([np.ones(l, dtype=np.int8), -np.ones(l, dtype=np.int8)])
    bounds = np.concatenate([C, C])
    if solver == "block":
        result = run_block_solver(X, rows, p, y, alpha, bounds, kernel_type, degree, gamma,
                                  coef0, tol, cache_size, max_iter, 2, n_threads)
        result["coef"] = alpha[:l] - alpha[l:]
        return result
    kernel = make_kernel(X, rows, kernel_type, degree, gamma, coef0)
    Q = SvrQ(kernel, cache_size * 1048576.0)
    result = run_solver(Solver(), Q, p, y, alpha, bounds, tol, shrinking, max_iter)
    result["coef"] = alpha[:l] - alpha[l:]
    return result


def solve_nu_svr(X, rows, double[::1] target, double[::1] C, double nu, *, int kernel_type,
                 int degree, double gamma, double coef0, double tol, double cache_size,
                 bint shrinking, long max_iter, str solver="smo", int n_threads=1):
    """nu-SVR as a 2l-variable problem; also returns the found ``epsilon`` (-r)."""
    if solver != "smo":
        raise ValueError(f"solver={solver!r} is not available for this formulation; use 'smo'")
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


def kernel_matrix(X, Y, *, int kernel_type, int degree, double gamma, double coef0,
                  X_sq_norms=None, Y_sq_norms=None):
    """K(X, Y) of shape (len(X), len(Y)) for dense or CSR X and Y.

    Dense float64 inputs take one GEMM plus the kernel's map, without the GIL;
    other inputs form their dot products with numpy / scipy.sparse first.
    Precomputed squared norms may be passed to save recomputing them.

    Examples
    --------
    >>> K = kernel_matrix(np.eye(2), np.eye(2), kernel_type=0, degree=3, gamma=1.0,
    ...                   coef0=0.0)
    >>> K.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    cdef KernelParams params
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
    params.kernel_type = kernel_type
    params.degree = degree
    params.gamma = gamma
    params.coef0 = coef0
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
