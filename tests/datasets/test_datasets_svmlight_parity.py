"""Parity of svmx's loader with scikit-learn's on every file of ../shared/data."""

import numpy as np
import pytest
from sklearn.datasets import load_svmlight_file as sklearn_load

from svmx.datasets import dump_svmlight_file, load_svmlight_file

SHARED_FILES = [
    "heart_scale", "a9a", "a9a.t", "w8a", "w8a.t", "ijcnn1", "mushrooms", "svmguide1",
    "svmguide1.t", "reuters_lasvm", "reuters_lasvm.t", "dna.scale", "dna.scale.t", "pendigits",
    "pendigits.t", "mnist_5k.libsvm", "abalone_scale", "cpusmall_scale", "housing_scale",
]


def _shared_path(shared_data_dir, name):
    path = shared_data_dir / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's machines")
    return path


@pytest.mark.parametrize("name", SHARED_FILES)
def test_same_matrix_and_labels_as_sklearn(shared_data_dir, name):
    path = _shared_path(shared_data_dir, name)
    X, y = load_svmlight_file(path)
    X_ref, y_ref = sklearn_load(str(path))
    assert X.shape == X_ref.shape
    assert (X != X_ref).nnz == 0
    np.testing.assert_array_equal(y, y_ref)


@pytest.mark.parametrize("name", ["heart_scale", "dna.scale.t"])
def test_dump_of_real_data_reads_back_in_sklearn(shared_data_dir, tmp_path, name):
    X, y = load_svmlight_file(_shared_path(shared_data_dir, name))
    dump_svmlight_file(X, y, tmp_path / "copy")
    X_ref, y_ref = sklearn_load(str(tmp_path / "copy"), n_features=X.shape[1])
    assert (X != X_ref).nnz == 0
    np.testing.assert_array_equal(y, y_ref)
