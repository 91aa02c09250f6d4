# The grid search's seeded SMO problem (svmx/_seeded_problem.pyx), for svmx._gram_folds.
from svmx._engine.qmatrix cimport QMatrix
from svmx._engine.solver cimport SolutionInfo


cdef class SeededProblem:
    cdef QMatrix Q
    cdef const double[::1] p, unit_bounds
    cdef const signed char[::1] labels
    cdef double[::1] alpha, slot_alpha, slot_bounds, slot_p
    cdef double[::1] G, G_bar, slot_G, slot_G_bar, moved_from
    cdef bint has_gradients
    cdef signed char[::1] slot_labels
    cdef Py_ssize_t[::1] order
    cdef double objective, rho, last_C
    cdef bint seeded, solved, has_start
    cdef bint hard  # the last solve took Newton steps on a small free set (HARD_FIRST)
    cdef readonly bint kept  # the last solve returned the solution before it
    cdef object gram, gram_rows
    # Q times every variable at its upper bound at C = 1, from the fold's class sums for
    # all its pairs at once, until the first solve (`bound_start`); None otherwise.
    cdef public object bound_product

    cdef void slot_order(self) noexcept
    cdef double start_scale(self, double C) noexcept
    cdef bint still_optimal(self, double C) noexcept
    cdef bint bound_start(self, double C) except *
    cdef double count_free(self, double C) noexcept
    cdef bint newton_pays(self, double C, long n_iter) noexcept
    cdef bint pose(self, double C, double scale, bint keep_bounded=*) noexcept
    cdef bint scaled_gradients(self, double C, double scale) noexcept
    cdef void take_posed(self, SolutionInfo* info) noexcept
    cdef void follow_moves(self, double C) except *
    cdef bint tied_by_rounding(self, double C) noexcept
    cdef SolutionInfo solve(self, double C, double tol, bint shrinking, long max_iter,
                            bint check_signals) except *
    cdef SolutionInfo solve_from(self, double C, double tol, bint shrinking, long max_iter,
                                 bint check_signals, bint from_zero, bint* plain) except *
    cdef void start_from(self, const double[::1] source, const Py_ssize_t[::1] source_rows,
                         double[::1] scratch, double C) noexcept
