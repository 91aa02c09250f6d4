# Public: kernel types and parameters, row storage and kernels (implemented by concept in
# svmx/_engine/kernel_map.pyx, rows.pyx and kernel.pyx).
#
# Rows objects own a copy of the training rows, which the solver permutes in place while it
# shrinks; construct them (and Kernel) with the GIL held, then call their cdef methods
# without it. Kernel types are the LIBSVM codes LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED.
# Block products (dot_block, kernel_rows) return a BlockStatus: BLOCK_OK,
# BLOCK_OUT_OF_MEMORY, or BLOCK_NOT_RESERVED when reserve_block(n_which) was not called first
# on storage that needs it (DenseRows32, CsrRows, and the base rows of TiledRows).

from svmx._engine.kernel cimport Kernel
from svmx._engine.kernel_map cimport (
    LINEAR,
    POLY,
    PRECOMPUTED,
    RBF,
    SIGMOID,
    KernelParams,
    KernelType,
    kernel_block,
    kernel_from_dot,
)
from svmx._engine.rows cimport (
    BLOCK_NOT_RESERVED,
    BLOCK_OK,
    BLOCK_OUT_OF_MEMORY,
    BlockStatus,
    CsrRows,
    DenseRows,
    DenseRows32,
    Rows,
    TiledRows,
)
