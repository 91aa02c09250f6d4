"""One-hot encoding: the worked example, unknown levels, sparse output, parity."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import preprocessing as skp

from svmx.exceptions import NotFittedError
from svmx.preprocessing import OneHotEncoder, one_hot_encode

LEVEL_COUNTS = (2, 4, 2, 3, 2, 3)


def worked_example_encoder(**kwargs):
    encoder = OneHotEncoder(categories=[range(n) for n in LEVEL_COUNTS], **kwargs)
    return encoder.fit([[0] * 6])


@pytest.mark.parametrize("sparse_output", [False, True])
def test_worked_example(sparse_output):
    encoder = worked_example_encoder(sparse_output=sparse_output)
    assert encoder.level_counts_.tolist() == list(LEVEL_COUNTS)
    assert encoder.offsets_.tolist() == [0, 2, 6, 8, 11, 13]
    assert encoder.n_features_out_ == 16
    row = encoder.transform([[0, 3, 0, 2, 1, 0]])
    if sparse_output:
        assert sp.issparse(row) and row.format == "csr"
        assert row.indices.tolist() == [0, 5, 6, 10, 12, 13]
        row = row.toarray()
    assert " ".join(str(int(v)) for v in row[0]) == "1 0 0 0 0 1 1 0 0 0 1 0 1 1 0 0"


def test_levels_are_sorted_per_column_and_named():
    data = [["red", 3], ["blue", 1], ["green", 3]]
    matrix, names = one_hot_encode(np.array(data, dtype=object), column_names=["colour", "n"])
    assert names == ["colour=blue", "colour=green", "colour=red", "n=1", "n=3"]
    assert matrix.tolist() == [[0, 0, 1, 0, 1], [1, 0, 0, 1, 0], [0, 1, 0, 0, 1]]
    _, default_names = one_hot_encode([[1, 2]])
    assert default_names == ["x0=1", "x1=2"]


def test_unknown_levels():
    encoder = OneHotEncoder().fit([["a", "x"], ["b", "y"]])
    with pytest.raises(ValueError, match="not seen in fit in column 0.*'c'.*handle_unknown"):
        encoder.transform([["c", "x"]])
    ignoring = OneHotEncoder(handle_unknown="ignore").fit([["a", "x"], ["b", "y"]])
    assert ignoring.transform([["c", "y"]]).toarray().tolist() == [[0, 0, 0, 1]]
    decoded = ignoring.inverse_transform(ignoring.transform([["c", "y"]]))
    assert decoded.tolist() == [[None, "y"]]


def test_an_all_zero_block_is_no_encoding_under_handle_unknown_error():
    # As scikit-learn's: with handle_unknown='error' no row's block is all zeros.
    encoder = OneHotEncoder().fit([["a", "x"], ["b", "y"]])
    with pytest.raises(ValueError, match=r"rows \[1\] have no one in column 1's block"):
        encoder.inverse_transform(np.array([[1, 0, 0, 1], [0, 1, 0, 0]]))
    with pytest.raises(ValueError, match="can not be inverted"):
        skp.OneHotEncoder().fit([["a", "x"], ["b", "y"]]).inverse_transform(
            np.array([[1, 0, 0, 1], [0, 1, 0, 0]]))


def test_explicit_categories_must_cover_training_data():
    with pytest.raises(ValueError, match=r"not in categories\[0\] in column 0: \['b'\]"):
        OneHotEncoder(categories=[["a"]]).fit([["b"]])


def test_inverse_transform_round_trip_dense_and_sparse():
    X = np.array([[1, 20], [3, 10], [2, 20], [1, 30]])
    for sparse_output in (False, True):
        encoder = OneHotEncoder(sparse_output=sparse_output).fit(X)
        decoded = encoder.inverse_transform(encoder.transform(X))
        assert decoded.dtype == X.dtype
        np.testing.assert_array_equal(decoded, X)


def test_parity_with_sklearn():
    # The same defaults (CSR output), keyword-only parameters and names as scikit-learn's.
    rng = np.random.default_rng(0)
    X = rng.integers(0, 5, size=(40, 3)).astype(str)
    ours, theirs = OneHotEncoder().fit(X), skp.OneHotEncoder().fit(X)
    mine, sklearns = ours.transform(X), theirs.transform(X)
    assert type(mine) is type(sklearns) and mine.dtype == sklearns.dtype
    np.testing.assert_array_equal(mine.toarray(), sklearns.toarray())
    assert ours.get_feature_names_out(["a", "b", "c"]).tolist() == \
        theirs.get_feature_names_out(["a", "b", "c"]).tolist()
    assert ours.get_feature_names_out().tolist() == theirs.get_feature_names_out().tolist()
    np.testing.assert_array_equal(ours.inverse_transform(mine), X)
    dense_params = {"sparse_output": False, "handle_unknown": "ignore", "dtype": np.float32}
    np.testing.assert_array_equal(OneHotEncoder(**dense_params).fit_transform(X),
                                  skp.OneHotEncoder(**dense_params).fit_transform(X))
    with pytest.raises(TypeError):
        OneHotEncoder("auto")  # keyword-only, as scikit-learn's


def test_float_levels_including_nan():
    X = np.array([[1.5], [np.nan], [0.5]])
    encoder = OneHotEncoder(sparse_output=False).fit(X)
    assert encoder.transform(X).tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]


def test_params_protocol():
    encoder = OneHotEncoder(handle_unknown="ignore")
    assert encoder.get_params()["handle_unknown"] == "ignore"
    assert type(encoder)(**encoder.get_params()).handle_unknown == "ignore"


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: OneHotEncoder(handle_unknown="skip").fit([[1]]), ValueError, "handle_unknown"),
        (lambda: OneHotEncoder(sparse_output="yes").fit([[1]]), TypeError, "sparse_output"),
        (lambda: OneHotEncoder().fit([1, 2]), ValueError, "X must be 2-D"),
        (lambda: OneHotEncoder().fit(np.empty((0, 2))), ValueError, "X must not be empty"),
        (lambda: OneHotEncoder().fit([[1]]).transform([[1, 2]]), ValueError,
         "X has 2 features, but OneHotEncoder is expecting 1"),
        (lambda: OneHotEncoder().transform([[1]]), NotFittedError, "fit"),
        (lambda: OneHotEncoder(categories=[[1]]).fit([[1, 2]]), ValueError, "categories"),
        (lambda: OneHotEncoder(categories=[[1, 1]]).fit([[1]]), ValueError, "categories"),
        (lambda: one_hot_encode(["a", "b"]), ValueError, "categorical must be 2-D"),
        (lambda: one_hot_encode([[1, 2]], column_names=["a"]), ValueError, "column_names"),
        (
            lambda: one_hot_encode(np.array([["a"], [1]], dtype=object)),
            TypeError,
            "categorical",
        ),
        (
            lambda: OneHotEncoder().fit([[1]]).inverse_transform([[1, 0]]),
            ValueError,
            "X must have shape",
        ),
        (
            lambda: OneHotEncoder().fit([[1]]).get_feature_names_out(["a", "b"]),
            ValueError,
            "input_features",
        ),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _same_as_sklearns(X, **params):
    ours, theirs = OneHotEncoder(**params).fit(X), skp.OneHotEncoder(**params).fit(X)
    assert ours.get_feature_names_out().tolist() == theirs.get_feature_names_out().tolist()
    for mine, sklearns in zip(ours.categories_, theirs.categories_, strict=True):
        assert [str(level) for level in mine] == [str(level) for level in sklearns]
    np.testing.assert_array_equal(ours.transform(X).toarray(), theirs.transform(X).toarray())
    return ours


def test_data_frame_columns_name_the_output_as_scikit_learns():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"colour": ["red", "blue", "red"], "size": ["S", "M", "M"]})
    ours = _same_as_sklearns(frame)
    assert ours.feature_names_in_.tolist() == ["colour", "size"]
    with pytest.raises(ValueError, match="feature_names_in_"):
        ours.get_feature_names_out(["a", "b"])
    dense = OneHotEncoder(sparse_output=False).set_output(transform="pandas").fit(frame)
    assert dense.transform(frame).columns.tolist() == ["colour_blue", "colour_red", "size_M",
                                                       "size_S"]


def test_given_categories_keep_their_order_and_numeric_ones_must_be_sorted():
    X = np.array([["a", "x"], ["b", "y"]], dtype=object)
    ours = _same_as_sklearns(X, categories=[["b", "a"], ["y", "x"]])
    assert ours.transform([["a", "y"]]).toarray().tolist() == [[0, 1, 1, 0]]
    assert ours.inverse_transform(ours.transform(X)).tolist() == X.tolist()
    with pytest.raises(ValueError, match="sorted"):
        skp.OneHotEncoder(categories=[[2, 1]]).fit([[1]])
    with pytest.raises(ValueError, match=r"categories\[0\] must be sorted"):
        OneHotEncoder(categories=[[2, 1]]).fit([[1]])


def test_missing_values_are_levels_of_their_own_as_in_scikit_learn():
    # An object column (a data frame's mixed column) holding NaN and None.
    X = np.array([[0.5, "a"], [np.nan, None], [0.5, "b"], [1.5, np.nan]], dtype=object)
    ours = _same_as_sklearns(X)
    assert ours.get_feature_names_out().tolist() == ["x0_0.5", "x0_1.5", "x0_nan", "x1_a",
                                                     "x1_b", "x1_None", "x1_nan"]
    decoded = ours.inverse_transform(ours.transform(X))
    assert decoded[1, 1] is None and np.isnan(decoded[3, 1]) and np.isnan(decoded[1, 0])
    unknown = OneHotEncoder(handle_unknown="ignore").fit(X[:1])
    assert unknown.transform(X[1:2]).toarray().tolist() == [[0, 0]]


def test_a_float32_nan_in_an_object_column_is_the_nan_level():
    # numpy's float32 is no Python float; its NaN is still scikit-learn's NaN level.
    X = np.array([["a"], [np.float32("nan")], ["b"], [np.nan]], dtype=object)
    ours = _same_as_sklearns(X)
    assert ours.get_feature_names_out().tolist() == ["x0_a", "x0_b", "x0_nan"]


@pytest.mark.parametrize(("X", "match"), [
    (np.array([[1.0], [np.inf]]), "Input X contains infinity"),
    (np.array([[1 + 2j], [3]]), "Complex data not supported"),
])
def test_infinity_and_complex_values_are_refused_as_in_scikit_learn(X, match):
    with pytest.raises(ValueError, match=match):
        OneHotEncoder().fit(X)
