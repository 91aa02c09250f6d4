"""dump_svmlight_file: exact text, and dump -> load round trips (hypothesis)."""

import io

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from svmx.datasets import dump_svmlight_file, load_svmlight_file

FINITE = st.floats(allow_nan=False, allow_infinity=False, width=64)
SPARSE_VALUES = st.one_of(st.just(0.0), FINITE)


def _dump(X, y, **options):
    out = io.BytesIO()
    dump_svmlight_file(X, y, out, **options)
    return out.getvalue()


def test_exact_text_dense_sparse_and_labels():
    X = np.array([[0.0, 0.1, 0.0], [3.0, 0.0, -2.5]])
    expected = b"1 2:0.10000000000000001\n-1.5 1:3 3:-2.5\n"
    assert _dump(X, [1.0, -1.5]) == expected
    assert _dump(sp.csr_matrix(X), np.array([1, -1.5])) == expected
    assert _dump(sp.coo_matrix(X), [1.0, -1.5]) == expected
    assert _dump(X, [1, 2], zero_based=True) == b"1 1:0.10000000000000001\n2 0:3 2:-2.5\n"


def test_comment_and_text_destinations(tmp_path):
    path = tmp_path / "out.txt"
    dump_svmlight_file([[1.0]], [0], path, comment="made by a test\nsecond line")
    assert path.read_text() == "# made by a test\n# second line\n0 1:1\n"
    text = io.StringIO()
    dump_svmlight_file([[1.0]], [0], text)
    assert text.getvalue() == "0 1:1\n"


def test_explicit_zeros_in_sparse_input_are_skipped():
    X = sp.csr_matrix((np.array([0.0, 2.0]), np.array([0, 1]), np.array([0, 2])), shape=(1, 2))
    assert _dump(X, [1]) == b"1 2:2\n"


def test_a_non_ascii_comment_is_written_as_utf8_to_a_path(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("1 1:5\n")
    dump_svmlight_file([[1.0]], [1], path, comment="café")
    assert path.read_bytes() == "# café\n1 1:1\n".encode()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_the_callers_sparse_matrix_is_left_as_it_was(dtype):
    # Unsorted indices (a column permutation) and a duplicate: sorting them must not touch
    # the caller's arrays (scipy shares the index array even when it converts the values).
    X = sp.csr_matrix((np.array([1, 2, 3, 4], dtype=dtype), np.array([2, 0, 2, 1]),
                       np.array([0, 3, 4])), shape=(2, 3))
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    assert _dump(X, [1, -1]) == b"1 1:2 3:4\n-1 2:4\n"
    for array, kept in zip((X.data, X.indices, X.indptr), before, strict=True):
        np.testing.assert_array_equal(array, kept)


@pytest.mark.parametrize("zero_based", ["auto", "false", 0, None])
def test_zero_based_must_be_a_bool(zero_based):
    with pytest.raises(TypeError, match="zero_based must be True or False"):
        _dump([[1.0]], [1], zero_based=zero_based)


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        ([[1.0]], ["a"], "y must be numeric"),
        ([[1.0]], [1, 2], "y has 2 values but X has 1 rows"),
        ([1.0, 2.0], [1], "X must be 2-D"),
        ([[1.0], [2.0]], [[1, 0], [0, 1]], "y must be 1-D"),
    ],
)
def test_bad_input(X, y, message):
    with pytest.raises(ValueError, match=message):
        _dump(X, y)


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 8), st.integers(1, 6)), elements=SPARSE_VALUES),
    st.data(),
    st.booleans(),
)
def test_round_trip_is_exact(X, data, zero_based):
    y = data.draw(arrays(np.float64, X.shape[0], elements=FINITE))
    for source in (X, sp.csr_matrix(X)):
        content = _dump(source, y, zero_based=zero_based)
        X_back, y_back = load_svmlight_file(content, n_features=X.shape[1], zero_based=zero_based)
        np.testing.assert_array_equal(X_back.toarray(), X)
        np.testing.assert_array_equal(y_back, y)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)),
              elements=st.floats(-1e6, 1e6, width=32)))
def test_round_trip_float32(X):
    X = X.astype(np.float32)
    content = _dump(X, np.zeros(X.shape[0]))
    X_back, _ = load_svmlight_file(content, n_features=X.shape[1], dtype=np.float32)
    np.testing.assert_array_equal(X_back.toarray(), X)
