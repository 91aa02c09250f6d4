"""Model files in both directions with libsvm-official: same labels, decision values, probabilities.

svmx -> LIBSVM: svmx fits and saves; ``svmutil.svm_load_model`` reads the file and
``svm_predict`` must agree with svmx's ``load_model`` of the same file (both read support vectors
written with 8 digits, as LIBSVM writes them), and with the fitted estimator to about 1e-6.
LIBSVM -> svmx: libsvm-official trains and saves;
``svmx.io.load_model`` must agree with ``svm_predict`` on the model LIBSVM reads back from that
same file (its support vectors are written with 8 digits).
"""

import numpy as np
import pytest

import svmx
import svmx.datasets
import svmx.model_selection
from svmx.io import load_model, save_model

svmutil = pytest.importorskip("libsvm.svmutil")

TOLERANCE = 1e-8


def _data(kind, n_samples=90, n_features=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features))
    X[rng.random(X.shape) < 0.3] = 0.0  # sparse rows, so skipped zeros are exercised
    if kind == "binary":
        y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n_samples) > 0, 1, -1)
        y[0] = 1  # LIBSVM's label order is then [1, -1]
    elif kind == "multiclass":
        y = np.digitize(X[:, 0] + X[:, 2] + 0.3 * rng.normal(size=n_samples), [-0.5, 0.5])
        y = np.array([3, 1, 2])[y]
        y[:3] = [3, 1, 2]  # LIBSVM's label order is then [3, 1, 2], not sorted
    else:
        y = X[:, 0] - 2.0 * X[:, 1] + 0.1 * rng.normal(size=n_samples)
    return X, y.astype(np.float64)


def _libsvm_rows(X):
    return [{j + 1: float(v) for j, v in enumerate(row) if v != 0} for row in X]


def _libsvm_predict(model, X, y, probability=False):
    """LIBSVM's labels and decision values (or probabilities) for the rows of X.

    Calls the C functions directly: ``svmutil.svm_predict`` of libsvm-official 3.37 sizes its
    decision-value buffer for one value when the model is nu-SVC (it means nu-SVR), so it
    overflows the buffer for multi-class nu-SVC models.
    """
    from ctypes import c_double

    from libsvm.svm import gen_svm_nodearray, libsvm

    n_classes = model.get_nr_class()
    regression_or_one_class = model.get_svm_type() in (2, 3, 4)
    width = 1 if regression_or_one_class else n_classes * (n_classes - 1) // 2
    if probability:
        width = n_classes
    buffer = (c_double * max(width, 1))()
    labels, values = [], []
    for row in _libsvm_rows(X):
        nodes, _ = gen_svm_nodearray(row)
        if probability:
            labels.append(libsvm.svm_predict_probability(model, nodes, buffer))
        else:
            labels.append(libsvm.svm_predict_values(model, nodes, buffer))
        values.append(buffer[:width])
    return np.array(labels), np.array(values)


# (svm_type, kind, svmx estimator, LIBSVM options)
CASES = {
    "c_svc-binary-rbf": ("binary", svmx.SVC(C=2.0, gamma=0.3), "-s 0 -c 2 -g 0.3"),
    "c_svc-3class-poly": (
        "multiclass", svmx.SVC(kernel="poly", degree=2, gamma=0.5, coef0=1.0),
        "-s 0 -t 1 -d 2 -g 0.5 -r 1",
    ),
    "nu_svc-3class-linear": ("multiclass", svmx.NuSVC(kernel="linear", nu=0.3), "-s 1 -t 0 -n 0.3"),
    "one_class-rbf": ("outlier", svmx.OneClassSVM(nu=0.2, gamma=0.2), "-s 2 -n 0.2 -g 0.2"),
    "epsilon_svr-sigmoid": (
        "regression", svmx.SVR(kernel="sigmoid", gamma=0.05, coef0=0.5, C=3.0, epsilon=0.2),
        "-s 3 -t 3 -g 0.05 -r 0.5 -c 3 -p 0.2",
    ),
    "nu_svr-rbf": ("regression", svmx.NuSVR(nu=0.4, gamma=0.4), "-s 4 -n 0.4 -g 0.4"),
}
CLASSIFICATION = {"c_svc-binary-rbf", "c_svc-3class-poly", "nu_svc-3class-linear"}


def _check_same_predictions(estimator, libsvm_model, X, y, probability):
    labels, values = _libsvm_predict(libsvm_model, X, y)
    kind = type(estimator).__name__
    if kind in ("SVC", "NuSVC"):
        np.testing.assert_array_equal(estimator.predict(X), labels)
        if estimator.classes_.size == 2:
            # svmx: positive means classes_[1]; LIBSVM: positive means its first label
            np.testing.assert_allclose(-estimator.decision_function(X), values[:, 0],
                                       rtol=TOLERANCE, atol=TOLERANCE)
        else:
            estimator.set_params(decision_function_shape="ovo")
            np.testing.assert_allclose(estimator.decision_function(X), values,
                                       rtol=TOLERANCE, atol=TOLERANCE)
        assert list(estimator.classes_) == libsvm_model.get_labels()
        if probability:
            _, proba = _libsvm_predict(libsvm_model, X, y, probability=True)
            np.testing.assert_allclose(estimator.predict_proba(X), proba, atol=TOLERANCE)
    elif kind == "OneClassSVM":
        np.testing.assert_array_equal(estimator.predict(X), labels)
        np.testing.assert_allclose(estimator.decision_function(X), values[:, 0],
                                   rtol=TOLERANCE, atol=TOLERANCE)
    else:
        np.testing.assert_allclose(estimator.predict(X), labels, rtol=TOLERANCE, atol=TOLERANCE)


# svmx computes probabilities for classifiers only.
SVMX_RUNS = [(case, False) for case in sorted(CASES)] + [
    (case, True) for case in sorted(CLASSIFICATION)
]


@pytest.mark.parametrize(("case", "probability"), SVMX_RUNS)
def test_svmx_model_is_read_by_libsvm(tmp_path, case, probability):
    kind, estimator, _ = CASES[case]
    X, y = _data(kind)
    estimator = svmx.model_selection.clone(estimator)
    if probability:
        estimator.set_params(probability=True, random_state=0)
    estimator.fit(X) if kind == "outlier" else estimator.fit(X, y)
    path = tmp_path / "svmx.model"
    save_model(estimator, path)
    libsvm_model = svmutil.svm_load_model(str(path))
    assert libsvm_model is not None
    assert bool(libsvm_model.is_probability_model()) == probability
    X_test, y_test = _data(kind, n_samples=40, seed=1)
    reloaded = load_model(path, n_features=X.shape[1])
    _check_same_predictions(reloaded, libsvm_model, X_test, y_test, probability)
    # The fitted estimator differs from its file only by the 8-digit support vectors, an
    # error the coefficients scale (nu-SVC's are large: they are divided by r).
    scale = 1e-6 * (1.0 + np.abs(estimator._dual_coef_).sum())
    if hasattr(estimator, "decision_function"):
        if hasattr(estimator, "decision_function_shape"):
            estimator.set_params(decision_function_shape=reloaded.decision_function_shape)
        np.testing.assert_allclose(reloaded.decision_function(X_test),
                                   estimator.decision_function(X_test), rtol=1e-6, atol=scale)
    else:
        np.testing.assert_allclose(reloaded.predict(X_test), estimator.predict(X_test),
                                   rtol=1e-6, atol=scale)


@pytest.mark.parametrize("probability", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_libsvm_model_is_read_by_svmx(tmp_path, case, probability):
    kind, _, options = CASES[case]
    X, y = _data(kind)
    trained = svmutil.svm_train(list(y), _libsvm_rows(X), options + (" -b 1" if probability else "")
                                + " -q")
    path = tmp_path / "libsvm.model"
    svmutil.svm_save_model(str(path), trained)
    libsvm_model = svmutil.svm_load_model(str(path))
    estimator = load_model(path, n_features=X.shape[1])
    X_test, y_test = _data(kind, n_samples=40, seed=1)
    classifier = case in CLASSIFICATION
    _check_same_predictions(estimator, libsvm_model, X_test, y_test, probability and classifier)
    if probability and not classifier:
        # svmx keeps LIBSVM's SVR Laplace scale / one-class density marks and writes them back
        again = tmp_path / "again.model"
        save_model(estimator, again)
        reread = svmutil.svm_load_model(str(again))
        assert reread.is_probability_model()
        _, values = _libsvm_predict(reread, X_test, y_test, probability=True)
        _, expected = _libsvm_predict(libsvm_model, X_test, y_test, probability=True)
        np.testing.assert_allclose(values, expected, atol=TOLERANCE)


def test_libsvm_labels_out_of_order_can_be_sorted(tmp_path):
    X, y = _data("multiclass")
    trained = svmutil.svm_train(list(y), _libsvm_rows(X), "-s 0 -g 0.5 -q")
    path = tmp_path / "libsvm.model"
    svmutil.svm_save_model(str(path), trained)
    native = load_model(path)
    sorted_model = load_model(path, sort_classes=True)
    assert native.classes_.tolist() == [3, 1, 2]
    assert sorted_model.classes_.tolist() == [1, 2, 3]
    X_test, _ = _data("multiclass", n_samples=200, seed=2)
    # The same ovr scores up to the column order; ties aside, the same labels.
    native_ovr = native.decision_function(X_test)[:, [1, 2, 0]]
    sorted_ovr = sorted_model.decision_function(X_test)
    np.testing.assert_allclose(native_ovr, sorted_ovr, atol=1e-12)
    untied = np.sort(native.decision_function(X_test), axis=1)
    untied = np.round(untied[:, -1]) != np.round(untied[:, -2])
    assert untied.mean() > 0.9
    np.testing.assert_array_equal(native.predict(X_test)[untied],
                                  sorted_model.predict(X_test)[untied])
