"""The argument checks of svmx._validation shared with the preprocessing helpers."""

import numpy as np
import pytest
import scipy.sparse as sp

import svmx._estimator
import svmx._validation
from svmx._validation import (
    check_fitted,
    check_int,
    check_labels,
    check_matrix,
    check_n_features,
    check_ratio,
    validate_X,
)
from svmx.exceptions import NotFittedError


def test_available_if_is_reexported_from_the_estimator_module():
    assert svmx._validation.available_if is svmx._estimator.available_if


def test_check_int_and_ratio_accept_numpy_scalars():
    assert check_int(np.int64(4), "k", minimum=2) == 4 and type(check_int(np.int64(4), "k")) is int
    assert check_ratio(np.float32(0.5), "test_ratio") == 0.5


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: check_int(True, "k"), TypeError, "k must be an integer, got bool"),
        (lambda: check_int(np.bool_(True), "k"), TypeError, "k must be an integer, got bool"),
        (lambda: check_int(2.0, "k"), TypeError, "k must be an integer, got float"),
        (lambda: check_int(1, "k", minimum=2), ValueError, "k must be at least 2, got 1"),
        (lambda: check_ratio("0.5", "r"), TypeError, "r must be a real number, got str"),
        (lambda: check_ratio(1.5, "r"), ValueError, r"r must be a finite number in \[0, 1\]"),
        (lambda: check_ratio(np.nan, "r"), ValueError, "r must be a finite number"),
        (lambda: check_labels([[0, 1]], "y"), ValueError, r"y must be 1-D, got .* \(1, 2\)"),
        (lambda: check_labels([], "y"), ValueError, "y must not be empty"),
        (lambda: check_labels([0.0, np.nan], "y"), ValueError, "y must not contain NaN"),
        (lambda: check_matrix([1.0], "data"), ValueError, "data must be 2-D"),
        (lambda: check_matrix(np.empty((0, 2))), ValueError, "X must not be empty"),
        (lambda: check_matrix([["a"]]), TypeError, "X must be an array of numbers"),
        (lambda: check_matrix(sp.eye(2, format="csr")), TypeError, "X must be a dense array"),
        (
            lambda: check_n_features(np.zeros((1, 3)), 2, owner="MinMaxScaler"),
            ValueError,
            "X has 3 features, but MinMaxScaler is expecting 2 features as input",
        ),
        (
            lambda: validate_X(np.zeros((1, 3)), n_features=2, owner="SVC"),
            ValueError,
            "X has 3 features, but SVC is expecting 2 features as input",
        ),
        (
            lambda: validate_X(sp.csr_matrix(np.ones((1, 3))), n_features=2, accept_sparse=True),
            ValueError,
            "X has 3 features, but the model is expecting 2 features as input",
        ),
        (lambda: check_fitted(object(), "cuts_"), NotFittedError, "This object instance"),
    ],
)
def test_messages_name_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_check_matrix_keeps_non_finite_values():
    array = check_matrix([[np.nan, np.inf]])
    assert array.dtype == np.float64 and np.isnan(array[0, 0]) and np.isinf(array[0, 1])
