"""Cross-validation splitters: folds, stratification, parity and errors."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from sklearn import model_selection as skms

from svmx.model_selection import KFold, StratifiedKFold, check_cv


@pytest.mark.parametrize("n_samples, n_splits", [(10, 2), (11, 3), (7, 7), (100, 10)])
def test_unshuffled_kfold_matches_sklearn(n_samples, n_splits):
    X = np.zeros((n_samples, 1))
    ours = list(KFold(n_splits).split(X))
    theirs = list(skms.KFold(n_splits).split(X))
    for (train, test), (sk_train, sk_test) in zip(ours, theirs, strict=True):
        assert train.tolist() == sk_train.tolist() and test.tolist() == sk_test.tolist()


def test_shuffled_kfold_is_reproducible_and_seeded():
    X = np.zeros((20, 2))
    first = [t.tolist() for _, t in KFold(4, shuffle=True, random_state=1).split(X)]
    again = [t.tolist() for _, t in KFold(4, shuffle=True, random_state=1).split(X)]
    other = [t.tolist() for _, t in KFold(4, shuffle=True, random_state=2).split(X)]
    default = [t.tolist() for _, t in KFold(4, shuffle=True).split(X)]
    seed0 = [t.tolist() for _, t in KFold(4, shuffle=True, random_state=0).split(X)]
    assert first == again and first != other and default == seed0


def test_kfold_accepts_sparse_and_lists():
    assert KFold(2).get_n_splits() == 2
    assert len(list(KFold(2).split(sp.csr_matrix(np.eye(4))))) == 2
    assert len(list(KFold(2).split([[1], [2], [3]]))) == 2


@given(
    st.lists(st.integers(0, 3), min_size=4, max_size=80),
    st.integers(2, 4),
    st.booleans(),
    st.integers(0, 1000),
)
def test_stratified_folds_balance_classes(labels, n_splits, shuffle, seed):
    y = np.array(labels)
    splitter = StratifiedKFold(n_splits, shuffle=shuffle, random_state=seed if shuffle else None)
    folds = list(splitter.split(np.zeros((len(y), 1)), y))
    tested = np.concatenate([test for _, test in folds])
    assert sorted(tested.tolist()) == list(range(len(y)))
    sizes = [len(test) for _, test in folds]
    assert max(sizes) - min(sizes) <= 1
    for label in np.unique(y):
        per_fold = [int(np.sum(y[test] == label)) for _, test in folds]
        assert max(per_fold) - min(per_fold) <= 1
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0 and len(train) + len(test) == len(y)


def test_stratified_shuffle_changes_membership():
    y = np.repeat([0, 1], 10)
    plain = [t.tolist() for _, t in StratifiedKFold(2).split(y, y)]
    shuffled = [t.tolist() for _, t in StratifiedKFold(2, shuffle=True).split(y, y)]
    assert plain[0] == [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]
    assert plain != shuffled


def test_check_cv():
    assert isinstance(check_cv(3, [0, 1] * 3, classifier=True), StratifiedKFold)
    assert isinstance(check_cv(3, [0, 1] * 3, classifier=False), KFold)
    assert isinstance(check_cv(3, None, classifier=True), KFold)
    splitter = skms.KFold(3)
    assert check_cv(splitter) is splitter
    explicit = check_cv([([0, 1], [2]), ([2], [0, 1])])
    assert explicit.get_n_splits() == 2
    assert [t.tolist() for _, t in explicit.split(None)] == [[2], [0, 1]]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: KFold(1), ValueError, "n_splits"),
        (lambda: KFold(2.5), TypeError, "n_splits"),
        (lambda: KFold(2, shuffle="yes"), TypeError, "shuffle"),
        (lambda: KFold(2, random_state=3), ValueError, "random_state"),
        (lambda: KFold(2, shuffle=True, random_state=1.5), TypeError, "random_state"),
        (lambda: list(KFold(5).split(np.zeros((3, 1)))), ValueError, "n_splits"),
        (lambda: list(StratifiedKFold(2).split(np.zeros((4, 1)), None)), ValueError, "y"),
        (lambda: list(StratifiedKFold(2).split(np.zeros((4, 1)), [0, 1])), ValueError, "y has 2"),
        (lambda: list(StratifiedKFold(2).split(np.zeros((2, 1)), [[0, 1]])), ValueError, "y"),
        (lambda: list(StratifiedKFold(3).split(np.zeros((2, 1)), [0, 1])), ValueError, "n_splits"),
        (lambda: check_cv("five"), TypeError, "cv"),
        (lambda: check_cv(True), TypeError, "cv"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
