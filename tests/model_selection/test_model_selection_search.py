"""GridSearch: parity with scikit-learn, results table, refit, grids and errors."""

import numpy as np
import pytest
from sklearn import model_selection as skms
from sklearn.datasets import load_iris
from sklearn.svm import SVC

import svmx
from svmx.exceptions import NotFittedError
from svmx.model_selection import (
    GridSearch,
    GridSearchCV,
    KFold,
    StratifiedKFold,
    expand_grid,
    libsvm_grid,
)


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


GRID = {"C": [0.1, 1.0, 10.0], "gamma": [0.01, 0.1, 1.0]}


def test_matches_sklearn_grid_search_cv(iris):
    X, y = iris
    folds = list(StratifiedKFold(4, shuffle=True, random_state=7).split(X, y))
    ours = GridSearch(SVC(), GRID, cv=folds).fit(X, y)
    theirs = skms.GridSearchCV(SVC(), GRID, cv=folds).fit(X, y)
    assert ours.cv_results_["params"] == list(theirs.cv_results_["params"])
    np.testing.assert_array_equal(
        ours.cv_results_["mean_test_score"], theirs.cv_results_["mean_test_score"]
    )
    np.testing.assert_array_equal(
        ours.cv_results_["rank_test_score"], theirs.cv_results_["rank_test_score"]
    )
    assert ours.best_params_ == theirs.best_params_
    assert ours.best_score_ == theirs.best_score_
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def _assert_same_results(ours, theirs):
    assert list(ours) == list(theirs)
    for key, expected in theirs.items():
        got = ours[key]
        if "time" in key:
            assert got.shape == expected.shape
        elif isinstance(expected, np.ma.MaskedArray):
            assert isinstance(got, np.ma.MaskedArray) and got.dtype == expected.dtype
            assert got.mask.tolist() == expected.mask.tolist()
            assert got.tolist() == expected.tolist()
        elif key == "params":
            assert got == expected
        else:
            np.testing.assert_array_equal(got, expected)
            assert got.dtype == expected.dtype, key


@pytest.mark.parametrize("options", [
    {},
    {"return_train_score": True},
    {"scoring": ["accuracy", "balanced_accuracy"], "refit": "balanced_accuracy"},
    {"scoring": {"acc": "accuracy", "f1": "f1_macro"}, "refit": False},
    {"refit": lambda results: int(np.argmin(results["mean_test_score"]))},
])
def test_cv_results_are_sklearns(iris, options):
    X, y = iris
    grids = [{"C": [0.1, 1.0, 10.0], "gamma": [0.1, 1.0]}, {"kernel": ["linear"], "C": [1.0]}]
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    ours = GridSearchCV(svmx.SVC(), grids, cv=cv, **options).fit(X, y)
    theirs = skms.GridSearchCV(svmx.SVC(), grids, cv=cv, **options).fit(X, y)
    _assert_same_results(ours.cv_results_, theirs.cv_results_)
    for name in ("best_index_", "best_params_", "best_score_", "n_splits_", "multimetric_"):
        assert hasattr(ours, name) == hasattr(theirs, name), name
        if hasattr(theirs, name):
            assert getattr(ours, name) == getattr(theirs, name), name
    assert hasattr(ours, "best_estimator_") == hasattr(theirs, "best_estimator_")
    if hasattr(theirs, "best_estimator_"):
        for method in ("predict", "decision_function"):
            np.testing.assert_array_equal(getattr(ours, method)(X), getattr(theirs, method)(X))
        assert ours.score(X, y) == theirs.score(X, y)
        np.testing.assert_array_equal(ours.classes_, theirs.classes_)


@pytest.mark.parametrize("svmx_estimator", [True, False])
def test_precomputed_kernel_folds_cut_rows_and_columns(iris, svmx_estimator):
    # A fold fits on K[train][:, train] and scores on K[test][:, train]: the
    # scores are the linear kernel's on the features, and scikit-learn's.
    X, y = iris
    K = X @ X.T
    folds = list(StratifiedKFold(4, shuffle=True, random_state=3).split(X, y))
    grid = {"C": [0.01, 0.1, 1.0]}
    model = svmx.SVC(kernel="precomputed") if svmx_estimator else SVC(kernel="precomputed")
    ours = GridSearch(model, grid, cv=folds).fit(K, y)
    on_features = GridSearch(svmx.SVC(kernel="linear"), grid, cv=folds).fit(X, y)
    theirs = skms.GridSearchCV(SVC(kernel="precomputed"), grid, cv=folds).fit(K, y)
    assert not np.isnan(ours.cv_results_["mean_test_score"]).any()
    np.testing.assert_array_equal(ours.cv_results_["mean_test_score"],
                                  theirs.cv_results_["mean_test_score"])
    np.testing.assert_array_equal(ours.cv_results_["mean_test_score"],
                                  on_features.cv_results_["mean_test_score"])
    np.testing.assert_array_equal(ours.predict(K[:20]), theirs.predict(K[:20]))
    cross_validate = svmx.model_selection.cross_validate
    np.testing.assert_array_equal(
        cross_validate(model, K, y, cv=folds)["test_score"],
        cross_validate(svmx.SVC(kernel="linear"), X, y, cv=folds)["test_score"])


def test_precomputed_kernel_must_be_square(iris):
    X, y = iris
    with pytest.raises(ValueError, match="square kernel matrix"):
        GridSearch(svmx.SVC(kernel="precomputed"), {"C": [1.0]}, cv=3).fit(X[:, :3], y)


def test_search_delegates_to_the_best_estimator(iris):
    X, y = iris
    plain = GridSearch(svmx.SVC(), {"C": [1.0, 10.0]}, cv=3).fit(X, y)
    assert not hasattr(plain, "predict_proba") and hasattr(plain, "decision_function")
    search = GridSearch(svmx.SVC(probability=True, random_state=0), {"C": [1.0, 10.0]},
                        cv=3).fit(X, y)
    np.testing.assert_array_equal(search.predict_proba(X),
                                  search.best_estimator_.predict_proba(X))
    assert search.n_features_in_ == 4 and search.refit_time_ >= 0
    assert GridSearchCV is GridSearch
    assert "mean_score_time" in search.cv_results_ and "std_score_time" in search.cv_results_


def test_fit_params_and_groups(iris):
    X, y = iris
    weights = np.linspace(0.5, 2.0, len(y))
    groups = np.arange(len(y)) % 3
    cv = skms.GroupKFold(3)
    ours = GridSearch(svmx.SVC(), {"C": [0.5, 5.0]}, cv=cv).fit(
        X, y, groups=groups, sample_weight=weights)
    theirs = skms.GridSearchCV(svmx.SVC(), {"C": [0.5, 5.0]}, cv=cv).fit(
        X, y, groups=groups, sample_weight=weights)
    np.testing.assert_array_equal(ours.cv_results_["mean_test_score"],
                                  theirs.cv_results_["mean_test_score"])
    np.testing.assert_array_equal(ours.best_estimator_.dual_coef_,
                                  theirs.best_estimator_.dual_coef_)


def test_results_table(iris):
    X, y = iris
    search = GridSearch(SVC(kernel="linear"), {"C": [0.01, 1.0]}, cv=3).fit(X, y)
    results = search.cv_results_
    assert results["param_C"].tolist() == [0.01, 1.0]
    for key in ("split0_test_score", "split2_test_score", "std_test_score", "mean_fit_time"):
        assert len(results[key]) == 2
    assert "split3_test_score" not in results
    assert search.best_index_ == int(np.argmax(results["mean_test_score"]))
    assert search.score(X, y) == search.best_estimator_.score(X, y)


def test_parallel_search_is_identical(iris):
    X, y = iris
    one = GridSearch(SVC(), GRID, n_jobs=1).fit(X, y)
    two = GridSearch(SVC(), GRID, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.cv_results_["mean_test_score"],
                                  two.cv_results_["mean_test_score"])
    assert one.best_params_ == two.best_params_


def test_ties_go_to_the_first_candidate_and_share_a_rank(iris):
    X, y = iris
    search = GridSearch(SVC(), {"C": [1.0, 1.0, 1.0]}, scoring=lambda e, X_, y_: 0.5).fit(X, y)
    assert search.best_index_ == 0
    assert search.cv_results_["rank_test_score"].tolist() == [1, 1, 1]


def test_union_of_grids_and_missing_params():
    grids = [{"kernel": ["linear"], "C": [1, 2]}, {"kernel": ["rbf"], "gamma": [0.5]}]
    candidates = expand_grid(grids)
    assert candidates == [
        {"C": 1, "kernel": "linear"},
        {"C": 2, "kernel": "linear"},
        {"gamma": 0.5, "kernel": "rbf"},
    ]
    X, y = load_iris(return_X_y=True)
    search = GridSearch(SVC(), grids, cv=3).fit(X, y)
    assert search.cv_results_["param_gamma"].tolist() == [None, None, 0.5]
    assert search.cv_results_["param_gamma"].mask.tolist() == [True, True, False]
    assert expand_grid({}) == [{}]


def test_refit_false_has_no_best_estimator(iris):
    X, y = iris
    search = GridSearch(SVC(), {"C": [1.0]}, cv=3, refit=False).fit(X, y)
    assert not hasattr(search, "best_estimator_")
    with pytest.raises(AttributeError, match="refit"):
        search.predict(X)
    with pytest.raises(NotFittedError):
        GridSearch(SVC(), {"C": [1.0]}).predict(X)


def test_libsvm_grid_is_grid_py_default():
    grid = libsvm_grid()
    assert grid["C"] == [2.0**e for e in range(-5, 16, 2)]
    assert grid["gamma"] == [2.0**e for e in range(3, -16, -2)]
    assert libsvm_grid(log2c=(0, 1, 0.5))["C"] == [1.0, 2.0**0.5, 2.0]


def test_verbose_progress(iris, capsys):
    X, y = iris
    GridSearch(SVC(), {"C": [1.0, 2.0]}, cv=3, verbose=True).fit(X, y)
    assert capsys.readouterr().err.endswith("] 6/6\n")


def test_search_is_itself_cloneable(iris):
    from svmx.model_selection import clone, cross_validate

    X, y = iris
    search = GridSearch(SVC(), {"C": [0.5, 2.0]}, cv=3)
    assert clone(search).get_params()["param_grid"] == {"C": [0.5, 2.0]}
    nested = cross_validate(search, X, y, cv=3)
    assert nested["test_score"].mean() > 0.9


@pytest.mark.parametrize("name", ["SVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM"])
def test_works_with_every_svmx_estimator(iris, name):
    svmx = pytest.importorskip("svmx")
    if not hasattr(svmx, name):
        pytest.skip(f"svmx.{name} is not available in this build")
    X, y = iris
    estimator = getattr(svmx, name)()
    if name == "OneClassSVM":
        y = None
        scoring = lambda model, X_, y_: float(np.mean(model.predict(X_) == 1))  # noqa: E731
        grid = {"nu": [0.1, 0.5]}
    else:
        scoring = "accuracy" if name.endswith("SVC") else "r2"
        grid = {"gamma": [0.1, 1.0]}
    cv = KFold(3, shuffle=True, random_state=0)
    one = GridSearch(estimator, grid, cv=cv, scoring=scoring, n_jobs=1).fit(X, y)
    two = GridSearch(estimator, grid, cv=cv, scoring=scoring, n_jobs=2).fit(X, y)
    assert type(one.best_estimator_) is type(estimator)
    assert one.cv_results_["params"] == two.cv_results_["params"]
    if name.endswith("SVR"):
        return  # the protocol only: regression accuracy is for the estimators' own tests
    np.testing.assert_array_equal(one.cv_results_["mean_test_score"],
                                  two.cv_results_["mean_test_score"])
    assert one.best_score_ > 0.5


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: expand_grid("C"), TypeError, "param_grid"),
        (lambda: expand_grid([]), TypeError, "param_grid"),
        (lambda: expand_grid([["C"]]), TypeError, "param_grid"),
        (lambda: expand_grid({"C": 1.0}), TypeError, r"param_grid\['C'\]"),
        (lambda: expand_grid({"C": "abc"}), TypeError, r"param_grid\['C'\]"),
        (lambda: expand_grid({"C": []}), ValueError, r"param_grid\['C'\]"),
        (lambda: expand_grid({"C": {1.0, 10.0}}), TypeError, r"param_grid\['C'\].*1-D"),
        (lambda: expand_grid({"C": np.ones((2, 2))}), ValueError, r"param_grid\['C'\].*shape"),
        (lambda: expand_grid({1: [1.0]}), TypeError, "param_grid's keys"),
        (lambda: libsvm_grid(log2c=(0, 5, -1)), ValueError, "log2c"),
        (lambda: libsvm_grid(log2g=(0, 5, 0)), ValueError, "log2g"),
        (lambda: libsvm_grid(log2c=3), TypeError, "log2c"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"param_grid": {"nonsense": [1]}}, ValueError, "nonsense"),
        ({"estimator": "SVC"}, TypeError, "estimator"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"scoring": "auc"}, ValueError, "scoring"),
    ],
)
def test_bad_search_arguments(iris, kwargs, error, match):
    X, y = iris
    arguments = {"estimator": SVC(), "param_grid": {"C": [1.0]}, **kwargs}
    with pytest.raises(error, match=match):
        GridSearch(**arguments).fit(X, y)
