"""Search and cross-validation edge cases found by a scikit-learn user's walk: estimator
values in the grid are copied, failing scorers give error_score, empty CV iterators and
multilabel targets are handled as scikit-learn handles them."""

import warnings

import joblib
import numpy as np
import pytest

import svmx
from svmx.model_selection import (
    GridSearch,
    KFold,
    StratifiedKFold,
    check_cv,
    cross_validate,
)

pytest.importorskip("sklearn")
from sklearn.datasets import make_classification, make_multilabel_classification  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402

X, Y = make_classification(120, 6, random_state=0)


def test_estimators_in_the_grid_are_copied_not_fitted_in_place():
    given = [svmx.SVC(C=0.1), svmx.SVC(C=10.0, kernel="linear")]
    search = GridSearch(Pipeline([("m", svmx.SVC())]), {"m": given}, cv=3).fit(X, Y)
    assert not any(hasattr(model, "support_") for model in given)
    assert search.best_estimator_.named_steps["m"] is not given[search.best_index_]
    # Threads fitting one shared object failed every fit (NaN scores) before.
    with joblib.parallel_backend("threading", n_jobs=2):
        threaded = GridSearch(Pipeline([("m", svmx.SVC())]), {"m": given}, cv=3).fit(X, Y)
    np.testing.assert_array_equal(threaded.cv_results_["mean_test_score"],
                                  search.cv_results_["mean_test_score"])
    assert np.isfinite(threaded.cv_results_["mean_test_score"]).all()


def _warned(run):
    """run()'s result and the texts of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run()
    return result, [str(warning.message) for warning in caught]


@pytest.mark.parametrize("share_kernels", [True, False])
def test_a_failing_scorer_scores_error_score_with_a_warning(share_kernels):
    # SVC without probability=True has no predict_proba: neg_log_loss cannot score it.
    search, texts = _warned(lambda: GridSearch(
        svmx.SVC(), {"C": [0.1, 1.0]}, scoring="neg_log_loss", cv=3,
        share_kernels=share_kernels).fit(X, Y))
    assert np.isnan(search.cv_results_["mean_test_score"]).all()
    assert any(text.startswith("Scoring failed") for text in texts)
    scores, texts = _warned(lambda: cross_validate(
        svmx.SVC(), X, Y, cv=3, error_score=-1.0,
        scoring={"acc": "accuracy", "loss": "neg_log_loss"}))
    assert (scores["test_loss"] == -1.0).all() and (scores["test_acc"] > 0.5).all()
    assert any(text.startswith("Scoring failed") for text in texts)
    with pytest.raises(AttributeError, match="predict_proba"):
        cross_validate(svmx.SVC(), X, Y, cv=3, scoring="neg_log_loss", error_score="raise")


@pytest.mark.parametrize("run", [
    lambda: GridSearch(svmx.SVC(), {"C": [1.0]}, cv=[]).fit(X, Y),
    lambda: cross_validate(svmx.SVC(), X, Y, cv=[]),
])
def test_an_empty_cv_iterator_is_a_clear_error(run):
    with pytest.raises(ValueError, match="No fits were performed"):
        run()


def test_check_cv_stratifies_only_class_labels():
    assert isinstance(check_cv(3, [0, 1, 0, 1, 1, 0], classifier=True), StratifiedKFold)
    assert isinstance(check_cv(3, ["a", "b", "a"], classifier=True), StratifiedKFold)
    assert isinstance(check_cv(3, [0.0, 1.0, 2.0], classifier=True), StratifiedKFold)
    assert isinstance(check_cv(3, [0.5, 1.0, 2.0], classifier=True), KFold)
    multilabel = make_multilabel_classification(30, 4, random_state=0)[1]
    assert isinstance(check_cv(3, multilabel, classifier=True), KFold)
    assert isinstance(check_cv(3, [0, 1, 0], classifier=False), KFold)


def test_a_multilabel_classifier_is_searched_with_an_int_cv():
    X_ml, Y_ml = make_multilabel_classification(90, 5, random_state=0)
    search = GridSearch(KNeighborsClassifier(), {"n_neighbors": [3, 5]}, cv=3).fit(X_ml, Y_ml)
    assert search.best_params_ == {"n_neighbors": 5}  # scikit-learn's GridSearchCV's choice


def test_score_without_refit_names_score():
    search = GridSearch(svmx.SVC(), {"C": [0.1, 1.0]}, scoring="accuracy", cv=3,
                        refit=False).fit(X, Y)
    with pytest.raises(AttributeError, match="score is available only after refitting"):
        search.score(X, Y)
