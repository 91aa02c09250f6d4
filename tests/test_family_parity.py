"""NuSVC, OneClassSVM, SVR and NuSVR against scikit-learn on the shared real datasets, and the
identities every fitted model of the family satisfies.

Tests that need ``../shared/data`` skip with a clear reason when it is absent (see
``tests/conftest.py``). Each model is fitted once per module, by both libraries, with the
default parameters; the thresholds are those of the project's parity goals.
"""

from functools import cache

import numpy as np
import pytest
import sklearn.svm
from conftest import load_shared
from sklearn.datasets import load_iris

import svmx

# Regression predictions agree within this fraction of the target's standard deviation.
REGRESSION_TOLERANCE = 1e-3
# The number of support vectors agrees within this fraction.
N_SV_TOLERANCE = 0.01
# Classification and inlier predictions agree on at least this fraction of the test points.
MIN_AGREEMENT = 0.999


def _pair(estimator, X, y=None, **params):
    """The same estimator fitted by svmx and by scikit-learn.

    svmx runs LIBSVM's solver (solver='smo'), whose parity this module measures; under
    'auto' problems from 5,000 samples go to the block solver, whose parity with SMO and
    scikit-learn is tests/_engine/test_engine_block_solver.py's subject.
    """
    if estimator in ("OneClassSVM", "SVR"):
        params = {"solver": "smo", **params}
    ours = getattr(svmx, estimator)(**params)
    params.pop("solver", None)
    theirs = getattr(sklearn.svm, estimator)(**params)
    if y is None:
        return ours.fit(X), theirs.fit(X)
    return ours.fit(X, y), theirs.fit(X, y)


# ----------------------------------------------------------------------------------------------
# Real data: fitted once per (estimator, dataset)
# ----------------------------------------------------------------------------------------------

REGRESSION_DATASETS = ["abalone_scale", "cpusmall_scale", "housing_scale"]


@cache
def _regression_fit(estimator, name):
    X, y = load_shared(name)
    ours, theirs = _pair(estimator, X, y)
    return y, ours.predict(X), theirs.predict(X), ours.support_.size, theirs.support_.size


@pytest.mark.parametrize("estimator", ["SVR", "NuSVR"])
@pytest.mark.parametrize("name", REGRESSION_DATASETS)
def test_regression_predictions_agree_with_sklearn(estimator, name):
    y, ours, theirs, _, _ = _regression_fit(estimator, name)
    assert np.max(np.abs(ours - theirs)) <= REGRESSION_TOLERANCE * np.std(y)


@pytest.mark.parametrize("estimator", ["SVR", "NuSVR"])
@pytest.mark.parametrize("name", REGRESSION_DATASETS)
def test_regression_support_vector_counts_agree_with_sklearn(estimator, name):
    _, _, _, ours, theirs = _regression_fit(estimator, name)
    assert abs(ours - theirs) <= N_SV_TOLERANCE * theirs


def _pendigits(name):
    # Features are integers in [0, 100]; the test file may use fewer columns than 16.
    X, y = load_shared(name, n_features=16)
    return X / 100.0, y


CLASSIFICATION_DATASETS = {
    "dna": (lambda: load_shared("dna.scale"), lambda: load_shared("dna.scale.t", 180)),
    "pendigits": (lambda: _pendigits("pendigits"), lambda: _pendigits("pendigits.t")),
}


@cache
def _nu_svc_fit(name):
    load_train, load_test = CLASSIFICATION_DATASETS[name]
    X, y = load_train()
    X_test, _ = load_test()
    ours, theirs = _pair("NuSVC", X, y)
    return ours.predict(X_test), theirs.predict(X_test), ours.n_support_, theirs.n_support_


@pytest.mark.parametrize("name", list(CLASSIFICATION_DATASETS))
def test_nu_svc_test_predictions_agree_with_sklearn(name):
    ours, theirs, _, _ = _nu_svc_fit(name)
    assert np.mean(ours == theirs) >= MIN_AGREEMENT


@pytest.mark.parametrize("name", list(CLASSIFICATION_DATASETS))
def test_nu_svc_support_vector_counts_agree_with_sklearn(name):
    _, _, ours, theirs = _nu_svc_fit(name)
    assert np.all(np.abs(ours - theirs) <= N_SV_TOLERANCE * theirs)


@pytest.mark.parametrize("name", ["heart_scale", "mushrooms"])
def test_one_class_inliers_agree_with_sklearn(name):
    X, _ = load_shared(name)
    ours, theirs = _pair("OneClassSVM", X)
    assert np.mean(ours.predict(X) == theirs.predict(X)) >= MIN_AGREEMENT
    assert abs(ours.support_.size - theirs.support_.size) <= N_SV_TOLERANCE * theirs.support_.size
    assert ours.offset_.shape == theirs.offset_.shape == (1,)
    assert ours.offset_[0] == pytest.approx(theirs.offset_[0], rel=1e-3)


# ----------------------------------------------------------------------------------------------
# Identities, on small data
# ----------------------------------------------------------------------------------------------

GAMMA = 0.2


def _rbf(A, B):
    squared = (A**2).sum(1)[:, None] + (B**2).sum(1)[None, :] - 2.0 * A @ B.T
    return np.exp(-GAMMA * np.maximum(squared, 0.0))


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return X, y


@pytest.fixture(scope="module")
def housing():
    X, y = load_shared("housing_scale")
    return X[:200], y[:200]


def _problem(name, iris, housing):
    """(X, y) suited to the estimator: iris for classifiers/one-class, housing for regressors."""
    if name in ("SVR", "NuSVR"):
        return housing
    X, y = iris
    return X, (None if name == "OneClassSVM" else y)


def _fit(model, X, y, **fit_params):
    return model.fit(X, **fit_params) if y is None else model.fit(X, y, **fit_params)


FAMILY = ["SVC", "NuSVC", "OneClassSVM", "SVR", "NuSVR"]
SINGLE = ["OneClassSVM", "SVR", "NuSVR"]


@pytest.mark.parametrize("name", SINGLE)
def test_single_problem_decision_is_the_kernel_expansion(name, iris, housing):
    X, y = _problem(name, iris, housing)
    model = _fit(getattr(svmx, name)(gamma=GAMMA), X, y)
    expansion = _rbf(X, model.support_vectors_) @ model.dual_coef_.T + model.intercept_
    decide = model.predict if name != "OneClassSVM" else model.decision_function
    np.testing.assert_allclose(decide(X), expansion.ravel(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", ["SVC", "NuSVC"])
def test_binary_decision_is_the_kernel_expansion(name, iris):
    X, y = iris
    binary = y > 0
    model = getattr(svmx, name)(gamma=GAMMA).fit(X[binary], y[binary])
    expansion = _rbf(X, model.support_vectors_) @ model.dual_coef_.T + model.intercept_
    np.testing.assert_allclose(model.decision_function(X), expansion.ravel(), rtol=1e-10,
                               atol=1e-10)


@pytest.mark.parametrize("name", ["SVC", "NuSVC"])
def test_one_vs_one_decisions_are_the_kernel_expansions(name, iris):
    # Pair (i, j): class-i vectors carry row j - 1 of dual_coef_, class-j vectors row i.
    X, y = iris
    model = getattr(svmx, name)(gamma=GAMMA, decision_function_shape="ovo").fit(X, y)
    K = _rbf(X, model.support_vectors_)
    starts = np.concatenate([[0], np.cumsum(model.n_support_)])
    expected = []
    for i in range(3):
        for j in range(i + 1, 3):
            block_i, block_j = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
            expected.append(
                K[:, block_i] @ model.dual_coef_[j - 1, block_i]
                + K[:, block_j] @ model.dual_coef_[i, block_j]
                + model.intercept_[len(expected)]
            )
    np.testing.assert_allclose(model.decision_function(X), np.column_stack(expected),
                               rtol=1e-10, atol=1e-10)


def test_one_class_score_samples_minus_offset_is_the_decision(iris):
    X, _ = iris
    model = svmx.OneClassSVM(nu=0.2).fit(X)
    np.testing.assert_array_equal(model.score_samples(X) - model.offset_,
                                  model.decision_function(X))
    np.testing.assert_array_equal(model.offset_, -model.intercept_)


def _decisions(model, X):
    return model.decision_function(X) if hasattr(model, "decision_function") else model.predict(X)


@pytest.mark.parametrize("name", FAMILY)
def test_callable_kernel_equals_builtin_and_precomputed(name, iris, housing):
    # Run to a tight tolerance: the three paths round kernel values differently (and the
    # cache keeps them as float32, as LIBSVM), and a loose stopping rule would turn those
    # last bits into differences of order tol. Coefficients of nearly dependent support
    # vectors are the least determined, hence the looser bound on dual_coef_.
    X, y = _problem(name, iris, housing)
    builtin = _fit(getattr(svmx, name)(kernel="rbf", gamma=GAMMA, tol=1e-10), X, y)
    by_callable = _fit(getattr(svmx, name)(kernel=_rbf, tol=1e-10), X, y)
    precomputed = _fit(getattr(svmx, name)(kernel="precomputed", tol=1e-10), _rbf(X, X), y)
    for model in (by_callable, precomputed):
        np.testing.assert_array_equal(model.support_, builtin.support_)
        np.testing.assert_allclose(model.dual_coef_, builtin.dual_coef_, atol=1e-5)
        np.testing.assert_allclose(model.intercept_, builtin.intercept_, atol=1e-6)
    expected = _decisions(builtin, X)
    np.testing.assert_allclose(_decisions(by_callable, X), expected, atol=1e-6)
    np.testing.assert_allclose(_decisions(precomputed, _rbf(X, X)), expected, atol=1e-6)


# ----------------------------------------------------------------------------------------------
# Weights against scikit-learn
# ----------------------------------------------------------------------------------------------


def _assert_same_model(ours, theirs, X, kept_rows):
    # scikit-learn's support_ indexes the rows left after dropping zero weights; svmx's
    # indexes X itself.
    np.testing.assert_array_equal(ours.support_, kept_rows[theirs.support_])
    np.testing.assert_array_equal(ours.support_vectors_, theirs.support_vectors_)
    np.testing.assert_allclose(ours.dual_coef_, theirs.dual_coef_, atol=1e-6)
    np.testing.assert_allclose(_decisions(ours, X), _decisions(theirs, X), atol=1e-6)


@pytest.mark.parametrize("name", FAMILY)
def test_sample_weight_matches_sklearn(name, iris, housing):
    X, y = _problem(name, iris, housing)
    rng = np.random.default_rng(7)
    weights = rng.uniform(0.2, 3.0, size=X.shape[0])
    weights[::11] = 0.0  # zero weights drop rows, as in scikit-learn
    params = {"gamma": GAMMA, "tol": 1e-8}
    if name in ("NuSVC",):
        params["nu"] = 0.3
    ours = _fit(getattr(svmx, name)(**params), X, y, sample_weight=weights)
    theirs = _fit(getattr(sklearn.svm, name)(**params), X, y, sample_weight=weights)
    _assert_same_model(ours, theirs, X, np.flatnonzero(weights > 0))


@pytest.mark.parametrize("name", ["SVC", "NuSVC"])
@pytest.mark.parametrize("class_weight", ["balanced", {0: 4.0, 1: 0.5, 2: 1.5}])
def test_class_weight_matches_sklearn(name, class_weight, iris):
    X, y = iris
    keep = np.r_[0:50, 50:80, 100:150]  # unbalanced, so 'balanced' is not uniform
    X, y = X[keep], y[keep]
    params = {"gamma": GAMMA, "tol": 1e-8, "class_weight": class_weight}
    ours = getattr(svmx, name)(**params).fit(X, y)
    theirs = getattr(sklearn.svm, name)(**params).fit(X, y)
    _assert_same_model(ours, theirs, X, np.arange(X.shape[0]))
    np.testing.assert_allclose(ours.class_weight_, theirs.class_weight_)


def test_nu_svc_bounds_ignore_class_weight_as_sklearn(iris):
    X, y = iris
    weighted = svmx.NuSVC(class_weight={0: 10.0, 1: 0.1, 2: 1.0}).fit(X, y)
    plain = svmx.NuSVC().fit(X, y)
    np.testing.assert_array_equal(weighted.dual_coef_, plain.dual_coef_)
    np.testing.assert_array_equal(weighted.intercept_, plain.intercept_)


# ----------------------------------------------------------------------------------------------
# Infeasible nu
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "nu, sample_weight, feasible",
    [(0.88, None, True), (0.9, None, False), (0.76, "heavier_positive", True),
     (0.8, "heavier_positive", False)],
)
def test_infeasible_nu_names_the_bound_where_sklearn_refuses(nu, sample_weight, feasible):
    X, y = load_shared("heart_scale")  # 150 negatives, 120 positives: bound 240 / 270
    weights = np.where(y == 1, 2.0, 1.0) if sample_weight else None
    bound = 2 * 120 / 270 if weights is None else 2 * 150 / 390
    try:
        sklearn.svm.NuSVC(nu=nu).fit(X, y, sample_weight=weights)
        sklearn_feasible = True
    except ValueError:
        sklearn_feasible = False
    assert sklearn_feasible == feasible
    if feasible:
        assert svmx.NuSVC(nu=nu).fit(X, y, sample_weight=weights).support_.size > 0
    else:
        with pytest.raises(ValueError, match=rf"nu={nu} is infeasible.*at most nu = "
                                             rf"{bound:.6g}"):
            svmx.NuSVC(nu=nu).fit(X, y, sample_weight=weights)
