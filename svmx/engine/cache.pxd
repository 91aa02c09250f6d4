# Public: the LRU cache of kernel columns, stored as float32 (svmx/_engine/cache.pyx).
#
# KernelCache(l, size_bytes, memories=None) owns its columns and frees them when it is
# collected; a Q matrix creates its own, so most callers never touch it directly.
# CacheMemories(limit=1, n_floats=0): blocks of column memory that the caches of one set of
# solves hand on to each other (a cache whose budget holds its whole l x l matrix takes a
# free block), so that solve after solve does not map its memory afresh.

from svmx._engine.cache cimport CacheMemories, KernelCache
