"""`cross_validate` with kernel values shared across its folds (`plan_shared_folds`).

- where it applies (svmx's estimators, a built-in kernel with a fixed gamma, rows that
  store enough entries, a score that reads X only through the estimator, no fitted
  estimators asked back) the folds of each run train on one Gram matrix, and the
  scores are those of the per-fold fits: SVC and SVR (solved in the binding), NuSVC
  and several metrics (per-fit on the kernel blocks), sample weights, train scores,
  one run or two;
- elsewhere it keeps the per-fold fits;
- a failing fold is recorded as in the per-fold path.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import load_shared

from svmx import SVC, SVR, NuSVC, OneClassSVM
from svmx.exceptions import FitFailedWarning
from svmx.model_selection import KFold, StratifiedKFold, _kernel_groups, cross_validate
from svmx.model_selection._kernel_groups import plan_shared_folds
from svmx.model_selection._validation import FitOptions

FEATURES = 120  # dense rows of at least 100 features make kernel values dear


def _wide(n_classes=3, rows=150, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=0.15, size=(n_classes, FEATURES))  # classes that overlap
    y = np.arange(rows) % n_classes
    return centres[y] + rng.normal(size=(rows, FEATURES)), y


def _gram_count(monkeypatch):
    """Count the Gram matrices the shared path computes."""
    calls = []
    real = _kernel_groups.gram_matrix

    def counted(X, kernel, *args):
        calls.append(kernel)
        return real(X, kernel, *args)

    monkeypatch.setattr(_kernel_groups, "gram_matrix", counted)
    return calls


def _same_results(shared, plain):
    assert set(shared) - {"indices"} == set(plain) - {"indices"}
    for key in plain:
        if key.startswith(("test_", "train_")):
            np.testing.assert_allclose(shared[key], plain[key], rtol=0, atol=1e-9, err_msg=key)


@pytest.mark.parametrize("estimator, scoring", [
    (SVC(gamma=0.01, C=2.0), None),
    (SVC(kernel="poly", gamma=0.01, degree=2, coef0=1.0), "accuracy"),
    (SVC(kernel="linear"), None),  # gamma='scale' is no parameter of the linear kernel
    (NuSVC(gamma=0.01, nu=0.3), None),
    (SVC(gamma=0.01), ["accuracy", "f1_macro"]),
    (SVC(gamma=0.01, class_weight="balanced"), "accuracy"),
])
def test_shared_folds_score_as_the_per_fold_fits(monkeypatch, estimator, scoring):
    X, y = _wide()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    plain = cross_validate(estimator, X, y, cv=cv, scoring=scoring, return_train_score=True,
                           share_kernels=False)
    grams = _gram_count(monkeypatch)
    shared = cross_validate(estimator, X, y, cv=cv, scoring=scoring, return_train_score=True)
    assert len(grams) == 1  # one Gram matrix for the five folds
    _same_results(shared, plain)


@pytest.mark.parametrize("scoring", [None, "neg_mean_squared_error"])
def test_shared_folds_of_a_regression(monkeypatch, scoring):
    X, labels = _wide(rows=120)
    y = X[:, :5].sum(axis=1) + 0.1 * labels
    estimator = SVR(gamma=0.005, C=3.0, epsilon=0.05)
    plain = cross_validate(estimator, X, y, cv=KFold(4), scoring=scoring, share_kernels=False)
    grams = _gram_count(monkeypatch)
    shared = cross_validate(estimator, X, y, cv=KFold(4), scoring=scoring)
    assert len(grams) == 1
    _same_results(shared, plain)


def test_boolean_mask_folds_share_kernels_as_index_folds(monkeypatch):
    X, y = _wide()
    masks = [np.arange(y.size) % 3 == k for k in range(3)]
    by_index = cross_validate(SVC(gamma=0.01), X, y, share_kernels=False,
                              cv=[(np.flatnonzero(~m), np.flatnonzero(m)) for m in masks])
    grams = _gram_count(monkeypatch)
    by_mask = cross_validate(SVC(gamma=0.01), X, y, cv=[(~m, m) for m in masks])
    assert len(grams) == 1
    _same_results(by_mask, by_index)


def test_sample_weights_reach_the_shared_folds():
    X, y = _wide()
    weights = np.random.default_rng(3).uniform(0.2, 3.0, size=y.size)
    estimator = SVC(gamma=0.01, C=0.5)
    params = {"sample_weight": weights}
    plain = cross_validate(estimator, X, y, cv=5, params=params, share_kernels=False)
    shared = cross_validate(estimator, X, y, cv=5, params=params)
    unweighted = cross_validate(estimator, X, y, cv=5)
    _same_results(shared, plain)
    assert not np.array_equal(shared["test_score"], unweighted["test_score"])


def test_two_workers_share_one_gram_matrix_each(monkeypatch):
    X, y = _wide()
    estimator = SVC(gamma=0.01)
    one = cross_validate(estimator, X, y, cv=5)
    runs = plan_shared_folds(estimator, X, [(np.arange(3), np.arange(3, 5))] * 5, None, {},
                             FitOptions(), n_jobs=2)
    assert [len(run) for run in runs] == [2, 3]  # the folds in order, split between workers
    grams = _gram_count(monkeypatch)
    two = cross_validate(estimator, X, y, cv=5, n_jobs=2, return_indices=True)
    assert len(grams) in (0, 2)  # 0 when the runs went to worker processes
    _same_results(two, one)
    assert [len(test) for test in two["indices"]["test"]] == [30] * 5


@pytest.mark.parametrize("estimator, X_kind, options", [
    (SVC(), "wide", {}),  # gamma='scale': each fold has its own gamma
    (SVC(gamma=0.1), "narrow", {}),  # 10 features: kernel columns are cheap
    (SVC(gamma=0.01), "wide", {"return_estimator": True}),  # models fitted on X wanted
    (SVC(gamma=0.01), "wide", {"scoring": lambda model, X, y: float(X[0, 0])}),
    (SVC(gamma=0.01, kernel=lambda A, B: A @ B.T), "wide", {}),
    (SVC(gamma=0.01), "wide", {"share_kernels": False}),
])
def test_per_fold_fits_where_sharing_does_not_apply(monkeypatch, estimator, X_kind, options):
    X, y = _wide()
    if X_kind == "narrow":
        X = X[:, :10]
    grams = _gram_count(monkeypatch)
    result = cross_validate(estimator, X, y, cv=3, **options)
    assert grams == []
    assert result["test_score"].shape == (3,)


def test_sparse_rows_with_many_entries_share(monkeypatch):
    X, y = _wide()
    X = sp.csr_matrix(np.where(np.abs(X) > 0.5, X, 0.0))  # about 60% of 120 stored
    estimator = SVC(gamma=0.01)
    plain = cross_validate(estimator, X, y, cv=4, share_kernels=False)
    grams = _gram_count(monkeypatch)
    shared = cross_validate(estimator, X, y, cv=4)
    assert len(grams) == 1
    _same_results(shared, plain)


def test_a_failing_fold_is_recorded_as_in_the_per_fold_path():
    X, _ = _wide(n_classes=2, rows=60)
    y = np.where(np.arange(60) < 12, 1, 0)  # KFold(5)'s first fold trains on class 0 alone
    estimator = SVC(gamma=0.01)
    results = []
    for share in (False, True):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results.append(cross_validate(estimator, X, y, cv=KFold(5), share_kernels=share))
        assert any(issubclass(w.category, FitFailedWarning) for w in caught)
    np.testing.assert_array_equal(results[0]["test_score"], results[1]["test_score"])
    assert np.isnan(results[1]["test_score"][0])


def test_one_class_svm_shares_its_folds(monkeypatch):
    X, _ = _wide(rows=90)
    inlier = np.ones(X.shape[0])
    estimator = OneClassSVM(gamma=0.01, nu=0.2)
    reference = cross_validate(estimator, X, inlier, cv=KFold(3), scoring="accuracy",
                               share_kernels=False)
    grams = _gram_count(monkeypatch)
    result = cross_validate(estimator, X, inlier, cv=KFold(3), scoring="accuracy")
    assert len(grams) == 1
    _same_results(result, reference)


@pytest.mark.parametrize("name", ["dna.scale", "a9a"])
def test_real_data_shared_folds_score_as_the_per_fold_fits(name):
    X, y = load_shared(name)  # dense
    X, y = X[:1200], y[:1200]
    if name == "dna.scale":
        X = sp.csr_matrix(X)  # 45 stored entries a row; a9a's 123 dense features
    estimator = SVC(gamma=1.0 / X.shape[1], C=4.0)
    cv = StratifiedKFold(5, shuffle=True, random_state=1)
    plain = cross_validate(estimator, X, y, cv=cv, share_kernels=False)
    shared = cross_validate(estimator, X, y, cv=cv)
    _same_results(shared, plain)


@pytest.mark.parametrize("bad", ["nan", "inf", "sparse nan", "gamma"])
def test_bad_input_is_refused_as_the_per_fold_path_refuses_it(monkeypatch, bad):
    X, y = _wide()
    estimator = SVC(gamma=0.01)
    if bad == "gamma":
        estimator = SVC(gamma="foo")
    else:
        X[7, 3] = np.inf if bad == "inf" else np.nan
        if bad == "sparse nan":
            X = sp.csr_matrix(X)
    grams = _gram_count(monkeypatch)
    outcomes = []
    for share in (False, True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                scores = cross_validate(estimator, X, y, cv=3, share_kernels=share)
            except ValueError as error:
                outcomes.append(type(error))
            else:
                # As scikit-learn: the folds that train on the bad row fail to fit, the
                # others fail to score it; both are recorded as NaN (with warnings).
                outcomes.append(tuple(np.isnan(scores["test_score"])))
    assert outcomes[0] is not None and outcomes == [outcomes[0]] * 2
    assert outcomes[0] == (True,) * 3 or outcomes[0] is ValueError
    assert grams == []


@pytest.mark.parametrize("bad", ["nan", "gamma"])
def test_the_grid_search_by_kernel_refuses_what_the_plain_search_refuses(monkeypatch, bad):
    """The check lives in plan_kernel_groups, which GridSearch and cross_validate share."""
    from svmx.model_selection import GridSearch

    X, y = _wide()
    grid = {"C": [0.5, 2.0], "gamma": [0.01, 0.1]}
    if bad == "nan":
        X[7, 3] = np.nan
    else:
        grid["gamma"] = [0.01, "foo"]
    grams = _gram_count(monkeypatch)
    outcomes = []
    for share in (False, True):
        search = GridSearch(SVC(), grid, cv=3, refit=False, share_kernels=share)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                search.fit(X, y)
            except ValueError as error:
                outcomes.append(type(error))
            else:
                outcomes.append(np.isnan(search.cv_results_["mean_test_score"]).tolist())
    assert outcomes[0] == outcomes[1]
    assert outcomes[0] is not None and outcomes[0] != [False] * 4
    assert grams == []
