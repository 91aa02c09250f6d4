"""The transformers and GridSearch share svmx._estimator.BaseEstimator's protocol."""

import pickle

import numpy as np
import pytest

from svmx._estimator import BaseEstimator, TransformerMixin
from svmx.exceptions import NotFittedError
from svmx.model_selection import GridSearch, clone
from svmx.preprocessing import (
    MinMaxScaler,
    OneHotEncoder,
    StandardScaler,
    SupervisedDiscretizer,
    SvmScaler,
)

X = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0], [3.0, 0.0], [4.0, 4.0], [5.0, 5.0]])
y = np.array([0, 0, 0, 1, 1, 1])

TRANSFORMERS = [
    (StandardScaler(), X, None),
    (MinMaxScaler(feature_range=(0, 2)), X, None),
    (OneHotEncoder(handle_unknown="ignore", sparse_output=False), X.astype(int), None),
    (SupervisedDiscretizer(max_bins=3, criterion="variance"), X, y),
]
IDS = [type(t).__name__ for t, _, _ in TRANSFORMERS]


@pytest.mark.parametrize("transformer, data, target", TRANSFORMERS, ids=IDS)
def test_one_base_class(transformer, data, target):
    assert isinstance(transformer, BaseEstimator) and isinstance(transformer, TransformerMixin)
    assert isinstance(GridSearch(StandardScaler(), {}), BaseEstimator)


@pytest.mark.parametrize("transformer, data, target", TRANSFORMERS, ids=IDS)
def test_clone_gives_an_unfitted_copy_with_equal_params(transformer, data, target):
    fitted = clone(transformer).fit(data, target)
    copy = clone(fitted)
    assert copy.get_params() == transformer.get_params() and copy is not fitted
    assert not any(name.endswith("_") for name in vars(copy))


@pytest.mark.parametrize("transformer, data, target", TRANSFORMERS, ids=IDS)
def test_pickle_round_trip_transforms_the_same(transformer, data, target):
    fitted = clone(transformer).fit(data, target)
    restored = pickle.loads(pickle.dumps(fitted))
    assert restored.get_params() == fitted.get_params()
    assert not hasattr(restored, "_svmx_version")
    np.testing.assert_array_equal(restored.transform(data), fitted.transform(data))


@pytest.mark.parametrize("transformer, data, target", TRANSFORMERS, ids=IDS)
def test_fit_transform_is_fit_then_transform(transformer, data, target):
    once = clone(transformer).fit_transform(data, target)
    twice = clone(transformer).fit(data, target).transform(data)
    np.testing.assert_array_equal(once, twice)


@pytest.mark.parametrize("transformer, data, target", TRANSFORMERS, ids=IDS)
def test_set_params_and_not_fitted_messages(transformer, data, target):
    name = type(transformer).__name__
    copy = clone(transformer)
    params = copy.get_params()
    assert copy.set_params(**params) is copy and copy.get_params() == params
    with pytest.raises(ValueError, match=rf"Invalid parameter 'colour' for estimator {name}\("):
        copy.set_params(colour=1)
    with pytest.raises(NotFittedError, match=rf"This {name} instance is not fitted yet"):
        copy.transform(data)


def test_repr_shows_only_changed_parameters():
    assert repr(StandardScaler()) == "StandardScaler()"
    assert repr(MinMaxScaler()) == "MinMaxScaler()"
    assert repr(MinMaxScaler(feature_range=(0, 2))) == "MinMaxScaler(feature_range=(0, 2))"
    assert repr(OneHotEncoder(sparse_output=False)) == "OneHotEncoder(sparse_output=False)"
    assert repr(SupervisedDiscretizer(max_bins=3)) == "SupervisedDiscretizer(max_bins=3)"
    search = GridSearch(MinMaxScaler(), {"feature_range": [(0, 1)]}, cv=3)
    assert " ".join(repr(search).split()) == (  # scikit-learn's repr wraps long lines
        "GridSearch(cv=3, estimator=MinMaxScaler(), param_grid={'feature_range': [(0, 1)]})"
    )


def test_grid_search_clone_and_pickle():
    search = GridSearch(MinMaxScaler(), {"feature_range": [(0, 1)]}, n_jobs=1)
    copy = clone(search)
    assert copy.get_params()["n_jobs"] == 1 and copy.estimator is not search.estimator
    assert pickle.loads(pickle.dumps(search)).get_params().keys() == search.get_params().keys()
    assert not hasattr(search, "predict")  # a scaler does not predict, so its search does not
    with pytest.raises(NotFittedError, match="This GridSearch instance is not fitted yet"):
        search.transform(X)


def test_scikit_learn_sees_transformers():
    sklearn_base = pytest.importorskip("sklearn.base")
    pipeline = pytest.importorskip("sklearn.pipeline")
    scaler = MinMaxScaler(feature_range=(0, 2))
    assert sklearn_base.clone(scaler).get_params() == scaler.get_params()
    assert scaler.__sklearn_tags__().transformer_tags is not None
    assert SupervisedDiscretizer().__sklearn_tags__().target_tags.required
    steps = pipeline.make_pipeline(StandardScaler(), MinMaxScaler())
    np.testing.assert_allclose(steps.fit_transform(X).min(axis=0), [0.0, 0.0])  # (0, 1)


# SupervisedDiscretizer differs from scikit-learn's transformers by design: infinities fall
# in the outer bins, ordinal codes are int64, and it needs y (its message says so in its
# own words).
DISCRETIZER_BY_DESIGN = {"check_estimators_nan_inf", "check_transformer_preserve_dtypes",
                         "check_requires_y_none"}


@pytest.mark.parametrize("transformer, by_design", [
    (StandardScaler(), set()), (StandardScaler(with_mean=False), set()),
    (MinMaxScaler(), set()), (OneHotEncoder(), set()), (SvmScaler(), set()),
    (SupervisedDiscretizer(), DISCRETIZER_BY_DESIGN),
], ids=["StandardScaler", "StandardScaler-no-mean", "MinMaxScaler", "OneHotEncoder",
        "SvmScaler", "SupervisedDiscretizer"])
@pytest.mark.filterwarnings("ignore")  # the checks' own warnings (skipped array API checks)
def test_scikit_learns_estimator_checks(transformer, by_design):
    # Tags, messages and input checks as scikit-learn's transformers have them (a user
    # walk found sparse tags that the transformers refused, and complex input accepted).
    estimator_checks = pytest.importorskip("sklearn.utils.estimator_checks")
    results = estimator_checks.check_estimator(transformer, on_fail=None)
    failed = {result["check_name"] for result in results if result["status"] == "failed"}
    assert failed == by_design
