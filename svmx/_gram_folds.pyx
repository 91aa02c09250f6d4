# cython: language_level=3, cdivision=True
"""One fold of a grid search on a shared Gram matrix: its fits along C, in one object.

Part of the binding (`svmx._libsvm` re-exports these). The grid search by kernel
(`svmx.model_selection._kernel_groups`) computes K over all the samples once per
kernel; a fold is then a set of rows of K. `ClassifierFold` holds a fold's
one-vs-one C-SVC pairs and `RegressorFold` its epsilon-SVR problem, each read from K
in place through the engine's `GramRows`. ``solve(C, ...)`` runs the SMO engine on
every problem for one C, started from the last solve's solution scaled into the new
box (alpha seeding along C, `svmx._seeded_problem`); the held-out rows' decision values (or the
regression's predictions) come from their block of K with one matrix product with the
dual coefficients (the caller votes, `svmx._layout.vote`). No estimator, layout or
validation is built per fit: a fold's candidates cost their solves and the kernel
sums of their predictions.
"""

import numpy as np

cimport cython

from scipy.linalg.cython_blas cimport dgemm, dgemv

from svmx._engine.cache cimport CacheMemories
from svmx._engine.gram_rows cimport GramRows
from svmx._engine.kernel cimport Kernel
from svmx._engine.qmatrix cimport SvcQ, SvrQ
from svmx._engine.solver cimport SOLVE_OK, SolutionInfo
from svmx._seeded_problem cimport SeededProblem
from svmx._solve_status cimport on_main_thread

from svmx._seed_scale import best_scale

__all__ = ["ClassifierFold", "RegressorFold", "best_scale", "kernel_block"]

# The engine's kernel type of a precomputed Gram matrix (svmx._specs.KERNEL_TYPES).
cdef int PRECOMPUTED_KERNEL = 4
# Held-out decision values gather the support vectors' kernel columns (an element copy
# each) where that costs less than multiplying the others' zero coefficients: a
# gathered entry costs about GATHER_COST of the product's multiply-adds
# (`ClassifierFold.decision_values`), or GATHER_COST_WIDE of a matrix product's (more
# than one column of coefficients, whose multiply-adds run faster). Measured on folds of
# svmguide1 (1 column): the two break even near a tenth of the rows being support
# vectors. On pendigits (9 columns) a cost of 8 gathered up to half of them, and on an
# Intel Xeon (Sapphire Rapids) the gather then took 124 us where the product over every
# row took 98 us (376 support vectors of 800 rows); no share gathered paid there.
cdef double GATHER_COST = 8.0
cdef double GATHER_COST_WIDE = 40.0


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
    cdef list class_positions, class_bounds, pairs, positions, labels, unit_bounds, problems
    cdef object minus_ones, gram_array
    cdef bint seeded
    cdef CacheMemories memories
    # Whether the last `solve` moved any pair's solution (False where every pair's last
    # solution was still optimal: the decision values are then those before it).
    cdef readonly bint changed

    def __init__(self, const double[:, ::1] gram, list class_positions, list class_bounds,
                 bint seeded):
        cdef Py_ssize_t i, j
        self.gram = gram
        self.class_positions = [np.asarray(rows, dtype=np.intp) for rows in class_positions]
        self.class_bounds = [np.ascontiguousarray(bounds, dtype=np.float64)
                             for bounds in class_bounds]
        self.seeded = seeded
        self.pairs, self.positions, self.labels, self.unit_bounds = [], [], [], []
        plus = [np.ones(len(rows), np.int8) for rows in self.class_positions]
        minus = [-ones for ones in plus]
        for i in range(len(class_positions)):
            for j in range(i + 1, len(class_positions)):
                self.pairs.append((i, j))
                self.positions.append(np.concatenate([self.class_positions[i],
                                                      self.class_positions[j]]))
                self.labels.append(np.concatenate([plus[i], minus[j]]))
                self.unit_bounds.append(np.concatenate([self.class_bounds[i],
                                                        self.class_bounds[j]]))
        sizes = [len(labels) for labels in self.labels]
        self.minus_ones = -np.ones(max(sizes, default=0))  # each pair's p, a view of it
        self.gram_array = np.asarray(self.gram)
        self.problems = [None] * len(self.pairs)
        # Every pair's cache lives as long as the fold: one block each where its budget
        # holds its matrix (slab mode), instead of a malloc per kernel column.
        self.memories = CacheMemories(max(len(self.pairs), 1), 0)

    def solve(self, double C, double tol, bint shrinking, long max_iter, double cache_bytes,
              tuple start=None):
        """Solve every pair for this C; returns (iterations per pair, whether any pair
        stopped at `max_iter`). `start` (another fold's `solution()` at this C, over
        the same Gram matrix and classes) starts the pairs this call poses from its
        solutions on the rows both folds train on (`SeededProblem.start_from`)."""
        cdef Py_ssize_t number
        cdef SolutionInfo info
        cdef SeededProblem problem
        cdef bint stopped_early = False, check_signals = on_main_thread(), changed = False
        cdef double[::1] scratch = None
        n_iter = np.zeros(len(self.pairs), dtype=np.int64)
        cdef long long[::1] iterations = n_iter
        if (start is not None and self.seeded and start[0] == C
                and len(start[1]) == len(self.pairs)):
            scratch = np.zeros(self.gram.shape[0], dtype=np.float64)
        sums = None
        if self.seeded and self.problems[0] is None and len(self.pairs) > 0:
            sums = self.class_sums()
        for number in range(len(self.pairs)):
            # Unseeded (a kernel that need not be positive semi-definite), every C is a
            # fresh problem in its original order: the fresh fit's solve exactly.
            if self.problems[number] is None or not self.seeded:
                labels = self.labels[number]
                Q = SvcQ(gram_kernel(self.gram, self.positions[number]), labels, cache_bytes,
                         self.memories)
                problem = SeededProblem(
                    Q, self.minus_ones[:len(labels)], labels, self.unit_bounds[number],
                    self.seeded, self.gram_array, self.positions[number])
                if sums is not None:  # Q u of the pair (i, j): y (S_i - S_j) at its rows
                    problem.bound_product = pair_product(sums, self.pairs[number], labels,
                                                         self.positions[number])
                self.problems[number] = problem
                if scratch is not None:
                    (<SeededProblem> self.problems[number]).start_from(
                        start[2][number], start[1][number], scratch, C)
            problem = self.problems[number]
            info = problem.solve(C, tol, shrinking, max_iter, check_signals)
            iterations[number] = info.n_iter
            stopped_early |= info.status != SOLVE_OK
            changed |= not problem.kept
        self.changed = changed
        return n_iter, bool(stopped_early)

    def class_sums(self):
        """S[c, r] = sum over class c's training rows j of u_j float32(K[j, r]), for every
        row r of the Gram matrix: every pair's product Q u (all its variables at their
        bounds, `SeededProblem.bound_start`) is two of them at its rows, so the fold reads
        each of its rows of K once (contiguously), not each pair its block of K."""
        cdef Py_ssize_t c
        sums = np.zeros((len(self.class_positions), self.gram.shape[1]), dtype=np.float64)
        cdef double[:, ::1] out = sums
        for c in range(len(self.class_positions)):
            add_weighted_rows(self.gram, self.class_positions[c], self.class_bounds[c],
                              out[c])
        return sums

    def solution(self):
        """(C, each pair's Gram rows, copies of its alphas) of the last solve: a start
        for another fold's first solve at that C (`solve`), or None before a solve."""
        if not self.problems or any(problem is None for problem in self.problems):
            return None
        return ((<SeededProblem> self.problems[0]).last_C, list(self.positions),
                [np.array((<SeededProblem> problem).alpha) for problem in self.problems])

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
        coef = np.zeros((offsets[len(sizes)], len(self.pairs)), dtype=np.float64)
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

        Class by class, in LIBSVM's layout: the block's columns of class c's support
        vectors times their (n_sv_c, k - 1) coefficients in the pairs c is in (one
        DGEMM per class, k - 1 columns each, where one product with `dual_coef` would
        multiply zeros in all but 2 of its k row groups, and in every row that is no
        support vector). The support vectors' columns are gathered once, where they
        are few enough (`GATHER_COST`, `GATHER_COST_WIDE`); with two classes, each
        product is a matrix-vector one.
        """
        cdef const double[:, ::1] block = np.ascontiguousarray(kernel_block,
                                                               dtype=np.float64)
        cdef Py_ssize_t k = len(self.class_positions), m = block.shape[0]
        cdef Py_ssize_t n_rows = block.shape[1], c, d, r, q, s, number, start = 0, n_c
        cdef Py_ssize_t width = max(k - 1, 1), n_support = 0
        cdef double[:, ::1] values = np.empty((m, len(self.pairs)), dtype=np.float64)
        cdef double[:, ::1] products, support_block, class_weights
        cdef Py_ssize_t[::1] columns = np.empty(n_rows, dtype=np.intp)
        cdef int m_int = <int> m, ld, width_int = <int> width, n_int
        cdef double one = 1.0, zero = 0.0
        cdef char no = b"N", transposed = b"T"
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
        # Each class's support vectors: their coefficients (the first rows of its
        # weights) and their columns in the block, gathered where they are few enough
        # (GATHER_COST; else the product runs over every row, the zeros too).
        weights = []
        cdef Py_ssize_t[::1] counts = np.zeros(k, dtype=np.intp)
        for c in range(k):
            class_weights = self.class_weights(c)
            counts[c] = support_first(class_weights, columns[n_support:], start, False)
            weights.append(class_weights)
            n_support += counts[c]
            start += len(self.class_positions[c])
        if m == 0 or n_support == 0:
            return np.asarray(values)
        support_block = None
        if n_support * ((GATHER_COST if width == 1 else GATHER_COST_WIDE) + width) \
                <= <double> n_rows * width:
            start, s = 0, 0
            for c in range(k):  # the support vectors' weights to the front
                support_first(weights[c], columns[s:], start, True)
                start += len(self.class_positions[c])
                s += counts[c]
            support_block = np.empty((m, n_support), dtype=np.float64)
            for r in range(m):
                for s in range(n_support):
                    support_block[r, s] = block[r, columns[s]]
        else:
            for c in range(k):
                counts[c] = len(self.class_positions[c])
        products = np.empty((m, width), dtype=np.float64)
        ld = <int> (n_support if support_block is not None else n_rows)
        start = 0
        for c in range(k):
            n_c = counts[c]
            if n_c == 0:
                continue
            class_weights = weights[c]
            n_int = <int> n_c
            # products (m x width, row-major) = support_block[:, start:start + n_c]
            # @ weights[:n_c], as column-major BLAS sees it: products^T = weights^T
            # support_block[:, ...]^T.
            if width == 1:  # products = block[:, start:start + n_c] @ weights[:n_c, 0]
                dgemv(&transposed, &n_int, &m_int, &one,
                      &support_block[0, start] if support_block is not None
                      else &block[0, start], &ld, &class_weights[0, 0], &width_int, &zero,
                      &products[0, 0], &width_int)
            else:
                dgemm(&no, &no, &width_int, &m_int, &n_int, &one,
                      &class_weights[0, 0], &width_int,
                      &support_block[0, start] if support_block is not None
                      else &block[0, start], &ld, &zero, &products[0, 0], &width_int)
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


@cython.boundscheck(False)
@cython.wraparound(False)
cdef pair_product(const double[:, ::1] sums, tuple pair, const signed char[::1] labels,
                  const Py_ssize_t[::1] rows):
    """y_k (S_i - S_j)[rows_k] for the pair (i, j) of `ClassifierFold.class_sums`."""
    cdef Py_ssize_t k, i = pair[0], j = pair[1]
    product = np.empty(rows.shape[0], dtype=np.float64)
    cdef double[::1] out = product
    for k in range(rows.shape[0]):
        out[k] = labels[k] * (sums[i, rows[k]] - sums[j, rows[k]])
    return product


def kernel_block(const double[:, ::1] gram, rows, columns):
    """``gram[np.ix_(rows, columns)]``, C-contiguous, in one pass of gathers along each
    row (numpy's indexing by two arrays took twice as long on a fold's held-out block).

    Examples
    --------
    >>> gram = np.arange(9.0).reshape(3, 3)
    >>> kernel_block(gram, np.array([2, 0]), np.array([1, 2])).tolist()
    [[7.0, 8.0], [1.0, 2.0]]
    """
    cdef const Py_ssize_t[::1] at = np.ascontiguousarray(rows, dtype=np.intp)
    cdef const Py_ssize_t[::1] to = np.ascontiguousarray(columns, dtype=np.intp)
    cdef Py_ssize_t m = at.shape[0], n = to.shape[0]
    for name, index, size in (("rows", at, gram.shape[0]), ("columns", to, gram.shape[1])):
        if len(index) and (np.min(index) < 0 or np.max(index) >= size):
            raise ValueError(f"{name} must be positions in [0, {size}) of the Gram matrix")
    block = np.empty((m, n), dtype=np.float64)
    cdef double[:, ::1] out = block
    with nogil:
        gather_block(gram, at, to, out)
    return block


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void gather_block(const double[:, ::1] gram, const Py_ssize_t[::1] rows,
                       const Py_ssize_t[::1] columns, double[:, ::1] out) noexcept nogil:
    cdef Py_ssize_t r, c, n = columns.shape[0]
    cdef const double* row
    cdef double* target
    for r in range(rows.shape[0]):
        row, target = &gram[rows[r], 0], &out[r, 0]
        for c in range(n):
            target[c] = row[columns[c]]


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void add_weighted_rows(const double[:, ::1] gram, const Py_ssize_t[::1] rows,
                            const double[::1] weights, double[::1] out) noexcept nogil:
    """out += sum over t of weights[t] float32(gram[rows[t], :]), four rows per pass
    over `out` (the values the solver's Q holds, summed in double)."""
    cdef Py_ssize_t t = 0, r, width = gram.shape[1], n = rows.shape[0]
    cdef const double *a
    cdef const double *b
    cdef const double *c
    cdef const double *d
    cdef double wa, wb, wc, wd
    cdef double *o = &out[0]
    while t + 4 <= n:
        a, b, c, d = &gram[rows[t], 0], &gram[rows[t + 1], 0], &gram[rows[t + 2], 0], \
            &gram[rows[t + 3], 0]
        wa, wb, wc, wd = weights[t], weights[t + 1], weights[t + 2], weights[t + 3]
        for r in range(width):
            o[r] += (wa * <double> <float> a[r] + wb * <double> <float> b[r]) + \
                (wc * <double> <float> c[r] + wd * <double> <float> d[r])
        t += 4
    while t < n:
        a, wa = &gram[rows[t], 0], weights[t]
        for r in range(width):
            o[r] += wa * <double> <float> a[r]
        t += 1


cdef Py_ssize_t support_first(double[:, ::1] weights, Py_ssize_t[::1] columns,
                              Py_ssize_t start, bint move) noexcept:
    """The rows of `weights` with a nonzero entry (the support vectors): `columns`
    receives their positions plus `start`, and with `move` they go to the front of
    `weights`, in order. Returns how many."""
    cdef Py_ssize_t t, q, kept = 0
    cdef bint nonzero
    for t in range(weights.shape[0]):
        nonzero = False
        for q in range(weights.shape[1]):
            nonzero |= weights[t, q] != 0.0
        if not nonzero:
            continue
        if move and kept != t:
            for q in range(weights.shape[1]):
                weights[kept, q] = weights[t, q]
        columns[kept] = start + t
        kept += 1
    return kept


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
    cdef CacheMemories memories
    cdef readonly bint changed  # whether the last `solve` moved the solution

    def __init__(self, const double[:, ::1] gram, positions, targets, unit_bounds,
                 double epsilon, bint seeded):
        self.gram = gram
        self.positions = np.ascontiguousarray(positions, dtype=np.intp)
        self.targets = np.ascontiguousarray(targets, dtype=np.float64)
        self.unit_bounds = np.ascontiguousarray(unit_bounds, dtype=np.float64)
        self.epsilon = epsilon
        self.seeded = seeded
        self.problem = None
        self.memories = CacheMemories(1, 0)  # one block where the budget holds the matrix

    def solve(self, double C, double tol, bint shrinking, long max_iter, double cache_bytes):
        """Solve for this C; returns (iterations, whether it stopped at `max_iter`)."""
        cdef SolutionInfo info
        cdef Py_ssize_t l = len(self.positions)
        if self.problem is None or not self.seeded:
            self.problem = SeededProblem(
                SvrQ(gram_kernel(self.gram, self.positions), cache_bytes, self.memories),
                np.concatenate([self.epsilon - self.targets, self.epsilon + self.targets]),
                np.concatenate([np.ones(l, np.int8), -np.ones(l, np.int8)]),
                np.concatenate([self.unit_bounds, self.unit_bounds]), self.seeded,
                np.asarray(self.gram), np.concatenate([self.positions, self.positions]))
        info = self.problem.solve(C, tol, shrinking, max_iter, on_main_thread())
        self.changed = not self.problem.kept
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
