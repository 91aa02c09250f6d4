"""MinMaxScaler and StandardScaler against scikit-learn's classes of the same names.

Same parameters and defaults, same fitted attributes (values and dtypes), same output
(allclose at 1e-12), same NaN, float32 and sparse handling, same error types.
"""

import inspect
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from svmx.preprocessing import MinMaxScaler, StandardScaler

skp = pytest.importorskip("sklearn.preprocessing")

MIN_MAX_ATTRIBUTES = ["data_min_", "data_max_", "data_range_", "scale_", "min_",
                      "n_samples_seen_", "n_features_in_"]
STANDARD_ATTRIBUTES = ["mean_", "var_", "scale_", "n_samples_seen_", "n_features_in_"]
STANDARD_OPTIONS = [{}, {"with_mean": False}, {"with_std": False},
                    {"with_mean": False, "with_std": False}]


def _random_data(dtype=np.float64, seed=0):
    """Columns of different scales, a constant column, an all-NaN column and scattered NaN."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 6)) * [1.0, 10.0, 1e-3, 1.0, 1.0, 3.0] + [0, 5, 1e6, 0, 0, -2]
    X[:, 3] = 7.0
    X[rng.random(X.shape) < 0.1] = np.nan
    X[:, 4] = np.nan
    return X.astype(dtype)


def _quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scikit-learn's all-NaN warnings
        return call()


def _assert_same_attributes(ours, reference, names):
    for name in names:
        expected, got = getattr(reference, name), getattr(ours, name)
        if expected is None:
            assert got is None, name
            continue
        assert np.asarray(got).dtype == np.asarray(expected).dtype, name
        assert np.shape(got) == np.shape(expected), name
        # atol: a constant column's variance is 0 or rounding noise around 1e-40
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-30, equal_nan=True,
                                   err_msg=name)


def _assert_same_output(got, expected):
    assert type(got) is type(expected) and got.dtype == expected.dtype
    if sp.issparse(expected):
        assert got.format == "csr"
        got, expected = got.toarray(), expected.toarray()
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15, equal_nan=True)


@pytest.mark.parametrize("name", ["MinMaxScaler", "StandardScaler"])
def test_signature_and_defaults_match(name):
    ours = inspect.signature(getattr(__import__("svmx.preprocessing").preprocessing, name))
    reference = inspect.signature(getattr(skp, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
        (p.name, p.kind, p.default) for p in reference.parameters.values()]
    for method in ("fit", "partial_fit", "transform", "inverse_transform"):
        mine = inspect.signature(getattr(getattr(__import__("svmx.preprocessing").preprocessing,
                                                 name), method))
        theirs = inspect.signature(getattr(getattr(skp, name), method))
        assert list(mine.parameters) == list(theirs.parameters), method


def test_min_max_default_range_is_scikit_learns():
    assert MinMaxScaler().feature_range == (0, 1)
    scaled = MinMaxScaler().fit_transform([[0.0], [4.0], [2.0]])
    assert scaled.ravel().tolist() == [0.0, 1.0, 0.5]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("params", [{}, {"feature_range": (-2, 3.3)},
                                    {"feature_range": (-1, 1), "clip": True}])
def test_min_max_matches_on_random_data(dtype, params):
    X = _random_data(dtype)
    ours, reference = MinMaxScaler(**params), skp.MinMaxScaler(**params)
    _assert_same_output(_quiet(lambda: ours.fit_transform(X)),
                        _quiet(lambda: reference.fit_transform(X)))
    _assert_same_attributes(ours, reference, MIN_MAX_ATTRIBUTES)
    new = _random_data(dtype, seed=1) * 2  # outside the fitted range: clip matters
    _assert_same_output(ours.transform(new), reference.transform(new))
    _assert_same_output(ours.inverse_transform(new), reference.inverse_transform(new))
    assert ours.scale_[3] == reference.scale_[3]  # the constant column


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("params", STANDARD_OPTIONS)
def test_standard_matches_on_random_data(dtype, params):
    X = _random_data(dtype)
    ours, reference = StandardScaler(**params), skp.StandardScaler(**params)
    _assert_same_output(_quiet(lambda: ours.fit_transform(X)),
                        _quiet(lambda: reference.fit_transform(X)))
    _assert_same_attributes(ours, reference, STANDARD_ATTRIBUTES)
    new = _random_data(dtype, seed=2)
    _assert_same_output(ours.transform(new), reference.transform(new))
    _assert_same_output(ours.inverse_transform(new), reference.inverse_transform(new))
    if params.get("with_std", True):
        assert ours.scale_[3] == 1.0 and ours.var_[3] == 0.0  # constant column


def test_nan_is_ignored_in_fit_and_kept_in_transform():
    X = np.array([[1.0, np.nan], [3.0, 2.0], [np.nan, 4.0]])
    scaler = StandardScaler().fit(X)
    assert scaler.mean_.tolist() == [2.0, 3.0] and scaler.var_.tolist() == [1.0, 1.0]
    assert scaler.n_samples_seen_ == 2  # the same for every column: a scalar, as scikit-learn
    assert StandardScaler().fit(X[:2]).n_samples_seen_.tolist() == [2.0, 1.0]
    out = scaler.transform(X)
    np.testing.assert_array_equal(np.isnan(out), np.isnan(X))
    assert MinMaxScaler().fit(X).data_min_.tolist() == [1.0, 2.0]
    assert np.isnan(MinMaxScaler().fit_transform(X)[2, 0])


def test_sample_weight_matches():
    X = _random_data()
    weights = np.random.default_rng(3).random(X.shape[0])
    ours = _quiet(lambda: StandardScaler().fit(X, sample_weight=weights))
    reference = _quiet(lambda: skp.StandardScaler().fit(X, sample_weight=weights))
    _assert_same_attributes(ours, reference, STANDARD_ATTRIBUTES)


@pytest.mark.parametrize("params", STANDARD_OPTIONS)
def test_partial_fit_matches(params):
    X = _random_data()
    ours, reference = StandardScaler(**params), skp.StandardScaler(**params)
    for part in np.array_split(X, 4):
        _quiet(lambda part=part: ours.partial_fit(part))
        _quiet(lambda part=part: reference.partial_fit(part))
    _assert_same_attributes(ours, reference, STANDARD_ATTRIBUTES)
    once = _quiet(lambda: StandardScaler(**params).fit(X))
    if params.get("with_std", True):
        # Merging batches of a column with mean 1e6 and deviation 1e-3 loses about 8 digits
        # (scikit-learn's update loses the same ones: compared at 1e-12 just above).
        np.testing.assert_allclose(ours.var_, once.var_, rtol=1e-7, atol=1e-30, equal_nan=True)
    minmax, reference = MinMaxScaler(), skp.MinMaxScaler()
    for part in np.array_split(X[:, [0, 1, 2, 3, 5]], 3):
        minmax.partial_fit(part)
        reference.partial_fit(part)
    _assert_same_attributes(minmax, reference, MIN_MAX_ATTRIBUTES)


def _random_csr(seed=4):
    dense = sp.random(50, 9, density=0.3, random_state=seed).toarray() * 5.0
    dense[:, 8] = 0.0  # an empty column
    dense[:, 7] = 2.5  # a constant column without implicit zeros
    X = sp.csr_matrix(dense)
    X.data[::7] = np.nan
    return X


@pytest.mark.parametrize("params", [{"with_mean": False},
                                    {"with_mean": False, "with_std": False}])
@pytest.mark.parametrize("weighted", [False, True])
def test_standard_sparse_matches_and_stays_csr(params, weighted):
    X = _random_csr()
    weights = np.arange(X.shape[0]) + 1.0 if weighted else None
    ours, reference = StandardScaler(**params), skp.StandardScaler(**params)
    _assert_same_output(_quiet(lambda: ours.fit(X, sample_weight=weights).transform(X)),
                        _quiet(lambda: reference.fit(X, sample_weight=weights).transform(X)))
    _assert_same_attributes(ours, reference, STANDARD_ATTRIBUTES)
    _assert_same_output(ours.inverse_transform(X), reference.inverse_transform(X))
    _assert_same_output(ours.transform(X.tocsc()), reference.transform(X.tocsc()))
    ours, reference = StandardScaler(**params), skp.StandardScaler(**params)
    for rows in (slice(0, 10), slice(10, 35), slice(35, None)):
        part = X[rows]
        part_weights = None if weights is None else weights[rows]
        for scaler in (ours, reference):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                scaler.partial_fit(part, sample_weight=part_weights)
    _assert_same_attributes(ours, reference, STANDARD_ATTRIBUTES)


def test_copy_false_scales_in_place():
    X = np.array([[0.0, 1.0], [2.0, 3.0]])
    out = MinMaxScaler(copy=False).fit(X).transform(X)
    assert out is X and X.tolist() == [[0.0, 0.0], [1.0, 1.0]]
    X = np.array([[0.0], [2.0]])
    kept = X.copy()
    StandardScaler().fit(X).transform(X)
    np.testing.assert_array_equal(X, kept)
    assert StandardScaler().fit(X).transform(X, copy=False) is X


@pytest.mark.parametrize("name", ["heart_scale", "housing_scale", "dna.scale", "svmguide1"])
def test_shared_datasets(load_shared, name):
    X, _ = load_shared(name)
    for ours, reference in [(MinMaxScaler(), skp.MinMaxScaler()),
                            (MinMaxScaler((-1, 1)), skp.MinMaxScaler((-1, 1))),
                            (StandardScaler(), skp.StandardScaler())]:
        _assert_same_output(ours.fit_transform(X), reference.fit_transform(X))
    csr = sp.csr_matrix(X)
    _assert_same_output(StandardScaler(with_mean=False).fit_transform(csr),
                        skp.StandardScaler(with_mean=False).fit_transform(csr))
    _assert_same_attributes(StandardScaler().fit(X), skp.StandardScaler().fit(X),
                            STANDARD_ATTRIBUTES)
    _assert_same_attributes(MinMaxScaler().fit(X), skp.MinMaxScaler().fit(X),
                            MIN_MAX_ATTRIBUTES)


def _error(call):
    with pytest.raises(Exception) as info:
        call()
    return info


@pytest.mark.parametrize("estimator", ["MinMaxScaler", "StandardScaler"])
def test_errors_are_of_scikit_learns_types(estimator):
    ours, reference = getattr(__import__("svmx.preprocessing").preprocessing, estimator), \
        getattr(skp, estimator)
    X = np.array([[0.0, 1.0], [2.0, 3.0]])
    for call in (lambda cls: cls().fit(X).transform(np.zeros((2, 3))),
                 lambda cls: cls().fit(np.array([[np.inf, 1.0]])),
                 lambda cls: cls().fit([1.0, 2.0]),
                 lambda cls: cls().fit(np.empty((0, 2)))):
        mine = _error(lambda call=call: call(ours))
        theirs = _error(lambda call=call: call(reference))
        assert isinstance(mine.value, ValueError) and isinstance(theirs.value, ValueError)
    message = str(_error(lambda: ours().fit(X).transform(np.zeros((2, 3)))).value)
    assert message == f"X has 3 features, but {estimator} is expecting 2 features as input."


def test_sparse_errors():
    X = sp.csr_matrix(np.eye(3))
    with pytest.raises(TypeError, match="MinMaxScaler does not support sparse input.*SvmScaler"):
        MinMaxScaler().fit(X)
    with pytest.raises(TypeError, match="sparse"):
        MinMaxScaler().fit(np.eye(3)).transform(X)
    with pytest.raises(ValueError, match="with_mean=False"):
        StandardScaler().fit(X)
    with pytest.raises(ValueError, match="with_mean=False"):
        StandardScaler(with_mean=True).fit(np.eye(3)).transform(X)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: MinMaxScaler(feature_range=(1, 0)).fit([[0.0]]), ValueError, "feature_range"),
        (lambda: MinMaxScaler(feature_range=1).fit([[0.0]]), TypeError, "feature_range"),
        (lambda: MinMaxScaler(feature_range=("a", 1)).fit([[0.0]]), TypeError,
         "feature_range"),
        (lambda: MinMaxScaler(clip=1).fit([[0.0]]), TypeError, "clip must be a bool"),
        (lambda: StandardScaler(with_std="yes").fit([[0.0]]), TypeError, "with_std"),
        (lambda: StandardScaler().fit([[0.0]], sample_weight=[1.0, 2.0]), ValueError,
         "sample_weight"),
        (lambda: StandardScaler().fit([["a"]]), TypeError, "X must contain numbers"),
        (lambda: MinMaxScaler().fit([[1 + 2j]]), ValueError, "Complex"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_integer_input_becomes_float64_and_float16_is_kept():
    assert MinMaxScaler().fit_transform([[1, 2], [3, 4]]).dtype == np.float64
    X = np.array([[1.0], [3.0]], dtype=np.float16)
    assert MinMaxScaler().fit_transform(X).dtype == np.float16
    assert skp.MinMaxScaler().fit_transform(X).dtype == np.float16


def test_feature_names_are_recorded_and_checked():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"a": [0.0, 1.0], "b": [2.0, 4.0]})
    scaler = StandardScaler().fit(frame)
    assert scaler.feature_names_in_.tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="feature names should match"):
        scaler.transform(frame.rename(columns={"a": "c"}))
