"""``n_jobs``: one-vs-one pairs trained in threads give the very same model.

Each pair is an independent solve, and the results are assembled in pair order, so the thread
count must not change a single bit of the model: ``support_``, ``dual_coef_``, ``intercept_``,
``n_iter_`` and, with ``probability=True`` and a fixed ``random_state``, ``probA_``/``probB_``.
Checked on dna.scale (3 classes) and pendigits (10 classes, 45 pairs, scaled by 1/100).
"""

import numpy as np
import pytest
from conftest import load_shared
from numpy.testing import assert_array_equal

from svmx import SVC, NuSVC

MODEL_ATTRIBUTES = ["support_", "n_support_", "dual_coef_", "intercept_", "n_iter_"]
PROBABILITY_ATTRIBUTES = ["probA_", "probB_"]


def _dna():
    X_train, y_train = load_shared("dna.scale", n_features=180)
    X_test, _ = load_shared("dna.scale.t", n_features=180)
    return X_train, y_train, X_test


def _pendigits(step=1):
    """pendigits scaled to [0, 1]; every ``step``-th training row."""
    X_train, y_train = load_shared("pendigits", n_features=16)
    X_test, _ = load_shared("pendigits.t", n_features=16)
    return X_train[::step] / 100.0, y_train[::step], X_test / 100.0


PROBLEMS = {
    "dna": _dna,
    "pendigits": _pendigits,
    # NuSVC with probability=True on all 7,494 pendigits rows takes about 20 s per fit on the
    # team's 2-core machines (6 solves per pair for the cross-validation); every third row
    # keeps all 10 classes and 45 pairs at a third of the cost.
    "pendigits_every_third_row": lambda: _pendigits(step=3),
}
ESTIMATORS = {"SVC": SVC, "NuSVC": NuSVC}

CASES = [
    ("dna", "SVC", True),
    ("dna", "NuSVC", True),
    ("pendigits", "SVC", True),
    ("pendigits", "NuSVC", False),
    ("pendigits_every_third_row", "NuSVC", True),
]


def _assert_bit_identical(actual, expected, X_test, probability):
    attributes = MODEL_ATTRIBUTES + (PROBABILITY_ATTRIBUTES if probability else [])
    for attribute in attributes:
        mine, reference = getattr(actual, attribute), getattr(expected, attribute)
        assert mine.dtype == reference.dtype, attribute
        assert_array_equal(mine, reference, err_msg=attribute, strict=True)
    assert_array_equal(actual.support_vectors_, expected.support_vectors_, strict=True)
    assert_array_equal(
        actual.decision_function(X_test), expected.decision_function(X_test), strict=True
    )
    if probability:
        assert_array_equal(
            actual.predict_proba(X_test), expected.predict_proba(X_test), strict=True
        )


@pytest.mark.parametrize("name, estimator, probability", CASES)
def test_n_jobs_does_not_change_the_model(name, estimator, probability):
    X_train, y_train, X_test = PROBLEMS[name]()
    params = {"probability": probability, "random_state": 0}
    one = ESTIMATORS[estimator](n_jobs=1, **params).fit(X_train, y_train)
    two = ESTIMATORS[estimator](n_jobs=2, **params).fit(X_train, y_train)
    assert one.fit_status_ == 0
    _assert_bit_identical(two, one, X_test, probability)


@pytest.mark.parametrize("n_jobs", [None, -1, 3])
def test_all_cores_and_more_threads_than_cores_give_the_same_model(n_jobs):
    X_train, y_train, X_test = _dna()
    one = SVC(n_jobs=1).fit(X_train, y_train)
    other = SVC(n_jobs=n_jobs).fit(X_train, y_train)
    _assert_bit_identical(other, one, X_test, probability=False)


def test_block_solver_threads_give_the_same_model():
    """solver='block' on dna.scale (3 pairs of about 1,300 rows), Platt sigmoids included."""
    X_train, y_train, X_test = _dna()
    params = {"solver": "block", "probability": True, "random_state": 0}
    one = SVC(n_jobs=1, **params).fit(X_train, y_train)
    two = SVC(n_jobs=2, **params).fit(X_train, y_train)
    assert one.fit_status_ == 0
    _assert_bit_identical(two, one, X_test, probability=True)


@pytest.mark.parametrize(
    "estimator, solver, probability",
    [("SVC", "smo", True), ("NuSVC", "smo", True), ("SVC", "block", False)],
)
def test_repeated_fits_are_bit_identical(estimator, solver, probability):
    X_train, y_train, X_test = _dna()
    params = {"solver": solver, "probability": probability, "random_state": 7, "n_jobs": 2}
    first = ESTIMATORS[estimator](**params).fit(X_train, y_train)
    second = ESTIMATORS[estimator](**params).fit(X_train, y_train)
    _assert_bit_identical(second, first, X_test, probability=probability)
    if not probability:
        # Refitting the same estimator object gives the same model too.
        dual_coef = first.dual_coef_.copy()
        first.fit(X_train, y_train)
        assert_array_equal(first.dual_coef_, dual_coef, strict=True)


def test_threads_really_run_pairs_concurrently():
    """With n_jobs=2 two pairs are in the engine at once (the solves release the GIL)."""
    import threading

    import svmx._libsvm

    X_train, y_train, _ = _dna()
    active, most = [0], [0]
    lock = threading.Lock()
    train_one = svmx._libsvm.train_one
    barrier = threading.Barrier(2, timeout=10)
    calls = [0]

    def spy(*args, **kwargs):
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
            calls[0] += 1
            first_two = calls[0] <= 2
        if first_two:
            try:
                barrier.wait()  # the first two pairs meet here only if they run at once
            except threading.BrokenBarrierError:
                pass
        try:
            return train_one(*args, **kwargs)
        finally:
            with lock:
                active[0] -= 1

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(svmx._libsvm, "train_one", spy)
    try:
        SVC(n_jobs=2).fit(X_train, y_train)
    finally:
        monkeypatch.undo()
    assert np.unique(y_train).size == 3  # three pairs
    assert most[0] == 2, f"at most {most[0]} pair(s) were solved at once with n_jobs=2"
