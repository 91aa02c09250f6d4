"""Grid search by kernel: one Gram matrix per kernel for all folds and C values, and warm
starts along C (alpha seeding).

- warm-started and cold solutions reach the same dual objective within tol, on (a
  deterministic subset of) every shared dataset;
- a fold trained on its block of the shared Gram matrix is the model a fresh fit on the
  fold's rows gives;
- ``GridSearch(share_kernels=True)`` picks what the plain search picks, with the same
  scores, locally and on a dask cluster; it falls back where grouping does not apply.
"""

import numpy as np
import pytest
from conftest import shared_subset

from svmx import SVC, SVR, NuSVC, OneClassSVM
from svmx._shared_gram import gram_matrix
from svmx._specs import KernelSpec
from svmx.model_selection import GridSearch, StratifiedKFold, expand_grid
from svmx.model_selection._kernel_groups import plan_kernel_groups

CLASSIFICATION = ["heart_scale", "a9a", "w8a", "ijcnn1", "mushrooms", "dna.scale",
                  "pendigits", "mnist_5k.libsvm", "reuters_lasvm", "svmguide1"]
REGRESSION = ["abalone_scale", "cpusmall_scale", "housing_scale"]
ROWS = 300


def _subset(name):
    return shared_subset(name, ROWS, regression=name in REGRESSION)


def _dual_objective(model, X, epsilon=None, y=None):
    """1/2 c'Kc - sum|c| (C-SVC) or 1/2 c'Kc + eps sum|c| - y'c (epsilon-SVR), with c the
    signed dual coefficients over the support vectors."""
    support = model.support_
    coef = np.asarray(model._dual_coef_)[0]
    K = gram_matrix(X[support], KernelSpec.named("rbf", gamma=model._gamma))
    quadratic = 0.5 * coef @ K @ coef
    if epsilon is None:
        return quadratic - np.abs(coef).sum()
    return quadratic + epsilon * np.abs(coef).sum() - y[support] @ coef


@pytest.mark.parametrize("name", CLASSIFICATION + REGRESSION)
def test_warm_and_cold_starts_reach_the_same_objective(name):
    X, y = _subset(name)
    regression = name in REGRESSION
    previous = None
    for C in (0.25, 1.0, 4.0, 16.0):
        if regression:
            params = {"C": C, "gamma": 0.5, "epsilon": 0.1}
            cold = SVR(**params).fit(X, y)
            warm = SVR(**params)._fit_warm(X, y, None, previous)
            objectives = [_dual_objective(m, X, 0.1, y) for m in (cold, warm)]
        else:
            cold = SVC(C=C, gamma=0.5).fit(X, y)
            warm = SVC(C=C, gamma=0.5)._fit_warm(X, y, None, previous)
            objectives = [_dual_objective(m, X) for m in (cold, warm)]
        # Both stop when the maximal violation falls below tol = 1e-3.
        assert abs(objectives[1] - objectives[0]) <= 1e-3 * max(1.0, abs(objectives[0]))
        if regression:
            np.testing.assert_allclose(warm.predict(X), cold.predict(X), rtol=0,
                                       atol=0.02 * np.std(y))
        else:
            assert np.mean(warm.predict(X) == cold.predict(X)) >= 0.99
        previous = warm


def test_warm_start_saves_iterations_at_large_c():
    X, y = _subset("svmguide1")
    path = [2.0 ** e for e in range(0, 13, 2)]
    cold = sum(int(SVC(C=C, gamma=2.0).fit(X, y).n_iter_.sum()) for C in path)
    warm, previous = 0, None
    for C in path:
        previous = SVC(C=C, gamma=2.0)._fit_warm(X, y, None, previous)
        warm += int(previous.n_iter_.sum())
    assert warm < cold


def test_where_c_no_longer_binds_the_seed_is_the_optimum():
    # dna (300 rows, gamma 2^-5): from C = 2^5 on, no support vector is at its bound, so
    # the solution stops changing; the best scale along the previous solution is 1 and
    # the seeded solve has (almost) nothing left to do.
    X, y = _subset("dna.scale")
    previous = SVC(C=2.0 ** 5, gamma=2.0 ** -5).fit(X, y)
    assert np.all(np.abs(previous.dual_coef_) < 2.0 ** 5)
    cold = SVC(C=2.0 ** 7, gamma=2.0 ** -5).fit(X, y)
    warm = SVC(C=2.0 ** 7, gamma=2.0 ** -5)._fit_warm(X, y, None, previous)
    assert warm.n_iter_[0] <= max(10, cold.n_iter_[0] // 20)
    np.testing.assert_allclose(warm.decision_function(X), cold.decision_function(X),
                               rtol=0, atol=1e-2)


def test_a_seed_that_breaks_the_equality_constraint_is_dropped():
    X, y = _subset("heart_scale")
    weights = np.where(np.arange(y.size) % 3 == 0, 6.0, 1.0)
    other = SVC(C=1.0).fit(X, y, sample_weight=weights)  # alphas up to 6: clipped at 1
    reference = SVC(C=1.0).fit(X, y)
    seeded = SVC(C=1.0)._fit_warm(X, y, None, other)
    np.testing.assert_array_equal(seeded.support_, reference.support_)
    np.testing.assert_array_equal(seeded.n_iter_, reference.n_iter_)


@pytest.mark.parametrize("estimator", [SVC(C=3.0, gamma=0.2), NuSVC(nu=0.4, gamma=0.2),
                                       SVR(C=3.0, gamma=0.2)])
def test_fold_on_the_shared_gram_is_a_fresh_fit_on_its_rows(estimator):
    X, y = _subset("housing_scale" if isinstance(estimator, SVR) else "dna.scale")
    train, test = np.arange(0, X.shape[0], 3), np.arange(1, X.shape[0], 3)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.2))
    fresh = type(estimator)(**estimator.get_params()).fit(X[train], y[train])
    shared = type(estimator)(**{**estimator.get_params(), "kernel": "precomputed"})
    shared.fit(K[np.ix_(train, train)], y[train])
    np.testing.assert_array_equal(shared.support_, fresh.support_)
    np.testing.assert_allclose(shared.dual_coef_, fresh.dual_coef_, rtol=0, atol=1e-6)
    np.testing.assert_allclose(shared.intercept_, fresh.intercept_, rtol=0, atol=1e-6)
    np.testing.assert_allclose(shared.predict(K[np.ix_(test, train)]) if isinstance(
        estimator, SVR) else shared.decision_function(K[np.ix_(test, train)]),
        fresh.predict(X[test]) if isinstance(estimator, SVR)
        else fresh.decision_function(X[test]), rtol=0, atol=1e-5)


def _searches(estimator, grid, X, y, **fit_params):
    folds = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y)) \
        if not isinstance(estimator, SVR) else 4
    shared = GridSearch(estimator, grid, cv=folds).fit(X, y, **fit_params)
    plain = GridSearch(estimator, grid, cv=folds, share_kernels=False).fit(X, y, **fit_params)
    return shared, plain


@pytest.mark.parametrize("estimator, grid", [
    (SVC(), {"C": [0.5, 8.0, 2.0], "gamma": [0.05, 0.5]}),
    (SVC(), {"C": [0.25, 4.0]}),  # gamma='scale': each fold its own kernel
    (SVC(probability=True, random_state=0), {"C": [1.0, 4.0]}),
    (NuSVC(gamma=0.1), {"nu": [0.2, 0.5]}),
    (SVR(), {"C": [1.0, 10.0], "epsilon": [0.1, 0.5]}),
])
def test_grouped_search_scores_as_the_plain_search(estimator, grid):
    X, y = _subset("housing_scale" if isinstance(estimator, SVR) else "heart_scale")
    assert plan_kernel_groups(estimator, expand_grid(grid), X, {}) is not None
    shared, plain = _searches(estimator, grid, X, y)
    assert shared.best_params_ == plain.best_params_
    assert shared.cv_results_["params"] == plain.cv_results_["params"]
    np.testing.assert_allclose(shared.cv_results_["mean_test_score"],
                               plain.cv_results_["mean_test_score"], rtol=0, atol=0.01)
    # The refit model is a normal one, on the original features.
    assert shared.best_estimator_.kernel == estimator.kernel
    assert shared.predict(X[:5]).shape == (5,)


def test_grouped_search_with_sample_weight():
    X, y = _subset("heart_scale")
    weights = np.linspace(0.5, 2.0, y.size)
    shared, plain = _searches(SVC(gamma=0.1), {"C": [0.5, 4.0]}, X, y, sample_weight=weights)
    np.testing.assert_allclose(shared.cv_results_["mean_test_score"],
                               plain.cv_results_["mean_test_score"], rtol=0, atol=0.01)


@pytest.mark.parametrize("estimator", [SVC(gamma=0.1), SVR(gamma=0.1)])
def test_boolean_mask_folds_pick_the_rows_they_mark(estimator):
    # A mask read as indices picked rows 0 and 1 for every fold of the grouped search.
    X, y = _subset("housing_scale" if isinstance(estimator, SVR) else "heart_scale")
    mask = np.arange(y.size) % 3 != 0
    grid = {"C": [1.0, 8.0]}
    by_mask = GridSearch(estimator, grid, cv=[(mask, ~mask)]).fit(X, y)
    by_index = GridSearch(estimator, grid, cv=[(np.flatnonzero(mask), np.flatnonzero(~mask))],
                          share_kernels=False).fit(X, y)
    np.testing.assert_allclose(by_mask.cv_results_["mean_test_score"],
                               by_index.cv_results_["mean_test_score"], rtol=0, atol=1e-3)
    with pytest.raises(ValueError, match=r"boolean test mask of shape \(5,\)"):
        GridSearch(estimator, grid, cv=[(mask, ~mask[:5])]).fit(X, y)


@pytest.mark.parametrize("estimator, fit_params", [
    (SVC(kernel=lambda a, b: a @ b.T), {}),
    (SVC(kernel="precomputed"), {}),
    (SVC(solver="block"), {}),
    (SVC(verbose=True), {}),
    (SVC(cache_size=0.001), {}),  # the Gram matrix does not fit
    (SVC(), {"other": 1}),
])
def test_grouping_falls_back_where_it_does_not_apply(estimator, fit_params):
    X = np.random.default_rng(0).normal(size=(40, 3))
    assert plan_kernel_groups(estimator, [{"C": 1.0}], X, fit_params) is None
    assert plan_kernel_groups(OneClassSVM(), [{"nu": 0.5}], X, {}) is not None
    assert plan_kernel_groups(object(), [{"C": 1.0}], X, {}) is None


def test_a_scorer_that_reads_the_features_sees_the_features():
    X, y = _subset("heart_scale")
    seen = []

    def first_feature_mean(estimator, X_test, y_test):
        seen.append(X_test.shape[1])
        return float(np.mean(X_test[:, 0]))

    search = GridSearch(SVC(gamma=0.1), {"C": [0.5, 4.0]}, cv=3,
                        scoring=first_feature_mean, refit=False).fit(X, y)
    assert set(seen) == {X.shape[1]}  # never a kernel matrix
    plain = GridSearch(SVC(gamma=0.1), {"C": [0.5, 4.0]}, cv=3, scoring=first_feature_mean,
                       refit=False, share_kernels=False).fit(X, y)
    np.testing.assert_array_equal(search.cv_results_["mean_test_score"],
                                  plain.cv_results_["mean_test_score"])


def test_scikit_learns_scorer_objects_keep_the_grouping(monkeypatch):
    make_scorer = pytest.importorskip("sklearn.metrics").make_scorer
    from sklearn.metrics import accuracy_score

    import svmx.model_selection._search as search_module

    grouped = []
    original = search_module.fit_kernel_group
    monkeypatch.setattr(search_module, "fit_kernel_group",
                        lambda *args: grouped.append(1) or original(*args))
    X, y = _subset("heart_scale")
    GridSearch(SVC(gamma=0.1), {"C": [0.5, 4.0]}, cv=3, scoring=make_scorer(accuracy_score),
               refit=False, n_jobs=1).fit(X, y)
    assert grouped


def test_grouped_search_on_dask_equals_local():
    distributed = pytest.importorskip("distributed")
    joblib = pytest.importorskip("joblib")
    X, y = _subset("heart_scale")
    grid = {"C": [0.5, 4.0], "gamma": [0.05, 0.5]}
    local = GridSearch(SVC(), grid, cv=4, n_jobs=1).fit(X, y)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster),
        joblib.parallel_backend("dask"),
    ):
        remote = GridSearch(SVC(), grid, cv=4).fit(X, y)
    for fold in range(4):
        key = f"split{fold}_test_score"
        np.testing.assert_array_equal(remote.cv_results_[key], local.cv_results_[key])
    assert remote.best_params_ == local.best_params_
