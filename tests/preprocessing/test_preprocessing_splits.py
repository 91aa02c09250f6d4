"""Index splits: invariants as properties, fixed outputs, and argument errors."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from svmx.preprocessing import (
    SplitMix64,
    k_fold_indices,
    shuffled_indices,
    stratified_split,
    train_test_split,
)

seeds = st.integers(0, 2**64 - 1)
ratios = st.floats(0.0, 1.0)


def expected_test_size(n, ratio):
    size = round(n * ratio)
    return min(max(size, 1), n - 1) if n >= 2 else size


@given(st.integers(1, 300), seeds)
def test_shuffled_indices_is_a_reproducible_permutation(n, seed):
    order = shuffled_indices(n, seed)
    assert order.dtype == np.int64
    assert sorted(order.tolist()) == list(range(n))
    assert np.array_equal(order, shuffled_indices(n, seed))


@given(st.integers(1, 300), ratios, seeds)
def test_train_test_split_partitions_the_rows(n, ratio, seed):
    train, test = train_test_split(n, ratio, seed)
    assert sorted(np.concatenate([train, test]).tolist()) == list(range(n))
    assert len(test) == expected_test_size(n, ratio)
    if n >= 2:
        assert len(train) >= 1 and len(test) >= 1


def test_train_test_split_sizes_and_rounding():
    assert [len(s) for s in train_test_split(10, 0.25, 0)] == [8, 2]  # round(2.5) == 2
    assert [len(s) for s in train_test_split(10, 0.0, 0)] == [9, 1]
    assert [len(s) for s in train_test_split(10, 1.0, 0)] == [1, 9]
    assert [len(s) for s in train_test_split(1, 0.5, 0)] == [1, 0]


def test_train_test_split_uses_the_seeded_permutation():
    train, test = train_test_split(8, 0.25, seed=3)
    order = shuffled_indices(8, seed=3)
    assert test.tolist() == order[:2].tolist() and train.tolist() == order[2:].tolist()


def test_a_generator_can_be_shared_between_calls():
    rng = SplitMix64(5)
    first, second = shuffled_indices(10, rng), shuffled_indices(10, rng)
    assert not np.array_equal(first, second)
    replay = SplitMix64(5)
    assert np.array_equal(first, shuffled_indices(10, replay))


label_lists = st.lists(st.integers(0, 4), min_size=2, max_size=120).filter(
    lambda labels: max(labels.count(v) for v in set(labels)) >= 2
)


@given(label_lists, ratios, seeds)
def test_stratified_split_keeps_each_class_share(labels, ratio, seed):
    labels = np.array(labels)
    train, test = stratified_split(labels, ratio, seed)
    assert sorted(np.concatenate([train, test]).tolist()) == list(range(len(labels)))
    assert len(train) >= 1 and len(test) >= 1
    for label in np.unique(labels):
        n_class = int(np.sum(labels == label))
        in_test = int(np.sum(labels[test] == label))
        if n_class == 1:
            assert in_test == 0  # a single member trains
        else:
            assert in_test == expected_test_size(n_class, ratio)


def test_stratified_split_is_not_grouped_by_class():
    labels = np.repeat([0, 1, 2], 20)
    train, test = stratified_split(labels, 0.5, seed=0)
    for side in (train, test):
        side_labels = labels[side]
        assert not np.all(np.diff(side_labels) >= 0)  # not sorted by class
        assert np.bincount(side_labels).tolist() == [10, 10, 10]


def test_stratified_split_accepts_strings_and_is_reproducible():
    labels = ["b", "a", "b", "a", "b", "a", "c"]
    first = stratified_split(labels, 0.34, seed=9)
    second = stratified_split(labels, 0.34, seed=9)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    assert 6 in first[0]  # the single "c" trains


@given(st.integers(2, 200), st.data())
def test_k_folds_validate_every_row_once(n, data):
    k = data.draw(st.integers(2, min(n, 12)))
    seed = data.draw(st.one_of(st.none(), seeds))
    folds = k_fold_indices(n, k, seed)
    assert len(folds) == k
    validated = np.concatenate([validation for _, validation in folds])
    assert sorted(validated.tolist()) == list(range(n))
    sizes = [len(validation) for _, validation in folds]
    assert max(sizes) - min(sizes) <= 1
    for train, validation in folds:
        assert np.array_equal(np.sort(np.concatenate([train, validation])), np.arange(n))
        assert np.all(np.diff(train) > 0) and np.all(np.diff(validation) > 0)


def test_k_fold_without_seed_keeps_row_order():
    folds = k_fold_indices(7, 3, seed=None)
    assert [v.tolist() for _, v in folds] == [[0, 1, 2], [3, 4], [5, 6]]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: shuffled_indices(0, 1), ValueError, "n_samples"),
        (lambda: shuffled_indices(-3, 1), ValueError, "n_samples"),
        (lambda: shuffled_indices(2.0, 1), TypeError, "n_samples"),
        (lambda: shuffled_indices(True, 1), TypeError, "n_samples"),
        (lambda: shuffled_indices(3, 1.5), TypeError, "seed"),
        (lambda: train_test_split(0, 0.5, 1), ValueError, "n_samples"),
        (lambda: train_test_split(10, -0.1, 1), ValueError, "test_ratio"),
        (lambda: train_test_split(10, 1.5, 1), ValueError, "test_ratio"),
        (lambda: train_test_split(10, math.nan, 1), ValueError, "test_ratio"),
        (lambda: train_test_split(10, math.inf, 1), ValueError, "test_ratio"),
        (lambda: train_test_split(10, "0.5", 1), TypeError, "test_ratio"),
        (lambda: stratified_split([], 0.5, 1), ValueError, "labels"),
        (lambda: stratified_split([[0, 1], [1, 0]], 0.5, 1), ValueError, "labels"),
        (lambda: stratified_split([0, 1, 2], 0.5, 1), ValueError, "labels"),
        (lambda: stratified_split([0.0, math.nan, 0.0], 0.5, 1), ValueError, "labels"),
        (lambda: stratified_split([0, 0, 1, 1], 2.0, 1), ValueError, "test_ratio"),
        (lambda: k_fold_indices(0, 2, 1), ValueError, "n_samples"),
        (lambda: k_fold_indices(10, 1, 1), ValueError, "k"),
        (lambda: k_fold_indices(3, 4, 1), ValueError, "k must be at most n_samples"),
        (lambda: k_fold_indices(10, 2.0, 1), TypeError, "k"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
