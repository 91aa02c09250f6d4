# cython: language_level=3, cdivision=True
"""One SMO problem of a grid-search fold, solved for one C after another from seeds.

The grid search's folds (`svmx._gram_folds`) hold one `SeededProblem` per one-vs-one
pair (or one per epsilon-SVR fold): its kernel cache is kept across C, each solve
starts from the last C's solution scaled into the new box (`seed_scale`, alpha
seeding along C) or from another fold's solution (`SeededProblem.start_from`), and
SMO alternates with Newton steps on the free variables where it struggles.
"""

import numpy as np

cimport cython

from libc.math cimport isfinite

from svmx._engine.block_solver cimport global_gap
from svmx._engine.qmatrix cimport QMatrix, SvcQ, SvrQ
from svmx._engine.solver cimport (Gradients, SOLVE_MAX_ITER, SOLVE_OK, SolutionInfo, Solver,
                                  rho_from_gradient)
from svmx._seed_scale cimport seed_scale
from svmx._solve_status cimport raise_for_status

from svmx._free_set_newton import newton_steps

__all__ = ["SeededProblem"]

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
# A solve that took Newton steps and ended with at most HARD_MAX_FREE free variables
# marks its problem hard: the next C's solve runs SMO for HARD_FIRST pair updates, then
# alternates Newton steps with rounds of HARD_ROUND updates (svmguide1's folds at C =
# 2^13..2^15: 200-600 updates where 1,300-2,800 went before the first step; housing's SVR
# folds, with hundreds of free variables, need the free-set limit).
cdef long HARD_FIRST = 100
cdef long HARD_ROUND = 50
cdef double HARD_MAX_FREE = 100.0
# A C-SVC problem's first solve starts with every variable at its upper bound (the
# excess of y'a = 0 cut from the larger class, whole variables of the largest gradient
# first) where at least this share of the nonzero variables then have G < 0, so want
# to stay at their bound (`bound_start`); else from zero. pendigits' pairs (1,000 rows)
# over LIBSVM's gammas at C = 2^-5: 42,000 SMO iterations from zero, 2,600 from such starts.
cdef double BOUND_START_SHARE = 0.25
# The bound start's first cuts find their variable by a scan each, the rest by one sort
# (pendigits' pairs need up to 22 cuts; a sort for each took 11 ms of a 0.7 s search).
cdef Py_ssize_t FEW_CUTS = 32
# What the start counts as rounding, relative to the sum of its variables.
cdef double ROUNDING = 1e-12


cdef inline double beyond_rounding(double amount, double total) noexcept:
    """`amount`, or 0 where it is rounding next to `total`. A start's cut of y'a's excess
    uses it on the excess and on what it leaves of a variable: balanced classes make the
    excess a rounding residue, and a variable cut by an ulp would be free and pin the bias
    that an optimum with every variable bounded leaves to SMO's midpoint (a balanced set's
    held-out accuracy at C = 0.01: 0.5 against 0.825)."""
    return 0.0 if abs(amount) <= ROUNDING * total else amount


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void add_cut_rows(const double[:, ::1] gram, const Py_ssize_t[::1] rows,
                       const signed char[::1] labels, const double[::1] alpha,
                       const double[::1] full, const Py_ssize_t[::1] cut,
                       double[::1] G, double[::1] G_bar, double[:, ::1] sums) noexcept nogil:
    """For each cut variable j (from its upper bound, y_j full[j], to alpha[j]): G += change_j
    Q_j and G_bar -= full[j] Q_j, Q_j's entries y_j y_k float32(K) read off the Gram
    matrix. The cut rows' weighted sums run along whole rows of the Gram matrix, four
    rows per pass (contiguous: they vectorise, where reading the fold's positions of
    each row does not), into `sums` (2 x the Gram matrix's width, zeros), then G and
    G_bar read them at the fold's positions."""
    cdef Py_ssize_t t = 0, k, j, s, r, n = G.shape[0], width = gram.shape[1]
    cdef const double* row[4]
    cdef double change[4]
    cdef double bound[4]
    cdef double q0, q1, q2, q3
    cdef double* moved = &sums[0, 0]
    cdef double* left = &sums[1, 0]
    while t < cut.shape[0]:
        for s in range(4):  # fewer than four rows left: the first again, at zero weight
            j = cut[t + s] if t + s < cut.shape[0] else cut[t]
            row[s] = &gram[rows[j], 0]
            change[s] = labels[j] * alpha[j] - full[j] if t + s < cut.shape[0] else 0.0
            bound[s] = full[j] if t + s < cut.shape[0] else 0.0
        for r in range(width):
            q0, q1 = <double> <float> row[0][r], <double> <float> row[1][r]
            q2, q3 = <double> <float> row[2][r], <double> <float> row[3][r]
            moved[r] += (change[0] * q0 + change[1] * q1) + (change[2] * q2 + change[3] * q3)
            left[r] += (bound[0] * q0 + bound[1] * q1) + (bound[2] * q2 + bound[3] * q3)
        t += 4
    for k in range(n):
        G[k] += labels[k] * moved[rows[k]]
        G_bar[k] -= labels[k] * left[rows[k]]


cdef class SeededProblem:
    """One SMO problem of a fold, solved for one C after another, each solve started
    from the last solution scaled into the new box (`seed_scale`) when `seeded`.

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
    def __cinit__(self, QMatrix Q, p, labels, unit_bounds, bint seeded, gram=None,
                  gram_rows=None):
        cdef Py_ssize_t n = len(p)
        self.Q = Q
        self.p = np.ascontiguousarray(p, dtype=np.float64)
        self.labels = np.ascontiguousarray(labels, dtype=np.int8)
        self.unit_bounds = np.ascontiguousarray(unit_bounds, dtype=np.float64)
        # The variables' vectors: rows of one block (a fold makes one problem per pair of
        # classes, 45 of pendigits' in each of 50 folds: one allocation each, not nine).
        cdef double[:, ::1] store = np.zeros((9, n), dtype=np.float64)
        self.alpha, self.slot_alpha, self.slot_bounds = store[0], store[1], store[2]
        self.slot_p, self.G, self.G_bar = store[3], store[4], store[5]
        self.slot_G, self.slot_G_bar, self.moved_from = store[6], store[7], store[8]
        self.slot_labels = np.zeros(n, dtype=np.int8)
        self.order = np.arange(n, dtype=np.intp)
        self.has_gradients = False
        self.seeded = seeded
        self.solved = False
        self.has_start = False
        self.gram = gram
        self.gram_rows = None if gram_rows is None else np.asarray(gram_rows, dtype=np.intp)
        self.bound_product = None
        self.hard = False

    @cython.boundscheck(False)
    @cython.wraparound(False)
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

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef double start_scale(self, double C) noexcept:
        """The factor on the last solution that starts this solve (0: from zero)."""
        cdef Py_ssize_t k
        cdef double linear = 0.0, n_support = 0.0, n_bounded = 0.0
        if not self.seeded or not self.solved or C < self.last_C:
            return 0.0
        for k in range(self.alpha.shape[0]):
            linear += self.p[k] * self.alpha[k]
            if self.alpha[k] > 0.0:
                n_support += 1.0
                n_bounded += self.alpha[k] >= self.last_C * self.unit_bounds[k]
        return seed_scale(self.objective, linear, C / self.last_C,
                          n_bounded / n_support if n_support > 0.0 else 0.0)

    @cython.boundscheck(False)
    @cython.wraparound(False)
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

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef double count_free(self, double C) noexcept:
        """The number of free variables (strictly inside the box of C)."""
        cdef Py_ssize_t k
        cdef double n_free = 0.0
        for k in range(self.alpha.shape[0]):
            if 0.0 < self.alpha[k] < C * self.unit_bounds[k]:
                n_free += 1.0
        return n_free

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef bint newton_pays(self, double C, long n_iter) noexcept:
        """Whether Newton steps may follow this round: the pair updates made so far
        (n_iter times the n variables each scans) reach NEWTON_MIN_WORK, and the free
        block's factorisation (|F|^3 flops) costs at most NEWTON_WORK_RATIO times them,
        so a solve SMO would finish soon never pays for a factorisation (nor for the
        fixed cost of a round of steps), and one it struggles with gets the steps. A hard
        problem's (`HARD_FIRST`) work counts as NEWTON_MIN_WORK at least."""
        cdef double n_free = self.count_free(C), work
        work = <double> n_iter * self.alpha.shape[0]
        if self.hard:
            work = max(work, NEWTON_MIN_WORK)
        return work >= NEWTON_MIN_WORK and n_free * n_free * n_free <= NEWTON_WORK_RATIO * work

    @cython.boundscheck(False)
    @cython.wraparound(False)
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

    @cython.boundscheck(False)
    @cython.wraparound(False)
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

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef void take_posed(self, SolutionInfo* info) noexcept:
        """The posed start as the solution, with what the solver reports of it (its
        bias from the gradient, its objective) and its gradient kept: where it already
        meets SMO's stopping rule (`global_gap` below tol, the solver's working set
        selection would find no pair). Zero-iteration solves (a scaled start at a C whose
        optimum keeps every variable's side, most of LIBSVM's grid at small C) then skip
        the solver's set-up, shrinking and gradient rebuild: 5 us a pair of pendigits'
        folds, 8,000 such solves in a search."""
        cdef Py_ssize_t t, k, n = self.slot_alpha.shape[0]
        cdef double objective = 0.0
        for t in range(n):
            objective += self.slot_alpha[t] * (self.slot_G[t] + self.slot_p[t])
            k = self.order[t]
            self.alpha[k] = self.slot_alpha[t]
            self.G[k], self.G_bar[k] = self.slot_G[t], self.slot_G_bar[t]
        info.obj = objective / 2.0
        info.rho = rho_from_gradient(<int> n, &self.slot_labels[0], &self.slot_G[0],
                                     &self.slot_alpha[0], &self.slot_bounds[0])
        info.r, info.n_iter, info.n_kernel_rows, info.status = 0.0, 0, 0, SOLVE_OK
        self.has_gradients = True

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef void follow_moves(self, double C) except *:
        """Update the kept G and G_bar for the moves of `alpha` from `moved_from` (at one
        C): each variable that moved, or changed sides of its upper bound, adds its row
        of the Gram matrix at Q's values, y_j y_k float32(K)."""
        cdef const double[:, ::1] gram = self.gram
        cdef const Py_ssize_t[::1] rows = self.gram_rows
        cdef const signed char[::1] labels = self.labels
        cdef double[::1] G = self.G, G_bar = self.G_bar
        cdef Py_ssize_t j, k, n = self.alpha.shape[0]
        cdef double delta, bar, bound, q
        cdef const double* row
        cdef bint was_upper, is_upper
        for j in range(n):
            bound = C * self.unit_bounds[j]
            delta = self.alpha[j] - self.moved_from[j]
            was_upper = self.moved_from[j] >= bound
            is_upper = self.alpha[j] >= bound
            bar = 0.0 if was_upper == is_upper else (bound if is_upper else -bound)
            if delta == 0.0 and bar == 0.0:
                continue
            row = &gram[rows[j], 0]
            delta *= labels[j]
            bar *= labels[j]
            for k in range(n):
                q = labels[k] * <double> <float> row[rows[k]]
                G[k] += delta * q
                G_bar[k] += bar * q

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef bint bound_start(self, double C) except *:
        """Start the first solve of a seeded C-SVC problem with every variable at its
        upper bound C u_k, less the excess of y'a = 0, cut from the class with the
        larger sum: whole variables, those of the largest gradient (the least held at
        their bound) first, the last one in part. Kept, with its G = Qa + p and G_bar
        (from the fold's class sums, `bound_product`, and the cut variables' rows of the
        Gram matrix, at Q's float32 values), where at least
        BOUND_START_SHARE of the nonzero variables have G < 0; else `alpha` is left as
        it was (zero, or `start_from`'s point) and False returned. Small C (the first
        of LIBSVM's grid, 2^-5) puts most variables of the optimum at C, which SMO from
        zero reaches two at a time."""
        cdef const double[:, ::1] gram
        cdef const Py_ssize_t[::1] rows
        cdef const signed char[::1] labels = self.labels
        cdef const double[::1] p = self.p, unit_bounds = self.unit_bounds
        cdef double[::1] alpha = self.alpha, G = self.G, G_bar = self.G_bar
        cdef double[::1] full = self.moved_from  # every variable at its bound, signed
        cdef Py_ssize_t j, k, t, n = alpha.shape[0]
        cdef double excess = 0.0, total = 0.0, cut
        cdef double n_support = 0.0, n_held = 0.0
        cdef Py_ssize_t[::1] ranked, cut_rows
        cdef double[::1] before
        cdef const double[::1] unit_product
        if (not self.seeded or self.solved or self.gram is None or n < 2
                or not isinstance(self.Q, SvcQ) or self.bound_product is None):
            return False
        gram, rows = self.gram, self.gram_rows
        before = np.array(alpha)
        for k in range(n):
            alpha[k] = C * unit_bounds[k]
            full[k] = labels[k] * alpha[k]
            excess += full[k]
            total += alpha[k]
        excess = beyond_rounding(excess, total)
        unit_product = self.bound_product  # the fold's class sums: G_bar = C Q u
        for k in range(n):
            G_bar[k] = C * unit_product[k]
            G[k] = G_bar[k] + p[k]
        # The cuts, largest G first (the lowest index first among equals): a scan for each
        # of the first FEW_CUTS (classes of near equal sums need few), then one sort.
        for t in range(FEW_CUTS + n):
            if excess == 0.0:
                break
            if t < FEW_CUTS:
                k = -1
                for j in range(n):
                    if labels[j] * excess > 0.0 and alpha[j] > 0.0 and (k < 0 or G[j] > G[k]):
                        k = j
                if k < 0:
                    break
            else:
                if t == FEW_CUTS:
                    ranked = np.argsort(-np.asarray(G), kind="stable")
                k = ranked[t - FEW_CUTS]
                if labels[k] * excess <= 0.0 or alpha[k] <= 0.0:
                    continue
            cut = min(abs(excess), alpha[k])
            alpha[k] -= cut
            excess = beyond_rounding(excess - labels[k] * cut, total)
            alpha[k] = beyond_rounding(alpha[k], total)  # cut to rounding: at 0, not free
        cut_rows = np.empty(n, dtype=np.intp)
        t = 0
        for j in range(n):  # the cut variables: G follows their change; G_bar loses them
            if labels[j] * alpha[j] != full[j]:
                cut_rows[t] = j
                t += 1
        add_cut_rows(gram, rows, labels, alpha, full, cut_rows[:t], G, G_bar,
                     np.zeros((2, gram.shape[1]), dtype=np.float64))
        for k in range(n):
            if alpha[k] > 0.0:
                n_support += 1.0
                n_held += G[k] < 0.0
        if n_support == 0.0 or n_held < BOUND_START_SHARE * n_support:
            alpha[:] = before
            return False
        return True

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef bint tied_by_rounding(self, double C) noexcept:
        """Whether no variable is free beyond rounding while y'(C u) is rounding alone
        (class_weight='balanced'): LIBSVM's SMO from zero then ends with one variable an
        ulp inside its box, which sets rho; a seeded start ends at the bounds, with rho
        mid-interval (heart_scale held out at C = 0.001: 0.81 against LIBSVM's 0.56)."""
        cdef Py_ssize_t k
        cdef double excess = 0.0, total = 0.0, bound, slack
        for k in range(self.alpha.shape[0]):
            bound = C * self.unit_bounds[k]
            excess, total = excess + self.labels[k] * bound, total + bound
        slack = ROUNDING * total
        if excess == 0.0 or abs(excess) > slack:
            return False
        for k in range(self.alpha.shape[0]):
            if slack < self.alpha[k] < C * self.unit_bounds[k] - slack:
                return False
        return True

    cdef SolutionInfo solve(self, double C, double tol, bint shrinking, long max_iter,
                            bint check_signals) except *:
        """Solve for C from the seeds (`solve_from`), and again from zero as LIBSVM does
        where that was not SMO's plain run from zero and ended `tied_by_rounding`."""
        cdef bint plain = False
        cdef SolutionInfo again, info = self.solve_from(C, tol, shrinking, max_iter,
                                                        check_signals, False, &plain)
        if plain or not isinstance(self.Q, SvcQ) or not self.tied_by_rounding(C):
            return info
        again = self.solve_from(C, tol, shrinking, max_iter, check_signals, True, &plain)
        again.n_iter += info.n_iter
        return again

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef SolutionInfo solve_from(self, double C, double tol, bint shrinking, long max_iter,
                                 bint check_signals, bint from_zero, bint* plain) except *:
        """Solve for C from the bound start, another fold's point, the last solution scaled
        or zero (`from_zero`: no Newton steps); `plain`: SMO's one run from zero."""
        cdef SolutionInfo info
        cdef Solver solver = None  # made where the posed start is not the optimum
        cdef Gradients gradients
        cdef Py_ssize_t t, k, n = self.alpha.shape[0]
        cdef double scale = 0.0
        cdef long n_iter = 0, limit
        cdef int rounds = 0
        cdef bint newton = (self.seeded and self.gram is not None and max_iter < 0
                            and not from_zero)
        cdef bint started = False, stepped = False, posed_optimal
        gradients.active, gradients.whole_rows = NULL, False
        self.kept = False
        # The bound start goes before `start_from`'s point: another fold's solution cut to
        # this fold's rows can leave a bias SMO's own start would not (LIBSVM's smallest C
        # with a wide gamma, every variable bounded and the bias free in an interval).
        if not from_zero:
            started = self.bound_start(C)
        self.bound_product = None  # used by the first solve alone
        if from_zero:
            self.has_start = False
            self.pose(C, 0.0)  # every variable at zero: SMO computes G = p itself
            gradients.given = gradients.near_optimum = False
        elif started:  # a first solve at small C, its gradient computed
            self.has_start = False
            gradients.given = self.pose(C, 1.0)
            for t in range(n):
                k = self.order[t]
                self.slot_G[t], self.slot_G_bar[t] = self.G[k], self.G_bar[k]
            gradients.near_optimum = gradients.given
        elif self.has_start:  # `start_from`'s point: the solver computes its gradient
            self.has_start = False
            gradients.near_optimum = self.pose(C, 1.0)
            gradients.given = False
        elif self.still_optimal(C):
            info.obj, info.rho, info.r, info.n_iter = self.objective, self.rho, 0.0, 0
            info.n_kernel_rows, info.status = 0, SOLVE_OK
            self.last_C = C
            self.kept = True
            return info
        else:
            scale = self.start_scale(C)
            gradients.given = (self.pose(C, scale, self.solved and scale == C / self.last_C)
                               and self.scaled_gradients(C, scale))
            gradients.near_optimum = False
        gradients.G, gradients.G_bar = &self.slot_G[0], &self.slot_G_bar[0]
        posed_optimal = gradients.given and global_gap(
            <int> n, &self.slot_labels[0], &self.slot_alpha[0], &self.slot_bounds[0],
            &self.slot_G[0]) < tol
        if posed_optimal:  # SMO would stop at once
            self.take_posed(&info)
        else:
            solver = Solver()
        while not posed_optimal:
            limit = max_iter
            if newton and rounds < NEWTON_ROUNDS and self.hard:  # steps early and often
                limit = HARD_FIRST if rounds == 0 else HARD_ROUND
            elif newton and rounds < NEWTON_ROUNDS:  # the first round lets easy solves finish
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
                stepped = True
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
        self.hard = stepped and self.count_free(C) <= HARD_MAX_FREE
        self.objective, self.rho, self.last_C, self.solved = info.obj, info.rho, C, True
        plain[0] = scale == 0.0 and not started and not self.kept and rounds == 0
        return info

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef void start_from(self, const double[::1] source, const Py_ssize_t[::1] source_rows,
                         double[::1] scratch, double C) noexcept:
        """Start the next solve (for C) from another fold's solution of this pair at C:
        `source` over the Gram rows `source_rows`, zero on the rows only this fold
        trains on, clipped to this fold's box, and the class with the larger sum cut
        by the excess (whole alphas, free ones first), so that y'a = 0 (Wen et al.,
        AAAI 2017: folds share most of their rows, and so most of their solution).
        `scratch` (one zero per Gram row) is left as it was found."""
        cdef const Py_ssize_t[::1] rows = self.gram_rows
        cdef Py_ssize_t k, n = self.alpha.shape[0]
        cdef double excess = 0.0, total = 0.0, bound, cut
        cdef int side, pass_number
        for k in range(source.shape[0]):
            scratch[source_rows[k]] = source[k]
        for k in range(n):
            bound = C * self.unit_bounds[k]
            self.alpha[k] = min(max(scratch[rows[k]], 0.0), bound)
            excess += self.alpha[k] * self.labels[k]
            total += self.alpha[k]
        for k in range(source.shape[0]):
            scratch[source_rows[k]] = 0.0
        side = 1 if excess > 0.0 else -1
        excess = beyond_rounding(abs(excess), total)
        for pass_number in range(2):  # free alphas, then bounded ones
            for k in range(n):
                if excess <= 0.0:
                    break
                if self.labels[k] != side or self.alpha[k] <= 0.0:
                    continue
                if (self.alpha[k] < C * self.unit_bounds[k]) != (pass_number == 0):
                    continue
                cut = min(excess, self.alpha[k])
                self.alpha[k] -= cut
                excess = beyond_rounding(excess - cut, total)
                self.alpha[k] = beyond_rounding(self.alpha[k], total)
        self.has_start = True
        self.has_gradients = False

    def kept_gradients(self):
        """Copies of the kept G and G_bar (the variables' order), or None before a solve."""
        if not self.has_gradients:
            return None
        return np.array(self.G), np.array(self.G_bar)
