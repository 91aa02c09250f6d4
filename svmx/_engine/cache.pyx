# cython: language_level=3, cdivision=True
"""The LRU kernel-column cache, sized in bytes, with float32 entries."""

from libc.stdlib cimport calloc, free, malloc, realloc


cdef class KernelCache:
    """Cache for the columns of an `l` x `l` matrix.

    Parameters
    ----------
    l : int
        Number of columns (and rows).
    size_bytes : float
        Memory budget. Room for at least two full columns is always kept, so
        the solver can hold the two columns of its working set at once.
    """

    def __cinit__(self, int l, double size_bytes):
        cdef int k
        cdef Py_ssize_t bookkeeping = (sizeof(float*) + 3 * sizeof(int)) // sizeof(float)
        self.l = l
        self.free_floats = <Py_ssize_t> (size_bytes / sizeof(float)) - l * bookkeeping
        if self.free_floats < 2 * <Py_ssize_t> l:
            self.free_floats = 2 * <Py_ssize_t> l
        self.column_data = <float**> calloc(l + 1, sizeof(float*))
        self.column_length = <int*> calloc(l + 1, sizeof(int))
        self.lru_prev = <int*> malloc((l + 1) * sizeof(int))
        self.lru_next = <int*> malloc((l + 1) * sizeof(int))
        if (self.column_data == NULL or self.column_length == NULL
                or self.lru_prev == NULL or self.lru_next == NULL):
            raise MemoryError("could not allocate the kernel cache's index")
        for k in range(l + 1):
            self.lru_prev[k] = k
            self.lru_next[k] = k

    def __dealloc__(self):
        cdef int k
        if self.column_data != NULL:
            for k in range(self.l):
                free(self.column_data[k])
        free(self.column_data)
        free(self.column_length)
        free(self.lru_prev)
        free(self.lru_next)

    cdef void unlink(self, int index) noexcept nogil:
        self.lru_next[self.lru_prev[index]] = self.lru_next[index]
        self.lru_prev[self.lru_next[index]] = self.lru_prev[index]

    cdef void append(self, int index) noexcept nogil:
        # Insert as the most recently used: just before the sentinel.
        cdef int sentinel = self.l
        self.lru_next[index] = sentinel
        self.lru_prev[index] = self.lru_prev[sentinel]
        self.lru_next[self.lru_prev[sentinel]] = index
        self.lru_prev[sentinel] = index

    cdef void evict(self, int index) noexcept nogil:
        self.unlink(index)
        free(self.column_data[index])
        self.free_floats += self.column_length[index]
        self.column_data[index] = NULL
        self.column_length[index] = 0

    cdef int get_data(self, int index, float** data, int length) noexcept nogil:
        """Point `data` at column `index`, grown to `length` entries.

        Returns the number of leading entries already valid (the caller
        computes the rest), or -1 when memory ran out.
        """
        cdef int cached = self.column_length[index]
        cdef int start = length
        cdef int missing = length - cached
        cdef float* grown
        if cached:
            self.unlink(index)
        if missing > 0:
            while self.free_floats < missing and self.lru_next[self.l] != self.l:
                self.evict(self.lru_next[self.l])
            grown = <float*> realloc(self.column_data[index], length * sizeof(float))
            if grown == NULL:
                if cached:
                    self.append(index)
                return -1
            self.column_data[index] = grown
            self.free_floats -= missing
            self.column_length[index] = length
            start = cached
        self.append(index)
        data[0] = self.column_data[index]
        return start

    cdef void swap_index(self, int i, int j) noexcept nogil:
        """Swap rows and columns `i` and `j` of every cached column."""
        cdef int node, following, held_length
        cdef float* held_data
        cdef float held_value
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
        if self.column_length[i]:
            self.append(i)
        if self.column_length[j]:
            self.append(j)
        if i > j:
            i, j = j, i
        node = self.lru_next[self.l]
        while node != self.l:
            following = self.lru_next[node]
            if self.column_length[node] > i:
                if self.column_length[node] > j:
                    held_value = self.column_data[node][i]
                    self.column_data[node][i] = self.column_data[node][j]
                    self.column_data[node][j] = held_value
                else:
                    # The column covers i but not j: it cannot be kept consistent.
                    self.evict(node)
            node = following
