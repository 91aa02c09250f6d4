# Public: the Q matrices of LIBSVM's duals over a Kernel and a KernelCache
# (svmx/_engine/qmatrix.pyx).
#
# SvcQ(kernel, y, cache_size_bytes)   Q_ij = y_i y_j K(x_i, x_j)   C-SVC and nu-SVC
# OneClassQ(kernel, cache_size_bytes) Q_ij = K(x_i, x_j)           one-class SVM
# SvrQ(kernel, cache_size_bytes)      the 2l x 2l matrix of epsilon- and nu-SVR
# Each takes an optional last argument `memories` (a cache.CacheMemories) for its cache.
# get_Q(i, length) returns float32 column i (NULL when out of memory), valid until the
# next-but-one call; QD is the float64 diagonal.

from svmx._engine.qmatrix cimport OneClassQ, QMatrix, SvcQ, SvrQ
