"""`csr_is_ready`: one vectorised pass agrees with the checks it replaces.

A prediction's sparse input is taken as it is when its index arrays are sound, its rows'
indices ascend without repeats and every stored value is finite; otherwise the slower
checks name the problem or repair the order. The reference below is written with numpy,
entry by entry, and the two must agree on every kind of damage, at every position
(the vectorised loops have a body and a tail).
"""

import numpy as np
import pytest
import scipy.sparse as sp

from svmx import SVC
from svmx._engine.support_layout import csr_is_ready


def reference_is_ready(indptr, indices, data, n_rows, n_features):
    if indptr.dtype != indices.dtype or indptr.dtype not in (np.int32, np.int64):
        return False
    if data.dtype not in (np.float32, np.float64) or indptr.shape[0] != n_rows + 1:
        return False
    end = int(indptr[-1])
    if indptr[0] != 0 or end > indices.shape[0] or end > data.shape[0]:
        return False
    if np.any(np.diff(indptr) < 0):
        return False
    for row in range(n_rows):
        entries = indices[indptr[row]:indptr[row + 1]]
        if np.any(entries < 0) or np.any(entries >= n_features):
            return False
        if np.any(np.diff(entries) <= 0):
            return False
    return bool(np.isfinite(data).all())


def damaged(kind, position, index_dtype, value_dtype, seed):
    rng = np.random.default_rng(seed)
    n_rows, n_features = 23, 40
    matrix = sp.random(n_rows, n_features, density=0.3, format="csr", random_state=seed,
                       dtype=np.float64)
    matrix.sort_indices()
    indptr = matrix.indptr.astype(index_dtype)
    indices = matrix.indices.astype(index_dtype)
    data = matrix.data.astype(value_dtype)
    k = position % max(indices.shape[0], 1)
    if kind == "nan":
        data[k] = np.nan
    elif kind == "inf":
        data[k] = -np.inf if seed % 2 else np.inf
    elif kind == "largest finite":
        data[k] = np.finfo(value_dtype).max
    elif kind == "subnormal":
        data[k] = np.finfo(value_dtype).smallest_subnormal
    elif kind == "negative index":
        indices[k] = -1
    elif kind == "index at the feature count":
        indices[k] = n_features
    elif kind == "repeat":
        row = int(np.searchsorted(indptr, k, side="right")) - 1
        if indptr[row + 1] - indptr[row] >= 2:
            first = indptr[row]
            indices[first + 1] = indices[first]
    elif kind == "swap":
        row = int(np.searchsorted(indptr, k, side="right")) - 1
        if indptr[row + 1] - indptr[row] >= 2:
            first = indptr[row]
            indices[first], indices[first + 1] = indices[first + 1], indices[first]
    elif kind == "decreasing pointers":
        row = 1 + position % (n_rows - 1)
        indptr[row] = indptr[row + 1] + 1
    elif kind == "pointers past the entries":
        indptr[-1] = indices.shape[0] + 1
    elif kind == "first pointer":
        indptr[0] = 1
    elif kind == "empty rows":
        keep = rng.random(n_rows) < 0.5
        dense = matrix.toarray()
        dense[keep] = 0.0
        clean = sp.csr_matrix(dense)
        indptr = clean.indptr.astype(index_dtype)
        indices = clean.indices.astype(index_dtype)
        data = clean.data.astype(value_dtype)
    elif kind == "row boundary that ascends":
        # The last entry of a row below the first of the next: no descent at the start.
        dense = np.zeros((3, n_features))
        dense[0, [1, 2]] = 1.0
        dense[1, [5, 7]] = 2.0
        dense[2, [30]] = 3.0
        clean = sp.csr_matrix(dense)
        indptr, indices = clean.indptr.astype(index_dtype), clean.indices.astype(index_dtype)
        data = clean.data.astype(value_dtype)
        indices[3] = 4  # row 1 now holds 5, 4: a descent inside a row
        n_rows = 3
    return indptr, indices, data, n_rows, n_features


KINDS = ["none", "nan", "inf", "largest finite", "subnormal", "negative index",
         "index at the feature count", "repeat", "swap", "decreasing pointers",
         "pointers past the entries", "first pointer", "empty rows",
         "row boundary that ascends"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("value_dtype", [np.float64, np.float32])
def test_the_one_pass_agrees_with_the_entry_by_entry_checks(kind, index_dtype, value_dtype):
    for position in (0, 1, 5, 17, 63, 150, 229):
        arrays = damaged(kind, position, index_dtype, value_dtype, seed=position)
        expected = reference_is_ready(*arrays)
        assert csr_is_ready(*arrays) == expected, (kind, position)
    if kind == "none":
        assert expected


def test_mixed_or_unexpected_dtypes_take_the_slow_checks():
    indptr, indices, data = np.array([0, 1]), np.array([0], np.int32), np.array([1.0])
    assert not csr_is_ready(indptr.astype(np.int64), indices, data, 1, 1)
    assert not csr_is_ready(indptr.astype(np.int32), indices, data.astype(np.float16), 1, 1)
    assert not csr_is_ready(indptr.astype(np.int32), indices, [1.0], 1, 1)
    assert csr_is_ready(indptr.astype(np.int32), indices, data, 1, 1)


def test_predictions_of_unsorted_repeated_or_bad_rows_are_as_before():
    rng = np.random.default_rng(0)
    X = sp.random(60, 12, density=0.5, format="csr", random_state=1)
    y = rng.integers(0, 2, 60)
    model = SVC().fit(X, y)
    expected = model.decision_function(X)
    # The same rows with each row's entries reversed and one entry split in two.
    reversed_rows = sp.csr_matrix((X.data.copy(), X.indices.copy(), X.indptr.copy()),
                                  shape=X.shape)
    for row in range(X.shape[0]):
        part = slice(X.indptr[row], X.indptr[row + 1])
        reversed_rows.indices[part] = X.indices[part][::-1]
        reversed_rows.data[part] = X.data[part][::-1]
    reversed_rows.has_sorted_indices = False
    np.testing.assert_allclose(model.decision_function(reversed_rows), expected, rtol=1e-12)
    # Each entry stored twice, as two halves (scipy sums them when it sorts).
    halves = sp.csr_matrix((np.repeat(X.data / 2, 2), np.repeat(X.indices, 2), X.indptr * 2),
                           shape=X.shape)
    assert not halves.has_canonical_format
    np.testing.assert_allclose(model.decision_function(halves), expected, rtol=1e-12)
    bad = X.copy()
    bad.data[7] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        model.predict(bad)
    bad.data[7] = np.inf
    with pytest.raises(ValueError, match="Input X contains infinity"):
        model.predict(bad)
