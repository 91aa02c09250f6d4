from svmx._engine.qmatrix cimport QMatrix


cdef enum SolveStatus:
    SOLVE_OK = 0
    SOLVE_MAX_ITER = 1
    SOLVE_OUT_OF_MEMORY = -1
    SOLVE_INTERRUPTED = -2
    # The block solver's rows had no room for a block (reserve_block was not called):
    # a programming error in the caller.
    SOLVE_BLOCK_NOT_RESERVED = -3
    # The block solver was given a block_size below 2 or a precomputed kernel: nothing done.
    SOLVE_BAD_ARGUMENT = -4


# Where a solve writes LIBSVM's training output ('.', '*', "optimization finished, ...",
# the warnings): write(context, text, to_stderr) is called without the GIL, at most once
# per shrinking period, so it may take the GIL itself. A NULL log means silence.
ctypedef void (*LogWrite)(void* context, const char* text, bint to_stderr) noexcept nogil
# How far a solve has come: progress(context, n_iter, gap, eps) is called without the GIL
# at most once per shrinking period of SMO (1000 iterations) and once per round of the
# block solver, with the iterations made so far and the maximal violation (the
# optimality gap m(a) - M(a) of the active variables) that has to fall below eps.
ctypedef void (*LogProgress)(void* context, long n_iter, double gap,
                             double eps) noexcept nogil


# Either function pointer may be NULL.
cdef struct SolverLog:
    LogWrite write
    LogProgress progress
    void* context


cdef struct SolutionInfo:
    double obj
    double rho
    double r                # the second offset of Solver_NU (0 for Solver)
    long n_iter
    long n_kernel_rows      # kernel rows computed by the block solver (0 for SMO)
    int status              # a SolveStatus


# A solve's gradient handed in and out (`Solver.solve`): G = Q a + p and G_bar (the sum
# over the variables at their upper bound of C_j Q_j), each of l entries in the order of
# the variables given. With `given` the solve starts from them instead of computing them
# from the start point's kernel columns (the caller vouches they are the start point's,
# with Q's float32 values); on return (status OK or MAX_ITER) they hold the solution's
# (G and G_bar may be NULL: nothing handed either way). A start handed its gradient, or
# one `near_optimum` (a warm start), is shrunk at once rather than after min(l, 1000)
# iterations. A start not handed its gradient may be handed `active` (l flags, NULL for
# none): the solve starts shrunk to the flagged variables and those not at their lower
# bound, computing G for them alone (G_bar for all), and finds the others' gradient
# when it rebuilds it to check the whole problem, as after shrinking. `whole_rows`: each
# kernel column Q hands out costs a whole row of a matrix computed row by row (a
# `gram_rows.LazyGram`, whose rows other solves may have computed already), so the
# gradient is rebuilt from the free variables' columns, never from the inactive ones'.
cdef struct Gradients:
    double* G
    double* G_bar
    bint given
    bint near_optimum
    const unsigned char* active
    bint whole_rows


cdef extern from *:
    """
    #define SVMX_TAU 1e-12
    """
    # What replaces a non-positive curvature a_ij in working set selection and in
    # the pair update (LIBSVM's TAU).
    const double TAU "SVMX_TAU"


cdef inline double second_order_gain(double grad_diff, double quad_coef) noexcept nogil:
    """-b^2 / a: the change of the objective when the pair with gradient difference
    b = grad_diff and curvature a = quad_coef moves to its unconstrained optimum
    (Fan, Chen & Lin 2005); a <= 0 is replaced by TAU."""
    if quad_coef <= 0:
        quad_coef = TAU
    return -(grad_diff * grad_diff) / quad_coef


cdef bint signals_pending() noexcept nogil
cdef void update_pair(signed char y_i, signed char y_j, double G_i, double G_j,
                      double QD_i, double QD_j, double Q_ij, double C_i, double C_j,
                      double* alpha_i, double* alpha_j) noexcept nogil
cdef double rho_from_gradient(int n, const signed char* y, const double* G,
                              const double* alpha, const double* C) noexcept nogil


cdef class Solver:
    """SMO with second-order working set selection, shrinking and gradient
    reconstruction; see solver.pyx for the quadratic program it solves."""
    cdef int l
    cdef int active_size
    cdef bint unshrink
    cdef bint warm_start    # shrunk at once (a warm start): no advice about -h 0
    cdef bint whole_rows    # Gradients.whole_rows
    cdef double eps
    cdef QMatrix Q
    cdef const double* QD
    cdef signed char* y
    cdef double* G
    cdef double* G_bar
    cdef double* alpha
    cdef signed char* alpha_status
    cdef double* p
    cdef double* C
    cdef int* active_set
    cdef bint out_of_memory
    cdef double gap         # the maximal violation found by the last working set selection
    cdef const SolverLog* log

    cdef int solve(self, int l, QMatrix Q, const double* p, const signed char* y,
                   double* alpha, const double* C, double eps, bint shrinking,
                   long max_iter, bint check_signals, SolutionInfo* si,
                   const SolverLog* log=*, Gradients* gradients=*) noexcept nogil
    cdef void emit(self, const char* text, bint to_stderr) noexcept nogil
    cdef void report(self, long n_iter) noexcept nogil
    cdef int select_working_set(self, int* out_i, int* out_j) noexcept nogil
    cdef void do_shrinking(self) noexcept nogil
    cdef bint be_shrunk(self, int i, double Gmax1, double Gmax2) noexcept nogil
    cdef double calculate_rho(self, SolutionInfo* si) noexcept nogil
    cdef void start_shrunk(self, const unsigned char* active) noexcept nogil
    cdef void reconstruct_gradient(self) noexcept nogil
    cdef void swap_index(self, int i, int j) noexcept nogil
    cdef void update_alpha_status(self, int i) noexcept nogil
    cdef inline bint is_upper(self, int i) noexcept nogil
    cdef inline bint is_lower(self, int i) noexcept nogil
    cdef inline bint is_free(self, int i) noexcept nogil
    cdef const float* column(self, int i, int length) noexcept nogil
    cdef void release(self) noexcept nogil


cdef class SolverNU(Solver):
    """Solver for nu-SVC and nu-SVR: pairs are chosen within one label group."""
    cdef bint be_shrunk_nu(self, int i, double Gmax1, double Gmax2,
                           double Gmax3, double Gmax4) noexcept nogil
