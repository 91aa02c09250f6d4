"""The benchmark data sets of ``benchmarks/run.py``: loading, splitting and scaling.

Every data set is read from the shared LIBSVM text files with scikit-learn's loader (a neutral
parser, so no library under test reads its own data) and returned as a :class:`Dataset` holding
CSR matrices, except MNIST, which is benchmarked dense. The recipes follow
``../shared/data/README.md``: explicit ``n_features`` where a test file uses fewer features than
its training file, ``[-1, 1]`` scaling for the unscaled sets, and a fixed every-k-th-row split
where a set has no separate test file.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

CLASSIFICATION, REGRESSION = "classification", "regression"


@dataclass
class Dataset:
    """One benchmark problem: training and test data plus how it was made.

    Attributes
    ----------
    name : str
        Name used on the command line and in the table.
    task : {"classification", "regression"}
        C-SVC or epsilon-SVR.
    X_train, X_test : csr_matrix or ndarray of shape (n_samples, n_features)
        float64 features; CSR unless the recipe asks for dense input.
    y_train, y_test : ndarray of shape (n_samples,)
        float64 labels or targets.
    notes : list of str
        How the split and scaling were made, for the report.
    """

    name: str
    task: str
    X_train: object
    y_train: np.ndarray
    X_test: object
    y_test: np.ndarray
    notes: list = field(default_factory=list)

    @property
    def n_features(self):
        """Number of feature columns."""
        return self.X_train.shape[1]

    @property
    def is_sparse(self):
        """Whether the features are stored as a CSR matrix."""
        return sp.issparse(self.X_train)

    @property
    def shape_label(self):
        """``"n_train x n_features (sparse|dense)"`` for the table."""
        kind = "sparse" if self.is_sparse else "dense"
        return f"{self.X_train.shape[0]} x {self.n_features} ({kind})"


def _read(data_dir, file_name, n_features=None):
    """Read one LIBSVM text file as a float64 CSR matrix with sorted indices and labels."""
    path = Path(data_dir) / file_name
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found")
    X, y = load_svmlight_file(str(path), n_features=n_features, dtype=np.float64)
    X = sp.csr_matrix(X)
    X.sort_indices()
    return _widen(X, X.shape[1]), np.asarray(y, dtype=np.float64)


def _widen(X, n_features):
    """The CSR matrix ``X`` with ``n_features`` columns (extra columns are empty).

    Indices are 32-bit: scikit-learn's SVC rejects CSR matrices with 64-bit indices, which its
    own loader may return.
    """
    parts = (X.data, X.indices.astype(np.int32), X.indptr.astype(np.int32))
    return sp.csr_matrix(parts, shape=(X.shape[0], n_features))


def _split_every(k, X, y):
    """Every k-th row (indices k-1, 2k-1, ...) becomes test data; the rest is training data."""
    is_test = np.arange(len(y)) % k == k - 1
    return X[~is_test], y[~is_test], X[is_test], y[is_test]


def _scale_to_unit_box(X_train, X_test):
    """Map each feature to [-1, 1] with the training minima and maxima, as ``svm-scale`` does."""
    train, test = X_train.toarray(), X_test.toarray()
    low, high = train.min(axis=0), train.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    return sp.csr_matrix(2 * (train - low) / span - 1), sp.csr_matrix(2 * (test - low) / span - 1)


def _train_test_files(data_dir, train_name, test_name, n_features=None):
    """A training file and its test file, both ``n_features`` wide (the wider of the two)."""
    X_train, y_train = _read(data_dir, train_name, n_features)
    X_test, y_test = _read(data_dir, test_name, n_features)
    width = max(X_train.shape[1], X_test.shape[1])
    return _widen(X_train, width), y_train, _widen(X_test, width), y_test


def _heart_scale(data_dir):
    X, y = _read(data_dir, "heart_scale", 13)
    return X, y, X, y, ["test = train"]


def _dna(data_dir):
    return (*_train_test_files(data_dir, "dna.scale", "dna.scale.t", 180), ["dna.scale.t"])


def _mushrooms(data_dir):
    return (*_split_every(4, *_read(data_dir, "mushrooms", 112)), ["every 4th row is test"])


def _svmguide1(data_dir):
    X_train, y_train, X_test, y_test = _train_test_files(data_dir, "svmguide1", "svmguide1.t", 4)
    X_train, X_test = _scale_to_unit_box(X_train, X_test)
    return X_train, y_train, X_test, y_test, ["svmguide1.t", "scaled to [-1, 1]"]


def _pendigits(data_dir):
    X_train, y_train, X_test, y_test = _train_test_files(data_dir, "pendigits", "pendigits.t", 16)
    return X_train / 100.0, y_train, X_test / 100.0, y_test, ["pendigits.t", "features / 100"]


def _mnist_5k(data_dir):
    X, y = _read(data_dir, "mnist_5k.libsvm", 784)
    X = np.ascontiguousarray(X.toarray() / 255.0)
    return (*_split_every(5, X, y), ["every 5th row is test", "pixels / 255", "dense input"])


def _reuters(data_dir):
    data = _train_test_files(data_dir, "reuters_lasvm", "reuters_lasvm.t")
    return (*data, ["reuters_lasvm.t"])


def _a9a(data_dir):
    return (*_train_test_files(data_dir, "a9a", "a9a.t", 123), ["a9a.t"])


def _w8a(data_dir):
    return (*_train_test_files(data_dir, "w8a", "w8a.t", 300), ["w8a.t"])


def _ijcnn1(data_dir):
    return (*_split_every(5, *_read(data_dir, "ijcnn1", 22)), ["every 5th row is test"])


def _ijcnn1_10k(data_dir):
    X, y = _read(data_dir, "ijcnn1", 22)
    return (*_split_every(5, X[:10_000], y[:10_000]), ["first 10,000 rows", "every 5th is test"])


def _cpusmall(data_dir):
    data = _split_every(5, *_read(data_dir, "cpusmall_scale", 12))
    return (*data, ["every 5th row is test", "epsilon-SVR, epsilon=0.1"])


def _abalone(data_dir):
    data = _split_every(5, *_read(data_dir, "abalone_scale", 8))
    return (*data, ["every 5th row is test", "epsilon-SVR, epsilon=0.1"])


def _housing(data_dir):
    data = _split_every(5, *_read(data_dir, "housing_scale", 13))
    return (*data, ["every 5th row is test", "epsilon-SVR, epsilon=0.1"])


def synthetic_classes(n_rows, n_features, n_classes, seed, dense_binary=0):
    """A reproducible classification problem no shared file covers.

    Each class is a mixture of three Gaussian clusters in ``n_features - dense_binary``
    continuous features (in [-1, 1] after clipping), the clusters close enough that the
    classes overlap (many support vectors, as on real data); ``dense_binary`` 0/1
    features are added, one-hot groups of four whose active member depends on the
    class and noise (covertype's mix of measurements and soil / area indicators).
    Rows are returned dense (float64), labels 0 .. n_classes - 1.
    """
    rng = np.random.default_rng(seed)
    n_continuous = n_features - dense_binary
    centres = rng.uniform(-0.6, 0.6, size=(n_classes, 3, n_continuous))
    labels = rng.integers(0, n_classes, size=n_rows)
    cluster = rng.integers(0, 3, size=n_rows)
    X = centres[labels, cluster] + rng.normal(scale=0.25, size=(n_rows, n_continuous))
    X = np.clip(X, -1.0, 1.0)
    if dense_binary:
        groups = dense_binary // 4
        preferred = rng.integers(0, 4, size=(n_classes, groups))
        active = np.where(rng.random((n_rows, groups)) < 0.7, preferred[labels],
                          rng.integers(0, 4, size=(n_rows, groups)))
        indicators = np.zeros((n_rows, groups * 4))
        indicators[np.arange(n_rows)[:, None], 4 * np.arange(groups) + active] = 1.0
        X = np.hstack([X, indicators])
    return np.ascontiguousarray(X), labels.astype(np.float64)


def _many_classes(data_dir):
    X, y = synthetic_classes(20_000, 16, 26, seed=26)
    return (*_split_every(4, X, y),
            ["synthetic: 26 classes, 16 dense features (letter's shape)", "every 4th row is test"])


def _six_classes_36(data_dir):
    X, y = synthetic_classes(6_000, 36, 6, seed=36)
    return (*_split_every(3, X, y),
            ["synthetic: 6 classes, 36 dense features (satimage's shape)",
             "every 3rd row is test"])


def _dense_54(data_dir):
    X, y = synthetic_classes(10_000, 54, 7, seed=54, dense_binary=44)
    return (*_split_every(2, X, y),
            ["synthetic: 7 classes, 10 continuous + 44 indicator features (covertype's shape)",
             "every 2nd row is test", "dense input"])


# name -> (task, recipe); the order is the order of the report.
RECIPES = {
    "heart_scale": (CLASSIFICATION, _heart_scale),
    "dna.scale": (CLASSIFICATION, _dna),
    "mushrooms": (CLASSIFICATION, _mushrooms),
    "svmguide1": (CLASSIFICATION, _svmguide1),
    "ijcnn1_10k": (CLASSIFICATION, _ijcnn1_10k),
    "pendigits": (CLASSIFICATION, _pendigits),
    "mnist_5k": (CLASSIFICATION, _mnist_5k),
    "reuters_lasvm": (CLASSIFICATION, _reuters),
    "a9a": (CLASSIFICATION, _a9a),
    "w8a": (CLASSIFICATION, _w8a),
    "ijcnn1": (CLASSIFICATION, _ijcnn1),
    "cpusmall_scale": (REGRESSION, _cpusmall),
    "abalone_scale": (REGRESSION, _abalone),
    "housing_scale": (REGRESSION, _housing),
    "many_classes_26": (CLASSIFICATION, _many_classes),
    "dense_54": (CLASSIFICATION, _dense_54),
    "six_classes_36": (CLASSIFICATION, _six_classes_36),
}
# Generated here, not read from the shared folder.
SYNTHETIC = ["many_classes_26", "dense_54", "six_classes_36"]
QUICK = ["heart_scale", "dna.scale", "mushrooms", "svmguide1", "ijcnn1_10k"]
FULL = [name for name in RECIPES if name != "ijcnn1_10k" and name not in SYNTHETIC]
# The large sets on which the issue sets the strictest targets (and LIBSVM is slowest).
LARGE = {"a9a", "w8a", "ijcnn1"}


def load_dataset(name, data_dir):
    """Load the benchmark data set ``name`` from ``data_dir``.

    Parameters
    ----------
    name : str
        A key of :data:`RECIPES`.
    data_dir : path-like
        The shared data folder (``<project root>/../shared/data``).

    Returns
    -------
    Dataset

    Raises
    ------
    FileNotFoundError
        When one of the data set's files is missing.

    Examples
    --------
    >>> data = load_dataset("heart_scale", "../shared/data")  # doctest: +SKIP
    >>> data.shape_label  # doctest: +SKIP
    '270 x 13 (sparse)'
    """
    task, recipe = RECIPES[name]
    X_train, y_train, X_test, y_test, notes = recipe(data_dir)
    return Dataset(name, task, X_train, y_train, X_test, y_test, list(notes))


def tiny_dataset(task, sparse=True):
    """A 40-row problem for warming each library up before anything is timed."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0) if task == CLASSIFICATION else X[:, 0] + 0.1 * X[:, 1]
    X = sp.csr_matrix(X) if sparse else X
    return Dataset("warm-up", task, X, y, X, y)
