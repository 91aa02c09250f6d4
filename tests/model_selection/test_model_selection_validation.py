"""cross_validate, scorers, cloning and the progress bar."""

import io
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import metrics
from sklearn import model_selection as skms
from sklearn.datasets import load_iris, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmx._progress import ProgressBar
from svmx.model_selection import KFold, StratifiedKFold, clone, cross_validate


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def test_matches_sklearn_cross_val_score_on_the_same_folds(iris):
    X, y = iris
    folds = list(KFold(5, shuffle=True, random_state=4).split(X))
    estimator = SVC(C=3.0, gamma=0.1)
    ours = cross_validate(estimator, X, y, cv=folds)
    theirs = skms.cross_val_score(estimator, X, y, cv=folds)
    np.testing.assert_array_equal(ours["test_score"], theirs)
    assert ours["fit_time"].shape == (5,) and np.all(ours["fit_time"] >= 0)
    assert ours["score_time"].shape == (5,)
    assert not hasattr(estimator, "support_")  # the original stays unfitted


def test_classifiers_get_stratified_folds(iris):
    X, y = iris
    result = cross_validate(SVC(kernel="linear"), X, y, cv=5)
    assert len(result["test_score"]) == 5 and result["test_score"].min() > 0.85


@pytest.mark.parametrize(
    "scoring, metric",
    [
        ("neg_mean_squared_error", lambda t, p: -metrics.mean_squared_error(t, p)),
        ("r2", metrics.r2_score),
    ],
)
def test_regression_scorers_match_sklearn(scoring, metric):
    X, y = make_regression(n_samples=60, n_features=4, noise=5.0, random_state=0)
    folds = list(KFold(3).split(X))
    result = cross_validate(Ridge(), X, y, cv=folds, scoring=scoring)
    expected = [metric(y[te], Ridge().fit(X[tr], y[tr]).predict(X[te])) for tr, te in folds]
    np.testing.assert_allclose(result["test_score"], expected)


def test_accuracy_and_callable_scorers(iris):
    X, y = iris
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    accuracy = cross_validate(SVC(), X, y, cv=folds, scoring="accuracy")
    default = cross_validate(SVC(), X, y, cv=folds)
    np.testing.assert_array_equal(accuracy["test_score"], default["test_score"])
    custom = cross_validate(SVC(), X, y, cv=folds, scoring=lambda est, X_, y_: len(y_))
    assert custom["test_score"].tolist() == [50.0, 50.0, 50.0]


def test_sparse_input_matches_dense(iris):
    X, y = iris
    dense = cross_validate(SVC(), X, y, cv=4)
    for matrix in (sp.csr_matrix(X), sp.coo_matrix(X)):
        sparse = cross_validate(SVC(), matrix, y, cv=4)
        np.testing.assert_allclose(sparse["test_score"], dense["test_score"])


def test_parallel_jobs_give_identical_scores(iris):
    X, y = iris
    one = cross_validate(SVC(), X, y, cv=5, n_jobs=1)
    two = cross_validate(SVC(), X, y, cv=5, n_jobs=2)
    np.testing.assert_array_equal(one["test_score"], two["test_score"])


@pytest.mark.parametrize("scoring", [None, "accuracy", ["accuracy", "f1_macro"],
                                     {"acc": "accuracy", "bal": "balanced_accuracy"}])
def test_returns_sklearn_dict_of_arrays(iris, scoring):
    X, y = iris
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    options = {"scoring": scoring, "cv": cv, "return_train_score": True,
               "return_estimator": True, "return_indices": True}
    ours = cross_validate(SVC(), X, y, **options)
    theirs = skms.cross_validate(SVC(), X, y, **options)
    assert list(ours) == list(theirs)
    for key in theirs:
        if key.startswith(("test_", "train_")):
            np.testing.assert_array_equal(ours[key], theirs[key])
            assert ours[key].dtype == theirs[key].dtype
    assert ours["fit_time"].shape == theirs["fit_time"].shape
    for side in ("train", "test"):
        for mine, other in zip(ours["indices"][side], theirs["indices"][side], strict=True):
            np.testing.assert_array_equal(mine, other)
    assert [type(model) for model in ours["estimator"]] == [SVC] * 4
    assert all(hasattr(model, "support_") for model in ours["estimator"])


def test_fit_params_are_cut_to_each_training_fold(iris):
    X, y = iris
    weights = np.linspace(0.1, 3.0, len(y))
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    ours = cross_validate(SVC(), X, y, cv=folds, params={"sample_weight": weights})
    expected = [SVC().fit(X[tr], y[tr], sample_weight=weights[tr]).score(X[te], y[te])
                for tr, te in folds]
    np.testing.assert_array_equal(ours["test_score"], expected)
    unweighted = cross_validate(SVC(), X, y, cv=folds)
    assert not np.array_equal(unweighted["test_score"], ours["test_score"]) or np.array_equal(
        unweighted["test_score"], expected)


def test_groups_go_to_the_splitter(iris):
    X, y = iris
    groups = np.arange(len(y)) % 3
    result = cross_validate(SVC(), X, y, cv=skms.GroupKFold(3), groups=groups,
                            return_indices=True)
    for test in result["indices"]["test"]:
        assert len(np.unique(groups[test])) == 1


def test_failed_fits_score_error_score_with_a_warning(iris):
    from svmx.exceptions import FitFailedWarning

    X, y = iris
    folds = [(np.flatnonzero(y == 0), np.flatnonzero(y != 0)),  # one class: SVC refuses it
             (np.arange(0, 150, 2), np.arange(1, 150, 2))]
    with pytest.warns(FitFailedWarning, match="1 fits failed out of a total of 2"):
        result = cross_validate(SVC(), X, y, cv=folds)
    assert np.isnan(result["test_score"][0]) and result["test_score"][1] > 0.9
    with pytest.warns(FitFailedWarning):
        assert cross_validate(SVC(), X, y, cv=folds, error_score=-1.0)["test_score"][0] == -1.0
    with pytest.raises(ValueError):
        cross_validate(SVC(), X, y, cv=folds, error_score="raise")
    with pytest.raises(ValueError, match="All the 1 fits failed"):
        cross_validate(SVC(), X, y, cv=folds[:1])


def test_verbose_draws_a_progress_bar(iris, capsys):
    X, y = iris
    cross_validate(SVC(), X, y, cv=3, verbose=True)
    err = capsys.readouterr().err
    assert "cross_validate [" in err and err.endswith("3/3\n")
    cross_validate(SVC(), X, y, cv=3)
    assert capsys.readouterr().err == ""


def test_progress_bar_draws_in_place():
    stream = io.StringIO()
    now = [0.0]
    with ProgressBar(3, "work", stream=stream, width=3, terminal=True,
                     clock=lambda: now[0]) as bar:
        bar.update()  # within the first quarter second: not drawn
        now[0] = 1.0
        bar.update(5)  # clipped at the total
    assert stream.getvalue() == "\rwork [###] 3/3\n"
    silent = io.StringIO()
    with ProgressBar(3, stream=silent, enabled=False) as bar:
        bar.update()
    assert silent.getvalue() == ""


def test_clone_makes_unfitted_independent_copies(iris):
    X, y = iris
    fitted = LogisticRegression(C=0.5, max_iter=500).fit(X, y)
    copy = clone(fitted)
    assert copy.C == 0.5 and not hasattr(copy, "coef_")
    pipeline = make_pipeline(StandardScaler(), SVC(C=2.0)).fit(X, y)
    copied = clone(pipeline)
    assert copied.steps[1][1].C == 2.0
    assert copied.steps[1][1] is not pipeline.steps[1][1]
    assert not hasattr(copied.steps[1][1], "support_")


def test_unsupervised_fit_without_y():
    X = np.arange(12.0).reshape(6, 2)
    result = cross_validate(StandardScaler(), X, cv=3, scoring=lambda est, X_, y_: y_ is None)
    assert result["test_score"].tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"scoring": "f9"}, ValueError, "scoring"),
        ({"scoring": []}, ValueError, "scoring"),
        ({"scoring": ["accuracy", "accuracy"]}, ValueError, "unique"),
        ({"error_score": "ignore"}, ValueError, "error_score"),
        ({"scoring": 3}, TypeError, "scoring"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"n_jobs": 1.5}, TypeError, "n_jobs"),
        ({"cv": "five"}, TypeError, "cv"),
        ({"y": [0, 1]}, ValueError, "y has 2 rows"),
        ({"X": np.empty((0, 2)), "y": []}, ValueError, "X must not be empty"),
        ({"estimator": object()}, TypeError, "estimator"),
        ({"estimator": SVC}, TypeError, "estimator"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    arguments = {"estimator": SVC(), "X": np.zeros((6, 2)), "y": [0, 1] * 3, **kwargs}
    with pytest.raises(error, match=match):
        cross_validate(**arguments)


def test_score_needs_a_score_method():
    class NoScore:
        def get_params(self, deep=True):
            return {}

    with pytest.raises(TypeError, match="scoring=None"):
        cross_validate(NoScore(), np.zeros((4, 1)), [0, 1, 0, 1], cv=2)


def test_runs_sequentially_without_joblib(iris, monkeypatch, capsys):
    from svmx.model_selection import _parallel

    X, y = iris
    expected = cross_validate(SVC(), X, y, cv=3)["test_score"]
    monkeypatch.setattr(_parallel, "joblib", None)
    result = cross_validate(SVC(), X, y, cv=3, n_jobs=2, verbose=True)
    np.testing.assert_array_equal(result["test_score"], expected)
    assert capsys.readouterr().err.endswith("3/3\n")


@pytest.mark.parametrize("share_kernels", [True, False])
@pytest.mark.parametrize("scoring", [None, "accuracy", "balanced_accuracy"])
def test_a_column_vector_y_scores_as_its_column(share_kernels, scoring):
    from sklearn.datasets import load_iris

    import svmx
    from svmx.model_selection import GridSearch, cross_validate

    X, y = load_iris(return_X_y=True)
    grid = {"C": [0.1, 10.0], "gamma": [0.1, 1.0]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fits' DataConversionWarning
        column = cross_validate(svmx.SVC(), X, y[:, None], cv=3, scoring=scoring,
                                share_kernels=share_kernels)["test_score"]
        search = GridSearch(svmx.SVC(), grid, cv=3, scoring=scoring,
                            share_kernels=share_kernels).fit(X, y[:, None])
    np.testing.assert_array_equal(column, cross_validate(
        svmx.SVC(), X, y, cv=3, scoring=scoring, share_kernels=share_kernels)["test_score"])
    assert column.min() > 0.9
    np.testing.assert_array_equal(
        search.cv_results_["mean_test_score"],
        GridSearch(svmx.SVC(), grid, cv=3, scoring=scoring,
                   share_kernels=share_kernels).fit(X, y).cv_results_["mean_test_score"])


@pytest.mark.parametrize("name", ["accuracy", "balanced_accuracy", "neg_mean_squared_error",
                                  "neg_mean_absolute_error", "r2"])
def test_builtin_scorers_read_a_column_vector_y_as_its_column(name):
    # The scorers svmx serves without scikit-learn.
    from svmx import SVC
    from svmx.model_selection._scoring import SCORERS

    X, y = load_iris(return_X_y=True)
    model = SVC().fit(X, y)
    assert SCORERS[name](model, X, y[:, None]) == SCORERS[name](model, X, y)
