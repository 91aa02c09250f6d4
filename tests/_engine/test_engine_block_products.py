"""The block solver's kernel rows: every row storage, every kernel, any thread count.

``Rows.kernel_rows`` computes K(x_t, x_b) for all rows t and a block of rows b, in float32,
into a row-major (n_rows, ld) array: an SGEMM or a register-blocked product for dense rows,
sparse rows times the block's dense transpose for CSR, copies for SVR's tiled rows.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from svmx import SVC, SVR
from svmx._engine.rows import CsrRows, DenseRows, DenseRows32, TiledRows
from svmx._libsvm import KERNEL_TYPES, kernel_matrix
from svmx._specs import KernelSpec

KERNELS = ["linear", "poly", "rbf", "sigmoid"]
PARAMS = dict(degree=3, gamma=0.05, coef0=0.3)


def _data(n_rows, n_features, density, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, n_features))
    X[rng.random(X.shape) > density] = 0.0
    X[3] = 0.0  # a row with no stored entries
    return X


def _dense32(X, block):
    rows = DenseRows32(np.ascontiguousarray(X, dtype=np.float32))
    rows.reserve_block(block)
    return rows


def _csr(X, block):
    M = sp.csr_matrix(X)
    rows = CsrRows(M.data.astype(np.float64), M.indices.astype(np.int32),
                   M.indptr.astype(np.int64), X.shape[1])
    rows.reserve_block(block)
    return rows


def _expected(X, which, kernel):
    X32 = X.astype(np.float32).astype(np.float64)
    return kernel_matrix(X32, X32[which], KernelSpec.named(kernel, **PARAMS))


# 20 features take the register-blocked product; 300 take the SGEMM.
STORAGES = [
    ("dense32-narrow", _dense32, 20),
    ("dense32-wide", _dense32, 300),
    ("csr", _csr, 300),
]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name, make, n_features", STORAGES)
@pytest.mark.parametrize("n_which", [1, 15, 16, 17, 64, 70, 130])
def test_kernel_rows_are_the_kernel_matrix(kernel, name, make, n_features, n_which):
    X = _data(300, n_features, density=0.3)
    which = np.random.default_rng(1).choice(300, size=n_which, replace=False)
    which[0] = 3  # the empty row in the block too
    rows = make(X, n_which)
    actual = rows.block_kernel_rows(which, KERNEL_TYPES[kernel], **PARAMS)
    assert actual.shape == (300, n_which)
    assert_allclose(actual, _expected(X, which, kernel), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("name, make, n_features", STORAGES)
def test_thread_count_does_not_change_the_kernel_rows(name, make, n_features):
    X = _data(1000, n_features, density=0.5)
    which = np.arange(0, 1000, 9)
    one, two = make(X, which.size), make(X, which.size)
    one.set_threads(1)
    two.set_threads(2)
    assert_array_equal(
        two.block_kernel_rows(which, KERNEL_TYPES["rbf"], **PARAMS),
        one.block_kernel_rows(which, KERNEL_TYPES["rbf"], **PARAMS),
    )


@pytest.mark.parametrize("make", [_dense32, _csr])
def test_tiled_rows_repeat_the_base_rows(make):
    X = _data(50, 10, density=0.6)
    which = np.array([0, 3, 49, 50, 99])  # rows of both copies
    tiled = TiledRows(make(X, which.size), 2)
    actual = tiled.block_kernel_rows(which, KERNEL_TYPES["rbf"], **PARAMS)
    expected = _expected(X, which % 50, "rbf")
    assert_allclose(actual, np.vstack([expected, expected]), rtol=2e-5, atol=2e-5)


def test_generic_rows_take_the_column_path():
    X = _data(40, 5, density=1.0)
    actual = DenseRows(X.copy()).block_kernel_rows([2, 7], KERNEL_TYPES["poly"], **PARAMS)
    expected = kernel_matrix(X, X[[2, 7]], KernelSpec.named("poly", **PARAMS))
    assert_allclose(actual, expected, rtol=1e-6)


def _unreserved_csr(X, block):
    M = sp.csr_matrix(X)
    return CsrRows(M.data.astype(np.float64), M.indices.astype(np.int32),
                   M.indptr.astype(np.int64), X.shape[1])


@pytest.mark.parametrize("make", [
    lambda X, block: DenseRows32(np.ascontiguousarray(X, dtype=np.float32)),
    lambda X, block: _dense32(X, block - 1),
    _unreserved_csr,
], ids=["dense32-unreserved", "dense32-too-small", "csr-unreserved"])
def test_rows_without_room_for_the_block_are_a_programming_error(make):
    # TiledRows cannot reserve room in its base rows: the caller must. Without it the
    # block products fail with their own status, a RuntimeError here, not a MemoryError.
    tiled = TiledRows(make(_data(20, 3, density=1.0), 3), 2)
    with pytest.raises(RuntimeError, match="reserve_block"):
        tiled.block_kernel_rows([0, 1, 2], KERNEL_TYPES["rbf"])


@pytest.mark.parametrize("make", [
    lambda X: DenseRows32(np.ascontiguousarray(X, dtype=np.float32)),
    lambda X: _unreserved_csr(X, 0),
], ids=["dense32", "csr"])
def test_python_block_rows_reserve_their_own_room(make):
    # From Python, rows that can reserve room for the block do (docs/cython_api.md): the
    # values of a kernel matrix, without a reserve_block call first.
    X = _data(20, 3, density=0.7)
    actual = make(X).block_kernel_rows([0, 4], KERNEL_TYPES["rbf"], **PARAMS)
    expected = kernel_matrix(X, X[[0, 4]], KernelSpec.named("rbf", **PARAMS))
    assert_allclose(actual, expected, rtol=1e-6, atol=1e-6)


def test_rows_outside_the_storage_are_refused():
    rows = _dense32(_data(10, 3, density=1.0), 2)
    with pytest.raises(ValueError, match="which must hold row numbers"):
        rows.block_kernel_rows([10], KERNEL_TYPES["rbf"])


# --------------------------------------------------------------------------------------------
# The block solver on sparse rows: same optimum as on dense rows and as SMO
# --------------------------------------------------------------------------------------------


def _objective(model, X):
    coef = model._dual_coef_[0]  # dense (dual_coef_ is CSR after a sparse fit)
    vectors = X[model.support_]
    K = kernel_matrix(vectors, vectors, KernelSpec.named("rbf", gamma=model._gamma))
    return 0.5 * coef @ K @ coef - np.abs(coef).sum()


def test_block_solver_on_csr_reaches_the_dense_optimum():
    rng = np.random.default_rng(3)
    X = _data(1500, 200, density=0.05, seed=3)
    y = np.where(X[:, :20].sum(axis=1) + 0.2 * rng.normal(size=1500) > 0, 1, -1)
    params = dict(gamma=0.05, solver="block")
    sparse_model = SVC(n_jobs=2, **params).fit(sp.csr_matrix(X), y)
    one_thread = SVC(n_jobs=1, **params).fit(sp.csr_matrix(X), y)
    dense_model = SVC(**params).fit(X, y)
    smo = SVC(gamma=0.05, solver="smo").fit(X, y)
    assert_array_equal(sparse_model.dual_coef_.toarray(), one_thread.dual_coef_.toarray())
    assert_array_equal(sparse_model.intercept_, one_thread.intercept_)
    for model in (sparse_model, dense_model):
        objective, reference = _objective(model, X), _objective(smo, X)
        assert abs(objective - reference) <= 1e-3 * abs(reference)
        assert np.mean(model.predict(X) == smo.predict(X)) >= 0.995


def test_block_svr_on_csr_matches_smo():
    rng = np.random.default_rng(4)
    X = _data(800, 100, density=0.05, seed=4)
    y = X[:, :10].sum(axis=1) + 0.1 * rng.normal(size=800)
    block = SVR(gamma=0.1, solver="block", n_jobs=2).fit(sp.csr_matrix(X), y)
    smo = SVR(gamma=0.1, solver="smo").fit(X, y)
    assert_allclose(block.predict(X), smo.predict(X), atol=5e-3 * np.std(y))
