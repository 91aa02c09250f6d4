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
    shuffled_split_indices,
    stratified_split,
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
    train, test = shuffled_split_indices(n, ratio, seed)
    assert sorted(np.concatenate([train, test]).tolist()) == list(range(n))
    assert len(test) == expected_test_size(n, ratio)
    if n >= 2:
        assert len(train) >= 1 and len(test) >= 1


def test_train_test_split_sizes_and_rounding():
    assert [len(s) for s in shuffled_split_indices(10, 0.25, 0)] == [8, 2]  # round(2.5) == 2
    assert [len(s) for s in shuffled_split_indices(10, 0.0, 0)] == [9, 1]
    assert [len(s) for s in shuffled_split_indices(10, 1.0, 0)] == [1, 9]
    assert [len(s) for s in shuffled_split_indices(1, 0.5, 0)] == [1, 0]


def test_train_test_split_uses_the_seeded_permutation():
    train, test = shuffled_split_indices(8, 0.25, seed=3)
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
        (lambda: shuffled_split_indices(0, 0.5, 1), ValueError, "n_samples"),
        (lambda: shuffled_split_indices(10, -0.1, 1), ValueError, "test_ratio"),
        (lambda: shuffled_split_indices(10, 1.5, 1), ValueError, "test_ratio"),
        (lambda: shuffled_split_indices(10, math.nan, 1), ValueError, "test_ratio"),
        (lambda: shuffled_split_indices(10, math.inf, 1), ValueError, "test_ratio"),
        (lambda: shuffled_split_indices(10, "0.5", 1), TypeError, "test_ratio"),
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


# Computed with the code before `seed` accepted numpy generators: int seeds must keep them.
def test_int_seeds_give_the_same_splits_as_before():
    assert shuffled_indices(10, 2024).tolist() == [9, 0, 6, 3, 4, 2, 5, 7, 8, 1]
    assert shuffled_indices(10, np.int64(2024)).tolist() == [9, 0, 6, 3, 4, 2, 5, 7, 8, 1]
    train, test = shuffled_split_indices(12, 0.25, 7)
    assert train.tolist() == [1, 7, 4, 8, 2, 9, 6, 0, 3] and test.tolist() == [10, 11, 5]
    train, test = stratified_split(np.array([0] * 5 + [1] * 4 + [2] * 3), 0.4, 11)
    assert train.tolist() == [0, 3, 1, 9, 6, 11, 5] and test.tolist() == [4, 10, 8, 7, 2]
    folds = k_fold_indices(11, 3, 5)
    assert [v.tolist() for _, v in folds] == [[0, 2, 6, 10], [3, 5, 7, 9], [1, 4, 8]]


SEED_KINDS = {
    "int": lambda: 3,
    "numpy-int": lambda: np.uint16(3),
    "splitmix": lambda: SplitMix64(3),
    "generator": lambda: np.random.default_rng(3),
    "randomstate": lambda: np.random.RandomState(3),
}
LABELS = np.array(["a"] * 6 + ["b"] * 5 + ["c"] * 4)


def every_split(make_seed):
    return [
        shuffled_indices(15, make_seed()).tolist(),
        [s.tolist() for s in shuffled_split_indices(15, 0.3, make_seed())],
        [s.tolist() for s in stratified_split(LABELS, 0.3, make_seed())],
        [v.tolist() for _, v in k_fold_indices(15, 4, make_seed())],
    ]


@pytest.mark.parametrize("kind", SEED_KINDS)
def test_every_seed_kind_is_reproducible(kind):
    assert every_split(SEED_KINDS[kind]) == every_split(SEED_KINDS[kind])


def test_numpy_generators_seed_splitmix_with_one_draw():
    drawn = int(np.random.default_rng(3).integers(0, 2**63))
    assert every_split(lambda: np.random.default_rng(3)) == every_split(lambda: drawn)
    legacy = int(np.random.RandomState(3).randint(0, 2**63, dtype=np.int64))
    assert every_split(lambda: np.random.RandomState(3)) == every_split(lambda: legacy)


def test_a_numpy_generator_can_be_shared_between_calls():
    rng = np.random.default_rng(5)
    assert not np.array_equal(shuffled_indices(20, rng), shuffled_indices(20, rng))


def test_none_seed_shuffles_with_fresh_entropy_except_in_k_fold():
    train, test = shuffled_split_indices(30, 0.5, None)
    assert sorted(train.tolist() + test.tolist()) == list(range(30))
    orders = {tuple(shuffled_indices(30, None).tolist()) for _ in range(3)}
    assert len(orders) > 1  # 3 equal permutations of 30 rows: probability ~ 1e-64
    assert [v.tolist() for _, v in k_fold_indices(4, 2, None)] == [[0, 1], [2, 3]]


@pytest.mark.parametrize("seed", [True, 1.5, "3", object()], ids=lambda v: type(v).__name__)
@pytest.mark.parametrize(
    "split",
    [
        lambda seed: shuffled_indices(4, seed),
        lambda seed: shuffled_split_indices(4, 0.5, seed),
        lambda seed: stratified_split([0, 0, 1, 1], 0.5, seed),
        lambda seed: k_fold_indices(4, 2, seed),
    ],
    ids=["shuffled_indices", "shuffled_split_indices", "stratified_split", "k_fold_indices"],
)
def test_other_seed_kinds_raise_naming_seed(split, seed):
    pattern = rf"^seed must be None, an int, .*; got {type(seed).__name__}$"
    with pytest.raises(TypeError, match=pattern):
        split(seed)
