"""A grid search on a real dask.distributed cluster gives the n_jobs=1 results."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.svm import SVC

from svmx.model_selection import GridSearch, cross_validate

distributed = pytest.importorskip("distributed")
joblib = pytest.importorskip("joblib")


@pytest.fixture(scope="module")
def dask_client():
    # Scheduler and workers on localhost only; no dashboard.
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_grid_search_on_dask_matches_one_job(dask_client):
    X, y = load_iris(return_X_y=True)
    grid = {"C": [0.1, 1.0, 10.0], "gamma": [0.01, 0.1, 1.0]}
    local = GridSearch(SVC(), grid, cv=4, n_jobs=1).fit(X, y)
    with joblib.parallel_backend("dask"):
        remote = GridSearch(SVC(), grid, cv=4).fit(X, y)
    assert remote.cv_results_["params"] == local.cv_results_["params"]
    for fold in range(4):
        key = f"split{fold}_test_score"
        np.testing.assert_array_equal(remote.cv_results_[key], local.cv_results_[key])
    assert remote.best_params_ == local.best_params_
    assert remote.best_score_ == local.best_score_
    assert len(dask_client.scheduler_info()["workers"]) == 2


def test_cross_validate_on_dask_matches_one_job(dask_client):
    X, y = load_iris(return_X_y=True)
    local = cross_validate(SVC(), X, y, cv=5, n_jobs=1)
    with joblib.parallel_backend("dask"):
        remote = cross_validate(SVC(), X, y, cv=5)
    np.testing.assert_array_equal(remote["test_score"], local["test_score"])


def test_cross_validate_sharing_kernels_on_dask_matches_one_job(dask_client):
    import svmx
    from svmx.model_selection._kernel_groups import plan_shared_folds
    from svmx.model_selection._validation import FitOptions

    rng = np.random.default_rng(0)
    y = np.arange(120) % 3
    X = rng.normal(scale=0.15, size=(3, 110))[y] + rng.normal(size=(120, 110))
    estimator = svmx.SVC(gamma=0.01)
    local = cross_validate(estimator, X, y, cv=5, n_jobs=1)
    with joblib.parallel_backend("dask"):
        runs = plan_shared_folds(estimator, X, [(np.arange(2), np.arange(2))] * 5, None, {},
                                 FitOptions(), None)
        remote = cross_validate(estimator, X, y, cv=5)
    assert len(runs) == 2  # one run of folds per dask worker, each sharing a Gram matrix
    np.testing.assert_array_equal(remote["test_score"], local["test_score"])
