"""gamma='scale' is scikit-learn's, bit for bit: ``1 / (n_features * X.var())`` for dense X
(converted to float64, C order), ``X.multiply(X).mean() - X.mean() ** 2`` for sparse X.

`svmx._base.variance_of_entries` reproduces numpy's pairwise summation leaf by leaf so
that it needs no float64 copy of X. That depends on how numpy sums a contiguous run, so
these tests cover many shapes (around the leaf size and numpy's 128-entry blocks), both
memory layouts, float32 and float64, and sparse formats.
"""

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.svm
from hypothesis import given, settings
from hypothesis import strategies as st

import svmx
from svmx._base import PAIRWISE_LEAF_ENTRIES, variance_of_entries


def _sklearn_variance(X):
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        return X.multiply(X).mean() - X.mean() ** 2
    return np.asarray(X, dtype=np.float64, order="C").var()


def _as_svmx_validates(X):
    """Dense X as svmx's fit hands it on: C order, float32 kept, else float64."""
    return np.ascontiguousarray(X, dtype=np.float32 if X.dtype == np.float32 else np.float64)


LEAF = PAIRWISE_LEAF_ENTRIES
SHAPES = [(1, 1), (1, 7), (9, 1), (16, 8), (129, 1), (100, 13), (300, 257), (LEAF, 1),
          (LEAF + 1, 1), (LEAF - 1, 1), (2 * LEAF + 8, 1), (1000, 784), (4177, 8),
          (7494, 16), (3 * LEAF // 7 + 5, 7)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("order", ["C", "F"])
def test_dense_variance_is_sklearns_bit_for_bit(shape, dtype, order):
    rng = np.random.default_rng(sum(shape))
    X = np.asarray(rng.normal(3.0, 50.0, size=shape), dtype=dtype, order=order)
    assert variance_of_entries(_as_svmx_validates(X)) == _sklearn_variance(X)


@pytest.mark.parametrize("format", ["csr", "csc", "coo"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sparse_variance_is_sklearns_bit_for_bit(format, dtype):
    X = sp.random(700, 90, density=0.15, format=format, dtype=dtype, random_state=0) * 7.0
    X_csr = sp.csr_matrix(X)
    X_csr.sum_duplicates()
    assert variance_of_entries(X_csr) == _sklearn_variance(X)


@settings(max_examples=200, deadline=None)
@given(n_rows=st.integers(1, 80), n_features=st.integers(1, 80),
       density=st.sampled_from([0.01, 0.2, 1.0]), float32=st.booleans(),
       scale=st.sampled_from([1e-170, 1e-3, 1.0, 1e6]), explicit_zeros=st.integers(0, 3),
       seed=st.integers(0, 2**31 - 1))
def test_sparse_variance_from_the_stored_entries_is_scipys(n_rows, n_features, density,
                                                           float32, scale, explicit_zeros,
                                                           seed):
    # svmx sums the canonical CSR's stored entries itself; scipy's temporaries are the
    # reference, explicit zeros and squares that underflow to 0 included.
    rng = np.random.default_rng(seed)
    X = sp.random(n_rows, n_features, density=density, format="csr", random_state=rng,
                  dtype=np.float32 if float32 else np.float64) * scale
    if X.nnz:
        X.data[rng.integers(0, X.nnz, size=explicit_zeros)] = 0.0
    assert X.has_canonical_format
    got, expected = variance_of_entries(X), _sklearn_variance(X)
    assert got == expected or (np.isnan(got) and np.isnan(expected))


@settings(max_examples=60, deadline=None)
@given(n_rows=st.integers(1, 600), n_features=st.integers(1, 300),
       float32=st.booleans(), scale=st.sampled_from([1e-3, 1.0, 255.0, 1e6]),
       seed=st.integers(0, 2**31 - 1))
def test_variance_matches_numpy_for_any_shape(n_rows, n_features, float32, scale, seed):
    X = np.random.default_rng(seed).uniform(-scale, 3 * scale, size=(n_rows, n_features))
    X = X.astype(np.float32) if float32 else X
    assert variance_of_entries(X) == np.asarray(X, dtype=np.float64).var()


def test_variance_makes_no_copy_of_float64_x():
    # The temporaries are one leaf (float32 X: converted a leaf at a time).
    X = np.random.default_rng(0).normal(size=(3 * LEAF // 16, 16))
    import tracemalloc

    tracemalloc.start()
    variance_of_entries(X)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < X.nbytes / 2


@pytest.mark.parametrize("kind", ["dense64", "dense32", "fortran", "csr"])
def test_estimators_resolve_sklearns_gamma(kind):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 11)) * rng.uniform(0.1, 40.0, size=11)
    X[X < 0] = 0.0
    y = (X[:, 0] > np.median(X[:, 0])).astype(int)
    data = {"dense64": X, "dense32": X.astype(np.float32), "fortran": np.asfortranarray(X),
            "csr": sp.csr_matrix(X)}[kind]
    ours = svmx.SVC(solver="smo").fit(data, y)
    theirs = sklearn.svm.SVC().fit(data, y)
    assert ours._gamma == theirs._gamma
