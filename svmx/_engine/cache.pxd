cdef class CacheMemory:
    """One block of float32 room that kernel caches holding their whole matrix take their
    columns from, one cache at a time (see cache.pyx)."""
    cdef float* base
    cdef Py_ssize_t n_floats
    cdef bint in_use


cdef class CacheMemories:
    cdef list blocks
    cdef Py_ssize_t limit
    cdef Py_ssize_t n_floats

    cdef CacheMemory acquire(self, Py_ssize_t n_floats, Py_ssize_t budget)
    cdef void free_idle(self)


cdef class KernelCache:
    """Least-recently-used cache of kernel (Q matrix) columns stored as float32.

    Column `i` may be cached only over its first `length` entries; a request
    for a longer prefix returns where the cached part ends, so the caller fills
    in only the rest.
    """
    cdef int l
    cdef Py_ssize_t free_floats
    cdef float** column_data
    cdef int* column_length
    # Circular doubly linked list over columns; node `l` is the sentinel,
    # lru_next[l] is the least recently used column.
    cdef int* lru_prev
    cdef int* lru_next
    # How many columns are linked (cached with a nonzero length).
    cdef int n_linked
    # Slab mode (the budget holds the whole matrix): the block of l slots of l floats the
    # columns live in, each in its own slot (swapped with it); None otherwise (a malloc
    # per column).
    cdef CacheMemory memory
    # The swaps not yet applied to every column (swap_index logs them; a column takes
    # them when next read, all columns when the log is full or the budget runs short):
    # swap s (log_base <= s < n_swaps) exchanged entries swap_low[s - log_base] <
    # swap_high[s - log_base]; column k has taken the swaps before column_swaps[k].
    cdef int* swap_low
    cdef int* swap_high
    cdef Py_ssize_t* column_swaps
    cdef Py_ssize_t n_swaps
    cdef Py_ssize_t log_base
    cdef Py_ssize_t log_capacity

    cdef int get_data(self, int index, float** data, int length) noexcept nogil
    cdef void swap_index(self, int i, int j) noexcept nogil
    cdef void unlink(self, int index) noexcept nogil
    cdef void append(self, int index) noexcept nogil
    cdef void evict(self, int index) noexcept nogil
    cdef void catch_up(self, int node) noexcept nogil
    cdef void catch_up_all(self) noexcept nogil
