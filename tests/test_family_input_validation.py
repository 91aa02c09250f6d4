"""Bad input to the five estimators raises a clear error that names what is wrong.

Parameters are stored untouched by ``__init__`` and checked by ``fit``. A parameter outside its
range or of the wrong type raises :class:`svmx.exceptions.InvalidParameterError`, which is both
a ``ValueError`` and a ``TypeError`` (as scikit-learn's exception of the same name), and whose
message names the parameter and the estimator.
"""

import numpy as np
import pytest

from svmx import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from svmx.exceptions import InvalidParameterError, NotFittedError

ESTIMATORS = {
    "SVC": SVC,
    "NuSVC": NuSVC,
    "OneClassSVM": OneClassSVM,
    "SVR": SVR,
    "NuSVR": NuSVR,
}
CLASSIFIERS = ("SVC", "NuSVC")
REGRESSORS = ("SVR", "NuSVR")

# Bad values shared by every estimator that has the parameter. The kernel's gamma and coef0
# must be finite (gamma = inf gives NaN kernel values); C = inf is a hard margin, as in
# scikit-learn.
COMMON_BAD_VALUES = {
    "kernel": ["cubic", "RBF", 3, None],
    "degree": [-1, 2.5, "3", None, True],
    "gamma": [-0.1, "large", "Scale", None, np.nan, np.inf],
    "coef0": ["0", None, np.nan, np.inf, -np.inf],
    "tol": [0.0, -1e-3, "1e-3", None, np.nan],
    "shrinking": ["yes", None, 1],
    "cache_size": [0, -200.0, "big", None],
    "verbose": ["loud", None, 1.5],
    "max_iter": [-2, 1.5, "10", None],
    "solver": ["fast", "SMO", None, 1],
    "n_jobs": [0, 1.5, "2", True],
}
CLASSIFIER_BAD_VALUES = {
    "class_weight": ["uniform", [1.0, 2.0], 1.0],
    "decision_function_shape": ["ova", None, "OVR"],
    "break_ties": ["yes", None],
    "probability": ["yes", None, 1],
    "random_state": ["seed", 1.5, [0]],
}
C_BAD_VALUES = [0.0, -1.0, np.nan, "1.0", None, True]
NU_BAD_VALUES = [0.0, -0.1, 1.0000001, 1.5, np.nan, "0.5", None]
EPSILON_BAD_VALUES = [-0.1, -np.inf, np.nan, "0.1", None]


def _cases():
    cases = []
    for name, estimator in ESTIMATORS.items():
        parameters = set(estimator().get_params())
        table = dict(COMMON_BAD_VALUES)
        if name in CLASSIFIERS:
            table.update(CLASSIFIER_BAD_VALUES)
        if "C" in parameters:
            table["C"] = C_BAD_VALUES
        if "nu" in parameters:
            table["nu"] = NU_BAD_VALUES
        if "epsilon" in parameters:
            table["epsilon"] = EPSILON_BAD_VALUES
        assert set(table) == parameters, f"{name}: every parameter needs bad values"
        for parameter, values in table.items():
            for value in values:
                case_id = f"{name}-{parameter}-{value!r}"
                cases.append(pytest.param(name, parameter, value, id=case_id))
    return cases


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    return X, {
        "classification": np.arange(30) % 2,
        "regression": X @ np.array([1.0, -2.0, 0.5]),
    }


def _fit(model, X, targets):
    if isinstance(model, OneClassSVM):
        return model.fit(X)
    kind = "classification" if isinstance(model, SVC | NuSVC) else "regression"
    return model.fit(X, targets[kind])


@pytest.mark.parametrize("name, parameter, value", _cases())
def test_bad_parameter_raises_naming_it_at_fit(name, parameter, value, data):
    X, targets = data
    model = ESTIMATORS[name](**{parameter: value})  # the constructor does not validate
    assert model.get_params()[parameter] is value
    with pytest.raises(InvalidParameterError, match=rf"'{parameter}' parameter of {name}\b"):
        _fit(model, X, targets)


def test_invalid_parameter_error_is_value_and_type_error():
    assert issubclass(InvalidParameterError, ValueError)
    assert issubclass(InvalidParameterError, TypeError)


@pytest.mark.parametrize(
    "name, params",
    [
        ("SVC", {"C": 1e-12, "degree": 0, "gamma": 0.0, "max_iter": -1, "coef0": -5.0}),
        ("NuSVC", {"nu": 1e-9, "shrinking": np.True_, "verbose": 0}),
        ("OneClassSVM", {"nu": 0.999, "gamma": "auto"}),
        ("SVR", {"epsilon": 0.0, "cache_size": 0.5, "tol": 1e-12}),
        ("NuSVR", {"nu": 1.0, "max_iter": 10**6}),
        ("SVC", {"class_weight": "balanced", "random_state": np.random.default_rng(0)}),
        ("NuSVC", {"class_weight": {0: 1.0, 1: 2.0}, "random_state": np.int64(3)}),
    ],
)
def test_values_at_the_edge_of_their_range_are_accepted(name, params, data):
    X, targets = data
    model = _fit(ESTIMATORS[name](**params), X, targets)
    assert model.support_.size > 0


def test_one_class_nu_of_one_has_no_offset(data):
    # nu=1 is in range, but every variable is then at its bound and rho is unbounded
    # (scikit-learn raises too); the message says why and names nu.
    with pytest.raises(ValueError, match=r"nu=1\.0 every sample sits at its bound"):
        OneClassSVM(nu=1.0).fit(data[0])


def test_nu_svc_without_a_margin_says_so():
    # nu=0.5 is feasible for 6 against 6 samples, but these classes cannot be told apart
    # by a line at that nu: the margin r is 0 and LIBSVM's rescaled solution is undefined
    # (scikit-learn raises too).
    X = np.array([[a, b] for a in (1.0, 2.0, 3.0) for b in (1.0, 2.0, 3.0, 4.0)])
    y = np.array([1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2])
    with pytest.raises(ValueError, match=r"Classes 1 and 2: .*nu=0\.5 .*no margin"):
        NuSVC(kernel="linear").fit(X, y)


def test_break_ties_with_ovo_shape_names_both():
    X = np.arange(12.0).reshape(-1, 1)
    model = NuSVC(break_ties=True, decision_function_shape="ovo", nu=0.1)
    model.fit(X, np.arange(12) % 3)  # as scikit-learn: it fits, and predict refuses
    with pytest.raises(ValueError, match=r"break_ties.*decision_function_shape"):
        model.predict(X)


# ----------------------------------------------------------------------------------------------
# Data
# ----------------------------------------------------------------------------------------------

ALL = list(ESTIMATORS)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bad_value, kind", [(np.nan, "NaN"), (np.inf, "infinity")])
def test_non_finite_X_names_X(name, bad_value, kind, data):
    X, targets = data
    X = X.copy()
    X[4, 1] = bad_value
    with pytest.raises(ValueError, match=rf"Input X contains {kind}"):
        _fit(ESTIMATORS[name](), X, targets)
    fitted = _fit(ESTIMATORS[name](), data[0], targets)
    with pytest.raises(ValueError, match=rf"Input X contains {kind}"):
        fitted.predict(X)


@pytest.mark.parametrize("name", ALL)
def test_complex_X_is_refused(name, data):
    X, targets = data
    with pytest.raises(ValueError, match="Complex data not supported"):
        _fit(ESTIMATORS[name](), X + 1j, targets)


@pytest.mark.parametrize("name", ALL)
def test_one_dimensional_X_asks_for_a_reshape(name, data):
    X, targets = data
    with pytest.raises(ValueError, match=r"got a 1-D array.*Reshape your data"):
        _fit(ESTIMATORS[name](), X[:, 0], targets)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("shape, noun", [((0, 3), "sample"), ((30, 0), "feature")])
def test_empty_X_says_what_is_missing(name, shape, noun, data):
    _, targets = data
    with pytest.raises(ValueError, match=rf"0 {noun}\(s\)"):
        _fit(ESTIMATORS[name](), np.empty(shape), targets)


@pytest.mark.parametrize("name", ALL)
def test_object_X_with_non_numbers_is_refused(name, data):
    X, targets = data
    X = X.astype(object)
    X[0, 0] = "seven"
    with pytest.raises(ValueError, match="X must contain numbers"):
        _fit(ESTIMATORS[name](), X, targets)


@pytest.mark.parametrize("name", ALL)
def test_predict_with_the_wrong_number_of_features_names_the_estimator(name, data):
    X, targets = data
    fitted = _fit(ESTIMATORS[name](), X, targets)
    with pytest.raises(ValueError, match=rf"X has 2 features, but {name} is expecting 3"):
        fitted.predict(X[:, :2])


@pytest.mark.parametrize("name", ALL)
def test_use_before_fit(name, data):
    with pytest.raises(NotFittedError, match=rf"This {name} instance is not fitted yet"):
        ESTIMATORS[name]().predict(data[0])


@pytest.mark.parametrize("name", CLASSIFIERS + REGRESSORS)
def test_missing_y_is_refused(name, data):
    with pytest.raises(ValueError, match=rf"{name} requires y to be passed"):
        ESTIMATORS[name]().fit(data[0], None)


@pytest.mark.parametrize("name", CLASSIFIERS + REGRESSORS)
def test_y_of_the_wrong_length(name, data):
    X, _ = data
    with pytest.raises(ValueError, match="inconsistent lengths"):
        ESTIMATORS[name]().fit(X, np.arange(29) % 2)


@pytest.mark.parametrize("name", REGRESSORS)
def test_non_numeric_regression_targets(name, data):
    X, _ = data
    with pytest.raises(ValueError, match="y must contain numbers"):
        ESTIMATORS[name]().fit(X, np.array(["a"] * 30))


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_continuous_labels_are_refused(name, data):
    X, targets = data
    with pytest.raises(ValueError, match="Unknown label type"):
        ESTIMATORS[name]().fit(X, targets["regression"])


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_a_single_class_is_refused(name, data):
    X, _ = data
    with pytest.raises(ValueError, match="at least two classes; got 1 class"):
        ESTIMATORS[name]().fit(X, np.zeros(30))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize(
    "weights, match",
    [
        (-np.ones(30), "all samples have zero or negative weights"),
        (np.zeros(30), "all samples have zero or negative weights"),
        (np.ones(29), r"shape \(30,\)"),
        (np.full(30, np.nan), "NaN or infinity"),
    ],
)
def test_bad_sample_weight_names_it(name, weights, match, data):
    X, targets = data
    model = ESTIMATORS[name]()
    # The messages name sample_weight, or are scikit-learn's "all samples have zero or
    # negative weights".
    with pytest.raises(ValueError, match=rf"sample_weight.*{match}|{match}.*sample_weight"
                                         rf"|Invalid input - {match}"):
        if isinstance(model, OneClassSVM):
            model.fit(X, sample_weight=weights)
        else:
            kind = "classification" if name in CLASSIFIERS else "regression"
            model.fit(X, targets[kind], sample_weight=weights)


@pytest.mark.parametrize("name", ALL)
def test_precomputed_gram_must_be_square(name, data):
    X, targets = data
    with pytest.raises(ValueError, match="square Gram matrix"):
        _fit(ESTIMATORS[name](kernel="precomputed"), X @ X[:5].T, targets)


@pytest.mark.parametrize("name", ALL)
def test_callable_kernel_of_the_wrong_shape(name, data):
    X, targets = data
    with pytest.raises(ValueError, match="kernel: the callable must return"):
        _fit(ESTIMATORS[name](kernel=lambda A, B: A @ B[:3].T), X, targets)


@pytest.mark.parametrize("name", ALL)
def test_callable_kernel_of_the_wrong_shape_at_prediction(name, data):
    # A kernel that drops a support vector's column at prediction: numpy's matmul error
    # named no parameter.
    X, targets = data
    drop = {"last": False}

    def kernel(A, B):
        K = A @ B.T
        return K[:, :-1] if drop["last"] else K

    model = _fit(ESTIMATORS[name](kernel=kernel), X, targets)
    drop["last"] = True
    n_support = model.support_vectors_.shape[0]
    with pytest.raises(ValueError, match=rf"kernel: .*support vectors of shape \(4, "
                                         rf"{n_support}\); got shape \(4, {n_support - 1}\)"):
        model.predict(X[:4])


@pytest.mark.parametrize("name", ALL)
def test_pandas_missing_value_is_a_nan(name, data):
    # A nullable column's pd.NA raised a TypeError ("float() argument ..."), where
    # scikit-learn says the input contains NaN (a ValueError).
    pandas = pytest.importorskip("pandas")
    X, targets = data
    frame = pandas.DataFrame(X, columns=["a", "b", "c"])
    frame["a"] = pandas.array([1, None] + [2] * (len(X) - 2), dtype="Int64")
    with pytest.raises(ValueError, match="Input X contains NaN"):
        _fit(ESTIMATORS[name](), frame, targets)
    model = _fit(ESTIMATORS[name](), frame.fillna(0), targets)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        model.predict(frame)
