"""float32 input: used as it is (no float64 copy of X), with float64's answers.

svmx keeps float32 training data in float32 (the engine reads float32 rows and forms their dot
products in single precision); the solver's state stays in float64, so a float32 fit differs
from a float64 fit only through the rounding of X and of its dot products (about 1e-6).
Thresholds: decision values agree to 1e-4 of their scale, predicted labels on >= 99.9% of rows.

Decision values are compared at ``tol=1e-6``: at the default ``tol=1e-3`` SMO stops anywhere
within 1e-3 of the optimum, and a 1e-7 perturbation of the kernel moves that stopping point
by a few 1e-4 (heart_scale, SVC: 152 vs 154 iterations, decision values 2.3e-4 apart -- the
same gap as a float64 fit on the float32-rounded data). Labels are compared at the default tol.
"""

import tracemalloc

import numpy as np
import pytest
from conftest import load_shared
from numpy.testing import assert_array_equal

from svmx import SVC, SVR, NuSVC, NuSVR, OneClassSVM

DECISION_RTOL = 1e-4
DECISION_TOL = 1e-6
PREDICTION_AGREEMENT = 0.999

CLASSIFIERS = {
    "SVC": lambda: SVC(C=1.0),
    "NuSVC": lambda: NuSVC(nu=0.5),
    "OneClassSVM": lambda: OneClassSVM(nu=0.2),
}
REGRESSORS = {
    "SVR": lambda: SVR(C=1.0, epsilon=0.1),
    "NuSVR": lambda: NuSVR(C=1.0, nu=0.5),
}


def _split_every_fourth_row(X, y):
    is_test = np.arange(len(y)) % 4 == 3
    return X[~is_test], y[~is_test], X[is_test], y[is_test]


def _fit(make, X, y, **params):
    model = make().set_params(**params)
    return model.fit(X) if isinstance(model, OneClassSVM) else model.fit(X, y)


def _scaled_error(actual, expected):
    return np.max(np.abs(actual - expected)) / max(np.max(np.abs(expected)), 1e-12)


CLASSIFIER_CASES = [(name, "smo") for name in CLASSIFIERS] + [
    ("SVC", "block"),
    ("OneClassSVM", "block"),  # 'block' serves C-SVC, one-class and epsilon-SVR only
]


@pytest.mark.parametrize("name, solver", CLASSIFIER_CASES)
def test_float32_classifier_agrees_with_float64(name, solver):
    X_train, y_train, X_test, _ = _split_every_fourth_row(*load_shared("heart_scale"))
    make = CLASSIFIERS[name]
    X32 = X_train.astype(np.float32)
    for tol in (1e-3, DECISION_TOL):
        model64 = _fit(make, X_train, y_train, solver=solver, tol=tol)
        model32 = _fit(make, X32, y_train, solver=solver, tol=tol)
        expected = model64.decision_function(X_test)
        for X_eval in (X_test, X_test.astype(np.float32)):
            agreement = np.mean(model32.predict(X_eval) == model64.predict(X_test))
            assert agreement >= PREDICTION_AGREEMENT, f"{agreement:.4%} of predictions agree"
            if tol == DECISION_TOL:
                error = _scaled_error(model32.decision_function(X_eval), expected)
                assert error <= DECISION_RTOL, (
                    f"decision values differ by {error:.3g} of their scale"
                )
    assert model32.support_vectors_.dtype == np.float64
    assert model32.dual_coef_.dtype == np.float64


# 'block' serves C-SVC, one-class and epsilon-SVR only.
@pytest.mark.parametrize("name, solver", [("SVR", "smo"), ("NuSVR", "smo"), ("SVR", "block")])
def test_float32_regressor_agrees_with_float64(name, solver):
    X_train, y_train, X_test, _ = _split_every_fourth_row(*load_shared("housing_scale"))
    make = REGRESSORS[name]
    model64 = make().set_params(solver=solver, tol=DECISION_TOL).fit(X_train, y_train)
    model32 = make().set_params(solver=solver, tol=DECISION_TOL)
    model32.fit(X_train.astype(np.float32), y_train)

    expected = model64.predict(X_test)
    for X_eval in (X_test, X_test.astype(np.float32)):
        error = _scaled_error(model32.predict(X_eval), expected)
        assert error <= DECISION_RTOL, f"predictions differ by {error:.3g} of their scale"
    assert model32.predict(X_test).dtype == np.float64


def test_float32_gamma_scale_matches_float64():
    X, y = load_shared("heart_scale")
    model64 = SVC().fit(X, y)
    model32 = SVC().fit(X.astype(np.float32), y)
    assert abs(model32._gamma - model64._gamma) <= 1e-6 * model64._gamma


def test_float32_input_is_not_modified():
    X, y = load_shared("heart_scale")
    X32 = X.astype(np.float32)
    X32.setflags(write=False)  # read-only input must work
    before = X32.copy()
    SVC().fit(X32, y)
    assert_array_equal(X32, before)


# --------------------------------------------------------------------------------------------
# No float64 copy of a float32 X
# --------------------------------------------------------------------------------------------
#
# A validated array cannot be compared with np.shares_memory (the engine takes its own copy of
# the rows it trains on), so the test measures allocations instead. NumPy reports its data
# buffers to tracemalloc, so the traced peak over the baseline counts every array made while
# fitting: the engine's float32 row copy (1.0x the size of X), the finiteness mask (0.25x) and
# small vectors stay well under 1.5x, while any float64 array of X's shape adds 2.0x on its own.
# The engine's kernel cache is malloc'ed in C and not traced, which is what we want here.

N_ROWS, N_COLUMNS = 20_000, 200
PEAK_LIMIT = 1.5


def _peak_over_baseline(fit):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        baseline = tracemalloc.get_traced_memory()[0]
        fit()
        return tracemalloc.get_traced_memory()[1] - baseline
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("gamma", ["scale", 0.005])
def test_fitting_float32_allocates_no_float64_copy(gamma):
    X = np.random.default_rng(0).standard_normal((N_ROWS, N_COLUMNS)).astype(np.float32)
    model = OneClassSVM(nu=0.01, gamma=gamma)
    peak = _peak_over_baseline(lambda: model.fit(X))
    ratio = peak / X.nbytes
    assert ratio < PEAK_LIMIT, (
        f"fitting a float32 X of {X.nbytes / 2**20:.1f} MiB peaked at {ratio:.2f}x its size "
        f"(gamma={gamma!r}): a float64 array of X's shape was allocated"
    )
    assert model.support_vectors_.shape[1] == N_COLUMNS


@pytest.mark.parametrize("scale", [1e20, 1e25])
def test_float32_rows_whose_products_overflow_float32_are_trained_in_float64(scale):
    """|x| of 1e20 in float32: every value fits, but x.x does not (1e40); the dot products
    became infinite and an RBF model silently wrong (16 support vectors where float64 and
    scikit-learn have 24, decision values 2.5 apart)."""
    rng = np.random.RandomState(0)
    X = (rng.randn(40, 2) * scale).astype(np.float32)
    y = (X[:, 0] > 0).astype(int)
    gamma = 1.0 / (scale * scale)
    narrow = SVC(gamma=gamma, tol=1e-6).fit(X, y)
    wide = SVC(gamma=gamma, tol=1e-6).fit(X.astype(np.float64), y)
    np.testing.assert_array_equal(narrow.support_, wide.support_)
    np.testing.assert_allclose(narrow.decision_function(X), wide.decision_function(X),
                               rtol=0, atol=1e-12)
