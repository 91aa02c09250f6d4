"""The default thread count: the cores the process may use, within the limit in force.

``n_jobs=None`` (the estimators' default) follows OpenMP's limit on the calling thread, so
``OMP_NUM_THREADS``, threadpoolctl's ``threadpool_limits`` and the share joblib gives each
of its worker processes hold, and the CPU affinity mask (``taskset``, containers) is
respected. ``GridSearchCV(svmx.SVC(), n_jobs=2)`` therefore runs one thread per fit on two
cores. ``benchmarks/bench_threads.py`` measures what that saves.
"""

import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest
from conftest import svmx_child_env

from svmx import SVC, SVR
from svmx._config import build_info
from svmx._specs import available_cores, resolve_threads, thread_limit

joblib = pytest.importorskip("joblib")
threadpoolctl = pytest.importorskip("threadpoolctl")
needs_openmp = pytest.mark.skipif(not build_info()["openmp"], reason="a build without OpenMP")


def _in_child(code, **environment):
    env = svmx_child_env(**environment)
    if "OMP_NUM_THREADS" not in environment:
        env.pop("OMP_NUM_THREADS", None)
    # Outside the checkout, so that the child imports the svmx under test.
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                            cwd=tempfile.gettempdir(), capture_output=True, text=True,
                            timeout=600, check=True)
    return result.stdout.split()


def test_default_is_every_usable_core_without_limits():
    (cores, default, all_but_one) = _in_child(
        """
        from svmx._specs import available_cores, resolve_threads
        print(available_cores(), resolve_threads(None), resolve_threads(-2))
        """
    )
    assert default == cores
    assert int(all_but_one) == max(1, int(cores) - 1)
    assert resolve_threads(4) == 4  # an explicit count is taken as it is


@pytest.mark.parametrize("value, expected", [("1", 1), ("3", 3), ("2,1", 2)])
def test_omp_num_threads_is_obeyed(value, expected):
    assert _in_child("from svmx._specs import resolve_threads; print(resolve_threads(None))",
                     OMP_NUM_THREADS=value) == [str(expected)]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this OS")
def test_affinity_mask_bounds_the_default():
    (cores, default) = _in_child(
        """
        import os
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        from svmx._specs import available_cores, resolve_threads
        print(available_cores(), resolve_threads(None))
        """
    )
    assert (cores, default) == ("1", "1")


@needs_openmp
def test_threadpool_limits_bound_the_fit():
    X = np.random.default_rng(0).normal(size=(40, 3))
    with threadpoolctl.threadpool_limits(limits=1, user_api="openmp"):
        assert thread_limit() == 1
        assert SVR()._solve_spec().threads == 1
    assert SVR()._solve_spec().threads == thread_limit()
    SVR().fit(X, X[:, 0])


def _threads_seen_in_workers(n_jobs):
    """The thread count svmx's default gives inside each of joblib's worker processes."""
    return joblib.Parallel(n_jobs=n_jobs, backend="loky")(
        joblib.delayed(resolve_threads)(None) for _ in range(2 * n_jobs))


@needs_openmp
def test_joblib_workers_get_their_share_of_the_cores():
    for n_jobs in (2, 3):
        share = max(1, available_cores() // n_jobs)
        assert _threads_seen_in_workers(n_jobs) == [share] * (2 * n_jobs)


@needs_openmp
def test_grid_search_cv_with_two_jobs_does_not_oversubscribe():
    model_selection = pytest.importorskip("sklearn.model_selection")

    class RecordingSVC(SVC):  # local, so cloudpickle sends it to the workers by value
        def fit(self, X, y, sample_weight=None):
            self.threads_used_ = self._solve_spec().threads
            return super().fit(X, y, sample_weight)

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 0.5)
    result = model_selection.cross_validate(RecordingSVC(), X, y, cv=4, n_jobs=2,
                                            return_estimator=True)
    share = max(1, available_cores() // 2)
    assert [model.threads_used_ for model in result["estimator"]] == [share] * 4
    search = model_selection.GridSearchCV(RecordingSVC(), {"C": [0.5, 2.0]}, cv=3,
                                          n_jobs=2).fit(X, y)
    assert search.best_estimator_.threads_used_ == thread_limit()  # the refit, here
