"""Shared fixtures for the svmx test suite.

The parity tests read real datasets in LIBSVM's text format from ``../shared/data`` (relative to
the project root, the parent of ``tests/``). That folder exists on the team's machines and in CI
but is not shipped with the package, so a test that needs a missing file is skipped, not failed.
"""

import contextlib
import ctypes
import os
from functools import cache
from pathlib import Path

import numpy as np
import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"


@cache
def _read_libsvm_file(path, n_features):
    """Parse a LIBSVM file once per session; the cached arrays are frozen against mutation."""
    from sklearn.datasets import load_svmlight_file

    X_sparse, y = load_svmlight_file(str(path), n_features=n_features, dtype=np.float64)
    X = np.ascontiguousarray(X_sparse.toarray(), dtype=np.float64)
    X.setflags(write=False)
    y.setflags(write=False)
    return X, y


def load_shared(name, n_features=None):
    """Load ``../shared/data/<name>`` as a dense float64 matrix and a label vector.

    Parameters
    ----------
    name : str
        File name inside the shared data folder, e.g. ``"heart_scale"`` or ``"dna.scale.t"``.
    n_features : int, default=None
        Width of the returned matrix. Pass it for test files that use fewer features than
        their training file (``a9a.t``, ``mnist_5k.libsvm``).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), dtype float64, C-contiguous, writable
    y : ndarray of shape (n_samples,), dtype float64, writable

    Skips the calling test when the file is absent.
    """
    path = SHARED_DATA_DIR / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's machines")
    X, y = _read_libsvm_file(path, n_features)
    # Copies, so that a test which writes into its data cannot corrupt the session cache.
    return X.copy(), y.copy()


def shared_subset(name, rows, regression=False):
    """Every k-th row of a shared dataset (about ``rows`` of them), features scaled into
    [-1, 1], multi-class data cut to its two most frequent classes (unless ``regression``).

    Skips the calling test when the file is absent.
    """
    if not (SHARED_DATA_DIR / name).exists():
        pytest.skip(f"shared dataset {name} is not available ({SHARED_DATA_DIR})")
    X, y = load_shared(name)
    if not regression:
        labels, counts = np.unique(y, return_counts=True)
        keep = np.isin(y, labels[np.argsort(-counts)[:2]])
        X, y = X[keep], y[keep]
    step = max(1, X.shape[0] // rows)
    X, y = X[::step][:rows], y[::step][:rows]
    scale = np.abs(X).max(axis=0)
    X = X[:, scale > 0] / scale[scale > 0]
    return np.ascontiguousarray(X), y


@pytest.fixture(scope="session")
def shared_data_dir():
    """Path of ``<project root>/../shared/data`` (it may not exist off the team's machines)."""
    return SHARED_DATA_DIR


@pytest.fixture(name="load_shared", scope="session")
def load_shared_fixture():
    """The :func:`load_shared` helper, for tests that prefer a fixture to an import."""
    return load_shared


@contextlib.contextmanager
def one_openmp_thread():
    """Run libsvm-official with one OpenMP thread: LIBSVM's sequential arithmetic.

    libsvm-official is built with OpenMP, and LIBSVM 3.37 sums a regression's or a
    one-class model's decision value with an OpenMP reduction (``schedule(guided)``), whose
    last bits depend on how the threads shared the work; svm-train built by LIBSVM's own
    Makefile (no OpenMP) sums sequentially, and that is the reference.
    """
    try:
        gomp = ctypes.CDLL("libgomp.so.1")
    except OSError:  # no OpenMP runtime: the library runs sequentially anyway
        yield
        return
    threads = gomp.omp_get_max_threads()
    gomp.omp_set_num_threads(1)
    try:
        yield
    finally:
        gomp.omp_set_num_threads(threads)


def svmx_child_env(**extra):
    """The environment for a child ``python`` that must import the svmx under test (the
    installed wheel in CI), not a source tree in its working directory: the package's
    home first on PYTHONPATH. Run the child with ``cwd`` outside the checkout as well."""
    import svmx

    home = str(Path(svmx.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([home, *filter(None, [env.get("PYTHONPATH")])])
    env.update(extra)
    return env
