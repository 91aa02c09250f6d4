"""The Gram matrix that the one-vs-one pairs of a many-class problem share (solver='auto')."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from svmx import SVC, NuSVC, _shared_gram
from svmx._libsvm import kernel_matrix
from svmx._shared_gram import gram_megabytes, shared_gram
from svmx._specs import BYTES_PER_MB, KernelSpec


def _three_classes(n=150, seed=0):
    # 120 features: rows rich enough for the shared matrix (GRAM_MIN_ENTRIES_PER_ROW).
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 120)) / 5.0
    y = np.argmax(X[:, :3] + 0.3 * rng.normal(size=(n, 3)), axis=1)
    return X, y


CACHE = 100 * BYTES_PER_MB  # bytes


def _kernel(kernel):
    return KernelSpec.named(kernel, degree=3, gamma=0.2, coef0=0.5)


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
@pytest.mark.parametrize("sparse", [False, True])
def test_gram_is_the_kernel_matrix_in_float32(kernel, sparse, monkeypatch):
    # Blocks of 7 rows over 40 samples: the last block is short, and mirroring must
    # fill the lower triangle of every block.
    monkeypatch.setattr(_shared_gram, "GRAM_BLOCK_ROWS", 7)
    X, y = _three_classes(40)
    rows = [np.flatnonzero(y == c) for c in range(3)]
    data = sp.csr_matrix(X) if sparse else X
    gram = shared_gram(data, rows, _kernel(kernel), cache_bytes=CACHE, threads=2)
    expected = kernel_matrix(X, X, _kernel(kernel))
    assert gram.matrix.dtype == np.float32
    assert_allclose(gram.matrix, expected.astype(np.float32), rtol=1e-6, atol=1e-6)
    assert_array_equal(gram.matrix, gram.matrix.T)
    assert_array_equal(gram.position, np.arange(40))


def test_samples_left_out_have_no_row():
    X, y = _three_classes(30)
    rows = [np.flatnonzero(y == c)[1:] for c in range(3)]  # first of each class left out
    gram = shared_gram(X, rows, _kernel("rbf"), cache_bytes=CACHE, threads=1)
    used = np.sort(np.concatenate(rows))
    assert gram.matrix.shape == (used.size, used.size)
    assert_array_equal(gram.position[used], np.arange(used.size))
    left_out = np.setdiff1d(np.arange(30), used)
    assert (gram.position[left_out] == -1).all()


def test_no_gram_for_rows_with_few_stored_entries():
    X, y = _three_classes(60)
    rows = [np.flatnonzero(y == c) for c in range(3)]
    assert shared_gram(X[:, :50], rows, _kernel("rbf"), cache_bytes=CACHE, threads=1) is None
    sparse = sp.csr_matrix(np.where(np.abs(X) > 0.15, X, 0.0))  # about 45% of 120 stored
    assert sparse.nnz < _shared_gram.GRAM_MIN_ENTRIES_PER_ROW * 60
    assert shared_gram(sparse, rows, _kernel("rbf"), cache_bytes=CACHE, threads=1) is None


def test_no_gram_for_two_classes_or_beyond_the_cache_budget():
    X, y = _three_classes(200)
    rows = [np.flatnonzero(y == c) for c in range(3)]
    assert shared_gram(X, rows[:2], _kernel("rbf"), cache_bytes=CACHE, threads=1) is None
    too_small = gram_megabytes(200) / _shared_gram.GRAM_SHARE_OF_CACHE * 0.99
    too_small *= BYTES_PER_MB
    assert shared_gram(X, rows, _kernel("rbf"), cache_bytes=too_small, threads=1) is None
    assert shared_gram(X, rows, _kernel("rbf"), cache_bytes=too_small * 1.02,
                       threads=1) is not None


def test_pairs_share_the_gram_only_under_auto(capsys):
    # svmx's own note goes to stderr: stdout is LIBSVM's training output.
    X, y = _three_classes()
    SVC(verbose=True).fit(X, y)
    captured = capsys.readouterr()
    assert "[svmx] SVC: one 150 x 150 kernel matrix shared by 3 pairs" in captured.err
    assert "shared" not in captured.out and "Total nSV" in captured.out
    SVC(verbose=True, solver="smo").fit(X, y)
    assert "shared" not in capsys.readouterr().err
    SVC(verbose=True, cache_size=0.01).fit(X, y)
    assert "shared" not in capsys.readouterr().err


@pytest.mark.parametrize("estimator", [SVC, NuSVC])
@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
def test_shared_gram_model_is_the_per_pair_model(estimator, kernel):
    X, y = _three_classes(300, seed=1)
    weights = np.ones(len(y))
    weights[::17] = 0.0  # some samples take no part
    params = dict(kernel=kernel, gamma=0.2, coef0=0.5, tol=1e-10)
    auto = estimator(**params).fit(X, y, sample_weight=weights)
    smo = estimator(solver="smo", **params).fit(X, y, sample_weight=weights)
    # The same optimum. A linear kernel over 5 features makes a degenerate dual (many
    # alpha reach the optimum; nu-SVC's offset then moves by ~1e-3 even between
    # scikit-learn and solver='smo'), so it is held to a looser bound.
    atol = 5e-3 if kernel == "linear" else 1e-6
    assert_allclose(auto.decision_function(X), smo.decision_function(X), atol=atol)
    assert np.mean(auto.predict(X) == smo.predict(X)) >= 0.99
    if kernel == "rbf":
        assert_array_equal(auto.support_, smo.support_)
        assert_allclose(auto.dual_coef_, smo.dual_coef_, atol=1e-6)


def test_shared_gram_on_real_data_matches_the_per_pair_solver(load_shared, capsys):
    X, y = load_shared("mnist_5k.libsvm", n_features=784)
    X = X / 255.0
    X, y, X_test = X[0::3], y[0::3], X[1::6]  # the rows are sorted by class
    auto = SVC(gamma=1.0 / X.shape[1], verbose=True).fit(X, y)
    assert "kernel matrix shared by 45 pairs" in capsys.readouterr().err
    smo = SVC(gamma=1.0 / X.shape[1], solver="smo").fit(X, y)
    agreement = np.mean(auto.predict(X_test) == smo.predict(X_test))
    assert agreement >= 0.999
    assert_allclose(auto.decision_function(X_test), smo.decision_function(X_test), atol=1e-3)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 15, 16, 17, 100])  # tiles of 16: edges and remainders
def test_mirror_upper_copies_the_upper_triangle_of_any_square_view(n, dtype):
    from svmx._libsvm import mirror_upper

    rng = np.random.default_rng(n)
    square = rng.normal(size=(n, n)).astype(dtype)
    expected = np.triu(square) + np.triu(square, 1).T
    assert_array_equal(mirror_upper(square.copy()), expected)
    outer = rng.normal(size=(n + 9, n + 9)).astype(dtype)  # a diagonal block of a larger one
    block = outer.copy()
    mirror_upper(block[4:4 + n, 4:4 + n])
    inner = outer[4:4 + n, 4:4 + n]
    assert_array_equal(block[4:4 + n, 4:4 + n], np.triu(inner) + np.triu(inner, 1).T)
    block[4:4 + n, 4:4 + n] = inner
    assert_array_equal(block, outer)  # nothing outside the block moved
    with pytest.raises(ValueError, match="square must be a square matrix"):
        mirror_upper(np.zeros((n, n + 1), dtype=dtype))


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
@pytest.mark.parametrize("shape", [(0, 3), (1, 4), (3, 0), (40, 120), (257, 5)])
def test_symmetric_kernel_matrix_is_the_kernel_matrix_mirrored(kernel, shape):
    from svmx._libsvm import mirror_upper, symmetric_kernel_matrix

    X = np.random.default_rng(shape[0]).normal(size=shape) / 3.0
    spec = _kernel(kernel)
    K = symmetric_kernel_matrix(X, spec)
    assert K.shape == (shape[0], shape[0]) and K.dtype == np.float64
    assert_array_equal(K, K.T)
    # The upper triangle is kernel_matrix's (one DSYRK for GEMM's products: equal up to
    # their summation order); the lower one its mirror.
    assert_allclose(K, mirror_upper(kernel_matrix(X, X, spec)), rtol=1e-13, atol=1e-13)
    norms = np.einsum("ij,ij->i", X, X)
    assert_array_equal(symmetric_kernel_matrix(X, spec, X_sq_norms=norms), K)
    # CSR rows: their products X X^T, the same map on the upper triangle.
    sparse = symmetric_kernel_matrix(sp.csr_matrix(X), spec)
    assert_array_equal(sparse, sparse.T)
    assert_allclose(sparse, K, rtol=1e-13, atol=1e-13)
    if shape[0]:
        with pytest.raises(ValueError, match="X_sq_norms must have one norm per row"):
            symmetric_kernel_matrix(X, spec, X_sq_norms=norms[1:])


def test_grid_search_gram_is_symmetric_kernel_matrix_of_dense_and_sparse_rows():
    from svmx._shared_gram import gram_matrix

    X, _ = _three_classes(60)
    spec = _kernel("rbf")
    dense, sparse = gram_matrix(X, spec), gram_matrix(sp.csr_matrix(X), spec)
    assert_array_equal(dense, dense.T)
    assert_allclose(dense, sparse, rtol=1e-13, atol=1e-13)
    assert_allclose(dense, kernel_matrix(X, X, spec), rtol=1e-13, atol=1e-13)
