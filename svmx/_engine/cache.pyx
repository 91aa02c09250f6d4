# cython: language_level=3, cdivision=True
"""The LRU kernel-column cache, sized in bytes, with float32 entries.

Each column is a malloc of its cached length, as in LIBSVM; or, when a fit's solves
share a `CacheMemories` and the budget holds the whole matrix (l x l floats), the
columns live in one block of l slots of l floats (slab mode), handed from one solve to
the next; each column keeps its slot, swapped with it. A solve's memory is then the
last one's, whose pages the system has already mapped: freed and allocated again, the
columns of svmguide1's probability fit (a pair and its five folds) were page-faulted
afresh six times, a third of the fit's time.

A swap of two indices (the solver's shrinking) exchanges two entries in every cached
column. LIBSVM walks every cached column at each swap: with the whole matrix cached,
a shrinking pass of s swaps touches s x l columns spread over the cache, whatever the
solve reads afterwards. Here the swaps go to a log, and a column takes the ones it has
not seen when it is next read (in sequence, within its own memory), or all columns do
when the log is full or the budget runs short: the same entries and the same
evictions, in a column's own order. Measured on grid-search folds (svmguide1, an
800-row fold warm-started at C = 2^3, gamma = 2^-9): 0.35 ms a solve, nearly all
of it the swaps, against 0.04 ms.
"""

from libc.math cimport isfinite
from libc.stdlib cimport calloc, free, malloc, realloc

import numpy as np


# The swap log holds l swaps (at least MIN_LOG): a column read after a full log takes at
# most about one pass over its length, as LIBSVM's eager swaps of a shrinking pass do.
cdef Py_ssize_t MIN_LOG = 64
# `KernelCache.catch_up_all` passes over the column index in order where at least one
# column in this many is cached, else along the linked list of cached columns.
cdef int SCAN_BY_INDEX_SHARE = 4


cdef int check_index(Py_ssize_t index, int l, str name) except -1:
    if not 0 <= index < l:
        raise IndexError(f"{name} {index} is out of range for {l} columns")
    return 0


cdef Py_ssize_t budget_floats(Py_ssize_t l, double size_bytes) noexcept:
    """The float32 entries a cache of l columns may fill within `size_bytes`: the bytes
    less each column's bookkeeping, and room for two full columns at least."""
    cdef Py_ssize_t bookkeeping = (sizeof(float*) + 3 * sizeof(int)) // sizeof(float)
    return max(<Py_ssize_t> (size_bytes / sizeof(float)) - l * bookkeeping, 2 * l)


cdef class CacheMemory:
    """A block of `n_floats` float32 entries (uninitialised), owned by a `CacheMemories`."""

    def __cinit__(self, Py_ssize_t n_floats):
        self.base = <float*> malloc(max(n_floats, 1) * sizeof(float))
        if self.base == NULL:
            raise MemoryError(f"could not allocate {n_floats} kernel cache entries")
        self.n_floats = n_floats
        self.in_use = False

    def __dealloc__(self):
        free(self.base)


cdef class CacheMemories:
    """Column memory that the kernel caches of one fit hand on to each other.

    A cache whose budget holds its whole matrix takes a block that no live cache
    holds, that has room for its matrix and that is no larger than its budget; or a
    new one while there are fewer than `limit` blocks (a free block that does not fit
    is replaced); with every block held, it falls back to a malloc per column. A cache
    that does not take a block frees the blocks no cache holds, so that the pool's
    idle memory never adds to the columns it allocates: the memory of the caches
    alive at once stays within the sum of their budgets. Give one per fit, with
    `limit` its solves that run at once and `n_floats` the largest matrix they solve
    (l x l), so that blocks are made once: a new block's pages are mapped afresh as
    the columns touch them. Blocks live as long as this object, or until freed so.

    Parameters
    ----------
    limit : int
        Most blocks kept.
    n_floats : int
        Room a new block gets at least.

    Examples
    --------
    >>> memories = CacheMemories(1, 100 * 100)
    >>> first = KernelCache(100, 2.0**20, memories)
    >>> first.slab_mode, memories.n_blocks
    (True, 1)
    >>> del first  # its block passes to the next cache
    >>> KernelCache(80, 2.0**20, memories).slab_mode, memories.n_blocks
    (True, 1)
    >>> KernelCache(80, 2.0**20).slab_mode  # no memories: a malloc per column
    False
    >>> KernelCache(80, 100 * 80 * 4.0, memories).slab_mode  # replaced: within this budget
    True
    >>> memories.n_blocks, KernelCache(600, 2.0**20, memories).slab_mode, memories.n_blocks
    (1, False, 0)
    """

    def __cinit__(self, Py_ssize_t limit=1, Py_ssize_t n_floats=0):
        self.blocks = []
        self.limit = max(limit, 1)
        self.n_floats = max(n_floats, 0)

    @staticmethod
    def for_solves(sizes, double size_bytes, Py_ssize_t limit):
        """Memories for solves of the given sizes (l), `limit` of them at once: blocks
        made for the largest matrix whose cache (within `size_bytes`) holds it whole.

        >>> CacheMemories.for_solves([100, 300], 2.0**20, 2).n_blocks  # made as caches ask
        0
        """
        whole = [size * size for size in sizes if size * size <= budget_floats(size, size_bytes)]
        return CacheMemories(limit, max(whole, default=0))

    @property
    def n_blocks(self):
        """int : Blocks held now (by a cache or idle)."""
        return len(self.blocks)

    @property
    def block_floats(self):
        """list of int : Each block's size in float32 entries, and whether a cache holds it."""
        return [((<CacheMemory> block).n_floats, (<CacheMemory> block).in_use)
                for block in self.blocks]

    cdef CacheMemory acquire(self, Py_ssize_t n_floats, Py_ssize_t budget):
        """A free block of `n_floats` to `budget` entries (n_floats <= budget), marked in
        use; None if none can be had."""
        cdef CacheMemory block, old
        cdef Py_ssize_t k, size = min(max(n_floats, self.n_floats), budget)
        for block in self.blocks:
            if not block.in_use and n_floats <= block.n_floats <= budget:
                block.in_use = True
                return block
        for k in range(len(self.blocks)):
            old = self.blocks[k]
            if not old.in_use:
                old.in_use = True  # claimed: no other thread replaces it meanwhile
                try:
                    block = CacheMemory(size)
                except MemoryError:
                    old.in_use = False
                    raise
                block.in_use = True
                self.blocks[k] = block
                return block
        if len(self.blocks) < self.limit:
            block = CacheMemory(size)
            block.in_use = True
            self.blocks.append(block)
            return block
        return None

    cdef void free_idle(self):
        """Free the blocks no cache holds."""
        self.blocks = [block for block in self.blocks if (<CacheMemory> block).in_use]


cdef class KernelCache:
    """Cache for the columns of an `l` x `l` matrix.

    Parameters
    ----------
    l : int
        Number of columns (and rows).
    size_bytes : float
        Memory budget. Room for at least two full columns is always kept, so
        the solver can hold the two columns of its working set at once.
    memories : CacheMemories, optional
        Where a cache whose budget holds its whole matrix takes one block for its
        columns (slab mode); without, or with no block to be had, each column is a
        malloc.
    """

    def __cinit__(self, int l, double size_bytes, CacheMemories memories=None):
        cdef int k
        cdef Py_ssize_t n_slab = <Py_ssize_t> l * l
        if l < 0:
            raise ValueError(f"l must be non-negative; got {l}")
        if not (size_bytes >= 0.0 and isfinite(size_bytes)):
            raise ValueError(f"size_bytes must be a finite non-negative number; got {size_bytes}")
        self.l = l
        self.free_floats = budget_floats(l, size_bytes)
        self.column_data = <float**> calloc(l + 1, sizeof(float*))
        self.column_length = <int*> calloc(l + 1, sizeof(int))
        self.lru_prev = <int*> malloc((l + 1) * sizeof(int))
        self.lru_next = <int*> malloc((l + 1) * sizeof(int))
        self.log_capacity = max(<Py_ssize_t> l, MIN_LOG)
        self.swap_low = <int*> malloc(self.log_capacity * sizeof(int))
        self.swap_high = <int*> malloc(self.log_capacity * sizeof(int))
        self.column_swaps = <Py_ssize_t*> calloc(l + 1, sizeof(Py_ssize_t))
        if (self.column_data == NULL or self.column_length == NULL
                or self.lru_prev == NULL or self.lru_next == NULL or self.swap_low == NULL
                or self.swap_high == NULL or self.column_swaps == NULL):
            raise MemoryError("could not allocate the kernel cache's index")
        for k in range(l + 1):
            self.lru_prev[k] = k
            self.lru_next[k] = k
        if memories is not None and l > 0 and n_slab <= self.free_floats:
            self.memory = memories.acquire(n_slab, self.free_floats)
        if memories is not None and self.memory is None:
            memories.free_idle()  # within budget: its columns, not them and idle blocks
        if self.memory is not None:  # column k starts at slot k; a swap swaps the slots
            for k in range(l):
                self.column_data[k] = self.memory.base + <Py_ssize_t> k * l

    def __dealloc__(self):
        cdef int k
        if self.column_data != NULL and self.memory is None:
            for k in range(self.l):
                free(self.column_data[k])
        if self.memory is not None:
            self.memory.in_use = False  # its block passes to the fit's next cache
        free(self.column_data)
        free(self.column_length)
        free(self.lru_prev)
        free(self.lru_next)
        free(self.swap_low)
        free(self.swap_high)
        free(self.column_swaps)

    cdef void unlink(self, int index) noexcept nogil:
        self.lru_next[self.lru_prev[index]] = self.lru_next[index]
        self.lru_prev[self.lru_next[index]] = self.lru_prev[index]
        self.n_linked -= 1

    cdef void append(self, int index) noexcept nogil:
        # Insert as the most recently used: just before the sentinel.
        cdef int sentinel = self.l
        self.lru_next[index] = sentinel
        self.lru_prev[index] = self.lru_prev[sentinel]
        self.lru_next[self.lru_prev[sentinel]] = index
        self.lru_prev[sentinel] = index
        self.n_linked += 1

    cdef void evict(self, int index) noexcept nogil:
        self.unlink(index)
        if self.memory is None:  # in slab mode the column keeps its slot
            free(self.column_data[index])
            self.column_data[index] = NULL
        self.free_floats += self.column_length[index]
        self.column_length[index] = 0

    cdef int get_data(self, int index, float** data, int length) noexcept nogil:
        """Point `data` at column `index`, grown to `length` entries.

        Returns the number of leading entries already valid (the caller
        computes the rest), or -1 when memory ran out.
        """
        cdef int cached, start = length, missing
        cdef float* grown
        self.catch_up(index)
        cached = self.column_length[index]
        missing = length - cached
        if cached:
            self.unlink(index)
        if missing > 0:
            if self.free_floats < missing:
                # Before evicting for room, the evictions the logged swaps make (as
                # LIBSVM's would have at each swap): the same columns stay.
                self.catch_up_all()
            while self.free_floats < missing and self.lru_next[self.l] != self.l:
                self.evict(self.lru_next[self.l])
            if self.memory is None:  # in slab mode the column's slot holds it whole
                grown = <float*> realloc(self.column_data[index], length * sizeof(float))
                if grown == NULL:
                    if cached:
                        self.append(index)
                    return -1
                self.column_data[index] = grown
            self.free_floats -= missing
            self.column_length[index] = length
            start = cached
        if self.column_length[index]:
            # Only non-empty columns are linked: a zero-length request for an
            # uncached column must not put it in the list (a second one would
            # link it twice and make the list cyclic).
            self.append(index)
        data[0] = self.column_data[index]
        return start

    cdef void swap_index(self, int i, int j) noexcept nogil:
        """Swap rows and columns `i` and `j` of every cached column: columns i and j at
        once, their entries i and j when each is next read (`catch_up`)."""
        cdef int held_length
        cdef Py_ssize_t held_swaps
        cdef float* held_data
        if i == j:
            return
        if self.column_length[i]:
            self.unlink(i)
        if self.column_length[j]:
            self.unlink(j)
        held_data = self.column_data[i]
        self.column_data[i] = self.column_data[j]
        self.column_data[j] = held_data
        held_length = self.column_length[i]
        self.column_length[i] = self.column_length[j]
        self.column_length[j] = held_length
        held_swaps = self.column_swaps[i]
        self.column_swaps[i] = self.column_swaps[j]
        self.column_swaps[j] = held_swaps
        if self.column_length[i]:
            self.append(i)
        if self.column_length[j]:
            self.append(j)
        if self.n_linked == 0:
            return  # no column to swap in (a column cached later starts after this swap)
        if self.n_swaps - self.log_base == self.log_capacity:
            self.catch_up_all()
        self.swap_low[self.n_swaps - self.log_base] = min(i, j)
        self.swap_high[self.n_swaps - self.log_base] = max(i, j)
        self.n_swaps += 1

    cdef void catch_up(self, int node) noexcept nogil:
        """Apply to column `node` the logged swaps it has not taken: swap entries i < j
        where it covers both; evict it where it covers i but not j (it cannot be kept
        consistent), as LIBSVM does at each swap."""
        cdef Py_ssize_t s
        cdef int length = self.column_length[node], low, high
        cdef float held_value
        cdef float* data = self.column_data[node]
        if length:
            for s in range(self.column_swaps[node] - self.log_base, self.n_swaps - self.log_base):
                low = self.swap_low[s]
                if length > low:
                    high = self.swap_high[s]
                    if length <= high:
                        self.evict(node)
                        break
                    held_value = data[low]
                    data[low] = data[high]
                    data[high] = held_value
        self.column_swaps[node] = self.n_swaps

    cdef void catch_up_all(self) noexcept nogil:
        """Apply the logged swaps to every cached column and empty the log: over the
        column index in order where at least one column in SCAN_BY_INDEX_SHARE is
        cached (memory in sequence), else along the list of cached columns."""
        cdef int node, following
        if self.n_swaps == self.log_base:
            return
        if self.n_linked * SCAN_BY_INDEX_SHARE >= self.l:
            for node in range(self.l):
                self.catch_up(node)
        else:
            node = self.lru_next[self.l]
            while node != self.l:
                following = self.lru_next[node]  # catch_up may evict (unlink) the node
                self.catch_up(node)
                node = following
        self.log_base = self.n_swaps

    # Python-visible inspection surface, for tests and debugging. Each method
    # checks its arguments and then calls the C-level method above, so the
    # behaviour observed from Python is the one the solver gets.

    @property
    def n_columns(self):
        """int : Number of columns (and rows) `l` of the cached matrix."""
        return self.l

    @property
    def slab_mode(self):
        """bool : Whether the columns live in one block of l slots (the budget holds the
        whole matrix), rather than one allocation each."""
        return self.memory is not None

    @property
    def block_floats(self):
        """int : The size (float32 entries) of the block the columns live in; 0 without."""
        return 0 if self.memory is None else self.memory.n_floats

    @property
    def free_floats(self):
        """int : Unused budget, in float32 entries (4 bytes each).

        Starts at ``size_bytes / 4`` minus the per-column bookkeeping (at least
        ``2 * l``), falls by the length added to a column and rises by the
        length of each evicted column.
        """
        self.catch_up_all()  # the logged swaps' evictions, as LIBSVM makes them at once
        return self.free_floats

    def request(self, Py_ssize_t index, Py_ssize_t length):
        """Ask for the first `length` entries of column `index` (``get_data``).

        The column becomes the most recently used. If it held fewer than
        `length` entries it is grown, evicting least recently used columns
        while the budget is short; the new entries are left for the caller to
        write (see `fill`).

        Parameters
        ----------
        index : int
            Column, ``0 <= index < n_columns``.
        length : int
            Entries wanted, ``0 <= length <= n_columns``.

        Returns
        -------
        start : int
            The first entry that was not cached yet: entries ``[start, length)``
            must be computed. Equal to `length` when nothing is missing.

        Raises
        ------
        MemoryError
            If the column could not be grown.

        Examples
        --------
        >>> from svmx._engine.cache import KernelCache
        >>> cache = KernelCache(4, 1024)
        >>> cache.request(2, 3)
        0
        >>> cache.request(2, 4), cache.request(2, 1)
        (3, 1)
        """
        cdef float* data = NULL
        cdef int start
        check_index(index, self.l, "index")
        if not 0 <= length <= self.l:
            raise ValueError(f"length {length} is out of range for {self.l} columns")
        start = self.get_data(<int> index, &data, <int> length)
        if start < 0:
            raise MemoryError("could not grow the cached column")
        return start

    def fill(self, Py_ssize_t index, values, Py_ssize_t start=0):
        """Write `values` into entries ``[start, start + len(values))`` of column `index`.

        The entries must already be cached (see `request`); the LRU order does
        not change.

        Parameters
        ----------
        index : int
        values : array_like of float, 1-D
            Stored as float32.
        start : int, default=0

        Examples
        --------
        >>> from svmx._engine.cache import KernelCache
        >>> cache = KernelCache(3, 1024)
        >>> cache.request(0, 2)
        0
        >>> cache.fill(0, [1.5, -2.0])
        >>> cache.column(0).tolist()
        [1.5, -2.0]
        """
        cdef const float[::1] source = np.ascontiguousarray(values, dtype=np.float32).ravel()
        cdef Py_ssize_t t, n = source.shape[0]
        check_index(index, self.l, "index")
        self.catch_up(<int> index)  # the solver writes after get_data, which did this
        if start < 0 or start + n > self.column_length[index]:
            raise ValueError(f"entries [{start}, {start + n}) of column {index} are not "
                             f"cached (it holds {self.column_length[index]})")
        for t in range(n):
            self.column_data[index][start + t] = source[t]

    def column(self, Py_ssize_t index):
        """A copy of the cached prefix of column `index` (the LRU order does not change).

        Returns
        -------
        values : ndarray of shape (cached_length(index),), float32

        Examples
        --------
        >>> from svmx._engine.cache import KernelCache
        >>> cache = KernelCache(3, 1024)
        >>> cache.column(1).shape
        (0,)
        """
        self.catch_up_all()
        cdef Py_ssize_t t, n
        check_index(index, self.l, "index")
        n = self.column_length[index]
        out = np.empty(n, dtype=np.float32)
        cdef float[::1] view = out
        for t in range(n):
            view[t] = self.column_data[index][t]
        return out

    def cached_length(self, Py_ssize_t index):
        """Number of leading entries of column `index` held in the cache (0: not cached).

        Examples
        --------
        >>> from svmx._engine.cache import KernelCache
        >>> cache = KernelCache(3, 1024)
        >>> _ = cache.request(1, 2)
        >>> cache.cached_length(1), cache.cached_length(0)
        (2, 0)
        """
        self.catch_up_all()
        check_index(index, self.l, "index")
        return self.column_length[index]

    def lru_order(self):
        """The cached columns from least to most recently used.

        Walks the linked list and checks it on the way: every node's
        backward link must point at the node before it, and the walk must
        end within `n_columns` steps.

        Returns
        -------
        order : list of int
            The first column is the next to be evicted.

        Raises
        ------
        RuntimeError
            If the list is inconsistent.

        Examples
        --------
        >>> from svmx._engine.cache import KernelCache
        >>> cache = KernelCache(4, 1024)
        >>> for index in (3, 0, 3):
        ...     _ = cache.request(index, 4)
        >>> cache.lru_order()
        [0, 3]
        """
        self.catch_up_all()
        cdef int sentinel = self.l
        cdef int previous = sentinel, node = self.lru_next[sentinel]
        order = []
        while node != sentinel:
            if len(order) >= self.l or not 0 <= node < self.l:
                raise RuntimeError("the LRU list does not return to its sentinel")
            if self.lru_prev[node] != previous:
                raise RuntimeError(f"the LRU list's backward link at column {node} is broken")
            order.append(node)
            previous = node
            node = self.lru_next[node]
        if self.lru_prev[sentinel] != previous:
            raise RuntimeError("the LRU list's backward link at the sentinel is broken")
        return order

    def swap(self, Py_ssize_t i, Py_ssize_t j):
        """Swap rows and columns `i` and `j` of the cached matrix (``swap_index``).

        Cached columns i and j trade places (both become the most recently
        used, j last); in every cached column entries i and j trade places,
        and a column that covers the smaller index but not the larger is
        evicted.

        Examples
        --------
        >>> from svmx._engine.cache import KernelCache
        >>> cache = KernelCache(3, 1024)
        >>> _ = cache.request(0, 3)
        >>> cache.fill(0, [10.0, 11.0, 12.0])
        >>> cache.swap(0, 2)
        >>> cache.column(2).tolist(), cache.cached_length(0)
        ([12.0, 11.0, 10.0], 0)
        """
        check_index(i, self.l, "i")
        check_index(j, self.l, "j")
        self.swap_index(<int> i, <int> j)
