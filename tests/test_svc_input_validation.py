"""Bad input to :class:`svmx.SVC` raises a clear error that names the offending parameter.

As in scikit-learn, parameters are stored untouched by ``__init__`` and checked by ``fit``.
Out-of-range values raise ``ValueError``; values of the wrong type may raise ``TypeError``
instead.
"""

import numpy as np
import pytest

from svmx import SVC
from svmx.exceptions import NotFittedError

N_SAMPLES, N_FEATURES = 30, 4


@pytest.fixture
def X():
    return np.random.default_rng(0).normal(size=(N_SAMPLES, N_FEATURES))


@pytest.fixture
def y():
    return np.arange(N_SAMPLES) % 2


@pytest.fixture
def fitted(X, y):
    return SVC().fit(X, y)


# --------------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------------

OUT_OF_RANGE_PARAMS = [
    ({"C": 0.0}, r"\bC\b"),
    ({"C": -1.0}, r"\bC\b"),
    ({"C": np.nan}, r"\bC\b"),
    ({"tol": 0.0}, r"\btol\b"),
    ({"tol": -1e-3}, r"\btol\b"),
    ({"cache_size": 0}, r"cache_size"),
    ({"cache_size": -200}, r"cache_size"),
    ({"kernel": "cubic"}, r"kernel"),
    ({"kernel": "RBF "}, r"kernel"),
    ({"gamma": -0.1}, r"gamma"),
    ({"gamma": "large"}, r"gamma"),
    ({"gamma": "Scale"}, r"gamma"),
    ({"kernel": "poly", "degree": -1}, r"degree"),
    ({"decision_function_shape": "ova"}, r"decision_function_shape"),
    ({"max_iter": -2}, r"max_iter"),
]


@pytest.mark.parametrize("params, match", OUT_OF_RANGE_PARAMS)
def test_out_of_range_parameter_raises_value_error_at_fit(params, match, X, y):
    with pytest.raises(ValueError, match=match):
        SVC(**params).fit(X, y)


WRONG_TYPE_PARAMS = [
    ({"C": "1.0"}, r"\bC\b"),
    ({"tol": None}, r"\btol\b"),
    ({"cache_size": "big"}, r"cache_size"),
    ({"kernel": 3}, r"kernel"),
    ({"gamma": None}, r"gamma"),
    ({"kernel": "poly", "degree": 2.5}, r"degree"),
    ({"class_weight": "uniform"}, r"class_weight"),
    ({"class_weight": [1.0, 2.0]}, r"class_weight"),
    ({"decision_function_shape": None}, r"decision_function_shape"),
    ({"break_ties": "yes"}, r"break_ties"),
    ({"max_iter": 1.5}, r"max_iter"),
]


@pytest.mark.parametrize("params, match", WRONG_TYPE_PARAMS)
def test_wrong_type_parameter_raises_at_fit(params, match, X, y):
    with pytest.raises((ValueError, TypeError), match=match):
        SVC(**params).fit(X, y)


@pytest.mark.parametrize("params", [params for params, _ in OUT_OF_RANGE_PARAMS])
def test_constructor_stores_parameters_without_validating(params):
    model = SVC(**params)
    stored = model.get_params()
    for name, value in params.items():
        assert stored[name] is value


def test_class_weight_naming_an_absent_class(X, y):
    with pytest.raises(ValueError, match=r"class_weight"):
        SVC(class_weight={0: 1.0, 1: 2.0, 5: 3.0}).fit(X, y)


def test_break_ties_with_ovo_shape(X, y):
    model = SVC(break_ties=True, decision_function_shape="ovo")
    # scikit-learn reports this at predict; raising at fit is just as good.
    with pytest.raises(ValueError, match=r"break_ties"):
        model.fit(X, y).predict(X)


# --------------------------------------------------------------------------------------------
# Training data
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad_value", [np.nan, np.inf, -np.inf])
def test_non_finite_X_at_fit(bad_value, X, y):
    X[3, 2] = bad_value
    with pytest.raises(ValueError, match=r"\bX\b"):
        SVC().fit(X, y)


@pytest.mark.parametrize("bad_value", [np.nan, np.inf])
def test_non_finite_X_at_predict(bad_value, fitted, X):
    X[0, 0] = bad_value
    for method in (fitted.predict, fitted.decision_function):
        with pytest.raises(ValueError, match=r"\bX\b"):
            method(X)


def test_nan_in_y(X):
    y = np.where(np.arange(N_SAMPLES) % 2 == 0, 1.0, -1.0)
    y[4] = np.nan
    with pytest.raises(ValueError, match=r"\by\b"):
        SVC().fit(X, y)


@pytest.mark.parametrize("n_labels", [N_SAMPLES - 1, N_SAMPLES + 1])
def test_X_and_y_of_different_lengths(n_labels, X):
    y = np.arange(n_labels) % 2
    with pytest.raises(ValueError, match=r"\bX\b.*\by\b|\by\b.*\bX\b"):
        SVC().fit(X, y)


def test_fewer_than_two_classes(X):
    with pytest.raises(ValueError, match=r"\by\b|class"):
        SVC().fit(X, np.zeros(N_SAMPLES))


@pytest.mark.parametrize("shape", [(0, N_FEATURES), (N_SAMPLES, 0)])
def test_empty_X(shape):
    with pytest.raises(ValueError, match=r"\bX\b"):
        SVC().fit(np.empty(shape), np.arange(shape[0]) % 2)


def test_one_dimensional_X(y):
    with pytest.raises(ValueError, match=r"\bX\b"):
        SVC().fit(np.linspace(0.0, 1.0, N_SAMPLES), y)


# --------------------------------------------------------------------------------------------
# Sample weights
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [N_SAMPLES - 1, N_SAMPLES + 1])
def test_sample_weight_of_wrong_length(length, X, y):
    with pytest.raises(ValueError, match=r"sample_weight"):
        SVC().fit(X, y, sample_weight=np.ones(length))


def test_negative_sample_weight_leaves_the_sample_out(X, y):
    # As scikit-learn: a sample of negative weight is masked, as one of weight 0.
    sample_weight = np.ones(N_SAMPLES)
    sample_weight[5] = -0.5
    masked = SVC().fit(X, y, sample_weight=sample_weight)
    sample_weight[5] = 0.0
    zero = SVC().fit(X, y, sample_weight=sample_weight)
    assert 5 not in masked.support_
    np.testing.assert_array_equal(masked.support_, zero.support_)
    np.testing.assert_array_equal(masked.dual_coef_, zero.dual_coef_)


def test_all_zero_sample_weight(X, y):
    with pytest.raises(ValueError, match=r"all samples have zero or negative weights"):
        SVC().fit(X, y, sample_weight=np.zeros(N_SAMPLES))


def test_non_finite_sample_weight(X, y):
    sample_weight = np.ones(N_SAMPLES)
    sample_weight[2] = np.nan
    with pytest.raises(ValueError, match=r"sample_weight"):
        SVC().fit(X, y, sample_weight=sample_weight)


# --------------------------------------------------------------------------------------------
# Prediction
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_features", [N_FEATURES - 1, N_FEATURES + 1])
def test_predict_with_the_wrong_number_of_features(n_features, fitted):
    X_wrong = np.zeros((5, n_features))
    for method in (fitted.predict, fitted.decision_function):
        with pytest.raises(ValueError, match=r"\bX\b"):
            method(X_wrong)


def test_precomputed_gram_must_be_square_at_fit(X, y):
    with pytest.raises(ValueError, match=r"\bX\b|square|precomputed"):
        SVC(kernel="precomputed").fit(X @ X[:10].T, y)


@pytest.mark.parametrize("width", [N_SAMPLES - 1, N_SAMPLES + 1])
def test_precomputed_gram_of_wrong_width_at_predict(width, X, y):
    model = SVC(kernel="precomputed").fit(X @ X.T, y)
    gram_test = np.zeros((3, width))
    for method in (model.predict, model.decision_function):
        with pytest.raises(ValueError, match=r"\bX\b"):
            method(gram_test)


@pytest.mark.parametrize("method", ["predict", "decision_function"])
def test_use_before_fit_raises_not_fitted_error(method, X):
    with pytest.raises(NotFittedError):
        getattr(SVC(), method)(X)


def test_not_fitted_error_is_a_value_error_and_an_attribute_error():
    assert issubclass(NotFittedError, ValueError)
    assert issubclass(NotFittedError, AttributeError)
