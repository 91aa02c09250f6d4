"""svmx._input_scan's one-pass scans give what the numpy calls they replace give."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from svmx._input_scan import (
    MAX_SCANNED_CLASSES,
    encode_labels,
    float_labels_problem,
    row_norms_overflow,
)

LABEL_VALUES = st.one_of(
    st.integers(-(2**62), 2**62),
    st.sampled_from([0, 1, -1, 2, 3]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(LABEL_VALUES, min_size=1, max_size=300), st.booleans())
def test_encode_labels_is_np_unique(values, as_float):
    labels = np.array(values, dtype=np.float64 if as_float else np.int64)
    classes, codes = np.unique(labels, return_inverse=True)
    encoded = encode_labels(labels)
    if classes.size > MAX_SCANNED_CLASSES:
        assert encoded is None
        return
    assert encoded[0].dtype == labels.dtype and encoded[1].dtype == np.intp
    np.testing.assert_array_equal(encoded[0], classes)
    np.testing.assert_array_equal(encoded[1], codes.ravel())


@pytest.mark.parametrize("n_classes", [1, 2, MAX_SCANNED_CLASSES, MAX_SCANNED_CLASSES + 1])
@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_encode_labels_at_the_class_limit(n_classes, dtype):
    rng = np.random.default_rng(n_classes)
    names = rng.permutation(np.arange(-3 * n_classes, 0, 3))
    labels = names[rng.integers(0, n_classes, 500)].astype(dtype)
    labels[:n_classes] = names  # every class appears
    encoded = encode_labels(labels)
    if n_classes > MAX_SCANNED_CLASSES:
        assert encoded is None
    else:
        classes, codes = np.unique(labels, return_inverse=True)
        np.testing.assert_array_equal(encoded[0], classes)
        np.testing.assert_array_equal(encoded[1], codes)


@pytest.mark.parametrize("labels", [
    np.array(["a", "b"]), np.array([1, 2], dtype=np.int32), np.array([[1.0, 2.0]]),
    np.array([], dtype=np.float64), [1.0, 2.0],
])
def test_encode_labels_leaves_other_inputs_to_numpy(labels):
    assert encode_labels(labels) is None


def _numpy_problem(values):
    if not np.isfinite(values).all():
        return "nonfinite"
    return "continuous" if np.any(values != np.round(values)) else None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                          st.integers(-5, 5).map(float)), max_size=50))
def test_float_labels_problem_is_numpys(values):
    labels = np.array(values, dtype=np.float64)
    assert float_labels_problem(labels) == _numpy_problem(labels)


def _numpy_overflow(X):
    with np.errstate(over="ignore", invalid="ignore"):
        if sp.issparse(X):
            X = X.toarray()
        return not np.isfinite(np.einsum("ij,ij->i", X, X, dtype=np.float64)).all()


@pytest.mark.parametrize("sparse", [None, np.int32, np.int64])
@pytest.mark.parametrize(("dtype", "big"), [
    (np.float64, 0.0), (np.float64, 1e153), (np.float64, 1e154), (np.float64, 1e200),
    (np.float32, 3e38),  # float32 entries squared and summed in float64 never overflow
])
def test_row_norms_overflow_is_numpys(dtype, sparse, big):
    X = np.array([[0.5, -2.0, 0.0], [0.0, 0.0, 0.0], [big, big, 1.0]], dtype=dtype)
    matrix = X if sparse is None else sp.csr_matrix(X)
    if sparse is not None:
        matrix.indptr = matrix.indptr.astype(sparse)  # both index widths are read
    assert row_norms_overflow(matrix) == _numpy_overflow(X)
    assert row_norms_overflow(matrix) == (big >= 1e154)
