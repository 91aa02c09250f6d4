# cython: language_level=3, cdivision=True
"""The stateless binding: the one way from Python into the engine.

One entry point per job, each taking arrays and the resolved specs of
`svmx._specs` and returning arrays or a typed result:

- `train_one`: one LIBSVM problem (any of the five formulations, which it
  switches on as LIBSVM's ``svm_train_one`` does) -> a `Solution`;
- `decision_values` / `engine_serves`: a fitted model's decision values;
- `sigmoid_train`, `sigmoid_predict`, `pairwise_coupling`: Platt's probabilities;
- `kernel_matrix`, `squared_norms`: kernel values for the Python side (`svmx._kernel_values`);
- `libsvm_decision_values`, `libsvm_ovo_values`: decision values with
  LIBSVM's own arithmetic, for where its numbers must be met to the last bit.

Status codes from the engine become exceptions (or a `Solution.status`) here,
after the GIL is taken back.
"""

from libc.math cimport isfinite

import numpy as np
import scipy.sparse as sp

from svmx._engine.isa cimport isa_level
from svmx._engine.block_solver cimport BlockSolver
from svmx._engine.kernel cimport Kernel
from svmx._engine.kernel_map cimport KernelParams, kernel_params_of
from svmx._engine.openmp cimport openmp_max_threads
from svmx._engine.qmatrix cimport OneClassQ, QMatrix, SvcQ, SvrQ
from svmx._engine.gram_rows cimport GramRows, GramRows32, LazyGram, LazyGramRows
from svmx._engine.rows cimport CsrRows, DenseRows, DenseRows32, Rows, TiledRows
from svmx._engine.solver cimport Gradients, SolutionInfo, Solver, SolverLog, SolverNU
from svmx._solve_status cimport on_main_thread, raise_for_status

from svmx._engine.libsvm_values import libsvm_decision_values, libsvm_ovo_values
from svmx._engine.platt import pairwise_coupling as _pairwise_coupling
from svmx._engine.platt import MIN_PROB, sigmoid_predict_py, sigmoid_train_py
from svmx._engine.cache import CacheMemories
from svmx._engine.layout_cache import LayoutCache
from svmx._engine.predict import decision_values as _engine_decision_values
from svmx._engine.predict import MIN_THREADED_VALUES as _MIN_THREADED_VALUES
from svmx._engine.predict import stored_columns
from svmx._engine.predict import serves as _engine_serves
from svmx._engine.support_layout import (
    compressed_structure_problem,
    csr_is_ready,
    gather_csr_rows,
    gather_csr_rows_dense,
)
from svmx._engine.vote import ovo_vote
from svmx._gram_folds import ClassifierFold, RegressorFold, best_scale, kernel_block
from svmx._kernel_values import (DENSE_ENOUGH, dense_if_dense_enough, kernel_matrix,
                                 mirror_upper, squared_norms, symmetric_kernel_matrix)
from svmx._specs import KERNEL_TYPES, block_size_for

__all__ = [
    "CacheMemories", "ClassifierFold", "DENSE_ENOUGH", "KERNEL_TYPES", "LayoutCache",
    "MAX_ITER", "MIN_PROB", "NO_MARGIN", "RegressorFold", "SOLVED", "Solution",
    "best_scale", "compressed_structure_problem", "csr_is_ready", "decision_values",
    "dense_if_dense_enough", "engine_serves", "kernel_block", "kernel_matrix", "lazy_gram",
    "libsvm_decision_values", "libsvm_ovo_values", "mirror_upper", "ovo_vote",
    "pairwise_coupling", "sigmoid_predict", "sigmoid_train", "squared_norms",
    "symmetric_kernel_matrix", "train_one"]

# Solution.status: how a solve ended.
SOLVED = 0      # the optimality gap reached tol
MAX_ITER = 1    # stopped at max_iter (or, for the block solver, when no pair could move)
# nu-SVC whose offset r is 0 (or not finite): nothing to rescale by; coef is unscaled.
# A negative r is rescaled, as LIBSVM does.
NO_MARGIN = 2


cdef class Solution:
    """The solution of one problem, as `train_one` returns it.

    Attributes
    ----------
    coef : ndarray of shape (n_rows,)
        Signed dual coefficients: y_i alpha_i for the classifiers, alpha for
        one-class, alpha_i - alpha*_i for the regressions.
    rho : float
        The offset; decision values are ``K(x, X_rows) @ coef - rho``.
    obj : float
        The dual objective.
    r : float
        Solver_NU's second offset (0 for the other formulations).
    epsilon : float
        nu-SVR: the tube width the solver found (-r); 0 otherwise.
    n_iter : int
        Pair updates made.
    n_kernel_rows : int
        Kernel rows the block solver computed (0 for SMO).
    status : int
        SOLVED, MAX_ITER or NO_MARGIN.
    solver : str
        The engine that solved it: 'smo' or 'block'.
    gradients : (G, G_bar) of ndarrays, or None
        The final gradient of a C-SVC problem solved by SMO that asked for it
        (``Problem.keep_gradients``), over its rows in their given order.
    """

    cdef readonly object coef, gradients
    cdef readonly double rho, obj, r, epsilon
    cdef readonly long n_iter, n_kernel_rows
    cdef readonly int status
    cdef readonly str solver

    @property
    def converged(self):
        """True when the solve stopped at the tolerance."""
        return self.status == SOLVED

    def __repr__(self):
        return (f"Solution(solver={self.solver!r}, status={self.status}, n_iter={self.n_iter}, "
                f"obj={self.obj:.6g}, rho={self.rho:.6g})")


# Under solver='auto', sparse rows at least this dense train SMO as dense float64 rows
# (at most 4/3 of the CSR arrays' memory): one vectorised product per row and kernel
# column, not a gather per entry. Fit time, dense / sparse rows: pendigits 0.58,
# heart_scale 0.69, housing 0.76, svmguide1 0.85. 'smo' keeps LIBSVM's sparse sums.
SMO_DENSE_ROWS_DENSITY = 0.5


def smo_trains_dense_rows(X, str solver):
    """Whether SMO trains on dense float64 rows for the sparse matrix X under `solver`:
    not under 'smo' (LIBSVM's sparse sums), else where X stores at least
    `SMO_DENSE_ROWS_DENSITY` of its entries (explicit zeros count).

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
    >>> smo_trains_dense_rows(X, "auto"), smo_trains_dense_rows(X, "smo")
    (True, False)
    """
    return (solver != "smo" and X.shape[1] > 0
            and X.nnz >= SMO_DENSE_ROWS_DENSITY * float(X.shape[0]) * X.shape[1])


cdef Rows gather_rows(X, rows, str solver="smo"):
    """An engine-owned copy of the rows `rows` of X, in X's own storage: CSR stays sparse
    (unless `smo_trains_dense_rows`: float64 rows), float32 stays float32, else float64."""
    if sp.issparse(X):
        if smo_trains_dense_rows(X, solver):
            return DenseRows(gather_csr_rows_dense(X, rows))
        data, indices, indptr = gather_csr_rows(X, rows)
        indices, n_features = stored_columns(indices, X.shape[1])  # CsrRows scatters rows
        return CsrRows(data, indices, np.ascontiguousarray(indptr, dtype=np.int64), n_features)
    X = np.asarray(X)
    if X.dtype == np.float32:
        return DenseRows32(np.ascontiguousarray(X[rows]))
    return DenseRows(np.ascontiguousarray(X[rows], dtype=np.float64))


cdef Kernel make_kernel(X, rows, kernel, solve):
    """A kernel over the rows `rows` of X (for 'precomputed', X is the Gram matrix).

    Under ``solve.solver='smo'`` the rows keep X's storage, so that sparse rows
    take LIBSVM's sparse sums; otherwise dense enough sparse rows become dense.
    """
    rows = np.asarray(rows, dtype=np.intp)
    if kernel.is_precomputed and isinstance(X, LazyGram):
        data = LazyGramRows(X, rows)  # rows of it computed as the solve reads them
    elif kernel.is_precomputed:  # read in place: the pairs' float32 Gram matrix or the user's
        X = np.asarray(X)
        if X.dtype == np.float32:
            data = GramRows32(np.ascontiguousarray(X), rows)
        else:
            data = GramRows(np.ascontiguousarray(X, dtype=np.float64), rows)
    else:
        data = gather_rows(X, rows, solve.solver)
    return Kernel(data, kernel.kernel_type, kernel.degree, kernel.gamma, kernel.coef0)


def lazy_gram(X, rows, kernel, str solver="auto"):
    """K over the rows `rows` of X, each row computed the first time a solve reads it.

    Problems over subsets of those rows train on it (`train_one` with
    ``kernel.as_gram()`` and their positions among `rows`): a kernel row one of them
    computed serves the others. ``values_at(rows, columns)`` reads a block. The values
    are a kernel cache's for the rows `train_one` gathers under `solver`.

    Examples
    --------
    >>> from svmx._specs import KernelSpec
    >>> gram = lazy_gram(np.eye(4), [1, 2], KernelSpec.named("linear"))
    >>> gram.values_at([0, 1], [0, 1]).tolist(), gram.n_samples
    ([[1.0, 0.0], [0.0, 1.0]], 2)
    """
    if kernel.is_precomputed:
        raise ValueError("lazy_gram: the kernel must be a built-in kernel, not 'precomputed'")
    data = gather_rows(X, np.asarray(rows, dtype=np.intp), solver)
    return LazyGram(Kernel(data, kernel.kernel_type, kernel.degree, kernel.gamma, kernel.coef0))


cdef Solution solution_of(const SolutionInfo* info, coef, str solver):
    """The engine's solution info as a Solution; failures become exceptions here."""
    raise_for_status(info.status)
    cdef Solution solution = Solution()
    solution.coef, solution.solver = coef, solver
    solution.rho, solution.obj, solution.r = info.rho, info.obj, info.r  # (nu-SVR sets epsilon)
    solution.n_iter, solution.n_kernel_rows = info.n_iter, info.n_kernel_rows
    solution.status = SOLVED if info.status == 0 else MAX_ITER
    return solution


cdef int engine_threads(int threads):
    """Threads for OpenMP loops: at most OpenMP's limit, so that threadpoolctl's hold."""
    return max(1, min(threads, openmp_max_threads()))


cdef class EngineLog:
    """A Python training log as the engine's SolverLog.

    ``out(text)`` and ``err(text)`` receive LIBSVM's text; ``progress(n_iter, gap, tol)``,
    if the log has it, how far the solve has come. The solver calls without the GIL;
    each call takes it (a few times per thousand iterations). An exception raised by
    the log is kept and re-raised after the solve.
    """
    cdef SolverLog log
    cdef object target
    cdef object error

    def __cinit__(self, target):
        self.target = target
        self.error = None
        self.log.write = write_to_log
        self.log.progress = NULL
        if hasattr(target, "progress"):
            self.log.progress = progress_to_log
        self.log.context = <void*> self

    cdef void deliver(self, const char* text, bint to_stderr) noexcept:
        if self.error is not None:
            return
        try:
            message = text.decode("ascii")
            (self.target.err if to_stderr else self.target.out)(message)
        except BaseException as error:  # noqa: B036 - re-raised after the solve
            self.error = error

    cdef void advance(self, long n_iter, double gap, double eps) noexcept:
        if self.error is not None:
            return
        try:
            self.target.progress(n_iter, gap, eps)
        except BaseException as error:  # noqa: B036 - re-raised after the solve
            self.error = error


cdef void write_to_log(void* context, const char* text, bint to_stderr) noexcept nogil:
    with gil:
        (<EngineLog> context).deliver(text, to_stderr)


cdef void progress_to_log(void* context, long n_iter, double gap, double eps) noexcept nogil:
    with gil:
        (<EngineLog> context).advance(n_iter, gap, eps)


cdef run_smo(Solver solver, QMatrix Q, double[::1] p, signed char[::1] y,
             double[::1] alpha, double[::1] C, solve, Gradients* gradients=NULL):
    cdef SolutionInfo info
    cdef int l = <int> p.shape[0]
    cdef double tol = solve.tol
    cdef bint shrinking = solve.shrinking
    cdef long max_iter = solve.max_iter
    cdef bint check_signals = on_main_thread()
    cdef EngineLog engine_log = None if solve.log is None else EngineLog(solve.log)
    cdef const SolverLog* log = NULL if engine_log is None else &engine_log.log
    with nogil:
        solver.solve(l, Q, &p[0], &y[0], &alpha[0], &C[0], tol, shrinking,
                     max_iter, check_signals, &info, log, gradients)
    if engine_log is not None and engine_log.error is not None:
        raise engine_log.error
    return info


# Sparse data at most this dense keeps its CSR form in the block solver: sparse-times-
# dense block products then cost less than an SGEMM over the zeros.
SPARSE_BLOCK_DENSITY = 0.25


cdef Rows block_rows(X, rows, double cache_bytes):
    """Rows for the block solver: float32 for dense data, and for sparse data that is
    dense enough and whose dense float32 form fits in the cache budget (an SGEMM then
    beats sparse products)."""
    cdef Rows sparse_rows
    if sp.issparse(X):
        density = X.nnz / max(1.0, float(X.shape[0]) * X.shape[1])
        if density > SPARSE_BLOCK_DENSITY and X.shape[1] * len(rows) * 4.0 <= cache_bytes:
            subset = X[rows]
            dense = np.zeros((len(rows), X.shape[1]), dtype=np.float32)
            for start in range(0, len(rows), 4096):
                dense[start:start + 4096] = subset[start:start + 4096].toarray()
            return DenseRows32(dense)
        sparse_rows = gather_rows(X, rows)
        sparse_rows.reserve_block(0)
        return sparse_rows
    return DenseRows32(np.ascontiguousarray(np.asarray(X)[rows], dtype=np.float32))


cdef run_block(X, rows, double[::1] p, signed char[::1] y, double[::1] alpha,
               double[::1] C, kernel, solve, int copies):
    """The block solver on the rows `rows` of X; `copies` = 2 for SVR's 2l variables."""
    cdef SolutionInfo info
    cdef KernelParams params = kernel_params_of(kernel)
    cdef double tol = solve.tol
    cdef long max_iter = solve.max_iter
    cdef Rows data = block_rows(X, rows, solve.cache_bytes / copies)
    cdef BlockSolver solver = BlockSolver()
    cdef bint check_signals = on_main_thread()
    cdef int size = block_size_for(p.shape[0], solve.cache_bytes)
    if isinstance(data, DenseRows32):
        (<DenseRows32> data).reserve_block(size)
    if copies > 1:
        data = TiledRows(data, copies)
    data.set_threads(engine_threads(solve.threads))
    cdef EngineLog engine_log = None if solve.log is None else EngineLog(solve.log)
    cdef const SolverLog* log = NULL if engine_log is None else &engine_log.log
    with nogil:
        solver.solve(data, &params, &p[0], &y[0], &alpha[0], &C[0], tol, max_iter, size,
                     check_signals, &info, log)
    if engine_log is not None and engine_log.error is not None:
        raise engine_log.error
    return info


cdef Solution train_c_svc(X, rows, problem, kernel, solve, str engine):
    cdef Py_ssize_t l = problem.n_rows
    cdef SolutionInfo info
    cdef Gradients seeded  # a seed (a warm start) is near its optimum: SMO shrinks at once
    cdef double[::1] G, G_bar
    cdef Solution solution
    cdef const unsigned char[::1] active = None
    seeded.G = seeded.G_bar = NULL
    seeded.given = False
    seeded.near_optimum = problem.initial_alpha is not None and problem.initial_alpha.any()
    seeded.whole_rows = seeded.near_optimum and isinstance(X, LazyGram)  # a Platt fold's
    seeded.active = NULL
    if problem.start_active is not None and l > 0:  # the rows a seeded start is shrunk to
        active = problem.start_active.view(np.uint8)
        seeded.active = &active[0]
    y = problem.y
    alpha = problem.starting_alpha()
    p = np.full(l, -1.0)
    # SMO takes the start's gradients (a copy: it writes the solution's over them).
    gradients = (tuple(g.copy() for g in problem.initial_gradients) if problem.initial_gradients
                 else (np.empty(l), np.empty(l)) if problem.keep_gradients else None)
    if engine == "block":
        info = run_block(X, rows, p, y, alpha, problem.C, kernel, solve, 1)
    else:
        if gradients is not None and l > 0:
            G, G_bar = gradients
            seeded.G, seeded.G_bar = &G[0], &G_bar[0]
            seeded.given = problem.initial_gradients is not None
        Q = SvcQ(make_kernel(X, rows, kernel, solve), y, solve.cache_bytes, solve.memories)
        info = run_smo(Solver(), Q, p, y, alpha, problem.C, solve, &seeded)
    solution = solution_of(&info, alpha * np.asarray(y, dtype=np.float64), engine)
    if problem.keep_gradients and engine != "block":
        solution.gradients = gradients
    return solution


cdef Solution train_nu_svc(X, rows, problem, kernel, solve):
    """nu-SVC, rescaled by the offset r so that it has C-SVC's form."""
    cdef signed char[::1] y = problem.y
    cdef double[::1] C = problem.C
    cdef Py_ssize_t i, l = y.shape[0]
    cdef double sum_pos, sum_neg, r
    cdef SolutionInfo info
    cdef Solution solution
    alpha = np.zeros(l, dtype=np.float64)
    cdef double[::1] start = alpha
    sum_pos = sum_neg = problem.nu * float(np.sum(C)) / 2.0
    for i in range(l):
        if y[i] == 1:
            start[i] = min(C[i], sum_pos)
            sum_pos -= start[i]
        else:
            start[i] = min(C[i], sum_neg)
            sum_neg -= start[i]
    Q = SvcQ(make_kernel(X, rows, kernel, solve), y, solve.cache_bytes, solve.memories)
    info = run_smo(SolverNU(), Q, np.zeros(l, dtype=np.float64), y, alpha, C, solve)
    coef = alpha * np.asarray(y, dtype=np.float64)
    r = info.r
    # LIBSVM divides by r whatever its sign: r < 0 (a kernel that is not positive semi-definite,
    # such as some sigmoids) still gives LIBSVM's finite model. Only r = 0 (or not finite) cannot.
    if r == 0 or not isfinite(r):
        solution = solution_of(&info, coef, "smo")
        solution.status = NO_MARGIN
        return solution
    info.rho /= r
    info.obj /= r * r
    # alpha_i * (y_i / r), LIBSVM's rounding (not alpha_i y_i / r).
    return solution_of(&info, alpha * (np.asarray(y, dtype=np.float64) / r), "smo")


cdef Solution train_one_class(X, rows, problem, kernel, solve, str engine):
    """One-class SVM: the first variables are filled up to nu * sum(C)."""
    cdef double[::1] C = problem.C
    cdef Py_ssize_t i, l = C.shape[0]
    cdef double remaining = problem.nu * float(np.sum(C))
    cdef SolutionInfo info
    alpha = np.zeros(l, dtype=np.float64)
    cdef double[::1] start = alpha
    for i in range(l):
        start[i] = min(C[i], remaining)
        remaining -= start[i]
        if remaining <= 0:
            break
    y = np.ones(l, dtype=np.int8)
    p = np.zeros(l, dtype=np.float64)
    if engine == "block":
        info = run_block(X, rows, p, y, alpha, C, kernel, solve, 1)
    else:
        Q = OneClassQ(make_kernel(X, rows, kernel, solve), solve.cache_bytes, solve.memories)
        info = run_smo(Solver(), Q, p, y, alpha, C, solve)
    return solution_of(&info, alpha, engine)


cdef Solution train_epsilon_svr(X, rows, problem, kernel, solve, str engine):
    """epsilon-SVR as a 2l-variable problem; coef = alpha - alpha*."""
    cdef Py_ssize_t l = problem.n_rows
    cdef SolutionInfo info
    values = problem.target
    alpha = problem.starting_alpha(2)
    p = np.concatenate([problem.epsilon - values, problem.epsilon + values])
    y = np.concatenate([np.ones(l, dtype=np.int8), -np.ones(l, dtype=np.int8)])
    bounds = np.concatenate([problem.C, problem.C])
    if engine == "block":
        info = run_block(X, rows, p, y, alpha, bounds, kernel, solve, 2)
    else:
        Q = SvrQ(make_kernel(X, rows, kernel, solve), solve.cache_bytes, solve.memories)
        info = run_smo(Solver(), Q, p, y, alpha, bounds, solve)
    return solution_of(&info, alpha[:l] - alpha[l:], engine)


cdef Solution train_nu_svr(X, rows, problem, kernel, solve):
    """nu-SVR as a 2l-variable problem; the Solution's epsilon is the tube found (-r)."""
    cdef double[::1] C = problem.C
    cdef Py_ssize_t i, l = C.shape[0]
    cdef double nu = problem.nu, remaining
    cdef SolutionInfo info
    cdef Solution solution
    # LIBSVM's start, C nu l / 2 in that order (nu sum(C) / 2 can differ by an ulp and send
    # SMO down another path); sample weights make the bounds differ.
    if l and bool(np.all(problem.C == C[0])):
        remaining = C[0] * nu * l / 2.0
    else:
        remaining = nu * float(np.sum(C)) / 2.0
    values = problem.target
    alpha = np.zeros(2 * l, dtype=np.float64)
    cdef double[::1] start = alpha
    for i in range(l):
        start[i] = min(remaining, C[i])
        start[i + l] = start[i]
        remaining -= start[i]
    Q = SvrQ(make_kernel(X, rows, kernel, solve), solve.cache_bytes, solve.memories)
    p = np.concatenate([-values, values])
    y = np.concatenate([np.ones(l, dtype=np.int8), -np.ones(l, dtype=np.int8)])
    bounds = np.concatenate([problem.C, problem.C])
    info = run_smo(SolverNU(), Q, p, y, alpha, bounds, solve)
    solution = solution_of(&info, alpha[:l] - alpha[l:], "smo")
    solution.epsilon = -info.r
    return solution


def train_one(X, rows, problem, kernel, solve):
    """Solve one LIBSVM problem on the rows `rows` of X.

    Parameters
    ----------
    X : ndarray or CSR matrix
        The training matrix (float64 or float32), or for a precomputed
        kernel the Gram matrix over all samples.
    rows : array-like of int
        The rows of X the problem is over, in the order of ``problem``'s arrays.
    problem : svmx._specs.Problem
        The formulation, with labels or targets, upper bounds and nu/epsilon.
    kernel : svmx._specs.KernelSpec
    solve : svmx._specs.SolveSpec
        Which engine solves it is ``solve.engine_solver(...)``: LIBSVM's SMO
        step for step, or the block solver for large problems. With a
        ``solve.log``, SMO writes LIBSVM's solver output to it (the block
        solver writes nothing).

    Returns
    -------
    Solution

    Examples
    --------
    >>> from svmx._specs import KernelSpec, Problem, SolveSpec
    >>> X = np.array([[-1.0], [1.0]])
    >>> problem = Problem("c_svc", C=np.ones(2), y=np.array([1, -1], np.int8))
    >>> solve = SolveSpec("smo", 1e-3, 1048576.0, True, -1, 1)
    >>> solution = train_one(X, [0, 1], problem, KernelSpec.named("linear"), solve)
    >>> solution.coef.tolist(), solution.rho, solution.converged
    ([0.5, -0.5], 0.0, True)
    """
    formulation = problem.formulation
    engine = solve.engine_solver(formulation, kernel.kernel_type, len(rows))
    if formulation == "c_svc":
        return train_c_svc(X, rows, problem, kernel, solve, engine)
    if formulation == "nu_svc":
        return train_nu_svc(X, rows, problem, kernel, solve)
    if formulation == "one_class":
        return train_one_class(X, rows, problem, kernel, solve, engine)
    if formulation == "epsilon_svr":
        return train_epsilon_svr(X, rows, problem, kernel, solve, engine)
    return train_nu_svr(X, rows, problem, kernel, solve)


# Predictions of fewer kernel values than this run on one thread.
PREDICT_MIN_THREADED_VALUES = _MIN_THREADED_VALUES


def engine_serves(support_vectors):
    """True when `decision_values` can predict with these support vectors.

    The engine lays the vectors out by feature: sparse ones always, dense
    ones while their transposed copy stays within its size budget.

    Examples
    --------
    >>> engine_serves(np.ones((3, 2)))
    True
    """
    return _engine_serves(support_vectors)


def decision_values(X, support_vectors, dual_coef, n_support, kernel, int n_threads=1,
                    cache=None):
    """K(X, SV) W without the intercept: one column per one-vs-one pair (or one).

    ``dual_coef`` and ``n_support`` are in LIBSVM's layout; W is never formed.
    Rows are shared among `n_threads` threads; the values do not depend on it.
    ``cache`` (a `LayoutCache`, one per model) keeps the support vectors' layouts
    between calls.

    Examples
    --------
    >>> from svmx._specs import KernelSpec
    >>> vectors = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> decision_values(np.array([[2.0, 1.0]]), vectors, np.array([[1.0, -1.0]]),
    ...                 np.array([1, 1]), KernelSpec.named("linear")).tolist()
    [[1.0]]
    """
    return _engine_decision_values(
        X, support_vectors, dual_coef, n_support, kernel_type=kernel.kernel_type,
        degree=kernel.degree, gamma=kernel.gamma, coef0=kernel.coef0, n_threads=n_threads,
        cache=cache,
    )


def sigmoid_train(dec_values, labels):
    """Platt's (A, B, status) for decision values and +1 / -1 labels (see platt.pyx).

    Examples
    --------
    >>> A, B, status = sigmoid_train([-2.0, -1.0, 1.0, 2.0], [-1, 1, -1, 1])
    >>> status
    0
    """
    return sigmoid_train_py(dec_values, labels)


def sigmoid_predict(dec_values, double A, double B):
    """Platt's sigmoid ``1 / (1 + exp(A f + B))`` elementwise, without overflow.

    Examples
    --------
    >>> sigmoid_predict([0.0], -1.0, 0.0).tolist()
    [0.5]
    """
    return sigmoid_predict_py(dec_values, A, B)


def pairwise_coupling(R):
    """Class probabilities (n_samples, k) from pairwise ones R (n_samples, k, k).

    Examples
    --------
    >>> pairwise_coupling(np.array([[[0.0, 0.5], [0.5, 0.0]]])).tolist()
    [[0.5, 0.5]]
    """
    return _pairwise_coupling(R)


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
