# cython: language_level=3, cdivision=True
"""A batched working-set solver for large problems.

It solves the same quadratic program as `svmx._engine.solver.Solver`,

    min_a  1/2 a^T Q a + p^T a   s.t.  y^T a = Delta,  0 <= a_i <= C_i,

with Q_ij = y_i y_j K(x_i, x_j), and stops at the same condition: the
maximal violating pair's gap below `eps`. Instead of two variables per step
it works on a block B of up to `block_size` variables (the design of
ThunderSVM and oneDAL's "thunder" solver):

1. B is filled with the most violating variables: the largest -y G over
   I_up and the smallest over I_low; half of the previous block stays, so
   half of its kernel rows are reused.
2. The kernel rows of the new members are computed together: one matrix
   product over all rows (SGEMM for dense data, sparse rows times the dense
   block for sparse data) and a vectorised map. They are stored as columns of
   an (l x block_size) array, so that row t holds every block member's kernel
   value with sample t.
3. SMO with second-order working set selection runs on B alone, to a local
   gap of max(eps, gap / 10).
4. The whole gradient is updated once from the block's kernel rows: one
   dot product of length block_size per sample, on OpenMP threads.

Kernel values are float32 here, as in LIBSVM's cache; the gradient is kept
in float64.
"""

from cython.parallel cimport prange
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from svmx._engine.isa cimport isa_level
from svmx._engine.fastmath cimport row_dot_weights
from svmx._engine.kernel_map cimport PRECOMPUTED, KernelParams
from svmx._engine.rows cimport BLOCK_NOT_RESERVED, BLOCK_OK, Rows
from svmx._engine.solver cimport (
    SOLVE_BAD_ARGUMENT,
    SOLVE_BLOCK_NOT_RESERVED,
    SOLVE_INTERRUPTED,
    SOLVE_MAX_ITER,
    SOLVE_OK,
    SOLVE_OUT_OF_MEMORY,
    SolutionInfo,
    SolverLog,
    rho_from_gradient,
    second_order_gain,
    signals_pending,
    update_pair,
)

cdef double INF = float("inf")


cdef inline bint in_up(signed char y, double alpha, double C) noexcept nogil:
    return (y == 1 and alpha < C) or (y == -1 and alpha > 0)


cdef inline bint in_low(signed char y, double alpha, double C) noexcept nogil:
    return (y == 1 and alpha > 0) or (y == -1 and alpha < C)


cdef inline bint better(double key_a, int index_a, double key_b, int index_b) noexcept nogil:
    # A strict order (ties by index) keeps the selection deterministic.
    return key_a > key_b or (key_a == key_b and index_a < index_b)


cdef void sift_down(double* keys, int* items, int size, int root) noexcept nogil:
    # Min-heap on `better`: the root is the worst of the kept candidates.
    cdef int child, worst
    cdef double held_key
    cdef int held_item
    while True:
        worst = root
        child = 2 * root + 1
        if child < size and better(keys[worst], items[worst], keys[child], items[child]):
            worst = child
        child += 1
        if child < size and better(keys[worst], items[worst], keys[child], items[child]):
            worst = child
        if worst == root:
            return
        held_key = keys[root]
        keys[root] = keys[worst]
        keys[worst] = held_key
        held_item = items[root]
        items[root] = items[worst]
        items[worst] = held_item
        root = worst


cdef int select_best(int l, const signed char* y, const double* alpha, const double* C,
                     const double* G, const char* taken, bint up, int wanted,
                     double* heap_keys, int* heap_items) noexcept nogil:
    """The `wanted` best candidates not yet taken, into heap_items; returns how many.

    Over I_up "best" is the largest -y G, over I_low the smallest.
    """
    cdef int t, size = 0
    cdef double key
    if wanted <= 0:
        return 0
    for t in range(l):
        if taken[t]:
            continue
        if up:
            if not in_up(y[t], alpha[t], C[t]):
                continue
            key = -y[t] * G[t]
        else:
            if not in_low(y[t], alpha[t], C[t]):
                continue
            key = y[t] * G[t]
        if size < wanted:
            heap_keys[size] = key
            heap_items[size] = t
            size += 1
            if size == wanted:
                for root in range(wanted // 2 - 1, -1, -1):
                    sift_down(heap_keys, heap_items, size, root)
        elif better(key, t, heap_keys[0], heap_items[0]):
            heap_keys[0] = key
            heap_items[0] = t
            sift_down(heap_keys, heap_items, size, 0)
    return size


cdef double global_gap(int l, const signed char* y, const double* alpha, const double* C,
                       const double* G) noexcept nogil:
    """max over I_up of -y G plus max over I_low of y G: the violation of optimality."""
    cdef int t
    cdef double Gmax = -INF, Gmax2 = -INF
    for t in range(l):
        if in_up(y[t], alpha[t], C[t]) and -y[t] * G[t] > Gmax:
            Gmax = -y[t] * G[t]
        if in_low(y[t], alpha[t], C[t]) and y[t] * G[t] > Gmax2:
            Gmax2 = y[t] * G[t]
    return Gmax + Gmax2


cdef void add_block_to_gradient(int l, const float* K, int width, int n_columns,
                                const double* weights, const signed char* y, double* G,
                                int n_threads) noexcept nogil:
    """G_t += y_t sum_b weights_b K[t, b] over the first n_columns columns of the
    row-major (l, width) array K: the gradient change of a block update.

    Each G_t is computed by one thread in a fixed order, so the result does not
    depend on the thread count.
    """
    cdef Py_ssize_t t
    for t in prange(l, schedule="dynamic", chunksize=256, num_threads=n_threads):
        G[t] += y[t] * row_dot_weights(K + t * width, weights, n_columns)


cdef long solve_block(int m, const int* members, const int* column_of, const float* K,
                      int width, const signed char* y, double* alpha, const double* C,
                      const double* G, double eps_local, long max_local, double* Q,
                      double* QD, double* G_B, double* alpha_B) noexcept nogil:
    """SMO (WSS3) on the block; returns the number of pair updates made.

    Member a's kernel values are column column_of[a] of the row-major (l, width)
    array K. The block's alphas are written back to `alpha`; G is left to the
    caller.
    """
    cdef int a, b, i, j, t
    cdef long n_updates = 0
    cdef double Gmax, Gmax2, grad_diff, quad_coef, obj_diff, obj_diff_min
    cdef double old_i, old_j, delta_i, delta_j
    cdef signed char y_i
    cdef const float* row
    for a in range(m):
        alpha_B[a] = alpha[members[a]]
        G_B[a] = G[members[a]]
    # Q[a, b] = y_a y_b K(x_b, x_a) from row members[b] of K: one row at a time.
    for b in range(m):
        row = K + <Py_ssize_t> members[b] * width
        for a in range(m):
            Q[a * m + b] = y[members[a]] * y[members[b]] * <double> row[column_of[a]]
    for a in range(m):
        QD[a] = Q[a * m + a]
    while n_updates < max_local:
        Gmax = -INF
        Gmax2 = -INF
        i = -1
        j = -1
        for a in range(m):
            if in_up(y[members[a]], alpha_B[a], C[members[a]]):
                if -y[members[a]] * G_B[a] >= Gmax:
                    Gmax = -y[members[a]] * G_B[a]
                    i = a
        if i == -1:
            break
        y_i = y[members[i]]
        obj_diff_min = INF
        for a in range(m):
            if not in_low(y[members[a]], alpha_B[a], C[members[a]]):
                continue
            if y[members[a]] * G_B[a] >= Gmax2:
                Gmax2 = y[members[a]] * G_B[a]
            grad_diff = Gmax + y[members[a]] * G_B[a]
            if grad_diff > 0:
                quad_coef = QD[i] + QD[a] - 2.0 * y_i * y[members[a]] * Q[i * m + a]
                obj_diff = second_order_gain(grad_diff, quad_coef)
                if obj_diff <= obj_diff_min:
                    obj_diff_min = obj_diff
                    j = a
        if Gmax + Gmax2 < eps_local or j == -1:
            break
        old_i = alpha_B[i]
        old_j = alpha_B[j]
        update_pair(y_i, y[members[j]], G_B[i], G_B[j], QD[i], QD[j], Q[i * m + j],
                    C[members[i]], C[members[j]], &alpha_B[i], &alpha_B[j])
        delta_i = alpha_B[i] - old_i
        delta_j = alpha_B[j] - old_j
        for t in range(m):
            G_B[t] += Q[i * m + t] * delta_i + Q[j * m + t] * delta_j
        n_updates += 1
    for a in range(m):
        alpha[members[a]] = alpha_B[a]
    return n_updates


cdef inline int solve_status_of(int block_status) noexcept nogil:
    """The SolveStatus of a failed block product (a BlockStatus other than BLOCK_OK)."""
    if block_status == BLOCK_NOT_RESERVED:
        return SOLVE_BLOCK_NOT_RESERVED
    return SOLVE_OUT_OF_MEMORY


cdef class BlockSolver:
    """Batched working-set solver; one instance runs one solve at a time.

    Examples
    --------
    Driven from Cython; ``svmx._libsvm.solve_c_svc(..., solver="block")`` is
    the Python entry point.
    """

    cdef int solve(self, Rows rows, const KernelParams* params, const double* p,
                   const signed char* y, double* alpha, const double* C, double eps,
                   long max_iter, int block_size, bint check_signals,
                   SolutionInfo* si, const SolverLog* log=NULL) noexcept nogil:
        """Solve the dual from the initial `alpha` (updated in place).

        A `log` with a progress function hears the updates made and the global
        gap at every round and once at the end (the block solver writes no text).
        """
        cdef int l = <int> rows.n_rows
        if block_size < 2 or params.kernel_type == PRECOMPUTED:
            return SOLVE_BAD_ARGUMENT
        cdef int q = block_size if block_size < l else l
        cdef int half = q // 2 if q >= 2 else 1
        cdef int n_new, wanted, got, a, b, t, slot_start, i, status
        cdef int replace_half = 0, round_number = 0
        cdef bint changed
        cdef long n_updates = 0, made
        cdef double gap, eps_local, objective
        # Row t: every block slot's kernel value with sample t. Zeroed, so that slots
        # never filled hold finite values (their weights are 0).
        cdef float* K = <float*> calloc(<Py_ssize_t> q * l, sizeof(float))
        cdef double* G = <double*> malloc(l * sizeof(double))
        cdef char* taken = <char*> calloc(l, sizeof(char))
        cdef int* members = <int*> malloc(q * sizeof(int))
        cdef int* new_members = <int*> malloc(q * sizeof(int))
        cdef int* column_of = <int*> malloc(q * sizeof(int))
        cdef double* heap_keys = <double*> malloc(q * sizeof(double))
        cdef double* Q = <double*> malloc(<Py_ssize_t> q * q * sizeof(double))
        cdef double* QD = <double*> malloc(q * sizeof(double))
        cdef double* G_B = <double*> malloc(q * sizeof(double))
        cdef double* alpha_B = <double*> malloc(q * sizeof(double))
        cdef double* old_alpha = <double*> malloc(q * sizeof(double))
        cdef double* weights = <double*> malloc(q * sizeof(double))
        cdef double* block_norms = <double*> malloc(q * sizeof(double))
        cdef int* slot_member = <int*> malloc(q * sizeof(int))
        cdef int n_in_half[2]
        si.status = SOLVE_OK
        si.r = 0.0
        si.n_kernel_rows = 0
        if (K == NULL or G == NULL or taken == NULL or members == NULL or new_members == NULL
                or column_of == NULL or heap_keys == NULL or Q == NULL
                or QD == NULL or G_B == NULL or alpha_B == NULL or old_alpha == NULL
                or weights == NULL or block_norms == NULL or slot_member == NULL):
            si.status = SOLVE_OUT_OF_MEMORY
        else:
            n_in_half[0] = 0
            n_in_half[1] = 0
            for t in range(l):
                G[t] = p[t]
            # G = p + Q alpha for a non-zero start, one block of kernel rows at a time.
            t = 0
            while t < l and si.status == SOLVE_OK:
                n_new = 0
                while t < l and n_new < q:
                    if alpha[t] != 0:
                        new_members[n_new] = t
                        weights[n_new] = y[t] * alpha[t]
                        block_norms[n_new] = rows.sq_norms[t]
                        n_new += 1
                    t += 1
                if n_new == 0:
                    break
                status = rows.kernel_rows(new_members, n_new, K, q, params, block_norms)
                if status != BLOCK_OK:
                    si.status = solve_status_of(status)
                    break
                si.n_kernel_rows += n_new
                add_block_to_gradient(l, K, q, n_new, weights, y, G, rows.n_threads)

        while si.status == SOLVE_OK:
            gap = global_gap(l, y, alpha, C, G)
            if log != NULL and log.progress != NULL:
                log.progress(log.context, n_updates, gap, eps)
            if gap < eps:
                break
            if max_iter >= 0 and n_updates >= max_iter:
                si.status = SOLVE_MAX_ITER
                break
            if check_signals and signals_pending():
                si.status = SOLVE_INTERRUPTED
                break
            # The half that was new last round stays; the other half is refilled.
            if round_number == 0:
                n_in_half[0] = 0
                n_in_half[1] = 0
                wanted = q
                slot_start = 0
            else:
                n_in_half[replace_half] = 0
                wanted = half if replace_half == 0 else q - half
                slot_start = 0 if replace_half == 0 else half
            memset(taken, 0, l)
            for a in range(n_in_half[1 - replace_half] if round_number else 0):
                taken[slot_member[(half if replace_half == 0 else 0) + a]] = 1
            got = select_best(l, y, alpha, C, G, taken, True, wanted // 2 + wanted % 2,
                              heap_keys, new_members)
            for a in range(got):
                taken[new_members[a]] = 1
            got += select_best(l, y, alpha, C, G, taken, False, wanted - got,
                               heap_keys, new_members + got)
            for a in range(got):
                taken[new_members[a]] = 1
            if got < wanted:
                # One side ran short: fill the rest from the other.
                b = select_best(l, y, alpha, C, G, taken, True, wanted - got,
                                heap_keys, new_members + got)
                got += b
            if got == 0:
                break
            for a in range(got):
                slot_member[slot_start + a] = new_members[a]
                block_norms[a] = rows.sq_norms[new_members[a]]
            status = rows.kernel_rows(new_members, got, K + slot_start, q, params, block_norms)
            if status != BLOCK_OK:
                si.status = solve_status_of(status)
                break
            si.n_kernel_rows += got
            if round_number == 0:
                n_in_half[0] = min(got, half)
                n_in_half[1] = got - n_in_half[0]
            else:
                n_in_half[replace_half] = got
            # The block: both halves, each member with its kernel row.
            b = 0
            for i in range(2):
                for a in range(n_in_half[i]):
                    members[b] = slot_member[(0 if i == 0 else half) + a]
                    column_of[b] = (0 if i == 0 else half) + a
                    old_alpha[b] = alpha[members[b]]
                    b += 1
            eps_local = gap / 10.0 if gap / 10.0 > eps else eps
            made = solve_block(b, members, column_of, K, q, y, alpha, C, G, eps_local,
                               10 * <long> b if max_iter < 0 else
                               min(10 * <long> b, max_iter - n_updates),
                               Q, QD, G_B, alpha_B)
            n_updates += made
            # One weight per slot (0 for slots whose member did not move).
            memset(weights, 0, q * sizeof(double))
            changed = False
            for a in range(b):
                weights[column_of[a]] = y[members[a]] * (alpha[members[a]] - old_alpha[a])
                changed = changed or weights[column_of[a]] != 0.0
            if changed:
                add_block_to_gradient(l, K, q, q, weights, y, G, rows.n_threads)
            if made == 0 and round_number > 0:
                # A block half kept from the last round and half refilled may hold no
                # violating pair (a block of two: the kept member and a new one on the
                # same side): refill all of it, which takes the maximal violating pair.
                round_number = 0
                continue
            if made == 0:
                # Not even the maximal violating pair can move (float32 kernel values
                # ran out of precision before the gap reached eps): stop rather than
                # spin, and report the solve as not converged.
                si.status = SOLVE_MAX_ITER
                break
            replace_half = 1 - replace_half if round_number else 0
            round_number += 1

        if si.status != SOLVE_OUT_OF_MEMORY and si.status != SOLVE_BLOCK_NOT_RESERVED:
            si.rho = rho_from_gradient(l, y, G, alpha, C)
            objective = 0.0
            for t in range(l):
                objective += alpha[t] * (G[t] + p[t])
            si.obj = objective / 2.0
        si.n_iter = n_updates
        free(K)
        free(G)
        free(taken)
        free(members)
        free(new_members)
        free(column_of)
        free(heap_keys)
        free(Q)
        free(QD)
        free(G_B)
        free(alpha_B)
        free(old_alpha)
        free(weights)
        free(block_norms)
        free(slot_member)
        return si.status


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
