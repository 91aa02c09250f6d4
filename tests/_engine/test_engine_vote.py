"""The compiled one-vs-one vote agrees with LIBSVM's rule, counted in Python."""

import numpy as np
import pytest

from svmx._engine.vote import ovo_vote


def reference_vote(values, n_classes):
    codes = []
    for row in values:
        votes = [0] * n_classes
        p = 0
        for i in range(n_classes):
            for j in range(i + 1, n_classes):
                votes[i if row[p] > 0 else j] += 1
                p += 1
        codes.append(votes.index(max(votes)))  # the lowest class among the tied
    return codes


@pytest.mark.parametrize("n_classes", [2, 3, 4, 7, 26])
def test_the_vote_is_libsvm_rule(n_classes):
    rng = np.random.default_rng(n_classes)
    n_pairs = n_classes * (n_classes - 1) // 2
    # Small whole numbers give many ties, zeros and NaN go to the second class.
    values = rng.integers(-2, 3, size=(300, n_pairs)).astype(np.float64)
    values[rng.random(values.shape) < 0.05] = np.nan
    values[rng.random(values.shape) < 0.05] = -0.0
    assert ovo_vote(values, n_classes).tolist() == reference_vote(values, n_classes)
    # Any layout and dtype of the same values.
    assert ovo_vote(np.asfortranarray(values.astype(np.float32)), n_classes).tolist() == \
        reference_vote(values.astype(np.float32), n_classes)


def test_no_rows_give_no_codes():
    assert ovo_vote(np.empty((0, 3)), 3).shape == (0,)


@pytest.mark.parametrize("shape, n_classes", [((4, 2), 3), ((4,), 2), ((4, 1), 1)])
def test_values_that_do_not_fit_the_classes_are_refused(shape, n_classes):
    with pytest.raises(ValueError, match="n_classes \\* \\(n_classes - 1\\) / 2 columns"):
        ovo_vote(np.zeros(shape), n_classes)
