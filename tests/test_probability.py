"""``probability=True`` for SVC and NuSVC: repeatability, distributions, availability, the
agreement of ``argmax(predict_proba)`` with ``predict``, and closeness to scikit-learn.

Platt's sigmoid fit itself (against a scipy minimiser of the regularised likelihood, and against
``libsvm-official``) and pairwise coupling are tested in ``tests/_engine/test_engine_platt.py``.
"""

import warnings

import numpy as np
import pytest
import sklearn.svm
from conftest import load_shared
from sklearn.datasets import load_iris, load_wine
from sklearn.preprocessing import StandardScaler

import svmx
from svmx._probability import _fit_sigmoid
from svmx.exceptions import NotFittedError

CLASSIFIERS = ["SVC", "NuSVC"]
# The documented floor for the share of points where argmax(predict_proba) == predict
# (see BaseSVC.predict_proba; measured 99.7% for SVC and 98.6% for NuSVC on dna.scale.t).
MIN_ARGMAX_AGREEMENT = 0.98
# Our rate may differ from scikit-learn's (the folds are shuffled differently) by this much.
ARGMAX_AGREEMENT_SLACK = 0.01
# Probabilities differ from scikit-learn's by at most this much (different fold shuffles).
MAX_PROBABILITY_GAP = 0.05
MEAN_PROBABILITY_GAP = 0.01


def _scaled(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.fixture(scope="module")
def iris():
    return _scaled(load_iris)


def _fit(name, X, y, **params):
    return getattr(svmx, name)(probability=True, **params).fit(X, y)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_same_seed_gives_bit_identical_sigmoids(name, iris):
    X, y = iris
    first, second = _fit(name, X, y, random_state=3), _fit(name, X, y, random_state=3)
    assert first.probA_.tobytes() == second.probA_.tobytes()
    assert first.probB_.tobytes() == second.probB_.tobytes()
    assert first.predict_proba(X).tobytes() == second.predict_proba(X).tobytes()


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_different_seeds_give_different_sigmoids(name, iris):
    X, y = iris
    first, second = _fit(name, X, y, random_state=0), _fit(name, X, y, random_state=1)
    assert not np.array_equal(first.probA_, second.probA_)
    assert not np.array_equal(first.probB_, second.probB_)
    # ...but only the cross-validation differs, not the model.
    np.testing.assert_array_equal(first.dual_coef_, second.dual_coef_)


@pytest.mark.parametrize("name", CLASSIFIERS)
@pytest.mark.parametrize("dataset", ["iris", "heart_scale"])
def test_predict_proba_rows_are_distributions(name, dataset, iris):
    X, y = iris if dataset == "iris" else load_shared(dataset)
    model = _fit(name, X, y, random_state=0)
    probabilities = model.predict_proba(X)
    n_pairs = model.classes_.size * (model.classes_.size - 1) // 2
    assert probabilities.shape == (X.shape[0], model.classes_.size)
    assert model.probA_.shape == model.probB_.shape == (n_pairs,)
    assert np.all((probabilities >= 0) & (probabilities <= 1))
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_predict_log_proba_is_the_log(name, iris):
    X, y = iris
    model = _fit(name, X, y, random_state=0)
    np.testing.assert_array_equal(model.predict_log_proba(X), np.log(model.predict_proba(X)))


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_binary_probability_is_platts_sigmoid_of_the_decision(name):
    X, y = load_shared("heart_scale")
    model = _fit(name, X, y, random_state=0)
    # LIBSVM's pair (0, 1) has classes_[0] positive: its value is -decision_function.
    value = -model.decision_function(X)
    first_class = 1.0 / (1.0 + np.exp(model.probA_[0] * value + model.probB_[0]))
    np.testing.assert_allclose(model.predict_proba(X)[:, 0], first_class, rtol=1e-12)


@pytest.mark.parametrize("name", CLASSIFIERS)
@pytest.mark.parametrize("method", ["predict_proba", "predict_log_proba"])
def test_probability_methods_are_absent_without_probability(name, method, iris):
    X, y = iris
    model = getattr(svmx, name)().fit(X, y)
    assert not hasattr(model, method)
    with pytest.raises(AttributeError, match="probability=False"):
        getattr(model, method)(X)
    # Switching the parameter without refitting is refused until fit runs again.
    model.set_params(probability=True)
    assert hasattr(model, method)
    with pytest.raises(NotFittedError, match="probability=True"):
        getattr(model, method)(X)
    assert getattr(model.fit(X, y), method)(X).shape == (X.shape[0], 3)


def test_folds_without_a_solution_are_left_out():
    # 7 against 3 samples: nu=0.5 is feasible for the pair (bound 0.6) but not for folds
    # with 6 against 2 (bound 0.5, no margin); those folds are left out of the sigmoid fit.
    X = 3 * np.random.RandomState(0).uniform(size=(10, 1))
    y = X[:, 0].astype(int)
    model = svmx.NuSVC(kernel="linear", probability=True, random_state=0).fit(X, y)
    assert np.isfinite(model.probA_).all() and np.isfinite(model.probB_).all()
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0, atol=1e-12)


def test_sigmoid_without_any_decision_value_is_the_prior():
    labels = np.array([1] * 7 + [-1] * 3, dtype=np.int8)
    A, B, status = _fit_sigmoid(np.full(10, np.nan), labels)
    assert status == 0
    assert A == 0.0
    assert B == pytest.approx(np.log((3 + 1) / (7 + 1)))


# ----------------------------------------------------------------------------------------------
# Against scikit-learn (its probability=True is deprecated in 1.9: the FutureWarning is filtered)
# ----------------------------------------------------------------------------------------------


def _sklearn_fit(name, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return getattr(sklearn.svm, name)(probability=True, random_state=0).fit(X, y)


def _argmax_agreement(model, X):
    return np.mean(model.classes_[np.argmax(model.predict_proba(X), axis=1)] == model.predict(X))


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_argmax_of_predict_proba_mostly_agrees_with_predict(name):
    X, y = load_shared("dna.scale")
    X_test, _ = load_shared("dna.scale.t", n_features=X.shape[1])
    ours = _argmax_agreement(_fit(name, X, y, random_state=0), X_test)
    theirs = _argmax_agreement(_sklearn_fit(name, X, y), X_test)
    assert ours >= MIN_ARGMAX_AGREEMENT
    assert ours >= theirs - ARGMAX_AGREEMENT_SLACK


@pytest.mark.parametrize("name", CLASSIFIERS)
@pytest.mark.parametrize("loader", [load_iris, load_wine], ids=["iris", "wine"])
def test_probabilities_are_close_to_sklearns(name, loader):
    X, y = _scaled(loader)
    ours = _fit(name, X, y, random_state=0)
    theirs = _sklearn_fit(name, X, y)
    # The same model (to the solver's tolerance); only the internal folds differ.
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-3)
    gap = np.abs(ours.predict_proba(X) - theirs.predict_proba(X))
    assert gap.max() <= MAX_PROBABILITY_GAP
    assert gap.mean() <= MEAN_PROBABILITY_GAP


def test_svr_laplace_folds_handing_cache_memory_on_change_no_bit(monkeypatch):
    """An SVR's model and its five Laplace folds hand their kernel caches' memory on
    (`svmx._training.cache_memories`); what a fold finds there must change nothing."""
    import svmx._single as single
    from svmx.preprocessing import GlibcRand

    X, y = load_shared("housing_scale")
    pooled = svmx.SVR(C=4.0)._fit_with_libsvm_probability(X, y, GlibcRand(1))
    monkeypatch.setattr(single, "cache_memories", lambda *args: None)
    fresh = svmx.SVR(C=4.0)._fit_with_libsvm_probability(X, y, GlibcRand(1))
    assert pooled.probA_.tobytes() == fresh.probA_.tobytes()
    np.testing.assert_array_equal(pooled.dual_coef_, fresh.dual_coef_)
