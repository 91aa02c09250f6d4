"""Builders for the engine tests: row storages, kernels and reference Gram matrices.

The engine's row classes are imported here and nowhere else in this folder, so moving them
(e.g. to ``svmx._engine.rows``) is a one-line change. (A plain module rather than a
``conftest.py``: the suite's top-level ``tests/conftest.py`` is imported by name elsewhere, and a
second module called ``conftest`` would shadow it.)
"""

import numpy as np
import scipy.sparse as sp

from svmx._engine.kernel import Kernel
from svmx._engine.rows import CsrRows, DenseRows, DenseRows32

# LIBSVM's kernel_type codes (svmx/_engine/kernel.pxd).
KERNEL_TYPES = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3, "precomputed": 4}
KERNELS = tuple(KERNEL_TYPES)
# Row storages: float64 dense, float32 dense, CSR (float64 values).
LAYOUTS = ("dense64", "dense32", "csr")


def as_stored(X, layout):
    """X as the engine will see it: float32-rounded for 'dense32', float64 otherwise."""
    dtype = np.float32 if layout == "dense32" else np.float64
    return np.asarray(X, dtype=dtype).astype(np.float64)


def make_rows(X, layout):
    """An engine-owned row storage holding a private copy of X."""
    if layout == "dense64":
        return DenseRows(np.array(X, dtype=np.float64, order="C"))
    if layout == "dense32":
        return DenseRows32(np.array(X, dtype=np.float32, order="C"))
    if layout == "csr":
        matrix = sp.csr_matrix(np.asarray(X, dtype=np.float64))
        matrix.sort_indices()
        return CsrRows(
            np.ascontiguousarray(matrix.data, dtype=np.float64),
            np.ascontiguousarray(matrix.indices, dtype=np.int32),
            np.ascontiguousarray(matrix.indptr, dtype=np.int64),
            matrix.shape[1],
        )
    raise ValueError(layout)


def reference_gram(X, kernel, degree=3, gamma=0.5, coef0=0.25):
    """K(x_i, x_j) in float64 numpy, straight from LIBSVM's definitions."""
    X = np.asarray(X, dtype=np.float64)
    dots = X @ X.T
    if kernel in ("linear", "precomputed"):
        return dots
    if kernel == "poly":
        return (gamma * dots + coef0) ** degree
    if kernel == "rbf":
        sq_distances = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
        return np.exp(-gamma * sq_distances)
    if kernel == "sigmoid":
        return np.tanh(gamma * dots + coef0)
    raise ValueError(kernel)


def make_kernel(X, layout, kernel, degree=3, gamma=0.5, coef0=0.25):
    """An engine Kernel over X; returns it with its float64 reference Gram matrix.

    For 'precomputed' the engine's rows are the reference Gram matrix of a linear kernel
    (stored in `layout`), and the reference is that matrix as stored.
    """
    if kernel == "precomputed":
        gram = reference_gram(as_stored(X, layout), "linear")
        rows = make_rows(gram, layout)
        expected = as_stored(gram, layout)
    else:
        rows = make_rows(X, layout)
        expected = reference_gram(as_stored(X, layout), kernel, degree, gamma, coef0)
    engine_kernel = Kernel(rows, KERNEL_TYPES[kernel], degree, gamma, coef0)
    return engine_kernel, expected
