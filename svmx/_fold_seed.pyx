# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
"""A Platt fold's start from its pair's solution (`svmx._platt_folds`), compiled.

A pair's alphas keep y'alpha = 0 over all its rows; over a fold's training rows they
are off by the held-out rows' share, which `fold_seed` takes back from the class that
has it: from its free alphas first, by the same cut from each (water filling,
`take_equally`), then from whole bounded alphas. It runs once per fold, 225 times in a
probability fit of pendigits' 45 pairs, where numpy's version cost 80 us a call, as
much as a fifth of the fold's solve.
"""

import numpy as np

from libc.stdlib cimport free, malloc, qsort

__all__ = ["fold_seed", "take_equally"]

# A class excess at most this share of the seed's sum is rounding, not an excess.
cdef double ROUNDING = 1e-12


cdef struct Keyed:
    double key
    Py_ssize_t index


cdef int by_value(const void* a, const void* b) noexcept nogil:
    cdef double x = (<const double*> a)[0], y = (<const double*> b)[0]
    return (x > y) - (x < y)


cdef int by_key_then_index(const void* a, const void* b) noexcept nogil:
    cdef const Keyed* x = <const Keyed*> a
    cdef const Keyed* y = <const Keyed*> b
    if x.key != y.key:
        return (x.key > y.key) - (x.key < y.key)
    return (x.index > y.index) - (x.index < y.index)


cdef double water_level(double* ordered, Py_ssize_t n, double amount) noexcept nogil:
    """The cut t with sum(min(v, t)) = amount over the n values, sorted here in place;
    amount is below their sum. The first k values below the cut are taken whole."""
    cdef Py_ssize_t k
    cdef double below = 0.0  # the sum of the k smallest
    qsort(ordered, n, sizeof(double), by_value)
    for k in range(n):
        # What a cut at ordered[k] takes; nondecreasing in k.
        if below + (n - k) * ordered[k] >= amount:
            return (amount - below) / (n - k)
        below += ordered[k]
    return ordered[n - 1]


cdef int cut_equally(double* values, const Py_ssize_t* at, Py_ssize_t n,
                     double amount) except -1:
    """values[at[i]] less the same cut from each (none below 0), the cuts summing to
    amount (less than their sum)."""
    cdef Py_ssize_t i
    cdef double cut
    cdef double* ordered = <double*> malloc(max(n, 1) * sizeof(double))
    if ordered == NULL:
        raise MemoryError()
    for i in range(n):
        ordered[i] = values[at[i]]
    cut = water_level(ordered, n, amount)
    free(ordered)
    for i in range(n):
        values[at[i]] -= min(values[at[i]], cut)
    return 0


def take_equally(values, double amount):
    """`values` less the same cut t from each (none below 0), the cuts summing to `amount`.

    Water filling: the cut t solves sum(min(v, t)) = amount. An amount of at
    least the values' sum takes everything.

    Examples
    --------
    >>> take_equally(np.array([0.5, 2.0, 3.0]), 2.5).tolist()
    [0.0, 1.0, 2.0]
    >>> take_equally(np.array([1.0, 1.0]), 5.0).tolist()
    [0.0, 0.0]
    """
    cdef double[::1] left = np.array(values, dtype=np.float64).ravel()
    cdef Py_ssize_t n = left.shape[0]
    cdef Py_ssize_t[::1] at = np.arange(n, dtype=np.intp)
    cdef double total = 0.0
    cdef Py_ssize_t i
    for i in range(n):
        total += left[i]
    if amount <= 0.0 or n == 0:
        return np.asarray(left)
    if amount >= total:
        return np.zeros(n)
    cut_equally(&left[0], &at[0], n, amount)
    return np.asarray(left)


def fold_seed(alpha, labels, bounds, priority=None):
    """A feasible start for a C-SVC fold from the pair's alphas over the fold's rows.

    The pair's alphas keep y'alpha = 0 over all its rows; over a fold's
    training rows they are off by the held-out rows' share. That excess is
    taken from the class that has it: from its free alphas first (equally,
    none below 0, `take_equally`), then, if they hold too little, from its
    bounded ones, whole alphas one after another (in the order of ``priority``,
    higher first, else by position): the rest of a soft margin's bounded alphas stay
    put. (Cut equally, every bounded alpha of the class turned free: on svmguide1's
    folds 172 moved alphas and 260 iterations, against 8-17 and 74-109.)

    Examples
    --------
    >>> seed = fold_seed(np.array([1.0, 0.5, 1.0]), np.array([1, 1, -1], np.int8),
    ...                  np.ones(3))
    >>> seed.tolist()  # the free 0.5 gives the excess up; the bounded 1.0 stays
    [1.0, 0.0, 1.0]
    >>> fold_seed(np.array([1.0, 1.0, 1.0, 0.5]), np.array([1, 1, 1, -1], np.int8),
    ...           np.ones(4)).tolist()  # 2.5 taken from the bounded, whole ones first
    [0.0, 0.0, 0.5, 0.5]
    """
    bounds = np.ascontiguousarray(bounds, dtype=np.float64)
    cdef double[::1] seed = np.clip(np.asarray(alpha, dtype=np.float64), 0.0, bounds)
    cdef const signed char[::1] y = np.ascontiguousarray(labels, dtype=np.int8)
    cdef const double[::1] C = bounds
    cdef const double[::1] rank
    cdef Py_ssize_t n = seed.shape[0], i, n_free = 0, n_bounded = 0
    cdef double excess = 0.0, total = 0.0, held = 0.0, take
    cdef signed char side
    cdef Py_ssize_t[::1] at = np.empty(n, dtype=np.intp)
    cdef Keyed* keyed
    if y.shape[0] != n or C.shape[0] != n:
        raise ValueError(f"fold_seed: alpha, labels and bounds must have one length; got "
                         f"{n}, {y.shape[0]} and {C.shape[0]}")
    for i in range(n):
        excess += seed[i] if y[i] > 0 else -seed[i]
        total += seed[i]
    if abs(excess) <= ROUNDING * total:
        # Rounding, not an excess: a bounded alpha cut by an ulp would turn free and pin
        # the bias where the optimum leaves it to SMO's midpoint.
        return np.asarray(seed)
    side = 1 if excess > 0 else -1
    excess = abs(excess)
    for i in range(n):
        if (y[i] > 0) == (side > 0) and 0.0 < seed[i] < C[i]:
            at[n_free] = i
            n_free += 1
            held += seed[i]
    if excess < held:
        cut_equally(&seed[0], &at[0], n_free, excess)
        return np.asarray(seed)
    for i in range(n_free):  # every free alpha taken whole
        seed[at[i]] = 0.0
    excess -= held
    if excess <= 0.0:
        return np.asarray(seed)
    for i in range(n):
        if (y[i] > 0) == (side > 0) and seed[i] > 0.0:
            at[n_bounded] = i
            n_bounded += 1
    if priority is not None:  # higher priority first, ties by position
        rank = np.ascontiguousarray(priority, dtype=np.float64)
        if rank.shape[0] != n:
            raise ValueError(f"fold_seed: priority must have one value per alpha ({n}); "
                             f"got {rank.shape[0]}")
        keyed = <Keyed*> malloc(max(n_bounded, 1) * sizeof(Keyed))
        if keyed == NULL:
            raise MemoryError()
        for i in range(n_bounded):
            keyed[i].key = -rank[at[i]]
            keyed[i].index = at[i]
        qsort(keyed, n_bounded, sizeof(Keyed), by_key_then_index)
        for i in range(n_bounded):
            at[i] = keyed[i].index
        free(keyed)
    for i in range(n_bounded):  # whole alphas while the excess lasts, the last in part
        if excess <= 0.0:
            break
        take = min(excess, seed[at[i]])
        seed[at[i]] -= take
        excess -= take
    return np.asarray(seed)
