"""Sparse (scipy.sparse) input: parity with scikit-learn and identity with dense input.

svmx trains on CSR rows directly (CSC and COO are converted once). Two promises are checked:

* against scikit-learn given the same CSR matrix, test predictions agree on >= 99.9% of rows
  (reuters_lasvm, a9a, mushrooms);
* against svmx itself given the dense form of the same data, the model is the same: equal
  ``support_``, ``dual_coef_`` and decision values to 1e-10, for every estimator.

The LIBSVM files come from ``../shared/data``; tests skip when it is absent (see conftest.py).
"""

from functools import cache

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import SHARED_DATA_DIR, load_shared
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.svm import SVC as SklearnSVC

from svmx import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from svmx.datasets import load_svmlight_file

PREDICTION_AGREEMENT = 0.999
IDENTITY_ATOL = 1e-10
# a9a: scikit-learn needs about 90 s to fit the 32,561 training rows on the team's machines
# (and 10 s more to predict a9a.t from sparse rows), so its first 8,000 rows train both
# libraries; the whole of a9a.t (16,281 rows) is predicted.
A9A_TRAIN_ROWS = 8_000


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


@cache
def _read_csr(name, n_features):
    X, y = load_svmlight_file(str(SHARED_DATA_DIR / name), n_features=n_features)
    return X, y


def _load_csr(name, n_features=None):
    """``../shared/data/<name>`` as (CSR float64, labels); skips the test when absent."""
    if not (SHARED_DATA_DIR / name).is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's machines")
    X, y = _read_csr(name, n_features)
    return X.copy(), y.copy()


def _widen(X, n_features):
    return sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], n_features))


def _reuters():
    X_train, y_train = _load_csr("reuters_lasvm")
    X_test, y_test = _load_csr("reuters_lasvm.t")
    n_features = max(X_train.shape[1], X_test.shape[1])
    return _widen(X_train, n_features), y_train, _widen(X_test, n_features), y_test


def _a9a():
    X_train, y_train = _load_csr("a9a", n_features=123)
    X_test, y_test = _load_csr("a9a.t", n_features=123)
    return X_train[:A9A_TRAIN_ROWS], y_train[:A9A_TRAIN_ROWS], X_test, y_test


def _mushrooms():
    """Every 4th row (index 3, 7, ...) is a test row, as in test_svc_parity.py."""
    X, y = _load_csr("mushrooms")
    is_test = np.arange(len(y)) % 4 == 3
    return X[~is_test], y[~is_test], X[is_test], y[is_test]


_SKLEARN_PROBLEMS = {"reuters_lasvm": _reuters, "a9a": _a9a, "mushrooms": _mushrooms}


# --------------------------------------------------------------------------------------------
# Parity with scikit-learn on sparse data
# --------------------------------------------------------------------------------------------

SKLEARN_CASES = [
    ("reuters_lasvm", {}),
    ("reuters_lasvm", {"kernel": "linear"}),
    ("a9a", {}),
    ("mushrooms", {}),
]


@pytest.mark.parametrize(
    "name, params", SKLEARN_CASES, ids=[f"{n}-{p.get('kernel', 'rbf')}" for n, p in SKLEARN_CASES]
)
def test_sparse_test_predictions_agree_with_sklearn(name, params):
    X_train, y_train, X_test, _ = _SKLEARN_PROBLEMS[name]()
    assert sp.issparse(X_train) and X_train.format == "csr"
    ours = SVC(**params).fit(X_train, y_train)
    theirs = SklearnSVC(**params).fit(X_train, y_train)

    assert sp.issparse(ours.support_vectors_)
    predicted, expected = ours.predict(X_test), theirs.predict(X_test)
    agreement = np.mean(predicted == expected)
    assert agreement >= PREDICTION_AGREEMENT, (
        f"{agreement:.4%} of {len(expected)} test rows agree "
        f"(svmx {len(ours.support_)} SVs, sklearn {len(theirs.support_)} SVs)"
    )


# --------------------------------------------------------------------------------------------
# Dense vs CSR: the same model from svmx (heart_scale)
# --------------------------------------------------------------------------------------------

ESTIMATORS = {
    "SVC": lambda **kw: SVC(**kw),
    "NuSVC": lambda **kw: NuSVC(nu=0.5, **kw),
    "OneClassSVM": lambda **kw: OneClassSVM(nu=0.2, **kw),
    "SVR": lambda **kw: SVR(C=1.0, epsilon=0.1, **kw),
    "NuSVR": lambda **kw: NuSVR(nu=0.5, **kw),
}
# 'block' serves C-SVC, one-class and epsilon-SVR; the identity must hold for it as well.
IDENTITY_CASES = [(name, "smo") for name in ESTIMATORS] + [
    (name, "block") for name in ("SVC", "OneClassSVM", "SVR")
]


def _heart():
    X, y = load_shared("heart_scale")
    return X, y


def _fit(name, X, y, **params):
    model = ESTIMATORS[name](**params)
    return model.fit(X) if name == "OneClassSVM" else model.fit(X, y)


def _decision(model, X):
    return model.decision_function(X) if hasattr(model, "decision_function") else model.predict(X)


def _dense(matrix):
    """A fitted attribute as a dense array (``dual_coef_`` is CSR after a sparse fit)."""
    return matrix.toarray() if sp.issparse(matrix) else np.asarray(matrix)


def _assert_same_model(actual, expected, X_eval):
    assert_array_equal(actual.support_, expected.support_)
    assert_allclose(_dense(actual.dual_coef_), _dense(expected.dual_coef_), rtol=0,
                    atol=IDENTITY_ATOL)
    assert_allclose(actual.intercept_, expected.intercept_, rtol=0, atol=IDENTITY_ATOL)
    assert_allclose(
        _decision(actual, X_eval), _decision(expected, X_eval), rtol=0, atol=IDENTITY_ATOL
    )


@pytest.mark.parametrize("name, solver", IDENTITY_CASES)
def test_csr_fit_equals_dense_fit(name, solver):
    X, y = _heart()
    dense = _fit(name, X, y, solver=solver)
    sparse = _fit(name, sp.csr_matrix(X), y, solver=solver)
    _assert_same_model(sparse, dense, X)
    assert_allclose(
        _decision(sparse, sp.csr_matrix(X)), _decision(dense, X), rtol=0, atol=IDENTITY_ATOL
    )


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("fmt", ["csc", "coo"])
def test_csc_and_coo_equal_csr(name, fmt):
    X, y = _heart()
    csr = _fit(name, sp.csr_matrix(X), y)
    other = _fit(name, sp.csr_matrix(X).asformat(fmt), y)
    assert_array_equal(other.support_, csr.support_)
    assert_array_equal(_dense(other.dual_coef_), _dense(csr.dual_coef_))
    assert_array_equal(other.intercept_, csr.intercept_)
    assert_array_equal(_decision(other, X), _decision(csr, X))
    assert sp.issparse(other.support_vectors_)
    assert_array_equal(other.support_vectors_.toarray(), csr.support_vectors_.toarray())


def _messy_csr(X):
    """X as a CSR matrix whose rows list their entries in reverse order, each stored twice.

    Every value is split into two halves (exact in binary floating point), so summing the
    duplicates gives back X exactly.
    """
    canonical = sp.csr_matrix(X)
    data, indices, indptr = [], [], [0]
    for row in range(canonical.shape[0]):
        start, stop = canonical.indptr[row], canonical.indptr[row + 1]
        columns = canonical.indices[start:stop][::-1]
        values = canonical.data[start:stop][::-1] / 2
        indices.extend(np.concatenate([columns, columns]))
        data.extend(np.concatenate([values, values]))
        indptr.append(len(indices))
    messy = sp.csr_matrix(
        (np.array(data), np.array(indices, dtype=np.int32), np.array(indptr)), shape=X.shape
    )
    messy.has_sorted_indices = False
    messy.has_canonical_format = False
    return messy


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_unsorted_duplicate_entries_are_summed(name):
    X, y = _heart()
    messy = _messy_csr(X)
    data_before = messy.data.copy()
    indices_before = messy.indices.copy()
    assert messy.nnz == 2 * np.count_nonzero(X)
    assert_array_equal(messy.toarray(), X)  # scipy's own summing agrees with X

    model = _fit(name, messy, y)
    _assert_same_model(model, _fit(name, X, y), X)
    assert_array_equal(model.support_vectors_.toarray(), X[model.support_])
    assert_allclose(_decision(model, _messy_csr(X)), _decision(model, X), rtol=0, atol=1e-12)
    # The caller's matrix is left as it was.
    assert_array_equal(messy.data, data_before)
    assert_array_equal(messy.indices, indices_before)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_int64_index_csr(name):
    X, y = _heart()
    csr = sp.csr_matrix(X)
    wide = csr.copy()
    # scipy's constructor shrinks small index arrays to int32, so set them after it.
    wide.indices = csr.indices.astype(np.int64)
    wide.indptr = csr.indptr.astype(np.int64)
    assert wide.indices.dtype == np.int64 and wide.indptr.dtype == np.int64
    model = _fit(name, wide, y)
    _assert_same_model(model, _fit(name, csr, y), X)
    assert_allclose(_decision(model, wide), _decision(model, X), rtol=0, atol=IDENTITY_ATOL)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_gamma_scale_on_sparse_equals_dense(name):
    X, y = _heart()
    X = X.copy()
    X[:, ::3] = np.where(X[:, ::3] > 0.2, X[:, ::3], 0.0)  # make it genuinely sparse
    csr = sp.csr_matrix(X)
    assert csr.nnz < 0.8 * X.size
    dense = _fit(name, X, y, gamma="scale")
    sparse = _fit(name, csr, y, gamma="scale")

    expected_gamma = 1.0 / (X.shape[1] * X.var())
    assert_allclose(dense._gamma, expected_gamma, rtol=1e-12)
    assert_allclose(sparse._gamma, expected_gamma, rtol=1e-12)
    _assert_same_model(sparse, dense, X)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_support_vectors_are_sparse_after_a_sparse_fit(name):
    X, y = _heart()
    model = _fit(name, sp.csr_matrix(X), y)
    vectors = model.support_vectors_
    assert sp.issparse(vectors) and vectors.format == "csr"
    assert vectors.dtype == np.float64
    assert vectors.shape == (len(model.support_), X.shape[1])
    assert_array_equal(vectors.toarray(), X[model.support_])
    assert not sp.issparse(_fit(name, X, y).support_vectors_)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_predicting_across_storage_gives_the_same_values(name):
    X, y = _heart()
    csr = sp.csr_matrix(X)
    sparse_fit = _fit(name, csr, y)
    dense_fit = _fit(name, X, y)
    assert_allclose(_decision(sparse_fit, X), _decision(sparse_fit, csr), rtol=0,
                    atol=IDENTITY_ATOL)
    assert_array_equal(sparse_fit.predict(X), sparse_fit.predict(csr))
    assert_allclose(_decision(sparse_fit, X), _decision(dense_fit, X), rtol=0,
                    atol=IDENTITY_ATOL)
    # As scikit-learn: a model fitted on dense X refuses sparse X.
    with pytest.raises(ValueError, match=f"cannot use sparse input in '{name}' trained on "
                                         "dense data"):
        dense_fit.predict(csr)


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("kind", [sp.csr_matrix, sp.csr_array])
def test_dual_coef_and_coef_are_csr_after_a_sparse_fit(name, kind):
    X, y = _heart()
    sparse_fit = _fit(name, kind(X), y, kernel="linear")
    dense_fit = _fit(name, X, y, kernel="linear")
    for attribute in ("dual_coef_", "coef_"):
        value = getattr(sparse_fit, attribute)
        assert sp.issparse(value) and value.format == "csr"
        assert isinstance(value, sp.sparray) == (kind is sp.csr_array)
        assert_allclose(value.toarray(), getattr(dense_fit, attribute), rtol=0, atol=1e-10)
        assert not sp.issparse(getattr(dense_fit, attribute))
    # One stored entry per support vector and row, as scikit-learn's.
    assert sparse_fit.dual_coef_.nnz == sparse_fit.dual_coef_.shape[0] * sparse_fit.support_.size
    assert not sparse_fit.coef_.data.flags.writeable


def test_sparse_support_vectors_keep_the_training_rows_entries():
    """mushrooms (one-hot, 19% dense): the support vectors store exactly their rows' entries."""
    X_train, y_train, _, _ = _mushrooms()
    model = SVC(kernel="linear").fit(X_train, y_train)
    assert model.support_vectors_.nnz == X_train[model.support_].nnz


# --------------------------------------------------------------------------------------------
# solver='auto': sparse rows at least half dense train as dense rows
# --------------------------------------------------------------------------------------------


def _exactly_same_model(actual, expected, X_eval):
    assert_array_equal(np.atleast_1d(actual.n_iter_), np.atleast_1d(expected.n_iter_))
    assert_array_equal(actual.support_, expected.support_)
    assert_array_equal(_dense(actual.dual_coef_), _dense(expected.dual_coef_))
    assert_array_equal(actual.intercept_, expected.intercept_)


def _thinned(X, keep):
    """X with all but about `keep` of its entries set to 0 (a fixed pattern)."""
    mask = np.random.default_rng(7).random(X.shape) < keep
    return np.where(mask, X, 0.0)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_auto_trains_dense_enough_csr_as_dense_rows(name):
    """heart_scale (96% dense): under 'auto' the CSR fit takes the dense fit's SMO steps to
    the last bit (the engine trains on the same dense rows); 'smo' keeps LIBSVM's sparse
    sums, whose last bits may differ (`test_csr_fit_equals_dense_fit` bounds them)."""
    X, y = _heart()
    for matrix in (sp.csr_matrix(X), _messy_csr(X), sp.csr_matrix(X.astype(np.float32))):
        source = X.astype(np.float32) if matrix.dtype == np.float32 else X
        dense = _fit(name, source.astype(np.float64), y)
        _exactly_same_model(_fit(name, matrix, y), dense, X)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_auto_keeps_sparser_csr_as_sparse_rows(name):
    """At 30% density the rows stay sparse: 'auto' (SMO on 270 rows) is 'smo' exactly."""
    X, y = _heart()
    csr = sp.csr_matrix(_thinned(X, 0.3))
    assert 0.2 < csr.nnz / np.prod(csr.shape) < 0.4
    _exactly_same_model(_fit(name, csr, y), _fit(name, csr, y, solver="smo"), X)


def test_the_density_threshold_is_one_half():
    """Which rows SMO trains on: dense from half the entries stored, never under 'smo'."""
    from svmx._libsvm import smo_trains_dense_rows

    X, y = _heart()
    above = sp.csr_matrix(_thinned(X, 0.56))
    below = sp.csr_matrix(_thinned(X, 0.44))
    assert above.nnz >= 0.5 * np.prod(X.shape) > below.nnz
    assert smo_trains_dense_rows(above, "auto") and smo_trains_dense_rows(above, "block")
    assert not smo_trains_dense_rows(above, "smo")
    assert not smo_trains_dense_rows(below, "auto")
    # Explicit zeros are stored entries: they count.
    padded = sp.csr_matrix((np.zeros(X.size), np.tile(np.arange(X.shape[1]), X.shape[0]),
                            np.arange(0, X.size + 1, X.shape[1])), shape=X.shape)
    assert padded.nnz == X.size and smo_trains_dense_rows(padded, "auto")
    assert not smo_trains_dense_rows(sp.csr_matrix((3, 0)), "auto")
    # Both sides give the model of the same rows, dense or sparse.
    _exactly_same_model(_fit("SVC", above, y), _fit("SVC", above.toarray(), y), X)
    _exactly_same_model(_fit("SVC", below, y), _fit("SVC", below, y, solver="smo"), X)


@pytest.mark.parametrize("solver", ["smo", "block"])
def test_a_fit_on_rows_far_wider_than_their_entries_uses_only_the_stored_features(solver):
    """200 rows of 10 entries over 10^8 features: the engine's rows scattered each row into
    one float64 per feature (750 MB, 6 s); they are now laid out over the stored features,
    and the model is the one fitted on the same data with the unused columns dropped, to
    the bit."""
    import tracemalloc

    rng = np.random.default_rng(0)
    n_rows, n_features = 200, 10**8
    X = sp.csr_matrix((rng.random(n_rows * 10), (np.repeat(np.arange(n_rows), 10),
                                                  rng.integers(0, n_features, n_rows * 10))),
                      shape=(n_rows, n_features))
    y = rng.integers(0, 3, n_rows)
    used = np.unique(X.indices)
    narrow = sp.csr_matrix((X.data, np.searchsorted(used, X.indices), X.indptr),
                           shape=(n_rows, used.size))
    tracemalloc.start()
    wide_model = SVC(gamma=0.1, solver=solver).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2**20
    narrow_model = SVC(gamma=0.1, solver=solver).fit(narrow, y)
    np.testing.assert_array_equal(wide_model.support_, narrow_model.support_)
    np.testing.assert_array_equal(wide_model.intercept_, narrow_model.intercept_)
    assert (wide_model.dual_coef_ != narrow_model.dual_coef_).nnz == 0
    assert wide_model.support_vectors_.shape == (wide_model.support_.size, n_features)


def test_a_grid_search_over_far_wider_rows_than_entries_shares_a_small_gram_matrix():
    """The shared Gram matrix of a search over 10^8 sparse features took 400 MB (scipy's
    X @ X.T keeps an index per feature); it is now computed over the stored features."""
    import tracemalloc

    from svmx.model_selection import GridSearch

    rng = np.random.RandomState(0)
    n_rows, n_features = 200, 10**8
    X = sp.csr_matrix((rng.randn(n_rows * 10), (np.repeat(np.arange(n_rows), 10),
                                                 rng.choice(n_features, n_rows * 10))),
                      shape=(n_rows, n_features))
    y = (np.asarray(X.sum(axis=1)).ravel() > 0).astype(int)
    tracemalloc.start()
    shared = GridSearch(SVC(gamma=0.1), {"C": [1.0, 4.0]}, cv=3).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2**20
    cold = GridSearch(SVC(gamma=0.1), {"C": [1.0, 4.0]}, cv=3, share_kernels=False).fit(X, y)
    np.testing.assert_allclose(shared.cv_results_["mean_test_score"],
                               cold.cv_results_["mean_test_score"], atol=1e-2)
