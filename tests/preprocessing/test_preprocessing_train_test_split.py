"""train_test_split: scikit-learn's signature, sizes, draws and return types."""

import numpy as np
import pytest
import scipy.sparse as sp

from svmx.preprocessing import train_test_split

skms = pytest.importorskip("sklearn.model_selection")

SIZES = [(None, None), (0.33, None), (None, 0.5), (4, None), (0.2, 0.5), (None, 3), (1, 2)]


@pytest.mark.parametrize("n_samples", [6, 10, 37, 100])
@pytest.mark.parametrize("test_size, train_size", SIZES)
@pytest.mark.parametrize("stratified", [False, True])
@pytest.mark.parametrize("seed", [0, 42, "RandomState"])
def test_draws_scikit_learns_rows(n_samples, test_size, train_size, stratified, seed):
    rng = np.random.RandomState(n_samples)
    X, y = rng.rand(n_samples, 3), rng.randint(0, 3, n_samples)
    y[:6] = [2, 2, 0, 0, 1, 1]

    def split(function):
        random_state = np.random.RandomState(5) if seed == "RandomState" else seed
        try:
            return function(X, y, list(range(n_samples)), test_size=test_size,
                            train_size=train_size, random_state=random_state,
                            stratify=y if stratified else None)
        except ValueError as error:
            return error

    ours, theirs = split(train_test_split), split(skms.train_test_split)
    if isinstance(theirs, ValueError):
        assert isinstance(ours, ValueError), ours
        return
    assert len(ours) == len(theirs) == 6
    for mine, other in zip(ours, theirs, strict=True):
        assert type(mine) is type(other)
        np.testing.assert_array_equal(mine, other)


def test_containers_keep_their_kind():
    pd = pytest.importorskip("pandas")
    X = np.arange(20.0).reshape(10, 2)
    frame, series = pd.DataFrame(X, columns=["a", "b"]), pd.Series(np.arange(10))
    pieces = train_test_split(X, sp.csr_matrix(X), frame, series, list("abcdefghij"),
                              random_state=1)
    theirs = skms.train_test_split(X, sp.csr_matrix(X), frame, series, list("abcdefghij"),
                                   random_state=1)
    for mine, other in zip(pieces, theirs, strict=True):
        assert type(mine) is type(other)
    assert pieces[5].index.tolist() == theirs[5].index.tolist()
    assert pieces[8] == theirs[8] and pieces[9] == theirs[9]
    np.testing.assert_array_equal(pieces[2].toarray(), theirs[2].toarray())


def test_without_shuffle_the_first_rows_train():
    assert train_test_split(list(range(5)), shuffle=False) == [[0, 1, 2], [3, 4]]
    assert train_test_split(np.arange(10), test_size=2, train_size=5, shuffle=False)[1].tolist() \
        == [5, 6]


@pytest.mark.parametrize("call, match", [
    (lambda: train_test_split(), "At least one array"),
    (lambda: train_test_split([1, 2, 3], [1, 2]), "inconsistent numbers of samples"),
    (lambda: train_test_split(np.arange(10), test_size=1.0), "test_size=1.0"),
    (lambda: train_test_split(np.arange(10), test_size=10), "test_size=10"),
    (lambda: train_test_split(np.arange(10), test_size=0.6, train_size=0.6), "sum of test"),
    (lambda: train_test_split(np.arange(10), test_size=6, train_size=6), "sum of train"),
    (lambda: train_test_split(np.arange(10), test_size="half"), "test_size"),
    (lambda: train_test_split(np.arange(4), stratify=[0, 0, 0, 1]), "least populated class"),
    (lambda: train_test_split(np.arange(4), shuffle=False, stratify=[0, 0, 1, 1]),
     "shuffle=False"),
    (lambda: train_test_split(np.arange(5), train_size=0.1), "train set will be empty"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()
