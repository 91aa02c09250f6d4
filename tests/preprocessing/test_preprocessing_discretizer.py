"""Supervised discretisation: known change points, limits, rules and errors."""

import numpy as np
import pytest

from svmx.exceptions import NotFittedError
from svmx.preprocessing import SplitMix64, SupervisedDiscretizer


def change_point_column(run=25):
    # Labels change at x = 25, 50 and 75 (values 0 .. 99, step 1).
    x = np.arange(4.0 * run)
    y = np.repeat(["low", "mid", "high", "mid"], run)
    return x, y


@pytest.mark.parametrize("criterion", ["entropy", "variance"])
def test_finds_the_change_points(criterion):
    x, y = change_point_column()
    order = SplitMix64(3).permutation(x.shape[0])  # row order must not matter
    X = np.column_stack([x[order], -x[order]])
    discretizer = SupervisedDiscretizer(criterion=criterion).fit(X, y[order])
    assert discretizer.cuts_[0].tolist() == [24.5, 49.5, 74.5]
    assert discretizer.cuts_[1].tolist() == [-74.5, -49.5, -24.5]
    assert discretizer.n_bins_.tolist() == [4, 4]
    bins = discretizer.transform(X)
    assert bins[:, 0].tolist() == (x[order] // 25).astype(int).tolist()


def test_cuts_sit_halfway_between_neighbouring_values():
    X = np.array([[0.0], [1.0], [3.0], [7.0], [8.0], [9.0]])
    y = [0, 0, 0, 1, 1, 1]
    discretizer = SupervisedDiscretizer(criterion="variance").fit(X, y)
    assert discretizer.cuts_[0].tolist() == [5.0]
    # a value equal to a cut belongs to the upper bin: lower <= x < upper
    assert discretizer.transform([[4.99], [5.0]]).ravel().tolist() == [0, 1]


def test_mdl_stops_on_labels_unrelated_to_the_values():
    rng = SplitMix64(0)
    x = np.arange(200.0).reshape(-1, 1)
    y = rng.bounded_many(np.full(200, 2)).astype(int)
    assert SupervisedDiscretizer().fit(x, y).cuts_[0].size == 0


def test_max_bins_keeps_the_most_useful_cuts():
    x = np.arange(100.0).reshape(-1, 1)
    y = np.repeat([0, 1, 0], [60, 30, 10])
    full = SupervisedDiscretizer(criterion="variance").fit(x, y)
    assert full.cuts_[0].tolist() == [59.5, 89.5]
    limited = SupervisedDiscretizer(criterion="variance", max_bins=2).fit(x, y)
    assert limited.cuts_[0].tolist() == [59.5]
    assert SupervisedDiscretizer(max_bins=1).fit(x, y).cuts_[0].size == 0


def test_min_samples_bin_limits_small_bins():
    x = np.arange(20.0).reshape(-1, 1)
    y = np.repeat([0, 1], [3, 17])
    assert SupervisedDiscretizer(criterion="variance").fit(x, y).cuts_[0].tolist() == [2.5]
    limited = SupervisedDiscretizer(criterion="variance", min_samples_bin=4).fit(x, y)
    assert limited.cuts_[0].tolist() == [3.5]
    assert np.all(limited.bin_counts_[0].sum(axis=1) >= 4)


def test_rules_describe_each_bin():
    X = np.array([[1.0], [2.0], [3.0], [4.0], [10.0], [11.0], [12.0], [13.0]])
    y = ["no", "no", "no", "yes", "yes", "yes", "yes", "yes"]
    discretizer = SupervisedDiscretizer(criterion="variance").fit(X, y)
    assert discretizer.rules(["age"]) == [
        "age: -inf <= x < 3.5 -> no (no: 1.00, yes: 0.00)",
        "age: 3.5 <= x < inf -> yes (no: 0.00, yes: 1.00)",
    ]
    limited = SupervisedDiscretizer(criterion="variance", max_bins=1).fit(X, y)
    assert limited.rules() == ["x0: -inf <= x < inf -> yes (no: 0.38, yes: 0.62)"]


def test_onehot_encoding_of_bins():
    x, y = change_point_column(run=25)
    X = np.column_stack([x, np.zeros_like(x)])
    discretizer = SupervisedDiscretizer(encode="onehot").fit(X, y)
    encoded = discretizer.transform([[30.0, 0.0], [-5.0, 1.0]])
    assert encoded.tolist() == [[0, 1, 0, 0, 1], [1, 0, 0, 0, 1]]


def test_infinite_values_fall_in_the_outer_bins():
    x, y = change_point_column()
    discretizer = SupervisedDiscretizer().fit(x.reshape(-1, 1), y)
    assert discretizer.transform([[-np.inf], [np.inf]]).ravel().tolist() == [0, 3]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: SupervisedDiscretizer(criterion="gini").fit([[1.0]], [0]),
            ValueError,
            "criterion",
        ),
        (lambda: SupervisedDiscretizer(encode="dense").fit([[1.0]], [0]), ValueError, "encode"),
        (lambda: SupervisedDiscretizer(max_bins=0).fit([[1.0]], [0]), ValueError, "max_bins"),
        (
            lambda: SupervisedDiscretizer(min_samples_bin=0).fit([[1.0]], [0]),
            ValueError,
            "min_samples_bin",
        ),
        (lambda: SupervisedDiscretizer().fit([1.0, 2.0], [0, 1]), ValueError, "X must be 2-D"),
        (lambda: SupervisedDiscretizer().fit([[1.0], [2.0]], [0]), ValueError, "y has 1"),
        (lambda: SupervisedDiscretizer().fit([[np.nan]], [0]), ValueError, "X must be finite"),
        (lambda: SupervisedDiscretizer().fit([[1.0]], []), ValueError, "y must not be empty"),
        (lambda: SupervisedDiscretizer().transform([[1.0]]), NotFittedError, "fit"),
        (
            lambda: SupervisedDiscretizer().fit([[1.0]], [0]).transform([[np.nan]]),
            ValueError,
            "X must not contain NaN",
        ),
        (
            lambda: SupervisedDiscretizer().fit([[1.0]], [0]).transform([[1.0, 2.0]]),
            ValueError,
            "X has 2 features",
        ),
        (
            lambda: SupervisedDiscretizer().fit([[1.0]], [0]).rules(["a", "b"]),
            ValueError,
            "feature_names",
        ),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
