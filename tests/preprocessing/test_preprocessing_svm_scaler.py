"""SvmScaler is LIBSVM's svm-scale: outputs compared with svm-scale's, range files both ways."""

import shutil
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

from svmx.datasets import dump_svmlight_file, load_svmlight_file
from svmx.exceptions import NotFittedError
from svmx.preprocessing import MinMaxScaler, SvmScaler
from svmx.preprocessing._svm_scale import read_range_file

SVM_SCALE = shutil.which("svm-scale")
needs_svm_scale = pytest.mark.skipif(SVM_SCALE is None,
                                     reason="LIBSVM's svm-scale is not on PATH")


def _svm_scale(arguments, path, n_features):
    """svm-scale's output, parsed back."""
    result = subprocess.run([SVM_SCALE, *arguments, str(path)], capture_output=True, text=True,
                            check=True)
    return load_svmlight_file(result.stdout.encode(), n_features=n_features, zero_based=False)


def _as_printed(matrix):
    """Our CSR output with svm-scale's printed precision (%g) applied to each value."""
    printed = matrix.copy()
    printed.data = np.array([float(f"{value:g}") for value in printed.data.tolist()])
    return printed


def _assert_same_csr(ours, theirs):
    assert sp.issparse(ours) and ours.format == "csr" and ours.shape == theirs.shape
    theirs = sp.csr_matrix(theirs)
    theirs.sort_indices()
    # The same stored entries (svm-scale prints no zero; we store none) and the same values.
    np.testing.assert_array_equal(ours.indptr, theirs.indptr)
    np.testing.assert_array_equal(ours.indices, theirs.indices)
    np.testing.assert_array_equal(_as_printed(ours).data, theirs.data)


def _shared(shared_data_dir, name):
    path = shared_data_dir / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's machines")
    return path


@needs_svm_scale
@pytest.mark.parametrize("name", ["heart_scale", "housing_scale", "a9a", "mushrooms",
                                  "svmguide1"])
@pytest.mark.parametrize("lower, upper", [(-1.0, 1.0), (0.0, 1.0)])
def test_output_equals_svm_scale(shared_data_dir, name, lower, upper):
    path = _shared(shared_data_dir, name)
    X, y = load_svmlight_file(path, zero_based=False)
    expected, expected_y = _svm_scale(["-l", f"{lower:g}", "-u", f"{upper:g}"], path, X.shape[1])
    scaler = SvmScaler(lower, upper)
    _assert_same_csr(scaler.fit_transform(X), expected)
    np.testing.assert_array_equal(expected_y, y)
    dense = scaler.transform(X.toarray())  # dense input: the same numbers, dense
    assert isinstance(dense, np.ndarray)
    np.testing.assert_array_equal(dense, scaler.transform(X).toarray())


@needs_svm_scale
@pytest.mark.parametrize("name", ["housing_scale", "heart_scale"])
def test_label_scaling_equals_svm_scale_y(shared_data_dir, name):
    path = _shared(shared_data_dir, name)
    X, y = load_svmlight_file(path, zero_based=False)
    expected, expected_y = _svm_scale(["-l", "0", "-u", "1", "-y", "-1", "1"], path, X.shape[1])
    scaler = SvmScaler(lower=0.0, upper=1.0, y_range=(-1, 1)).fit(X, y)
    _assert_same_csr(scaler.transform(X), expected)
    np.testing.assert_array_equal(scaler.transform_y(y), expected_y)  # printed %.17g: exact


@needs_svm_scale
def test_constant_columns_are_dropped_as_svm_scale_does(tmp_path):
    X = np.array([[2.0, 5.0, 0.0, 1.0], [4.0, 5.0, 0.0, 3.0], [3.0, 5.0, 0.0, 0.0]])
    y = np.array([7.0, 7.0, 7.0])  # constant labels too
    path = tmp_path / "data"
    dump_svmlight_file(X, y, path, zero_based=False)
    expected, expected_y = _svm_scale(["-y", "0", "1"], path, X.shape[1])
    scaler = SvmScaler(y_range=(0, 1)).fit(sp.csr_matrix(X), y)
    out = scaler.transform(sp.csr_matrix(X))
    _assert_same_csr(out, expected)
    assert out[:, 1].nnz == 0 and out[:, 2].nnz == 0
    np.testing.assert_array_equal(scaler.transform_y(y), expected_y)
    assert expected_y.tolist() == [0.0, 0.0, 0.0]
    # The dense output holds 0 where svm-scale prints nothing; MinMaxScaler maps to -1.
    assert scaler.transform(X)[:, 1].tolist() == [0.0, 0.0, 0.0]
    assert MinMaxScaler((-1, 1)).fit_transform(X)[:, 1].tolist() == [-1.0, -1.0, -1.0]


@needs_svm_scale
@pytest.mark.parametrize("options", [[], ["-l", "0", "-u", "1"], ["-y", "0", "1"]])
def test_range_files_are_interchangeable(shared_data_dir, tmp_path, options):
    train = _shared(shared_data_dir, "dna.scale")
    test = _shared(shared_data_dir, "dna.scale.t")
    X, y = load_svmlight_file(train, zero_based=False)
    X_test, y_test = load_svmlight_file(test, n_features=X.shape[1], zero_based=False)
    theirs = tmp_path / "svm-scale.range"
    subprocess.run([SVM_SCALE, *options, "-s", str(theirs), str(train)], check=True,
                   capture_output=True)
    y_range = (0.0, 1.0) if "-y" in options else None
    lower = 0.0 if "-l" in options else -1.0
    scaler = SvmScaler(lower=lower, y_range=y_range).fit(X, y)
    ours = tmp_path / "svmx.range"
    scaler.save_range(ours)
    assert ours.read_text() == theirs.read_text()  # byte for byte
    # svm-scale -r our file, and our scaler from svm-scale's file, scale the test set alike.
    expected, expected_y = _svm_scale(["-r", str(ours)], test, X.shape[1])
    restored = SvmScaler.load_range(theirs, n_features=X.shape[1])
    _assert_same_csr(restored.transform(X_test), expected)
    if y_range:
        np.testing.assert_array_equal(restored.transform_y(y_test), expected_y)
    assert restored.get_params() == scaler.get_params()
    np.testing.assert_array_equal(restored.data_min_, scaler.data_min_ * (scaler.data_min_ !=
                                                                           scaler.data_max_))


def test_save_and_load_round_trip_exactly(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 5)) * 1e3
    X[:, 2] = 1.5
    scaler = SvmScaler(lower=-2.5, upper=0.1, y_range=(-3, 3)).fit(X, rng.normal(size=20))
    path = tmp_path / "range"
    scaler.save_range(path)
    assert "3 " not in "".join(line[:2] for line in path.read_text().splitlines()[5:])
    restored = SvmScaler.load_range(path, n_features=5)
    np.testing.assert_array_equal(restored.transform(X), scaler.transform(X))
    assert (restored.y_min_, restored.y_max_) == (scaler.y_min_, scaler.y_max_)
    assert restored.y_range == (-3.0, 3.0) and restored.lower == -2.5
    assert SvmScaler.load_range(path).n_features_in_ == 5  # largest listed index
    ranges = read_range_file(path)
    assert sorted(ranges.features) == [1, 2, 4, 5] and ranges.width == 5


def test_sparse_stays_sparse_with_lower_zero_and_matches_dense():
    X = sp.random(30, 8, density=0.2, random_state=2, format="csr") * 4.0
    scaler = SvmScaler(lower=0.0).fit(X)
    out = scaler.transform(X)
    assert out.format == "csr" and out.nnz <= X.nnz and out.dtype == np.float64
    np.testing.assert_array_equal(out.toarray(), SvmScaler(lower=0.0).fit_transform(X.toarray()))
    # With lower=-1 the implicit zeros of non-negative data become -1: stored.
    dense = SvmScaler().fit(X).transform(X)
    np.testing.assert_array_equal(dense.toarray(), SvmScaler().fit_transform(X.toarray()))
    assert isinstance(SvmScaler().fit_transform(sp.csr_array(X)), sp.csr_array)


def test_implicit_zeros_count_in_the_range():
    X = sp.csr_matrix(np.array([[3.0, 1.0], [5.0, 0.0], [4.0, 2.0]]))
    X_dense_rows_only = np.array([[3.0, 1.0], [5.0, 2.0]])
    scaler = SvmScaler().fit(X)
    assert scaler.data_min_.tolist() == [3.0, 0.0] and scaler.data_max_.tolist() == [5.0, 2.0]
    assert scaler.transform(X).toarray().tolist() == [[-1.0, 0.0], [1.0, -1.0], [0.0, 1.0]]
    assert SvmScaler().fit(X_dense_rows_only).data_min_.tolist() == [3.0, 1.0]


def test_inverse_transform_round_trips():
    rng = np.random.default_rng(1)
    X = rng.uniform(-5, 5, size=(15, 4))
    X[:, 3] = 2.0
    scaler = SvmScaler(lower=-1.0, upper=2.0).fit(X)
    np.testing.assert_allclose(scaler.inverse_transform(scaler.transform(X)), X, rtol=1e-12)
    S = sp.csr_matrix(np.where(X > 0, X, 0.0))
    scaler = SvmScaler(lower=0.0).fit(S)
    back = scaler.inverse_transform(scaler.transform(S))
    assert back.format == "csr"
    np.testing.assert_allclose(back.toarray(), S.toarray(), rtol=1e-12, atol=1e-12)


def test_nan_is_ignored_in_fit_and_kept():
    X = np.array([[1.0, np.nan], [3.0, 2.0], [np.nan, 4.0]])
    scaler = SvmScaler().fit(X)
    assert scaler.data_min_.tolist() == [1.0, 2.0]
    out = scaler.transform(X)
    np.testing.assert_array_equal(np.isnan(out), np.isnan(X))
    assert SvmScaler().fit(np.array([[np.nan], [np.nan]])).data_max_.tolist() == [0.0]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: SvmScaler(lower=1, upper=0).fit([[0.0]]), ValueError, "lower must be smaller"),
        (lambda: SvmScaler(lower="a").fit([[0.0]]), TypeError, "lower must be a real number"),
        (lambda: SvmScaler(upper=np.inf).fit([[0.0]]), ValueError, "upper must be finite"),
        (lambda: SvmScaler(y_range=(1, 0)).fit([[0.0]], [1.0]), ValueError, "y_range"),
        (lambda: SvmScaler(y_range=3).fit([[0.0]], [1.0]), TypeError, "y_range"),
        (lambda: SvmScaler(y_range=(0, 1)).fit([[0.0]]), ValueError, "y is required"),
        (lambda: SvmScaler(y_range=(0, 1)).fit([[0.0]], [1.0, 2.0]), ValueError, r"y must have"),
        (lambda: SvmScaler().fit([[0.0]]).transform_y([1.0]), ValueError, "y_range"),
        (lambda: SvmScaler().fit([[np.inf]]), ValueError, "infinity"),
        (lambda: SvmScaler().fit([[1.0], [2.0]]).transform([[1.0, 2.0]]), ValueError,
         "X has 2 features, but SvmScaler is expecting 1 features"),
        (lambda: SvmScaler().transform([[1.0]]), NotFittedError, "fit"),
        (lambda: SvmScaler().fit(sp.csr_matrix((0, 3))), ValueError, "empty"),
        # A cast to float would drop the imaginary parts (scikit-learn refuses it too).
        (lambda: SvmScaler().fit(np.array([[1 + 5j, 2.0]])), ValueError, "Complex data"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_bad_range_files(tmp_path):
    path = tmp_path / "range"
    path.write_text("x\n-1 1\n1 2\n")
    with pytest.raises(ValueError, match="line 3: expected 3 numbers"):
        SvmScaler.load_range(path)
    path.write_text("x\n-1 1\n")
    with pytest.raises(ValueError, match="lists no feature: pass n_features"):
        SvmScaler.load_range(path)
    assert SvmScaler.load_range(path, n_features=2).transform([[3.0, 4.0]]).tolist() == [
        [0.0, 0.0]]
    path.write_text("x\n-1 1\n4 0 1\n")
    with pytest.raises(ValueError, match="n_features must be at least 4"):
        SvmScaler.load_range(path, n_features=2)
    with pytest.raises(TypeError, match="n_features must be an integer"):
        SvmScaler.load_range(path, n_features=4.0)


def test_data_frame_feature_names_as_scikit_learns_scalers():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([[0.0, 10.0], [1.0, 30.0], [0.5, 20.0]], columns=["a", "b"])
    scaler = SvmScaler().fit(frame)
    assert scaler.feature_names_in_.tolist() == ["a", "b"]
    assert scaler.get_feature_names_out().tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="feature names should match"):
        scaler.transform(frame.rename(columns={"a": "z"}))
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        scaler.transform(frame.to_numpy())
    assert scaler.inverse_transform(scaler.transform(frame)).tolist() == frame.to_numpy().tolist()
