"""Cross-validation splitters: folds, stratification, parity and errors."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn import model_selection as skms

from svmx.model_selection import KFold, StratifiedKFold, check_cv
from svmx.preprocessing import SplitMix64


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
    assert first == again and first != other


@pytest.mark.parametrize("splitter", ["KFold", "StratifiedKFold"])
def test_none_random_state_draws_from_numpy_global_state_as_sklearn(splitter):
    X, y = np.zeros((20, 1)), np.repeat([0, 1, 2, 3], 5)
    np.random.seed(11)  # noqa: NPY002 - the global state None draws from
    ours = [t.tolist() for _, t in globals()[splitter](4, shuffle=True).split(X, y)]
    np.random.seed(11)  # noqa: NPY002 - the global state None draws from
    theirs = [t.tolist() for _, t in getattr(skms, splitter)(4, shuffle=True).split(X, y)]
    assert ours == theirs


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
    assume(np.bincount(y).max() >= n_splits)
    splitter = StratifiedKFold(n_splits, shuffle=shuffle, random_state=seed if shuffle else None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a class smaller than n_splits
        folds = list(splitter.split(np.zeros((len(y), 1)), y))
        theirs = list(skms.StratifiedKFold(
            n_splits, shuffle=shuffle, random_state=seed if shuffle else None
        ).split(np.zeros((len(y), 1)), y))
    assert [t.tolist() for _, t in folds] == [t.tolist() for _, t in theirs]
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
    assert plain[0] == [0, 1, 2, 3, 4, 10, 11, 12, 13, 14]  # blocks of rows, as scikit-learn
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


@pytest.mark.parametrize("make_seed", [lambda: 3, lambda: 9, lambda: np.random.RandomState(4)],
                         ids=["int3", "int9", "RandomState"])
@pytest.mark.parametrize("n_samples, n_splits", [(13, 4), (30, 3), (101, 5)])
@pytest.mark.filterwarnings("ignore:The least populated class")
def test_shuffled_folds_are_sklearns(make_seed, n_samples, n_splits):
    X = np.zeros((n_samples, 1))
    y = np.random.RandomState(n_samples).randint(0, 3, n_samples)
    y[:3] = [2, 0, 1]  # classes appear out of sorted order
    for name in ("KFold", "StratifiedKFold"):
        ours = globals()[name](n_splits, shuffle=True, random_state=make_seed())
        theirs = getattr(skms, name)(n_splits, shuffle=True, random_state=make_seed())
        for (train, test), (sk_train, sk_test) in zip(
            ours.split(X, y), theirs.split(X, y), strict=True
        ):
            np.testing.assert_array_equal(train, sk_train)
            np.testing.assert_array_equal(test, sk_test)
    assert repr(KFold(3)) == repr(skms.KFold(3))


def test_kfold_accepts_a_numpy_generator():
    X = np.zeros((10, 1))
    cv = KFold(2, shuffle=True, random_state=np.random.default_rng(0))
    folds = [t.tolist() for _, t in cv.split(X)]
    order = np.random.default_rng(0).permutation(10)
    assert folds == [sorted(order[:5].tolist()), sorted(order[5:].tolist())]


RANDOM_STATE_KINDS = {
    "int": lambda: 5,
    "numpy-int": lambda: np.int32(5),
    "splitmix": lambda: SplitMix64(5),
    "generator": lambda: np.random.default_rng(5),
    "randomstate": lambda: np.random.RandomState(5),
}


@pytest.mark.parametrize("splitter", [KFold, StratifiedKFold])
@pytest.mark.parametrize("kind", RANDOM_STATE_KINDS)
def test_every_random_state_kind_is_reproducible(splitter, kind):
    X, y = np.zeros((12, 1)), np.repeat([0, 1, 2], 4)

    def folds():
        cv = splitter(3, shuffle=True, random_state=RANDOM_STATE_KINDS[kind]())
        return [t.tolist() for _, t in cv.split(X, y)]

    assert folds() == folds()


@pytest.mark.parametrize("splitter", [KFold, StratifiedKFold])
def test_a_generator_is_checked_without_drawing_and_drawn_at_each_split(splitter):
    X, y = np.zeros((12, 1)), np.repeat([0, 1], 6)
    rng = np.random.default_rng(1)
    cv = splitter(3, shuffle=True, random_state=rng)
    assert cv.random_state is rng and rng.integers(100) == np.random.default_rng(1).integers(100)
    first = [t.tolist() for _, t in cv.split(X, y)]
    second = [t.tolist() for _, t in cv.split(X, y)]
    assert first != second  # as scikit-learn does for a RandomState instance


@pytest.mark.parametrize("value", [True, 1.5, "0", [0]], ids=lambda v: type(v).__name__)
def test_other_random_state_kinds_raise_naming_random_state(value):
    pattern = rf"^random_state must be None, an int, .*; got {type(value).__name__}$"
    with pytest.raises(TypeError, match=pattern):
        KFold(2, shuffle=True, random_state=value)
    with pytest.raises(TypeError, match=pattern):
        StratifiedKFold(2, shuffle=True, random_state=value)
