"""Label codes and class counts."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from svmx.preprocessing import class_counts, label_encode


@given(st.lists(st.sampled_from(["x", "y", "z", "w"]), min_size=1, max_size=50))
def test_label_encode_round_trips(labels):
    codes, classes = label_encode(labels)
    assert classes.tolist() == sorted(set(labels))
    assert classes[codes].tolist() == labels
    assert codes.dtype == np.int64


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=50))
def test_class_counts_in_sorted_order(labels):
    classes, counts = class_counts(labels)
    assert classes.tolist() == sorted(set(labels))
    assert counts.tolist() == [labels.count(c) for c in classes.tolist()]


def test_label_encode_numbers():
    codes, classes = label_encode(np.array([2.5, -1.0, 2.5]))
    assert codes.tolist() == [1, 0, 1] and classes.tolist() == [-1.0, 2.5]


@pytest.mark.parametrize("function", [label_encode, class_counts])
@pytest.mark.parametrize("labels", [[], [[1, 2]], [1.0, float("nan")]])
def test_bad_labels(function, labels):
    with pytest.raises(ValueError, match="labels"):
        function(labels)
