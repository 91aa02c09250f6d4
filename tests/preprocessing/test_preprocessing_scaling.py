"""svmx's scaling functions (exact values, NaN/inf pass-through) and the estimators' round
trips; scikit-learn parity of the estimators is in test_preprocessing_scalers_sklearn.py."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from svmx.exceptions import NotFittedError
from svmx.preprocessing import (
    MinMaxScaler,
    Scaler,
    StandardScaler,
    apply_scaler,
    min_max_scale,
    standardize,
)

X_WITH_GAPS = np.array(
    [
        [1.0, 10.0, 7.0, np.nan],
        [2.0, np.nan, 7.0, np.nan],
        [np.nan, 30.0, 7.0, np.nan],
        [4.0, np.inf, 7.0, np.nan],
        [-np.inf, 20.0, 7.0, np.nan],
    ]
)


def test_standardize_exact_values():
    scaled, scaler = standardize([[1.0, 0.0], [3.0, 0.0]])
    assert scaled.tolist() == [[-1.0, 0.0], [1.0, 0.0]]
    assert scaler.center.tolist() == [2.0, 0.0] and scaler.scale.tolist() == [1.0, 1.0]


def test_statistics_ignore_nan_and_infinity():
    scaled, scaler = standardize(X_WITH_GAPS)
    finite_first = np.array([1.0, 2.0, 4.0])
    assert scaler.center[0] == pytest.approx(finite_first.mean())
    assert scaler.scale[0] == pytest.approx(finite_first.std())
    assert scaler.center[1] == pytest.approx(20.0)
    # constant column and all-NaN column: scale 1
    assert scaler.scale[2:].tolist() == [1.0, 1.0]
    assert scaled[:, 2].tolist() == [0.0] * 5
    non_finite = ~np.isfinite(X_WITH_GAPS)
    np.testing.assert_array_equal(scaled[non_finite], X_WITH_GAPS[non_finite])


def test_min_max_exact_values_and_constant_column():
    scaled, scaler = min_max_scale(X_WITH_GAPS, feature_range=(0.0, 1.0))
    np.testing.assert_allclose(scaled[:, 0], [0.0, 1 / 3, np.nan, 1.0, -np.inf])
    np.testing.assert_allclose(scaled[:, 1], [0.0, np.nan, 1.0, np.inf, 0.5])
    assert scaled[:, 2].tolist() == [0.0] * 5  # a constant column maps to the lower bound
    assert scaler.scale[2] == 1.0


def test_min_max_scale_default_is_svm_scale_interval_but_the_estimator_is_sklearns():
    scaled, _ = min_max_scale([[0.0], [4.0], [2.0]])
    assert scaled.ravel().tolist() == [-1.0, 1.0, 0.0]
    assert MinMaxScaler().feature_range == (0, 1)


X_WITH_NAN = np.where(np.isinf(X_WITH_GAPS), np.nan, X_WITH_GAPS)


@pytest.mark.parametrize("estimator", [StandardScaler(), MinMaxScaler(), MinMaxScaler((2, 5))])
def test_round_trip_with_nan_present(estimator):
    scaled = estimator.fit_transform(X_WITH_NAN)
    back = estimator.inverse_transform(scaled)
    np.testing.assert_allclose(back, X_WITH_NAN, rtol=1e-12)  # NaN positions compared too


def test_estimators_refuse_infinity_as_scikit_learn():
    for estimator in (StandardScaler(), MinMaxScaler()):
        with pytest.raises(ValueError, match="infinity"):
            estimator.fit(X_WITH_GAPS)


finite_matrices = arrays(
    np.float64,
    st.tuples(st.integers(1, 12), st.integers(1, 4)),
    elements=st.one_of(st.floats(-1e6, 1e6), st.just(np.nan)),
)


@given(finite_matrices)
def test_round_trip_property(X):
    for estimator in (StandardScaler(), MinMaxScaler()):
        back = estimator.inverse_transform(estimator.fit_transform(X))
        np.testing.assert_allclose(back, X, rtol=1e-9, atol=1e-6)


def test_apply_scaler_replays_the_fit_on_new_rows():
    train = np.array([[0.0, 1.0], [4.0, 3.0]])
    _, scaler = standardize(train)
    new = np.array([[2.0, 5.0], [np.nan, np.inf]])
    expected = np.array([[0.0, 3.0], [np.nan, np.inf]])
    np.testing.assert_array_equal(apply_scaler(new, scaler), expected)
    # The estimator refuses infinity (as scikit-learn's); the finite and NaN rows agree.
    np.testing.assert_array_equal(StandardScaler().fit(train).transform(new[:1]), expected[:1])
    assert isinstance(scaler, Scaler)


def test_functions_agree_with_the_estimators_on_nan_data():
    skp = pytest.importorskip("sklearn.preprocessing")
    X = X_WITH_NAN[:, :3]
    np.testing.assert_allclose(standardize(X)[0], StandardScaler().fit_transform(X))
    np.testing.assert_allclose(standardize(X)[0], skp.StandardScaler().fit_transform(X))
    ours = min_max_scale(X, feature_range=(0, 1))[0]
    np.testing.assert_allclose(ours, MinMaxScaler().fit_transform(X), atol=1e-15)


def test_estimator_attributes_and_params():
    scaler = MinMaxScaler(feature_range=(0, 2)).fit([[1.0], [3.0]])
    assert scaler.data_min_.tolist() == [1.0] and scaler.data_max_.tolist() == [3.0]
    assert scaler.n_features_in_ == 1
    assert scaler.get_params() == {"clip": False, "copy": True, "feature_range": (0, 2)}
    assert scaler.set_params(feature_range=(0, 1)) is scaler
    assert repr(StandardScaler()) == "StandardScaler()"
    assert repr(StandardScaler(with_mean=False)) == "StandardScaler(with_mean=False)"
    with pytest.raises(ValueError, match="Invalid parameter 'center'"):
        scaler.set_params(center=False)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: standardize([1.0, 2.0]), ValueError, "X must be 2-D"),
        (lambda: standardize(np.empty((0, 3))), ValueError, "X must not be empty"),
        (lambda: min_max_scale([["a"]]), TypeError, "X"),
        (lambda: min_max_scale([[1.0]], feature_range=(1, 1)), ValueError, "feature_range"),
        (lambda: min_max_scale([[1.0]], feature_range=3), TypeError, "feature_range"),
        (lambda: apply_scaler([[1.0]], (0, 1)), TypeError, "scaler"),
        (
            lambda: apply_scaler([[1.0]], Scaler(np.zeros(2), np.ones(2))),
            ValueError,
            "X has 1 features",
        ),
        (lambda: StandardScaler().fit([[1.0], [2.0]]).transform([1.0]), ValueError, "X"),
        (lambda: StandardScaler().transform([[1.0]]), NotFittedError, "fit"),
        (lambda: MinMaxScaler((3, 1)).fit([[1.0]]), ValueError, "feature_range"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
