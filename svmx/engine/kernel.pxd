# Public: row storage, kernel parameters and kernels (implemented in svmx/_engine/kernel.pyx).
#
# Rows objects own a copy of the training rows, which the solver permutes in place while it
# shrinks; construct them (and Kernel) with the GIL held, then call their cdef methods
# without it. Kernel types are the LIBSVM codes LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED.

from svmx._engine.kernel cimport (
    LINEAR,
    POLY,
    PRECOMPUTED,
    RBF,
    SIGMOID,
    CsrRows,
    DenseRows,
    DenseRows32,
    Kernel,
    KernelParams,
    KernelType,
    Rows,
    TiledRows,
    kernel_block,
    kernel_from_dot,
)
