# Public: the LRU cache of kernel columns, stored as float32 (svmx/_engine/cache.pyx).
#
# KernelCache(l, size_bytes) owns its columns and frees them when it is collected; a Q matrix
# creates its own, so most callers never touch it directly.

from svmx._engine.cache cimport KernelCache
