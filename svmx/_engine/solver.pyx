# cython: language_level=3, cdivision=True
"""The SMO solver of LIBSVM's dual problems (Fan, Chen & Lin 2005).

Every formulation is solved as the quadratic program

    min_a  1/2 a^T Q a + p^T a
    s.t.   y^T a = Delta,   0 <= a_i <= C_i,   y_i in {+1, -1},

where Q_ij = y_i y_j K(x_i, x_j) (or its SVR / one-class variant), so one
solver serves C-SVC, one-class and epsilon-SVR; `SolverNU` adds the second
equality constraint of nu-SVC and nu-SVR by choosing each pair within one
label group.

State follows the paper's names: G is the gradient Q a + p, G_bar the part
of it owed to variables at their upper bound (sum over a_j = C_j of C_j Q_j),
kept so that G can be rebuilt for shrunk variables.
"""

from libc.stdio cimport snprintf
from libc.time cimport CLOCKS_PER_SEC, clock, clock_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from svmx._engine.isa cimport isa_level
from svmx._engine.qmatrix cimport QMatrix
from svmx._engine.smo_scan cimport (
    add_scaled_column,
    add_two_columns,
    wss_first,
    wss_first_nu,
    wss_second,
    wss_second_nu,
)

cdef double INF = float("inf")
# How often (CPU seconds) a solve polls for Ctrl-C: often enough to stop within a
# second, rarely enough not to contend for the GIL with other threads.
cdef double SIGNAL_CHECK_SECONDS = 0.2
# The clock (process CPU time, a system call that sums every thread's) is read only
# after this many variables scanned by the working set selection since the last read,
# a millisecond or so: a pair of a grid search's fold (about 50 pair updates of 160
# variables) read it twice a solve, at 2-3% of the search's time.
cdef long SIGNAL_CHECK_WORK = 1 << 20

cdef enum AlphaStatus:
    LOWER_BOUND = 0
    UPPER_BOUND = 1
    FREE = 2


cdef extern from "Python.h":
    # Declared without an exception check: the exception a signal handler raises
    # (KeyboardInterrupt for Ctrl-C) stays pending until the binding re-raises it.
    int PyErr_CheckSignals() noexcept


cdef bint signals_pending() noexcept nogil:
    """True when a signal handler raised (Ctrl-C); its exception is left pending."""
    cdef bint raised
    with gil:
        raised = PyErr_CheckSignals() != 0
    return raised


cdef bint time_to_check_signals(clock_t* last_check) noexcept nogil:
    """True at most every SIGNAL_CHECK_SECONDS of CPU time (the GIL is taken only then)."""
    cdef clock_t now = clock()
    if <double> (now - last_check[0]) < SIGNAL_CHECK_SECONDS * CLOCKS_PER_SEC:
        return False
    last_check[0] = now
    return True


cdef void update_pair(signed char y_i, signed char y_j, double G_i, double G_j,
                      double QD_i, double QD_j, double Q_ij, double C_i, double C_j,
                      double* alpha_i, double* alpha_j) noexcept nogil:
    """Minimise the dual over (alpha_i, alpha_j) with the others fixed, clipped to the box.

    Q_ij is the (i, j) entry of Q, which already carries y_i y_j.
    """
    cdef double quad_coef, delta, diff, total
    if y_i != y_j:
        # a_i - a_j stays constant.
        quad_coef = QD_i + QD_j + 2.0 * Q_ij
        if quad_coef <= 0:
            quad_coef = TAU
        delta = (-G_i - G_j) / quad_coef
        diff = alpha_i[0] - alpha_j[0]
        alpha_i[0] += delta
        alpha_j[0] += delta
        if diff > 0:
            if alpha_j[0] < 0:
                alpha_j[0] = 0
                alpha_i[0] = diff
        else:
            if alpha_i[0] < 0:
                alpha_i[0] = 0
                alpha_j[0] = -diff
        if diff > C_i - C_j:
            if alpha_i[0] > C_i:
                alpha_i[0] = C_i
                alpha_j[0] = C_i - diff
        else:
            if alpha_j[0] > C_j:
                alpha_j[0] = C_j
                alpha_i[0] = C_j + diff
    else:
        # a_i + a_j stays constant.
        quad_coef = QD_i + QD_j - 2.0 * Q_ij
        if quad_coef <= 0:
            quad_coef = TAU
        delta = (G_i - G_j) / quad_coef
        total = alpha_i[0] + alpha_j[0]
        alpha_i[0] -= delta
        alpha_j[0] += delta
        if total > C_i:
            if alpha_i[0] > C_i:
                alpha_i[0] = C_i
                alpha_j[0] = total - C_i
        else:
            if alpha_j[0] < 0:
                alpha_j[0] = 0
                alpha_i[0] = total
        if total > C_j:
            if alpha_j[0] > C_j:
                alpha_j[0] = C_j
                alpha_i[0] = total - C_j
        else:
            if alpha_i[0] < 0:
                alpha_i[0] = 0
                alpha_j[0] = total


cdef double rho_from_gradient(int n, const signed char* y, const double* G,
                              const double* alpha, const double* C) noexcept nogil:
    """The bias: mean of y G over free variables, else the feasible interval's midpoint."""
    cdef int i, n_free = 0
    cdef double upper = INF, lower = -INF, sum_free = 0.0, yG
    for i in range(n):
        yG = y[i] * G[i]
        if alpha[i] >= C[i]:
            if y[i] == -1:
                upper = min(upper, yG)
            else:
                lower = max(lower, yG)
        elif alpha[i] <= 0:
            if y[i] == 1:
                upper = min(upper, yG)
            else:
                lower = max(lower, yG)
        else:
            n_free += 1
            sum_free += yG
    if n_free > 0:
        return sum_free / n_free
    return (upper + lower) / 2.0


cdef class Solver:
    """The generic SMO solver. One instance may run many solves, one at a time.

    Examples
    --------
    The solver is driven from Cython; see ``svmx._libsvm`` for the Python
    entry points that build the Q matrix and call ``Solver.solve``.
    """

    def __dealloc__(self):
        self.release()

    cdef void release(self) noexcept nogil:
        free(self.y)
        free(self.G)
        free(self.G_bar)
        free(self.alpha)
        free(self.alpha_status)
        free(self.p)
        free(self.C)
        free(self.active_set)
        self.y = NULL
        self.G = NULL
        self.G_bar = NULL
        self.alpha = NULL
        self.alpha_status = NULL
        self.p = NULL
        self.C = NULL
        self.active_set = NULL

    cdef inline bint is_upper(self, int i) noexcept nogil:
        return self.alpha_status[i] == UPPER_BOUND

    cdef inline bint is_lower(self, int i) noexcept nogil:
        return self.alpha_status[i] == LOWER_BOUND

    cdef inline bint is_free(self, int i) noexcept nogil:
        return self.alpha_status[i] == FREE

    cdef void update_alpha_status(self, int i) noexcept nogil:
        if self.alpha[i] >= self.C[i]:
            self.alpha_status[i] = UPPER_BOUND
        elif self.alpha[i] <= 0:
            self.alpha_status[i] = LOWER_BOUND
        else:
            self.alpha_status[i] = FREE

    cdef void emit(self, const char* text, bint to_stderr) noexcept nogil:
        """Write LIBSVM's training output to the log of this solve, if any."""
        if self.log != NULL and self.log.write != NULL:
            self.log.write(self.log.context, text, to_stderr)

    cdef void report(self, long n_iter) noexcept nogil:
        """Tell the log's progress function how far the solve has come, if it has one."""
        if self.log != NULL and self.log.progress != NULL:
            self.log.progress(self.log.context, n_iter, self.gap, self.eps)

    cdef const float* column(self, int i, int length) noexcept nogil:
        """Column i of Q; records running out of memory for the main loop."""
        cdef const float* data = self.Q.get_Q(i, length)
        if data == NULL:
            self.out_of_memory = True
        return data

    cdef void swap_index(self, int i, int j) noexcept nogil:
        cdef double held
        cdef signed char held_char
        cdef int held_int
        self.Q.swap_index(i, j)
        held_char = self.y[i]
        self.y[i] = self.y[j]
        self.y[j] = held_char
        held = self.G[i]
        self.G[i] = self.G[j]
        self.G[j] = held
        held_char = self.alpha_status[i]
        self.alpha_status[i] = self.alpha_status[j]
        self.alpha_status[j] = held_char
        held = self.alpha[i]
        self.alpha[i] = self.alpha[j]
        self.alpha[j] = held
        held = self.p[i]
        self.p[i] = self.p[j]
        self.p[j] = held
        held_int = self.active_set[i]
        self.active_set[i] = self.active_set[j]
        self.active_set[j] = held_int
        held = self.G_bar[i]
        self.G_bar[i] = self.G_bar[j]
        self.G_bar[j] = held
        held = self.C[i]
        self.C[i] = self.C[j]
        self.C[j] = held

    cdef void start_shrunk(self, const unsigned char* active) noexcept nogil:
        """Shrink the start to the variables flagged in `active` (by their given index)
        and those not at their lower bound, before any column is read; the one rebuild
        of the gradient before the end is then taken as done (`unshrink`)."""
        cdef int i = 0
        while i < self.active_size:
            if active[self.active_set[i]] or not self.is_lower(i):
                i += 1
            else:
                self.active_size -= 1
                self.swap_index(i, self.active_size)
        self.unshrink = self.active_size < self.l

    cdef void reconstruct_gradient(self) noexcept nogil:
        """Rebuild G of the inactive variables from G_bar and the free ones."""
        cdef int i, j, n_free = 0, l = self.l, active_size = self.active_size
        cdef const float* Q_i
        cdef double alpha_i
        if active_size == l:
            return
        for j in range(active_size, l):
            self.G[j] = self.G_bar[j] + self.p[j]
        for j in range(active_size):
            if self.is_free(j):
                n_free += 1
        if 2 * n_free < active_size and not self.warm_start:  # the user's choice to review
            self.emit(b"\nWARNING: using -h 0 may be faster\n", False)
        # Pick the cheaper direction: inactive columns over the active rows,
        # or the free variables' columns over the inactive rows. Where a column costs
        # a whole row of a lazily computed matrix (`whole_rows`), the inactive ones'
        # would compute rows no solve needs (dna.scale's first pair: its Platt folds
        # computed 125 rows beyond the pair's where they computed 321).
        if not self.whole_rows and <double> n_free * l > 2.0 * active_size * (l - active_size):
            for i in range(active_size, l):
                Q_i = self.column(i, active_size)
                if Q_i == NULL:
                    return
                for j in range(active_size):
                    if self.is_free(j):
                        self.G[i] += self.alpha[j] * Q_i[j]
        else:
            for i in range(active_size):
                if self.is_free(i):
                    Q_i = self.column(i, l)
                    if Q_i == NULL:
                        return
                    alpha_i = self.alpha[i]
                    for j in range(active_size, l):
                        self.G[j] += alpha_i * Q_i[j]

    cdef int solve(self, int l, QMatrix Q, const double* p, const signed char* y,
                   double* alpha, const double* C, double eps, bint shrinking,
                   long max_iter, bint check_signals, SolutionInfo* si,
                   const SolverLog* log=NULL, Gradients* gradients=NULL) noexcept nogil:
        """Solve the dual; `alpha` holds the initial point and receives the solution.

        With `gradients` (see solver.pxd) the start's gradient may be handed in, and the
        solution's is handed back: a caller solving one problem after another from
        nearby points updates it for the changes between them instead of paying a
        kernel column per nonzero variable of each start.

        `max_iter < 0` means no limit. Returns (and stores in `si.status`) a
        SolveStatus; `si.n_iter` counts the pair updates made. With a `log`, the
        solve writes what LIBSVM's Solver::Solve prints: a '.' each time the
        shrinking counter expires, a '*' at each gradient reconstruction of the
        main loop, the '-h 0' and max-iterations warnings and the closing
        "optimization finished" line; and its progress function hears the
        iterations and the optimality gap at each '.' and once at the end.
        """
        cdef int i, j, counter
        cdef long n_iter = 0
        cdef bint converged = False, upper_i, upper_j
        # Zero: the first read (after SIGNAL_CHECK_WORK) polls at once, past 0.2 s of CPU.
        cdef clock_t last_check = 0
        cdef long work = 0
        cdef const float* Q_i
        cdef const float* Q_j
        cdef double C_i, C_j, old_alpha_i, old_alpha_j, delta_alpha_i, delta_alpha_j
        cdef double objective
        cdef char line[64]
        si.status = SOLVE_OK
        si.n_iter = 0
        si.n_kernel_rows = 0
        si.r = 0.0
        with gil:
            self.Q = Q
        self.release()
        self.l = l
        self.eps = eps
        self.unshrink = False
        self.out_of_memory = False
        self.gap = INF
        self.log = log
        self.QD = &Q.QD[0]
        self.y = <signed char*> malloc(l * sizeof(signed char))
        self.G = <double*> malloc(l * sizeof(double))
        self.G_bar = <double*> malloc(l * sizeof(double))
        self.alpha = <double*> malloc(l * sizeof(double))
        self.alpha_status = <signed char*> malloc(l * sizeof(signed char))
        self.p = <double*> malloc(l * sizeof(double))
        self.C = <double*> malloc(l * sizeof(double))
        self.active_set = <int*> malloc(l * sizeof(int))
        if (self.y == NULL or self.G == NULL or self.G_bar == NULL or self.alpha == NULL
                or self.alpha_status == NULL or self.p == NULL or self.C == NULL
                or self.active_set == NULL):
            self.release()
            si.status = SOLVE_OUT_OF_MEMORY
            return si.status
        memcpy(self.y, y, l * sizeof(signed char))
        memcpy(self.alpha, alpha, l * sizeof(double))
        memcpy(self.p, p, l * sizeof(double))
        memcpy(self.C, C, l * sizeof(double))
        for i in range(l):
            self.update_alpha_status(i)
            self.active_set[i] = i
            self.G[i] = p[i]
            self.G_bar[i] = 0.0
        self.active_size = l

        if gradients != NULL and gradients.given:
            memcpy(self.G, gradients.G, l * sizeof(double))
            memcpy(self.G_bar, gradients.G_bar, l * sizeof(double))
        else:
            if gradients != NULL and gradients.active != NULL:
                self.start_shrunk(gradients.active)
            for i in range(l):
                if not self.is_lower(i):
                    # G of the active variables; G_bar of all (the inactive ones' G is
                    # rebuilt from it).
                    Q_i = self.column(i, l if self.is_upper(i) else self.active_size)
                    if Q_i == NULL:
                        break
                    add_scaled_column(self.active_size, self.G, self.alpha[i], Q_i)
                    if self.is_upper(i):
                        add_scaled_column(l, self.G_bar, self.C[i], Q_i)

        counter = min(l, 1000) + 1
        self.warm_start = gradients != NULL and (gradients.given or gradients.near_optimum)
        self.whole_rows = gradients != NULL and gradients.whole_rows
        if self.warm_start:
            counter = 1  # a start handed its gradient is near its optimum: shrink at once
        while not self.out_of_memory and (max_iter < 0 or n_iter < max_iter):
            counter -= 1
            if counter == 0:
                counter = min(l, 1000)
                if shrinking:
                    self.do_shrinking()
                self.emit(b".", False)
                self.report(n_iter)
            work += self.active_size
            if check_signals and work >= SIGNAL_CHECK_WORK:
                work = 0
                if time_to_check_signals(&last_check) and signals_pending():
                    si.status = SOLVE_INTERRUPTED
                    break
            if self.select_working_set(&i, &j) != 0:
                self.reconstruct_gradient()
                self.active_size = l
                self.emit(b"*", False)
                if self.select_working_set(&i, &j) != 0:
                    converged = True
                    break
                counter = 1  # shrink again at the next iteration
            if self.out_of_memory:
                break
            n_iter += 1

            Q_i = self.column(i, self.active_size)
            Q_j = self.column(j, self.active_size)
            if Q_i == NULL or Q_j == NULL:
                break
            C_i = self.C[i]
            C_j = self.C[j]
            old_alpha_i = self.alpha[i]
            old_alpha_j = self.alpha[j]

            update_pair(self.y[i], self.y[j], self.G[i], self.G[j], self.QD[i], self.QD[j],
                        Q_i[j], C_i, C_j, &self.alpha[i], &self.alpha[j])

            delta_alpha_i = self.alpha[i] - old_alpha_i
            delta_alpha_j = self.alpha[j] - old_alpha_j
            add_two_columns(self.active_size, self.G, Q_i, delta_alpha_i, Q_j, delta_alpha_j)

            upper_i = self.is_upper(i)
            upper_j = self.is_upper(j)
            self.update_alpha_status(i)
            self.update_alpha_status(j)
            if upper_i != self.is_upper(i):
                Q_i = self.column(i, l)
                if Q_i == NULL:
                    break
                # G_bar - C Q as G_bar + (-C) Q: the same value to the last bit.
                add_scaled_column(l, self.G_bar, -C_i if upper_i else C_i, Q_i)
            if upper_j != self.is_upper(j):
                Q_j = self.column(j, l)
                if Q_j == NULL:
                    break
                # G_bar - C Q as G_bar + (-C) Q: the same value to the last bit.
                add_scaled_column(l, self.G_bar, -C_j if upper_j else C_j, Q_j)

        if self.out_of_memory:
            si.status = SOLVE_OUT_OF_MEMORY
        elif si.status == SOLVE_OK and not converged:
            si.status = SOLVE_MAX_ITER
        if si.status != SOLVE_OK and self.active_size < l:
            # Rebuild the whole gradient so that rho and the objective are sound.
            self.reconstruct_gradient()
            self.active_size = l
            if si.status == SOLVE_MAX_ITER:
                self.emit(b"*", False)
        if self.out_of_memory:
            si.status = SOLVE_OUT_OF_MEMORY
            self.log = NULL
            self.release()
            return si.status
        if si.status == SOLVE_MAX_ITER:
            self.emit(b"\nWARNING: reaching max number of iterations\n", True)

        si.rho = self.calculate_rho(si)
        objective = 0.0
        for i in range(l):
            objective += self.alpha[i] * (self.G[i] + self.p[i])
        si.obj = objective / 2.0
        for i in range(l):
            alpha[self.active_set[i]] = self.alpha[i]
        if gradients != NULL and gradients.G != NULL:
            for i in range(l):
                gradients.G[self.active_set[i]] = self.G[i]
                gradients.G_bar[self.active_set[i]] = self.G_bar[i]
        si.n_iter = n_iter
        if si.status == SOLVE_OK or si.status == SOLVE_MAX_ITER:
            self.report(n_iter)
            if self.log != NULL and self.log.write != NULL:  # no formatting for no one
                snprintf(line, sizeof(line), b"\noptimization finished, #iter = %ld\n", n_iter)
                self.emit(line, False)
        self.log = NULL
        self.release()
        return si.status

    cdef int select_working_set(self, int* out_i, int* out_j) noexcept nogil:
        """Second-order working set selection (WSS3); returns 1 at optimality.

        i maximises -y_t G_t over I_up; j minimises -b_it^2 / a_it over the t
        in I_low that violate the optimality condition with i (smo_scan.pxd: LIBSVM's
        loops in vector lanes, with LIBSVM's values and ties).
        """
        cdef double Gmax, Gmax2, obj_diff_min, QD_i = 0.0, two_y_i = 0.0
        cdef int i, j
        cdef const float* Q_i = NULL
        i = wss_first(self.active_size, self.y, self.alpha_status, self.G, &Gmax)
        if i != -1:
            Q_i = self.column(i, self.active_size)
            if Q_i == NULL:
                return 1
            QD_i = self.QD[i]
            two_y_i = 2.0 * self.y[i]
        j = wss_second(self.active_size, self.y, self.alpha_status, self.G, Q_i, self.QD,
                       QD_i, two_y_i, Gmax, TAU, &Gmax2, &obj_diff_min)
        self.gap = Gmax + Gmax2
        if Gmax + Gmax2 < self.eps or j == -1:
            return 1
        out_i[0] = i
        out_j[0] = j
        return 0

    cdef bint be_shrunk(self, int i, double Gmax1, double Gmax2) noexcept nogil:
        if self.is_upper(i):
            if self.y[i] == 1:
                return -self.G[i] > Gmax1
            return -self.G[i] > Gmax2
        if self.is_lower(i):
            if self.y[i] == 1:
                return self.G[i] > Gmax2
            return self.G[i] > Gmax1
        return False

    cdef void do_shrinking(self) noexcept nogil:
        """Move variables that cannot change to the end of the active set."""
        cdef int i
        # Gmax1 = max over I_up of -y G; Gmax2 = max over I_low of y G.
        cdef double Gmax1 = -INF, Gmax2 = -INF
        for i in range(self.active_size):
            if self.y[i] == 1:
                if not self.is_upper(i) and -self.G[i] >= Gmax1:
                    Gmax1 = -self.G[i]
                if not self.is_lower(i) and self.G[i] >= Gmax2:
                    Gmax2 = self.G[i]
            else:
                if not self.is_upper(i) and -self.G[i] >= Gmax2:
                    Gmax2 = -self.G[i]
                if not self.is_lower(i) and self.G[i] >= Gmax1:
                    Gmax1 = self.G[i]
        if not self.unshrink and Gmax1 + Gmax2 <= self.eps * 10:
            self.unshrink = True
            self.reconstruct_gradient()
            self.active_size = self.l
            self.emit(b"*", False)
        i = 0
        while i < self.active_size:
            if self.be_shrunk(i, Gmax1, Gmax2):
                self.active_size -= 1
                while self.active_size > i:
                    if not self.be_shrunk(self.active_size, Gmax1, Gmax2):
                        self.swap_index(i, self.active_size)
                        break
                    self.active_size -= 1
            i += 1

    cdef double calculate_rho(self, SolutionInfo* si) noexcept nogil:
        """The bias: mean of y G over free variables, else the feasible midpoint."""
        return rho_from_gradient(self.active_size, self.y, self.G, self.alpha, self.C)


cdef class SolverNU(Solver):
    """SMO for nu-SVC and nu-SVR.

    Their duals carry a second equality constraint, e^T a = const, so each
    working pair is chosen within one label group (both y = +1 or both -1),
    and the solution yields two offsets: r = (r1 + r2) / 2 and
    rho = (r1 - r2) / 2, where r1, r2 are the biases of the two groups.
    """

    cdef int select_working_set(self, int* out_i, int* out_j) noexcept nogil:
        """LIBSVM's Solver_NU selection: i per label group, j by the second-order gain
        within the group of its label (smo_scan.pxd, with LIBSVM's values and ties)."""
        cdef double Gmaxp, Gmaxp2, Gmaxn, Gmaxn2, obj_diff_min
        cdef double QD_p = 0.0, QD_n = 0.0
        cdef int ip, in_, j
        cdef const float* Q_ip = NULL
        cdef const float* Q_in = NULL
        ip = wss_first_nu(self.active_size, self.y, self.alpha_status, self.G, &Gmaxp,
                          &Gmaxn, &in_)
        if ip != -1:
            Q_ip = self.column(ip, self.active_size)
            if Q_ip == NULL:
                return 1
            QD_p = self.QD[ip]
        if in_ != -1:
            Q_in = self.column(in_, self.active_size)
            if Q_in == NULL:
                return 1
            QD_n = self.QD[in_]
        j = wss_second_nu(self.active_size, self.y, self.alpha_status, self.G, Q_ip, Q_in,
                          self.QD, QD_p, QD_n, Gmaxp, Gmaxn, TAU, &Gmaxp2, &Gmaxn2,
                          &obj_diff_min)
        self.gap = max(Gmaxp + Gmaxp2, Gmaxn + Gmaxn2)
        if self.gap < self.eps or j == -1:
            return 1
        out_i[0] = ip if self.y[j] == 1 else in_
        out_j[0] = j
        return 0

    cdef bint be_shrunk_nu(self, int i, double Gmax1, double Gmax2,
                           double Gmax3, double Gmax4) noexcept nogil:
        if self.is_upper(i):
            if self.y[i] == 1:
                return -self.G[i] > Gmax1
            return -self.G[i] > Gmax4
        if self.is_lower(i):
            if self.y[i] == 1:
                return self.G[i] > Gmax2
            return self.G[i] > Gmax3
        return False

    cdef void do_shrinking(self) noexcept nogil:
        cdef int i
        # Per label group: Gmax1/Gmax3 = max -yG over I_up, Gmax2/Gmax4 = max yG
        # over I_low, for y = +1 and y = -1 respectively.
        cdef double Gmax1 = -INF, Gmax2 = -INF, Gmax3 = -INF, Gmax4 = -INF
        for i in range(self.active_size):
            if not self.is_upper(i):
                if self.y[i] == 1:
                    if -self.G[i] > Gmax1:
                        Gmax1 = -self.G[i]
                elif -self.G[i] > Gmax4:
                    Gmax4 = -self.G[i]
            if not self.is_lower(i):
                if self.y[i] == 1:
                    if self.G[i] > Gmax2:
                        Gmax2 = self.G[i]
                elif self.G[i] > Gmax3:
                    Gmax3 = self.G[i]
        # Unlike Solver's, LIBSVM's Solver_NU prints no '*' when it unshrinks.
        if not self.unshrink and max(Gmax1 + Gmax2, Gmax3 + Gmax4) <= self.eps * 10:
            self.unshrink = True
            self.reconstruct_gradient()
            self.active_size = self.l
        i = 0
        while i < self.active_size:
            if self.be_shrunk_nu(i, Gmax1, Gmax2, Gmax3, Gmax4):
                self.active_size -= 1
                while self.active_size > i:
                    if not self.be_shrunk_nu(self.active_size, Gmax1, Gmax2, Gmax3, Gmax4):
                        self.swap_index(i, self.active_size)
                        break
                    self.active_size -= 1
            i += 1

    cdef double calculate_rho(self, SolutionInfo* si) noexcept nogil:
        cdef int i, n_free_p = 0, n_free_n = 0
        cdef double upper_p = INF, upper_n = INF, lower_p = -INF, lower_n = -INF
        cdef double sum_free_p = 0.0, sum_free_n = 0.0, r_p, r_n
        for i in range(self.active_size):
            if self.y[i] == 1:
                if self.is_upper(i):
                    lower_p = max(lower_p, self.G[i])
                elif self.is_lower(i):
                    upper_p = min(upper_p, self.G[i])
                else:
                    n_free_p += 1
                    sum_free_p += self.G[i]
            else:
                if self.is_upper(i):
                    lower_n = max(lower_n, self.G[i])
                elif self.is_lower(i):
                    upper_n = min(upper_n, self.G[i])
                else:
                    n_free_n += 1
                    sum_free_n += self.G[i]
        r_p = sum_free_p / n_free_p if n_free_p > 0 else (upper_p + lower_p) / 2.0
        r_n = sum_free_n / n_free_n if n_free_n > 0 else (upper_n + lower_n) / 2.0
        si.r = (r_p + r_n) / 2.0
        return (r_p - r_n) / 2.0


def _check_state(Py_ssize_t n, Py_ssize_t n_status, Py_ssize_t n_G, Py_ssize_t n_QD,
                 Py_ssize_t rows, Py_ssize_t columns):
    """Refuse a state whose arrays do not all cover the n variables (Q: n x n)."""
    if not n_status == n_G == n_QD == rows == columns == n:
        raise ValueError(f"y, status, G and QD must have one entry per variable and Q be "
                         f"{n} x {n}")


def select_working_pair(const signed char[::1] y, const signed char[::1] status,
                        const double[::1] G, const double[::1] QD, const float[:, ::1] Q):
    """LIBSVM's WSS3 over a given state, as `Solver` selects a pair (smo_scan.pxd).

    ``status`` holds 0 (at the lower bound), 1 (at the upper bound) or 2 (free) per
    variable and ``Q`` the float32 Q matrix. Returns (i, j, Gmax, Gmax2): j is -1
    when no variable violates the optimality condition with i, i is -1 when I_up is
    empty. For tests: a scalar transcription of the loops must agree to the bit.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([1, -1], dtype=np.int8)
    >>> status = np.zeros(2, dtype=np.int8)
    >>> select_working_pair(y, status, np.array([-1.0, -1.0]), np.ones(2),
    ...                     np.array([[1, -0.5], [-0.5, 1]], dtype=np.float32))
    (0, 1, 1.0, 1.0)
    """
    cdef Py_ssize_t n = y.shape[0]
    cdef double Gmax = 0.0, Gmax2 = 0.0, gain = 0.0
    cdef int i, j
    _check_state(n, status.shape[0], G.shape[0], QD.shape[0], Q.shape[0], Q.shape[1])
    if n == 0:
        return -1, -1, -INF, -INF
    with nogil:
        i = wss_first(<int> n, &y[0], &status[0], &G[0], &Gmax)
        j = wss_second(<int> n, &y[0], &status[0], &G[0], &Q[i, 0] if i != -1 else NULL,
                       &QD[0], QD[i] if i != -1 else 0.0, 2.0 * y[i] if i != -1 else 0.0,
                       Gmax, TAU, &Gmax2, &gain)
    return i, j, Gmax, Gmax2


def select_working_pair_nu(const signed char[::1] y, const signed char[::1] status,
                           const double[::1] G, const double[::1] QD, const float[:, ::1] Q):
    """`select_working_pair` for `SolverNU`: returns (i, j, gap), LIBSVM's Solver_NU
    choice (j -1 when none; the gap max(Gmaxp + Gmaxp2, Gmaxn + Gmaxn2)).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([1, 1], dtype=np.int8)
    >>> status = np.array([0, 2], dtype=np.int8)
    >>> select_working_pair_nu(y, status, np.array([-1.0, 0.5]), np.ones(2),
    ...                        np.array([[1, 0], [0, 1]], dtype=np.float32))
    (0, 1, 1.5)
    """
    cdef Py_ssize_t n = y.shape[0]
    cdef double Gmaxp = 0.0, Gmaxn = 0.0, Gmaxp2 = 0.0, Gmaxn2 = 0.0, gain = 0.0
    cdef int ip, in_ = -1, j
    _check_state(n, status.shape[0], G.shape[0], QD.shape[0], Q.shape[0], Q.shape[1])
    if n == 0:
        return -1, -1, -INF
    with nogil:
        ip = wss_first_nu(<int> n, &y[0], &status[0], &G[0], &Gmaxp, &Gmaxn, &in_)
        j = wss_second_nu(<int> n, &y[0], &status[0], &G[0],
                          &Q[ip, 0] if ip != -1 else NULL, &Q[in_, 0] if in_ != -1 else NULL,
                          &QD[0], QD[ip] if ip != -1 else 0.0, QD[in_] if in_ != -1 else 0.0,
                          Gmaxp, Gmaxn, TAU, &Gmaxp2, &Gmaxn2, &gain)
    i = -1 if j == -1 else (ip if y[j] == 1 else in_)
    return i, j, max(Gmaxp + Gmaxp2, Gmaxn + Gmaxn2)


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
