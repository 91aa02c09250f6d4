"""One kernel matrix shared by every one-vs-one pair of a many-class problem.

LIBSVM trains the k (k - 1) / 2 pairs of a k-class problem separately, each
computing its own kernel columns one matrix-vector product at a time, so a
sample's kernel values are computed once for each of the k - 1 pairs it
belongs to. When the whole Gram matrix of the training samples fits in the
kernel cache budget, computing it once with matrix-matrix products (BLAS
level 3, an order of magnitude more work per memory access) and letting every
pair read its block is much faster. The values are those LIBSVM's cache holds:
computed in float64, stored as float32.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._specs import BYTES_PER_MB, KernelSpec

__all__ = ["SharedGram", "gram_matrix", "kernel_values_dear", "shared_gram",
           "stored_entries_per_row"]

# The Gram matrix may take this share of `cache_size`; the pairs' own caches
# share what is left.
GRAM_SHARE_OF_CACHE = 0.75
# Rows of the Gram matrix computed per matrix product (a float64 block of
# this many rows is the only temporary).
GRAM_BLOCK_ROWS = 1024
# Rows with fewer stored entries than this make kernel columns cheap enough that
# the pairs compute only the ones they need (dna.scale, 45 per row: 1.6x faster
# without the shared matrix; mnist, 784 per row: 4x faster with it).
GRAM_MIN_ENTRIES_PER_ROW = 100
# A Gram matrix that serves several folds of the same rows (the folds of a
# cross-validation; Platt's folds share one computed row by row with their pair instead,
# `svmx._platt_folds.fold_inputs`) pays for itself when rows store at least this many
# entries: kernel values cost one sparse or dense dot product each. Measured per Platt
# pair, best of 3 on Sapphire Rapids (Gram once / time it saves each fold): dna.scale,
# sparse 45 per row, 1,300 rows: 10 ms / 13 ms; dense 36 features, 1,330 rows:
# 13 ms / 0.9 ms; pendigits, dense 16: 13 ms / 0.4 ms; svmguide1, dense 4: 35 ms /
# 2 ms. For 5-fold cross_validate on 2,000-3,000 rows with a fixed gamma (Zen 4,
# per-fold fits / folds on one Gram matrix): dna.scale 3.3x (sparse) and 2.2x
# (dense), a9a dense 2.1x, but a9a sparse (14 per row) 0.91x, ijcnn1 (22 dense)
# 0.4-0.6x, pendigits (16) 0.7x. Sparse dot products cost several times dense ones.
FOLD_GRAM_MIN_SPARSE_ENTRIES = 20
FOLD_GRAM_MIN_DENSE_FEATURES = 100


@dataclass(frozen=True)
class SharedGram:
    """The Gram matrix of the training samples and where each sample sits in it.

    Attributes
    ----------
    matrix : ndarray of shape (m, m), float32
        K(x_a, x_b) over the m samples that take part in training.
    position : ndarray of shape (n_samples,)
        position[i] is the row of sample i in `matrix` (-1 if it takes no part).
    pair_cache_bytes : float
        The kernel cache (bytes) left to each pair's solver.
    """

    matrix: np.ndarray
    position: np.ndarray
    pair_cache_bytes: float


def gram_megabytes(n_samples: int) -> float:
    """Size in MB of a float32 Gram matrix over n_samples.

    Examples
    --------
    >>> gram_megabytes(1024)
    4.0
    """
    return gram_bytes(n_samples) / BYTES_PER_MB


def gram_bytes(n_samples: int) -> float:
    """Size in bytes of a float32 Gram matrix over n_samples.

    Examples
    --------
    >>> gram_bytes(1024)
    4194304.0
    """
    return 4.0 * n_samples * n_samples


def stored_entries_per_row(X, rows: np.ndarray | None = None) -> float:
    """The mean stored entries of the rows of X (all, or ``rows``): the features of a dense
    X, the non-zeros kept of a sparse one.

    Examples
    --------
    >>> stored_entries_per_row(sp.csr_matrix(np.eye(3))), stored_entries_per_row(np.eye(3))
    (1.0, 3.0)
    """
    if not sp.issparse(X):
        return float(X.shape[1])
    per_row = np.diff(X.indptr)
    if rows is not None:
        per_row = per_row[rows]
    return float(per_row.mean()) if per_row.size else 0.0


def kernel_values_dear(X, rows: np.ndarray | None = None) -> bool:
    """Whether the rows of X (all, or ``rows``) make kernel values dear enough that one
    Gram matrix over them beats per-fold kernel columns (``FOLD_GRAM_MIN_*``).

    Examples
    --------
    >>> kernel_values_dear(np.ones((3, 128))), kernel_values_dear(np.ones((3, 16)))
    (True, False)
    >>> kernel_values_dear(sp.csr_matrix(np.ones((3, 16))))
    False
    """
    least = FOLD_GRAM_MIN_SPARSE_ENTRIES if sp.issparse(X) else FOLD_GRAM_MIN_DENSE_FEATURES
    return stored_entries_per_row(X, rows) >= least


def _over_stored_features(X):
    """Sparse X over the features it stores, where it has far more features than entries
    (scipy's X @ X.T took one index per feature: 400 MB for 10^8 features); the columns
    keep their order, so every dot product is the same sum.

    Examples
    --------
    >>> X = sp.csr_matrix(([1.0, 2.0], [3, 10**7], [0, 1, 2]), shape=(2, 10**7 + 1))
    >>> _over_stored_features(X).shape
    (2, 2)
    """
    X = sp.csr_matrix(X)
    indices, n_used = _libsvm.stored_columns(X.indices, X.shape[1])
    return sp.csr_matrix((X.data, indices, X.indptr), shape=(X.shape[0], n_used))


def gram_matrix(X, kernel: KernelSpec, dtype: type = np.float64) -> np.ndarray:
    """K(X, X) over the rows of X (dense or CSR), block of rows by block of rows.

    K is symmetric: each block row is computed (in float64, with one matrix
    product) from the diagonal on and mirrored (`mirror_upper`); `dtype` is the
    storage. Up to ``GRAM_BLOCK_ROWS`` rows in float64, K is one
    `symmetric_kernel_matrix`.

    Examples
    --------
    >>> K = gram_matrix(np.array([[0.0], [1.0]]), KernelSpec.named("rbf", gamma=1.0))
    >>> np.round(K, 4).tolist()
    [[1.0, 0.3679], [0.3679, 1.0]]
    """
    data = X
    if sp.issparse(data):
        data = _libsvm.dense_if_dense_enough(_over_stored_features(data))
    if not sp.issparse(data):
        data = np.ascontiguousarray(data, dtype=np.float64)
    norms = _libsvm.squared_norms(data)
    m = data.shape[0]
    if m <= GRAM_BLOCK_ROWS and np.dtype(dtype) == np.float64:  # one block: K itself
        return _libsvm.symmetric_kernel_matrix(data, kernel, X_sq_norms=norms)
    matrix = np.empty((m, m), dtype=dtype)
    for start in range(0, m, GRAM_BLOCK_ROWS):
        block = slice(start, min(start + GRAM_BLOCK_ROWS, m))
        values = _libsvm.kernel_matrix(
            data[block], data[start:], kernel, X_sq_norms=norms[block],
            Y_sq_norms=norms[start:],
        )
        matrix[block, start:] = values
        matrix[block.stop:, block] = values[:, block.stop - start:].T
        _libsvm.mirror_upper(matrix[block, block])
    return matrix


def shared_gram(
    X, class_rows: list[np.ndarray], kernel: KernelSpec, cache_bytes: float, threads: int
) -> SharedGram | None:
    """The shared Gram matrix for a many-class problem, or None when it does not pay.

    It is built for three or more classes when its float32 form fits in
    ``GRAM_SHARE_OF_CACHE`` of the cache budget and rows hold at least
    ``GRAM_MIN_ENTRIES_PER_ROW`` stored entries on average; two classes make
    one problem, which computes only the kernel columns it needs.

    Examples
    --------
    >>> X = np.repeat(np.array([[0.0], [1.0], [2.0]]), 100, axis=1) / 10.0
    >>> rows = [np.array([0]), np.array([1]), np.array([2])]
    >>> kernel = KernelSpec.named("rbf", gamma=1.0)
    >>> gram = shared_gram(X, rows, kernel, cache_bytes=200 * BYTES_PER_MB, threads=1)
    >>> np.round(gram.matrix[0].astype(np.float64), 4).tolist()
    [1.0, 0.3679, 0.0183]
    """
    if len(class_rows) < 3:
        return None
    stored = X.nnz if sp.issparse(X) else X.size
    if stored < GRAM_MIN_ENTRIES_PER_ROW * X.shape[0]:
        return None
    used = np.sort(np.concatenate(class_rows))
    m = used.size
    if gram_bytes(m) > GRAM_SHARE_OF_CACHE * cache_bytes:
        return None
    matrix = gram_matrix(X[used], kernel, np.float32)
    position = np.full(X.shape[0], -1, dtype=np.intp)
    position[used] = np.arange(m)
    # Each pair's own cache gets an equal share of what is left, and at least 1 MB.
    left = cache_bytes - gram_bytes(m)
    return SharedGram(matrix, position, max(BYTES_PER_MB, left / max(1, threads)))
