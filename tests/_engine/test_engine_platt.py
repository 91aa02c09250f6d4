"""Tests for the probability engine: Platt's sigmoid and Wu-Lin-Weng pairwise coupling."""

import ctypes
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import minimize, root
from scipy.special import expit

from svmx._engine.platt import (
    MIN_PROB,
    pairwise_coupling,
    sigmoid_predict_py,
    sigmoid_train_py,
)

# --------------------------------------------------------------------------------------------
# Independent references
# --------------------------------------------------------------------------------------------


def smoothed_targets(labels):
    positive = np.asarray(labels) > 0
    n_pos = positive.sum()
    n_neg = positive.size - n_pos
    return np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))


def platt_loss_and_gradient(params, dec_values, targets):
    """Cross-entropy of P(y=1|f) = 1/(1 + exp(A f + B)) against smoothed targets."""
    z = params[0] * dec_values + params[1]
    # -t log p - (1 - t) log(1 - p) = log(1 + e^z) - (1 - t) z
    loss = np.sum(np.logaddexp(0.0, z) - (1.0 - targets) * z)
    dloss_dz = expit(z) - (1.0 - targets)
    return loss, np.array([dloss_dz @ dec_values, dloss_dz.sum()])


def platt_hessian(params, dec_values, targets):
    z = params[0] * dec_values + params[1]
    weight = expit(z) * expit(-z)
    return np.array(
        [
            [weight @ dec_values**2, weight @ dec_values],
            [weight @ dec_values, weight.sum()],
        ]
    )


def scipy_platt(dec_values, labels):
    """Minimise the loss with BFGS, then polish by solving gradient = 0 with scipy's root.

    BFGS alone stops early ("precision loss") once the loss stops changing in floating point;
    the root finder works on the gradient only, so it takes the minimiser to rounding level.
    """
    dec_values = np.asarray(dec_values, dtype=float)
    targets = smoothed_targets(labels)
    result = minimize(
        platt_loss_and_gradient,
        x0=np.zeros(2),
        args=(dec_values, targets),
        jac=True,
        method="BFGS",
        options={"gtol": 1e-10, "maxiter": 10_000},
    )
    polished = root(
        lambda params: platt_loss_and_gradient(params, dec_values, targets)[1],
        x0=result.x,
        jac=lambda params: platt_hessian(params, dec_values, targets),
        tol=1e-14,
    )
    _, gradient = platt_loss_and_gradient(polished.x, dec_values, targets)
    assert np.max(np.abs(gradient)) < 1e-9, polished
    return polished.x


def coupling_reference(r):
    """Method 2 of Wu, Lin & Weng (2004) in plain numpy, recomputing Qp and pQp each step."""
    k = r.shape[0]
    if k == 2:
        return np.array([r[0, 1], 1.0 - r[0, 1]])
    off_diagonal = ~np.eye(k, dtype=bool)
    Q = np.where(off_diagonal, -r * r.T, 0.0)
    Q[np.diag_indices(k)] = np.sum(np.where(off_diagonal, r, 0.0) ** 2, axis=0)
    p = np.full(k, 1.0 / k)
    for _ in range(max(100, k)):
        Qp = Q @ p
        pQp = p @ Qp
        if np.max(np.abs(Qp - pQp)) < 0.005 / k:
            break
        for t in range(k):
            p[t] += (pQp - Qp[t]) / Q[t, t]
            p /= p.sum()
            Qp = Q @ p
            pQp = p @ Qp
    return p


def clipped_full_matrix(upper):
    """Clip the strict upper triangle as LIBSVM does and fill r_ji = 1 - r_ij."""
    k = upper.shape[0]
    rows, cols = np.triu_indices(k, 1)
    r = np.zeros((k, k))
    r[rows, cols] = np.clip(upper[rows, cols], MIN_PROB, 1.0 - MIN_PROB)
    r[cols, rows] = 1.0 - r[rows, cols]
    return r


def consistent_pairwise(p):
    return p[:, None] / (p[:, None] + p[None, :])


def read_only(array):
    array = np.array(array, dtype=float)
    array.setflags(write=False)
    return array


# --------------------------------------------------------------------------------------------
# sigmoid_train
# --------------------------------------------------------------------------------------------


def synthetic_decision_values(seed, n, scale, shift, positive_rate, noise):
    rng = np.random.default_rng(seed)
    labels = np.where(rng.random(n) < positive_rate, 1.0, -1.0)
    dec_values = scale * (labels + noise * rng.standard_normal(n)) + shift
    return dec_values, labels


@pytest.mark.parametrize(
    "seed, n, scale, shift, positive_rate, noise",
    [
        (0, 20, 1.0, 0.0, 0.5, 1.0),
        (1, 200, 1.0, 0.3, 0.5, 0.8),
        (2, 1000, 3.0, -1.0, 0.2, 1.5),
        (3, 500, 0.05, 0.0, 0.9, 2.0),
        (4, 300, 10.0, 2.0, 0.5, 0.1),  # separable: the smoothed targets keep A, B finite
        (5, 50, 1.0, 0.0, 0.5, 100.0),  # pure noise: A close to 0
        (6, 2000, 1.0, 0.0, 0.03, 0.7),  # rare positives
    ],
)
def test_sigmoid_train_matches_scipy_on_synthetic_data(seed, n, scale, shift, positive_rate, noise):
    dec_values, labels = synthetic_decision_values(seed, n, scale, shift, positive_rate, noise)
    A, B, status = sigmoid_train_py(dec_values, labels)
    assert status == 0
    np.testing.assert_allclose([A, B], scipy_platt(dec_values, labels), rtol=0, atol=1e-6)


@pytest.fixture(scope="module")
def breast_cancer():
    datasets = pytest.importorskip("sklearn.datasets")
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    X, y = datasets.load_breast_cancer(return_X_y=True)
    return preprocessing.StandardScaler().fit_transform(X), y


@pytest.mark.parametrize("cross_validated", [False, True])
def test_sigmoid_train_matches_scipy_on_breast_cancer(breast_cancer, cross_validated):
    from sklearn.model_selection import cross_val_predict
    from sklearn.svm import SVC

    X, y = breast_cancer
    if cross_validated:
        dec_values = cross_val_predict(SVC(kernel="rbf"), X, y, cv=5, method="decision_function")
    else:
        dec_values = SVC(kernel="rbf").fit(X, y).decision_function(X)
    A, B, status = sigmoid_train_py(dec_values, y)
    assert status == 0
    assert A < 0  # larger decision values mean class 1
    np.testing.assert_allclose([A, B], scipy_platt(dec_values, y), rtol=0, atol=1e-6)


def libsvm_cv_decision_values(svmutil, libc, X, y, labels, seed):
    """Re-create, pair by pair, the 5-fold decision values LIBSVM fits its sigmoids to.

    LIBSVM groups the samples of the pair by class (first label first), shuffles them with
    C ``rand()`` and trains one model per fold with C = 1 (no class weights here). Seeding
    ``srand`` identically before ``svm_train`` and before this function gives the same folds.
    """
    libc.srand(seed)
    pairs = []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            order = np.concatenate([np.flatnonzero(y == labels[i]), np.flatnonzero(y == labels[j])])
            X_pair = X[order]
            y_pair = np.where(y[order] == labels[i], 1.0, -1.0)
            n = len(order)
            perm = np.arange(n)
            for t in range(n):
                swap = t + libc.rand() % (n - t)
                perm[t], perm[swap] = perm[swap], perm[t]
            dec_values = np.zeros(n)
            for fold in range(5):
                begin, end = fold * n // 5, (fold + 1) * n // 5
                train = np.concatenate([perm[:begin], perm[end:]])
                model = svmutil.svm_train(
                    y_pair[train], X_pair[train], f"-c 1 -g {1.0 / X.shape[1]!r} -q"
                )
                test = perm[begin:end]
                _, _, values = svmutil.svm_predict(y_pair[test], X_pair[test], model, "-q")
                dec_values[test] = np.asarray(values)[:, 0] * model.get_labels()[0]
            pairs.append((dec_values, y_pair))
    return pairs


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reseeds glibc rand()")
@pytest.mark.parametrize("dataset", ["breast_cancer", "wine"])
def test_sigmoid_train_matches_libsvm_official(dataset):
    svmutil = pytest.importorskip("libsvm.svmutil")
    datasets = pytest.importorskip("sklearn.datasets")
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    X, y = getattr(datasets, f"load_{dataset}")(return_X_y=True)
    X = preprocessing.StandardScaler().fit_transform(X)
    y = y.astype(float)
    libc = ctypes.CDLL(None)

    seed = 7
    libc.srand(seed)
    model = svmutil.svm_train(y, X, "-b 1 -q")
    labels = model.get_labels()
    pairs = libsvm_cv_decision_values(svmutil, libc, X, y, labels, seed)
    for index, (dec_values, y_pair) in enumerate(pairs):
        A, B, status = sigmoid_train_py(dec_values, y_pair)
        assert status == 0
        np.testing.assert_allclose(
            [A, B], [model.probA[index], model.probB[index]], rtol=0, atol=1e-10
        )


@pytest.mark.parametrize("negative_label", [0, -1, -2.5])
def test_sigmoid_train_label_conventions(negative_label):
    dec_values, labels = synthetic_decision_values(8, 100, 1.0, 0.0, 0.4, 1.0)
    expected = sigmoid_train_py(dec_values, labels)
    recoded = np.where(labels > 0, 1, negative_label)
    assert sigmoid_train_py(dec_values, recoded) == expected
    assert sigmoid_train_py(dec_values, labels > 0) == expected


@pytest.mark.parametrize("value", [0.0, 1.0, -3.0])
def test_sigmoid_train_constant_decision_values_give_mean_target(value):
    labels = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    A, B, status = sigmoid_train_py(np.full(5, value), labels)
    assert status == 0
    expected = smoothed_targets(labels).mean()  # (3 * 4/5 + 2 * 1/4) / 5
    assert sigmoid_predict_py(value, A, B) == pytest.approx(expected, abs=1e-7)


@pytest.mark.parametrize("positive", [True, False])
def test_sigmoid_train_single_class(positive):
    dec_values = np.random.default_rng(9).standard_normal(10)
    labels = np.full(10, 1.0 if positive else -1.0)
    A, B, status = sigmoid_train_py(dec_values, labels)
    assert status == 0
    np.testing.assert_allclose([A, B], scipy_platt(dec_values, labels), rtol=0, atol=1e-6)


def test_sigmoid_train_scale_equivariance_and_failed_line_search():
    # A scales as 1/scale and B is unchanged. At a huge scale the gradient in A cannot get
    # below 1e-5 in floating point, so the line search stops and the status says so, while
    # the parameters are still right.
    dec_values, labels = synthetic_decision_values(10, 2000, 1.0, 0.0, 0.5, 1.0)
    A, B, status = sigmoid_train_py(dec_values, labels)
    assert status == 0
    for scale in [1e-3, 1e3, 1e10]:
        A_scaled, B_scaled, status_scaled = sigmoid_train_py(scale * dec_values, labels)
        # Equal up to where each fit stops: the stopping rule is an absolute gradient
        # tolerance, and rescaling f rescales the gradient in A (at 1e-3 the fit stops
        # about 2e-6 short in relative terms).
        np.testing.assert_allclose([A_scaled * scale, B_scaled], [A, B], rtol=1e-5, atol=0)
        assert status_scaled == (2 if scale == 1e10 else 0)  # 2: the line search failed


def test_sigmoid_train_accepts_read_only_and_non_contiguous_arrays():
    dec_values, labels = synthetic_decision_values(11, 60, 1.0, 0.0, 0.5, 1.0)
    expected = sigmoid_train_py(dec_values, labels)
    assert sigmoid_train_py(read_only(dec_values), read_only(labels)) == expected
    doubled = np.repeat(dec_values, 2)
    assert sigmoid_train_py(read_only(doubled)[::2], labels.tolist()) == expected


@pytest.mark.parametrize(
    "dec_values, labels, message",
    [
        ([1.0, 2.0], [1.0], "different lengths"),
        ([], [], "at least one"),
        ([1.0, np.nan], [1.0, -1.0], "dec_values contains NaN"),
        ([1.0, 2.0], [1.0, np.inf], "labels contains NaN"),
        ([[1.0, 2.0]], [[1.0, -1.0]], "one-dimensional"),
    ],
)
def test_sigmoid_train_rejects_bad_input(dec_values, labels, message):
    with pytest.raises(ValueError, match=message):
        sigmoid_train_py(dec_values, labels)


# --------------------------------------------------------------------------------------------
# sigmoid_predict
# --------------------------------------------------------------------------------------------


def test_sigmoid_predict_is_overflow_safe():
    dec_values = np.array([-1e308, -1e300, -1e3, -1.0, 0.0, 1.0, 1e3, 1e300, 1e308])
    # pytest turns warnings into errors, so numpy overflow warnings would fail here too
    with np.errstate(all="raise"):
        probabilities = sigmoid_predict_py(dec_values, -2.0, 0.5)
    assert probabilities[0] == 0.0 and probabilities[-1] == 1.0
    assert np.all((probabilities >= 0.0) & (probabilities <= 1.0))
    with np.errstate(over="ignore"):  # the reference's 2 * 1e308, not the code under test
        expected = expit(2.0 * dec_values - 0.5)
    np.testing.assert_allclose(probabilities, expected, rtol=1e-15, atol=0)
    assert sigmoid_predict_py(0.0, 1.0, -800.0) == 1.0
    assert sigmoid_predict_py(0.0, 1.0, 800.0) == 0.0


@pytest.mark.parametrize("A, B", [(-3.0, 0.2), (-1e-3, 5.0), (2.0, -1.0), (40.0, 0.0)])
def test_sigmoid_predict_is_monotone_and_complementary(A, B):
    dec_values = np.linspace(-50.0, 50.0, 2001)
    probabilities = sigmoid_predict_py(dec_values, A, B)
    steps = np.diff(probabilities)
    assert np.all(steps >= 0) if A < 0 else np.all(steps <= 0)
    np.testing.assert_allclose(
        probabilities + sigmoid_predict_py(dec_values, -A, -B), 1.0, rtol=0, atol=1e-15
    )


def test_sigmoid_predict_keeps_shape_and_accepts_read_only():
    dec_values = read_only(np.arange(12.0).reshape(3, 4) - 6.0)
    probabilities = sigmoid_predict_py(dec_values, -1.0, 0.0)
    assert probabilities.shape == (3, 4)
    np.testing.assert_allclose(probabilities, expit(dec_values), rtol=1e-15)
    assert sigmoid_predict_py(0.0, -1.0, 0.0).shape == ()
    assert sigmoid_predict_py(dec_values.T, -1.0, 0.0).shape == (4, 3)


# --------------------------------------------------------------------------------------------
# pairwise_coupling
# --------------------------------------------------------------------------------------------


def random_pairwise(rng, n_samples, k):
    return rng.random((n_samples, k, k))


@pytest.mark.parametrize("k", [3, 4, 7, 12])
def test_pairwise_coupling_rows_are_distributions(k):
    R = random_pairwise(np.random.default_rng(k), 200, k)
    P, status = pairwise_coupling(R, return_status=True)
    assert P.shape == (200, k) and status.shape == (200,)
    assert np.all(status == 0)
    assert np.all(P >= 0)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_pairwise_coupling_recovers_consistent_probabilities(k):
    rng = np.random.default_rng(100 + k)
    truth = rng.dirichlet(np.ones(k), size=50)
    truth = np.clip(truth, 1e-3, None)
    truth /= truth.sum(axis=1, keepdims=True)
    R = np.stack([consistent_pairwise(p) for p in truth])
    np.testing.assert_allclose(pairwise_coupling(R), truth, rtol=0, atol=2e-3)


def test_pairwise_coupling_solves_the_quadratic_program():
    # The minimiser of p^T Q p subject to sum(p) = 1 solves [[2Q, 1], [1^T, 0]] [p; mu] = [0; 1].
    rng = np.random.default_rng(12)
    for k in [3, 6, 9]:
        r = clipped_full_matrix(rng.random((k, k)))
        off_diagonal = ~np.eye(k, dtype=bool)
        Q = np.where(off_diagonal, -r * r.T, 0.0)
        Q[np.diag_indices(k)] = np.sum(np.where(off_diagonal, r, 0.0) ** 2, axis=0)
        system = np.block([[2 * Q, np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
        exact = np.linalg.solve(system, np.append(np.zeros(k), 1.0))[:k]
        np.testing.assert_allclose(pairwise_coupling(r), exact, rtol=0, atol=5e-3 / k)


def test_pairwise_coupling_two_classes_is_exact():
    R = np.zeros((5, 2, 2))
    R[:, 0, 1] = [0.0, 1e-9, 0.3, 0.75, 1.0]
    R[:, 1, 0] = 12.0  # the lower triangle is not read
    expected_first = [MIN_PROB, MIN_PROB, 0.3, 0.75, 1.0 - MIN_PROB]
    P = pairwise_coupling(R)
    np.testing.assert_array_equal(P[:, 0], expected_first)
    np.testing.assert_array_equal(P[:, 1], 1.0 - np.array(expected_first))


@pytest.mark.parametrize("k", [3, 4, 6, 11, 150])
def test_pairwise_coupling_equals_numpy_reference(k):
    rng = np.random.default_rng(200 + k)
    n_samples = 3 if k > 100 else 40
    R = random_pairwise(rng, n_samples, k)
    # Push some entries outside [MIN_PROB, 1 - MIN_PROB] so the clipping is exercised too.
    R[rng.random(R.shape) < 0.1] = 0.0
    R[rng.random(R.shape) < 0.1] = 1.0
    expected = np.stack([coupling_reference(clipped_full_matrix(upper)) for upper in R])
    np.testing.assert_allclose(pairwise_coupling(R), expected, rtol=0, atol=1e-10)


def test_pairwise_coupling_reads_only_the_upper_triangle():
    R = random_pairwise(np.random.default_rng(13), 10, 5)
    rows, cols = np.triu_indices(5, 1)
    scrambled = np.full_like(R, np.nan)
    scrambled[:, rows, cols] = R[:, rows, cols]
    np.testing.assert_array_equal(pairwise_coupling(scrambled), pairwise_coupling(R))


def test_pairwise_coupling_single_matrix_and_one_class():
    p = np.array([0.5, 0.3, 0.2])
    single, status = pairwise_coupling(consistent_pairwise(p), return_status=True)
    assert single.shape == (3,) and status == 0
    np.testing.assert_array_equal(single, pairwise_coupling(consistent_pairwise(p)[None])[0])
    np.testing.assert_array_equal(pairwise_coupling(np.zeros((4, 1, 1))), np.ones((4, 1)))
    assert pairwise_coupling(np.zeros((0, 3, 3))).shape == (0, 3)


def test_pairwise_coupling_accepts_read_only_arrays():
    R = random_pairwise(np.random.default_rng(14), 20, 4)
    np.testing.assert_array_equal(pairwise_coupling(read_only(R)), pairwise_coupling(R))
    np.testing.assert_array_equal(
        pairwise_coupling(read_only(R).transpose(0, 2, 1)), pairwise_coupling(R.transpose(0, 2, 1))
    )


@pytest.mark.parametrize(
    "R, message",
    [
        (np.zeros((2, 3, 4)), "shape"),
        (np.zeros(3), "shape"),
        (np.zeros((2, 0, 0)), "shape"),
        (np.array([[0.0, np.nan], [0.5, 0.0]]), "NaN"),
    ],
)
def test_pairwise_coupling_rejects_bad_input(R, message):
    with pytest.raises(ValueError, match=message):
        pairwise_coupling(R)


@settings(max_examples=60, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 5), st.integers(1, 8)).map(lambda s: (s[0], s[1], s[1])),
        elements=st.floats(0.0, 1.0),
    )
)
def test_pairwise_coupling_property_distributions(R):
    P = pairwise_coupling(R)
    assert P.shape == R.shape[:2]
    assert np.all(P >= 0)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------------------------
# Both together: LIBSVM's predict_proba
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dataset", ["breast_cancer", "wine", "iris"])
def test_probabilities_match_libsvm_official_predict(dataset):
    svmutil = pytest.importorskip("libsvm.svmutil")
    datasets = pytest.importorskip("sklearn.datasets")
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    X, y = getattr(datasets, f"load_{dataset}")(return_X_y=True)
    X = preprocessing.StandardScaler().fit_transform(X)
    y = y.astype(float)
    model = svmutil.svm_train(y, X, "-b 1 -q")
    k = model.get_nr_class()
    _, _, dec_values = svmutil.svm_predict(y, X, model, "-q")
    _, _, expected = svmutil.svm_predict(y, X, model, "-b 1 -q")
    dec_values = np.asarray(dec_values)

    R = np.zeros((len(y), k, k))
    rows, cols = np.triu_indices(k, 1)
    for pair, (i, j) in enumerate(zip(rows, cols, strict=True)):
        R[:, i, j] = sigmoid_predict_py(dec_values[:, pair], model.probA[pair], model.probB[pair])
    np.testing.assert_allclose(pairwise_coupling(R), np.asarray(expected), rtol=0, atol=1e-12)
