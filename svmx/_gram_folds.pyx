# cython: language_level=3, cdivision=True
"""One fold of a grid search on a shared Gram matrix: its fits along C, in one object.

Part of the binding (`svmx._libsvm` re-exports these). The grid search by kernel
(`svmx.model_selection._kernel_groups`) computes K over all the samples once per
kernel; a fold is then a set of rows of K. `ClassifierFold` holds a fold's
one-vs-one C-SVC pairs and `RegressorFold` its epsilon-SVR problem, each read from K
in place through the engine's `GramRows`. ``solve(C, ...)`` runs the SMO engine on
every problem for one C, started from the last solve's solution scaled into the new
box (alpha seeding along C, `best_scale`); the held-out rows' decision values (or the
regression's predictions) come from their block of K with one matrix product with the
dual coefficients (the caller votes, `svmx._layout.vote`). No estimator, layout or
validation is built per fit: a fold's candidates cost their solves and the kernel
sums of their predictions.
"""

import numpy as np

from libc.math cimport isfinite
from scipy.linalg.cython_blas cimport dgemm

from svmx._engine.gram_rows cimport GramRows
from svmx._engine.kernel cimport Kernel
from svmx._engine.qmatrix cimport QMatrix, SvcQ, SvrQ
from svmx._engine.solver cimport Gradients, SOLVE_MAX_ITER, SOLVE_OK, SolutionInfo, Solver
from svmx._solve_status cimport on_main_thread, raise_for_status

from svmx._free_set_newton import newton_steps

__all__ = ["ClassifierFold", "RegressorFold", "best_scale"]

# The engine's kernel type of a precomputed Gram matrix (svmx._specs.KERNEL_TYPES).
cdef int PRECOMPUTED_KERNEL = 4
# A seeded solve's rounds: SMO for NEWTON_FIRST_BUDGET (then NEWTON_BUDGET) pair updates
# per two variables, then Newton steps on the free variables until no bound blocks one
# (at most NEWTON_STEPS); NEWTON_ROUNDS rounds at most. The first round lets the easy
# solves (most of a grid) finish without a step; measured on svmguide1, pendigits and
# housing folds, budgets of 2-8 and 1-2 are within the noise of each other. A round's
# steps wait until the free block's factorisation, |F|^3 flops, is at most
# NEWTON_WORK_RATIO times the pair updates so far times the variables (BLAS flops run
# about that much faster than SMO's scans): 10 delayed housing's steps by rounds (a
# 1.5x slower fold), 50-200 measured alike; an SVR fold of 800 noisy rows at C = 1e4
# with 400 free variables took 0.7 s with the guard, 1.8 s without.
cdef long NEWTON_FIRST_BUDGET = 4
cdef long NEWTON_BUDGET = 1
cdef int NEWTON_STEPS = 100000
cdef int NEWTON_ROUNDS = 200
cdef double NEWTON_WORK_RATIO = 100.0
# ... and wait for this much SMO work in any case (pair updates times variables): a round
# of steps has a fixed cost (Python, the factorisation's set-up) of about 0.1-1 ms, which small
# problems' SMO passes undercut (heart_scale folds at C = 2^15: 400-1,000 updates of 216
# variables took longer with steps than without).
cdef double NEWTON_MIN_WORK = 2e6


cpdef double best_scale(double objective, double linear, double limit):
    """The s in [0, limit] minimising f(s) = s^2 A + s B, given f(1) = `objective` and
    B = `linear` (so A = objective - linear); `limit` where A is not positive or not
    finite. The scale of every warm start along C (`svmx._warm_start` explains it).

    Examples
    --------
    >>> best_scale(-3.0, -4.0, 4.0)  # A = 1, B = -4: s = 2
    2.0
    >>> best_scale(-7.0, -8.0, 2.0)  # s = 4, clipped to the box
    2.0
    """
    cdef double quadratic = objective - linear
    if not (isfinite(quadratic) and isfinite(linear)) or quadratic <= 0:
        return limit
    return min(max(-linear / (2.0 * quadratic), 0.0), limit)


cdef class SeededProblem:
    """One SMO problem of a fold, solved for one C after another, each solve started
    from the last solution scaled into the new box (`best_scale`) when `seeded`.

    The problem is min 0.5 a'Qa + p'a subject to y'a = 0 and 0 <= a_k <= C u_k, with
    the variables in their original order here; its Q matrix (and so its kernel
    cache) is kept from one solve to the next: it does not depend on C. The solver's
    shrinking leaves Q's variables permuted, so each solve poses the problem in Q's
    present order (`slot_order`) and puts the solution back.

    Seeded, with no iteration limit and the Gram matrix at hand (`gram`, and each
    variable's row of it, `gram_rows`), SMO runs in rounds (`NEWTON_FIRST_BUDGET`, then
    `NEWTON_BUDGET` pair updates per two variables); a round that does not finish is
    followed by Newton steps on the free variables (`svmx._free_set_newton`), and after
    `NEWTON_ROUNDS` rounds SMO runs without a limit. Every solve ends at SMO's stopping
    rule, at the same optimum within tol. A solve whose last solution is still optimal
    (`still_optimal`) returns it without a pass.

    The last solution's gradient G = Qa + p and G_bar are kept, so that no start pays a
    kernel column per support vector to rebuild them: a start scaled by s has gradient
    s (G - p) + p (`scaled_gradients`), and after Newton steps G and G_bar follow the
    variables that moved through their rows of the Gram matrix (`follow_moves`), at the
    float32 values the solver's Q holds.
    """
    cdef QMatrix Q
    cdef const double[::1] p, unit_bounds
    cdef const signed char[::1] labels
    cdef double[::1] alpha, slot_alpha, slot_bounds, slot_p
    cdef double[::1] G, G_bar, slot_G, slot_G_bar, moved_from
    cdef bint has_gradients
    cdef signed char[::1] slot_labels
    cdef Py_ssize_t[::1] order
    cdef double objective, rho, last_C
    cdef bint seeded, solved
    cdef object gram, gram_rows

    def __cinit__(self, QMatrix Q, p, labels, unit_bounds, bint seeded, gram=None,
                  gram_rows=None):
        cdef Py_ssize_t n = len(p)
        self.Q = Q
        self.p = np.ascontiguousarray(p, dtype=np.float64)
        self.labels = np.ascontiguousarray(labels, dtype=np.int8)
        self.unit_bounds = np.ascontiguousarray(unit_bounds, dtype=np.float64)
        self.alpha = np.zeros(n, dtype=np.float64)
        self.slot_alpha = np.zeros(n, dtype=np.float64)
        self.slot_bounds = np.zeros(n, dtype=np.float64)
        self.slot_p = np.zeros(n, dtype=np.float64)
        self.slot_labels = np.zeros(n, dtype=np.int8)
        self.order = np.arange(n, dtype=np.intp)
        self.G, self.G_bar = np.zeros(n, dtype=np.float64), np.zeros(n, dtype=np.float64)
        self.slot_G = np.zeros(n, dtype=np.float64)
        self.slot_G_bar = np.zeros(n, dtype=np.float64)
        self.moved_from = np.zeros(n, dtype=np.float64)
        self.has_gradients = False
        self.seeded = seeded
        self.solved = False
        self.gram = gram
        self.gram_rows = None if gram_rows is None else np.asarray(gram_rows, dtype=np.intp)

    cdef void slot_order(self) noexcept:
        """order[t] = the variable Q holds at slot t."""
        cdef Py_ssize_t t, l
        cdef SvcQ svc
        cdef SvrQ svr
        if isinstance(self.Q, SvcQ):
            svc = <SvcQ> self.Q
            for t in range(self.order.shape[0]):
                self.order[t] = svc.kernel.original_index[t]
        else:  # SvrQ: slot t is alpha (sign +1) or alpha* (sign -1) of row index[t]
            svr = <SvrQ> self.Q
            l = svr.l
            for t in range(self.order.shape[0]):
                self.order[t] = svr.index[t] + (0 if svr.sign[t] > 0 else l)

    cdef double start_scale(self, double C) noexcept:
        """The factor on the last solution that starts this solve (0: from zero)."""
        cdef Py_ssize_t k
        cdef double linear = 0.0
        if not self.seeded or not self.solved or C < self.last_C:
            return 0.0
        for k in range(self.alpha.shape[0]):
            linear += self.p[k] * self.alpha[k]
        return best_scale(self.objective, linear, C / self.last_C)

    cdef bint still_optimal(self, double C) noexcept:
        """Whether the last solution is this C's too: seeded, C no smaller, and no
        variable at its upper bound. Then the box only grows away from the solution, no
        variable changes side (free, or at 0), and the optimality gap is the one the last
        solve stopped at: the solve would end where it starts, after computing its
        gradient. (Separable pairs reach this from a moderate C on.)"""
        cdef Py_ssize_t k
        if not self.seeded or not self.solved or C < self.last_C:
            return False
        for k in range(self.alpha.shape[0]):
            if self.alpha[k] >= self.last_C * self.unit_bounds[k]:
                return False
        return True

    cdef bint newton_pays(self, double C, long n_iter) noexcept:
        """Whether Newton steps may follow this round: the pair updates made so far
        (n_iter times the n variables each scans) reach NEWTON_MIN_WORK, and the free
        block's factorisation (|F|^3 flops) costs at most NEWTON_WORK_RATIO times them,
        so a solve SMO would finish soon never pays for a factorisation (nor for the
        fixed cost of a round of steps), and one it struggles with gets the steps."""
        cdef Py_ssize_t k, n = self.alpha.shape[0]
        cdef double n_free = 0.0, work
        for k in range(n):
            if 0.0 < self.alpha[k] < C * self.unit_bounds[k]:
                n_free += 1.0
        work = <double> n_iter * n
        return work >= NEWTON_MIN_WORK and n_free * n_free * n_free <= NEWTON_WORK_RATIO * work

    cdef bint pose(self, double C, double scale, bint keep_bounded=False) noexcept:
        """The slots' problem for this C, started from `alpha` times `scale` (from zero
        where the start, clipped into the box, breaks y'a = 0 beyond rounding, as
        `Problem` drops such a seed); returns whether the start is the scaled one. With
        `keep_bounded` (`scale` is C / last_C) the variables at the last C's upper bound
        start at this C's, not an ulp below it as their product may fall."""
        cdef Py_ssize_t t, k, n = self.alpha.shape[0]
        cdef double value, total = 0.0, residual = 0.0
        self.slot_order()
        for t in range(n):
            k = self.order[t]
            self.slot_bounds[t] = C * self.unit_bounds[k]
            self.slot_labels[t] = self.labels[k]
            self.slot_p[t] = self.p[k]
            value = min(max(self.alpha[k] * scale, 0.0), self.slot_bounds[t])
            if keep_bounded and self.alpha[k] >= self.last_C * self.unit_bounds[k]:
                value = self.slot_bounds[t]
            self.slot_alpha[t] = value
            total += value
            residual += value if self.labels[k] > 0 else -value
        if not isfinite(residual) or abs(residual) > 1e-10 * max(1.0, total):
            self.slot_alpha[:] = 0.0
            return False
        return True

    cdef bint scaled_gradients(self, double C, double scale) noexcept:
        """The slots' G and G_bar at the posed start, `scale` times the last solution,
        from the kept ones; False where they do not follow (then the solver computes
        them). G is linear in a; G_bar is the last one times C / last_C where every
        variable at its upper bound stays there, 0 where none does."""
        cdef Py_ssize_t t, k, n = self.alpha.shape[0]
        cdef bint was_upper, is_upper, all_stay = True, none_stay = True
        if not self.has_gradients or scale <= 0.0:
            return False
        for t in range(n):
            k = self.order[t]
            was_upper = self.alpha[k] >= self.last_C * self.unit_bounds[k]
            is_upper = self.slot_alpha[t] >= self.slot_bounds[t]
            if is_upper and not was_upper:
                return False
            if was_upper:
                all_stay &= is_upper
                none_stay &= not is_upper
            self.slot_G[t] = scale * (self.G[k] - self.p[k]) + self.p[k]
        if not (all_stay or none_stay):
            return False
        for t in range(n):
            self.slot_G_bar[t] = self.G_bar[self.order[t]] * (C / self.last_C) if all_stay \
                else 0.0
        return True

    cdef void follow_moves(self, double C) except *:
        """Update the kept G and G_bar for the moves of `alpha` from `moved_from` (at one
        C): each variable that moved, or changed sides of its upper bound, adds its row
        of the Gram matrix at Q's values, y_j y_k float32(K)."""
        cdef const double[:, ::1] gram = self.gram
        cdef const Py_ssize_t[::1] rows = self.gram_rows
        cdef Py_ssize_t j, k, n = self.alpha.shape[0]
        cdef double delta, bar, bound, q
        cdef bint was_upper, is_upper
        for j in range(n):
            bound = C * self.unit_bounds[j]
            delta = self.alpha[j] - self.moved_from[j]
            was_upper = self.moved_from[j] >= bound
            is_upper = self.alpha[j] >= bound
            bar = 0.0 if was_upper == is_upper else (bound if is_upper else -bound)
            if delta == 0.0 and bar == 0.0:
                continue
            for k in range(n):
                q = self.labels[j] * self.labels[k] * <double> <float> gram[rows[j], rows[k]]
                self.G[k] += delta * q
                self.G_bar[k] += bar * q

    cdef SolutionInfo solve(self, double C, double tol, bint shrinking, long max_iter,
                            bint check_signals) except *:
        cdef SolutionInfo info
        cdef Solver solver = Solver()
        cdef Gradients gradients
        cdef Py_ssize_t t, k, n = self.alpha.shape[0]
        cdef double scale
        cdef long n_iter = 0, limit
        cdef int rounds = 0
        cdef bint newton = self.seeded and self.gram is not None and max_iter < 0
        if self.still_optimal(C):
            info.obj, info.rho, info.r, info.n_iter = self.objective, self.rho, 0.0, 0
            info.n_kernel_rows, info.status = 0, SOLVE_OK
            self.last_C = C
            return info
        scale = self.start_scale(C)
        gradients.given = (self.pose(C, scale, self.solved and scale == C / self.last_C)
                           and self.scaled_gradients(C, scale))
        gradients.G, gradients.G_bar = &self.slot_G[0], &self.slot_G_bar[0]
        gradients.near_optimum = False
        while True:
            limit = max_iter
            if newton and rounds < NEWTON_ROUNDS:  # the first round lets easy solves finish
                limit = max(n * (NEWTON_FIRST_BUDGET if rounds == 0 else NEWTON_BUDGET) // 2,
                            100)
            with nogil:
                solver.solve(<int> n, self.Q, &self.slot_p[0], &self.slot_labels[0],
                             &self.slot_alpha[0], &self.slot_bounds[0], tol, shrinking,
                             limit, check_signals, &info, NULL, &gradients)
            self.has_gradients = False
            raise_for_status(info.status)
            n_iter += info.n_iter
            for t in range(n):
                k = self.order[t]
                self.alpha[k] = self.slot_alpha[t]
                self.G[k], self.G_bar[k] = self.slot_G[t], self.slot_G_bar[t]
            self.has_gradients = True
            if info.status != SOLVE_MAX_ITER or limit == max_iter:
                break
            if self.newton_pays(C, n_iter):
                self.moved_from[:] = self.alpha
                self.has_gradients = False  # until G follows the steps' moves
                newton_steps(self.gram, self.gram_rows, np.asarray(self.labels),
                             np.asarray(self.p), C * np.asarray(self.unit_bounds),
                             np.asarray(self.alpha), NEWTON_STEPS)
                self.follow_moves(C)
                self.has_gradients = True
            gradients.given = self.pose(C, 1.0) and self.has_gradients
            for t in range(n):
                k = self.order[t]
                self.slot_G[t], self.slot_G_bar[t] = self.G[k], self.G_bar[k]
            rounds += 1
        info.n_iter = n_iter
        self.objective, self.rho, self.last_C, self.solved = info.obj, info.rho, C, True
        return info

    def kept_gradients(self):
        """Copies of the kept G and G_bar (the variables' order), or None before a solve."""
        if not self.has_gradients:
            return None
        return np.array(self.G), np.array(self.G_bar)


cdef Kernel gram_kernel(const double[:, ::1] gram, positions):
    return Kernel(GramRows(gram, positions), PRECOMPUTED_KERNEL, 0, 0.0, 0.0)


cdef inline Py_ssize_t pair_number(Py_ssize_t i, Py_ssize_t j, Py_ssize_t k) noexcept:
    """The position of pair (i, j), i < j, among k classes' pairs (0, 1), (0, 2), ..."""
    return i * k - i * (i + 1) // 2 + (j - i - 1)


cdef class ClassifierFold:
    """The one-vs-one C-SVC problems of one fold, over a shared Gram matrix.

    Parameters
    ----------
    gram : ndarray of shape (n, n), float64, C-contiguous
        K over all the samples; only read.
    class_positions : list of ndarray of int
        For each class (in the order of the classes' codes), its training rows:
        their positions in `gram`.
    class_bounds : list of ndarray of float64
        The same rows' upper bounds at C = 1 (class weight times sample weight).
    seeded : bool
        Whether each solve starts from the last one's solution and keeps the pairs'
        kernel caches (for a positive semi-definite kernel, whose dual is convex: the
        optimum does not depend on the start). Unseeded, each solve is a fresh fit's.

    Pair (i, j), i < j, is class i's rows (+1) then class j's (-1), as `fit` poses it.
    Each pair's kernel cache may take `cache_bytes` (the argument of `solve`); a pair
    never holds more than its own Q matrix, and all of them together less than the
    Gram matrix.

    Examples
    --------
    >>> gram = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.1], [0.0, 0.1, 1.0]])
    >>> fold = ClassifierFold(gram, [np.array([0]), np.array([1, 2])],
    ...                       [np.ones(1), np.ones(2)], True)
    >>> n_iter, stopped_early = fold.solve(10.0, 1e-3, True, -1, 1e6)
    >>> (fold.decision_values(gram[np.ix_([0, 2], fold.training_rows)]) > 0).ravel().tolist()
    [True, False]
    """
    cdef const double[:, ::1] gram
    cdef list class_positions, pairs, positions, labels, unit_bounds, problems
    cdef bint seeded

    def __init__(self, const double[:, ::1] gram, list class_positions, list class_bounds,
                 bint seeded):
        cdef Py_ssize_t i, j
        self.gram = gram
        self.class_positions = [np.asarray(rows, dtype=np.intp) for rows in class_positions]
        self.seeded = seeded
        self.pairs, self.positions, self.labels, self.unit_bounds = [], [], [], []
        for i in range(len(class_positions)):
            for j in range(i + 1, len(class_positions)):
                first, second = self.class_positions[i], self.class_positions[j]
                self.pairs.append((i, j))
                self.positions.append(np.concatenate([first, second]))
                self.labels.append(np.concatenate([np.ones(len(first), np.int8),
                                                   -np.ones(len(second), np.int8)]))
                self.unit_bounds.append(np.concatenate([class_bounds[i], class_bounds[j]])
                                        .astype(np.float64))
        self.problems = [None] * len(self.pairs)

    def solve(self, double C, double tol, bint shrinking, long max_iter, double cache_bytes):
        """Solve every pair for this C; returns (iterations per pair, whether any pair
        stopped at `max_iter`)."""
        cdef Py_ssize_t number
        cdef SolutionInfo info
        cdef SeededProblem problem
        cdef bint stopped_early = False, check_signals = on_main_thread()
        n_iter = np.zeros(len(self.pairs), dtype=np.int64)
        for number in range(len(self.pairs)):
            # Unseeded (a kernel that need not be positive semi-definite), every C is a
            # fresh problem in its original order: the fresh fit's solve exactly.
            if self.problems[number] is None or not self.seeded:
                labels = self.labels[number]
                Q = SvcQ(gram_kernel(self.gram, self.positions[number]), labels, cache_bytes)
                self.problems[number] = SeededProblem(
                    Q, np.full(len(labels), -1.0), labels, self.unit_bounds[number],
                    self.seeded, np.asarray(self.gram), self.positions[number])
            problem = self.problems[number]
            info = problem.solve(C, tol, shrinking, max_iter, check_signals)
            n_iter[number] = info.n_iter
            stopped_early |= info.status != SOLVE_OK
        return n_iter, bool(stopped_early)

    def gradients(self):
        """Each pair's kept G = Qa + p and G_bar (its variables in pair order: class i's
        rows, then class j's), as the next solve starts from them; for tests."""
        return [None if problem is None else problem.kept_gradients()
                for problem in self.problems]

    @property
    def training_rows(self):
        """The fold's training rows (their positions in the Gram matrix), class by class:
        the columns of the kernel block `decision_values` takes."""
        return np.concatenate(self.class_positions).astype(np.intp)

    def dual_coef(self):
        """y_k alpha_k of every training row (as `training_rows`) in every pair, of shape
        (n_rows, n_pairs): zero where the row is not in the pair or not a support vector."""
        cdef Py_ssize_t number, k, first, second
        cdef SeededProblem problem
        sizes = [len(rows) for rows in self.class_positions]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)
        coef = np.zeros((offsets[-1], len(self.pairs)), dtype=np.float64)
        cdef double[:, ::1] out = coef
        for number in range(len(self.pairs)):
            if self.problems[number] is None:
                raise RuntimeError("ClassifierFold.solve has not run")
            problem = self.problems[number]
            i, j = self.pairs[number]
            # Variable k < n_i is row offsets[i] + k; the rest are class j's rows.
            first, second = offsets[i], offsets[j] - sizes[i]
            for k in range(problem.alpha.shape[0]):
                if problem.labels[k] > 0:
                    out[first + k, number] = problem.alpha[k]
                else:
                    out[second + k, number] = -problem.alpha[k]
        return coef

    def decision_values(self, kernel_block):
        """Each pair's decision value at m samples, of shape (m, n_pairs), from their
        kernel values against `training_rows` (shape (m, n_rows)).

        Class by class, in LIBSVM's layout: the block's columns of class c times the
        (n_c, k - 1) coefficients of its rows in the pairs it is in (one DGEMM per
        class, k - 1 columns each, where one product with `dual_coef` would multiply
        zeros in all but 2 of its k row groups).
        """
        cdef const double[:, ::1] block = np.ascontiguousarray(kernel_block,
                                                               dtype=np.float64)
        cdef Py_ssize_t k = len(self.class_positions), m = block.shape[0]
        cdef Py_ssize_t n_rows = block.shape[1], c, d, r, q, number, start = 0, n_c
        cdef double[:, ::1] values = np.empty((m, len(self.pairs)), dtype=np.float64)
        cdef double[:, ::1] weights, products
        cdef int m_int = <int> m, ld = <int> n_rows, width = <int> max(k - 1, 1), n_int
        cdef double one = 1.0, zero = 0.0
        cdef char no = b"N"
        if n_rows != sum(len(rows) for rows in self.class_positions):
            raise ValueError(f"kernel_block must have one column per training row "
                             f"({sum(len(rows) for rows in self.class_positions)}); "
                             f"got {n_rows}")
        cdef double rho
        for number in range(len(self.pairs)):
            if self.problems[number] is None:
                raise RuntimeError("ClassifierFold.solve has not run")
            rho = (<SeededProblem> self.problems[number]).rho
            for r in range(m):
                values[r, number] = -rho
        if m == 0:
            return np.asarray(values)
        products = np.empty((m, width), dtype=np.float64)
        for c in range(k):
            n_c = len(self.class_positions[c])
            if n_c == 0:
                continue
            weights = self.class_weights(c)
            n_int = <int> n_c
            # products (m x width, row-major) = block[:, start:start + n_c] @ weights,
            # as column-major BLAS sees it: products^T = weights^T block[:, ...]^T.
            dgemm(&no, &no, &width, &m_int, &n_int, &one, &weights[0, 0], &width,
                  &block[0, start], &ld, &zero, &products[0, 0], &width)
            for d in range(k):
                if d == c:
                    continue
                q = d if d < c else d - 1
                number = pair_number(min(c, d), max(c, d), k)
                for r in range(m):
                    values[r, number] += products[r, q]
            start += n_c
        return np.asarray(values)

    cdef double[:, ::1] class_weights(self, Py_ssize_t c):
        """y alpha of class c's rows (in `class_positions` order) in the pair with each
        other class d, at column d (d < c) or d - 1: LIBSVM's dual_coef layout."""
        cdef Py_ssize_t k = len(self.class_positions), d, q, t, number, n_c, first
        cdef SeededProblem problem
        n_c = len(self.class_positions[c])
        cdef double[:, ::1] weights = np.zeros((n_c, max(k - 1, 1)), dtype=np.float64)
        for d in range(k):
            if d == c:
                continue
            q = d if d < c else d - 1
            number = pair_number(min(c, d), max(c, d), k)
            problem = self.problems[number]
            # Pair (i, j) holds class i's rows first: class c's start at 0 or n_i.
            first = 0 if c < d else len(self.class_positions[d])
            for t in range(n_c):
                weights[t, q] = problem.labels[first + t] * problem.alpha[first + t]
        return weights


cdef class RegressorFold:
    """The epsilon-SVR problem of one fold, over a shared Gram matrix.

    Parameters
    ----------
    gram : ndarray of shape (n, n), float64, C-contiguous
    positions : ndarray of int
        The fold's training rows: their positions in `gram`.
    targets : ndarray of float64
        Their targets.
    unit_bounds : ndarray of float64
        Their upper bounds at C = 1 (the sample weights).
    epsilon : float
        The tube's half-width.
    seeded : bool
        As for `ClassifierFold`.

    Variable k < l is alpha_k, variable l + k is alpha*_k (LIBSVM's 2l-variable form).

    Examples
    --------
    >>> gram = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> fold = RegressorFold(gram, np.array([0, 1]), np.array([1.0, -1.0]), np.ones(2),
    ...                      0.1, True)
    >>> n_iter, stopped_early = fold.solve(10.0, 1e-3, True, -1, 1e6)
    >>> fold.predict(gram[:, fold.training_rows]).round(6).tolist()
    [0.9, -0.9]
    """
    cdef const double[:, ::1] gram
    cdef object positions, targets, unit_bounds
    cdef double epsilon
    cdef bint seeded
    cdef SeededProblem problem

    def __init__(self, const double[:, ::1] gram, positions, targets, unit_bounds,
                 double epsilon, bint seeded):
        self.gram = gram
        self.positions = np.ascontiguousarray(positions, dtype=np.intp)
        self.targets = np.ascontiguousarray(targets, dtype=np.float64)
        self.unit_bounds = np.ascontiguousarray(unit_bounds, dtype=np.float64)
        self.epsilon = epsilon
        self.seeded = seeded
        self.problem = None

    def solve(self, double C, double tol, bint shrinking, long max_iter, double cache_bytes):
        """Solve for this C; returns (iterations, whether it stopped at `max_iter`)."""
        cdef SolutionInfo info
        cdef Py_ssize_t l = len(self.positions)
        if self.problem is None or not self.seeded:
            self.problem = SeededProblem(
                SvrQ(gram_kernel(self.gram, self.positions), cache_bytes),
                np.concatenate([self.epsilon - self.targets, self.epsilon + self.targets]),
                np.concatenate([np.ones(l, np.int8), -np.ones(l, np.int8)]),
                np.concatenate([self.unit_bounds, self.unit_bounds]), self.seeded,
                np.asarray(self.gram), np.concatenate([self.positions, self.positions]))
        info = self.problem.solve(C, tol, shrinking, max_iter, on_main_thread())
        return np.array([info.n_iter], dtype=np.int64), info.status != SOLVE_OK

    def gradients(self):
        """The kept G = Qa + p and G_bar of the 2l variables, as the next solve starts
        from them; for tests."""
        return None if self.problem is None else self.problem.kept_gradients()

    @property
    def training_rows(self):
        """The fold's training rows (their positions in the Gram matrix): the columns
        of the kernel block `predict` takes."""
        return self.positions

    def dual_coef(self):
        """alpha_k - alpha*_k of every training row (as `training_rows`)."""
        if self.problem is None:
            raise RuntimeError("RegressorFold.solve has not run")
        cdef Py_ssize_t l = len(self.positions)
        alpha = np.asarray(self.problem.alpha)
        return alpha[:l] - alpha[l:]

    def predict(self, kernel_block):
        """The predictions at m samples from their kernel values against
        `training_rows` (shape (m, n_rows))."""
        if self.problem is None:
            raise RuntimeError("RegressorFold.solve has not run")
        cdef Py_ssize_t l = len(self.positions)
        alpha = np.asarray(self.problem.alpha)
        return np.asarray(kernel_block, dtype=np.float64) @ (alpha[:l] - alpha[l:]) \
            - self.problem.rho
