"""Parity of :class:`svmx.SVC` with scikit-learn's ``SVC`` and with LIBSVM (``libsvm-official``).

Both references run the same algorithm as svmx (LIBSVM's SMO with WSS3 and shrinking), so on the
same data and parameters they must give practically the same model. The thresholds below are the
ones the project promises:

* at the default ``tol``: test predictions agree on >= 99.9% of rows, the ``support_`` sets on
  >= 99% of their union, and ``n_iter_`` equal per one-vs-one pair under solver='smo';
* at ``tol=1e-8``: one-vs-one decision values agree to 1e-5 (relative above magnitude 1).

Data sets from ``sklearn.datasets`` are always available; the LIBSVM files come from
``../shared/data`` and their tests skip when it is absent (see ``conftest.py``).
"""

import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import datasets
from sklearn.base import clone
from sklearn.metrics.pairwise import (
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as SklearnSVC

from svmx import SVC
from svmx.exceptions import NotFittedError

PREDICTION_AGREEMENT = 0.999
SUPPORT_AGREEMENT = 0.99
TIGHT_TOL = 1e-8
DECISION_ATOL = 1e-5

KERNELS = ["linear", "rbf", "poly", "sigmoid"]
BUILTIN_DATASETS = ["iris", "wine", "breast_cancer", "digits"]
SHARED_DATASETS = ["heart_scale", "dna", "mushrooms", "svmguide1"]
ALL_DATASETS = BUILTIN_DATASETS + SHARED_DATASETS


# --------------------------------------------------------------------------------------------
# Problems: (X_train, y_train, X_test, y_test), prepared once per session.
# --------------------------------------------------------------------------------------------


def _split_every_fourth_row(X, y):
    """Deterministic split: every 4th row (index 3, 7, ...) is a test row."""
    is_test = np.arange(len(y)) % 4 == 3
    return X[~is_test], y[~is_test], X[is_test], y[is_test]


def _standardize(X_train, y_train, X_test, y_test):
    scaler = StandardScaler().fit(X_train)
    return scaler.transform(X_train), y_train, scaler.transform(X_test), y_test


def _scale_to_unit_box(X_train, y_train, X_test, y_test):
    """Map each feature to [-1, 1] with the training minima and maxima (as svm-scale does)."""
    low, high = X_train.min(axis=0), X_train.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    return 2 * (X_train - low) / span - 1, y_train, 2 * (X_test - low) / span - 1, y_test


def _prepare(name, load_shared):
    if name == "iris":
        return _split_every_fourth_row(*datasets.load_iris(return_X_y=True))
    if name == "wine":
        return _standardize(*_split_every_fourth_row(*datasets.load_wine(return_X_y=True)))
    if name == "breast_cancer":
        data = datasets.load_breast_cancer(return_X_y=True)
        return _standardize(*_split_every_fourth_row(*data))
    if name == "digits":
        X, y = datasets.load_digits(return_X_y=True)
        return _split_every_fourth_row(X / 16.0, y)
    if name == "heart_scale":
        return _split_every_fourth_row(*load_shared("heart_scale"))
    if name == "mushrooms":
        return _split_every_fourth_row(*load_shared("mushrooms"))
    if name == "dna":
        return (*load_shared("dna.scale", n_features=180), *load_shared("dna.scale.t", 180))
    if name == "svmguide1":
        train, test = load_shared("svmguide1", 4), load_shared("svmguide1.t", 4)
        return _scale_to_unit_box(*train, *test)
    raise KeyError(name)


_PROBLEMS = {}


def _problem(name, load_shared):
    if name not in _PROBLEMS:
        _PROBLEMS[name] = _prepare(name, load_shared)
    return _PROBLEMS[name]


def _kernel_params(kernel, n_features):
    """Parameters under which every (data set, kernel) pair converges in well under a second."""
    if kernel == "poly":
        return {"kernel": "poly", "degree": 3, "gamma": "scale", "coef0": 0.0}
    if kernel == "sigmoid":
        return {"kernel": "sigmoid", "gamma": 1.0 / (10 * n_features), "coef0": 0.0}
    return {"kernel": kernel, "gamma": "scale"}


_FITS = {}


def _fit_both(name, kernel, tol, load_shared, **extra):
    """Fit svmx and scikit-learn on one problem; models are cached per (name, kernel, tol)."""
    key = (name, kernel, tol, tuple(sorted(extra.items())))
    if key not in _FITS:
        X_train, y_train, _, _ = _problem(name, load_shared)
        params = {**_kernel_params(kernel, X_train.shape[1]), "C": 1.0, "tol": tol, **extra}
        ours = SVC(**params).fit(X_train, y_train)
        params.pop("solver", None)
        theirs = SklearnSVC(**params).fit(X_train, y_train)
        _FITS[key] = ours, theirs
    return _FITS[key]


def _support_disagreement(ours, theirs):
    """|symmetric difference| / |union| of two support index sets."""
    ours, theirs = set(ours.tolist()), set(theirs.tolist())
    return len(ours ^ theirs) / max(1, len(ours | theirs))


def _dense_dual_coef(model, n_samples):
    """dual_coef_ spread over all training rows (zeros for non-support vectors)."""
    dense = np.zeros((model.dual_coef_.shape[0], n_samples))
    dense[:, model.support_] = model.dual_coef_
    return dense


PAIRS = [(name, kernel) for name in ALL_DATASETS for kernel in KERNELS]


# --------------------------------------------------------------------------------------------
# Parity with scikit-learn on real data, for every kernel
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, kernel", PAIRS)
def test_test_predictions_agree_with_sklearn(name, kernel, load_shared):
    _, _, X_test, _ = _problem(name, load_shared)
    ours, theirs = _fit_both(name, kernel, 1e-3, load_shared)
    agreement = np.mean(ours.predict(X_test) == theirs.predict(X_test))
    assert agreement >= PREDICTION_AGREEMENT, f"{agreement:.4%} of {len(X_test)} test rows agree"


@pytest.mark.parametrize("name, kernel", PAIRS)
def test_support_sets_agree_with_sklearn(name, kernel, load_shared):
    # Identical support sets are solver='smo's promise: under 'auto' mushrooms (6,093
    # rows) goes to the block solver, which reaches the same objective (within 1e-3,
    # tests/_engine/test_engine_block_solver.py) but, among mushrooms' many duplicate
    # rows, other ones.
    ours, theirs = _fit_both(name, kernel, 1e-3, load_shared, solver="smo")
    disagreement = _support_disagreement(ours.support_, theirs.support_)
    assert disagreement <= 1 - SUPPORT_AGREEMENT, (
        f"support_ sets differ on {disagreement:.2%} of their union "
        f"(svmx {len(ours.support_)} SVs, sklearn {len(theirs.support_)} SVs)"
    )


@pytest.mark.parametrize("name, kernel", PAIRS)
def test_n_iter_equals_sklearn(name, kernel, load_shared):
    # Step-for-step parity is solver='smo's promise; under 'auto' many-class problems
    # share a float32 Gram matrix whose BLAS-3 dot products round differently.
    # solver='smo' is LIBSVM step for step on dense rows, so the counts are equal
    # (tests/test_smo_libsvm_parity.py checks it against LIBSVM on every shared dataset).
    ours, theirs = _fit_both(name, kernel, 1e-3, load_shared, solver="smo")
    assert_array_equal(ours.n_iter_, theirs.n_iter_)


@pytest.mark.parametrize("name, kernel", PAIRS)
def test_ovo_decision_values_agree_with_sklearn_at_tight_tol(name, kernel, load_shared):
    _, _, X_test, _ = _problem(name, load_shared)
    ours, theirs = _fit_both(name, kernel, TIGHT_TOL, load_shared, decision_function_shape="ovo")
    expected = theirs.decision_function(X_test)
    actual = ours.decision_function(X_test)
    assert actual.shape == expected.shape
    error = np.abs(actual - expected) / np.maximum(1.0, np.abs(expected))
    assert error.max() <= DECISION_ATOL, f"max scaled decision error {error.max():.3g}"


# --------------------------------------------------------------------------------------------
# Parity with LIBSVM itself (libsvm-official), RBF with gamma = 1 / n_features
# --------------------------------------------------------------------------------------------


def _sorted_first_appearance_order(y):
    """A row order in which the classes first appear in sorted order.

    LIBSVM numbers classes by first appearance, scikit-learn and svmx sort them, and one-vs-one
    vote ties go to the lower class number. Moving the first row of each class to the front (in
    sorted class order) makes both numberings agree, so ties are broken the same way (LIBSVM
    puts +1 first in a -1/+1 problem, but binary problems have no vote ties). Both libraries
    are trained on the reordered rows.
    """
    firsts = [np.flatnonzero(y == label)[0] for label in np.unique(y)]
    return np.concatenate([firsts, np.setdiff1d(np.arange(len(y)), firsts)])


@pytest.mark.parametrize("name", ["heart_scale", "dna"])
def test_agrees_with_libsvm_official(name, load_shared):
    svmutil = pytest.importorskip("libsvm.svmutil")
    X_train, y_train, X_test, y_test = _problem(name, load_shared)
    order = _sorted_first_appearance_order(y_train)
    X_train, y_train = X_train[order], y_train[order]
    gamma = 1.0 / X_train.shape[1]

    libsvm_model = svmutil.svm_train(y_train, X_train, f"-s 0 -t 2 -c 1 -g {gamma!r} -q")
    libsvm_labels, _, _ = svmutil.svm_predict(y_test, X_test, libsvm_model, "-q")
    ours = SVC(C=1.0, kernel="rbf", gamma=gamma).fit(X_train, y_train)

    n_sv_libsvm = libsvm_model.get_nr_sv()
    n_sv_ours = len(ours.support_)
    assert abs(n_sv_ours - n_sv_libsvm) <= 0.01 * n_sv_libsvm, (n_sv_ours, n_sv_libsvm)
    agreement = np.mean(ours.predict(X_test) == np.asarray(libsvm_labels))
    assert agreement >= PREDICTION_AGREEMENT, f"{agreement:.4%} of {len(X_test)} rows agree"


# --------------------------------------------------------------------------------------------
# Identities
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["iris", "breast_cancer", "wine"])
def test_precomputed_linear_gram_gives_the_linear_model(name, load_shared):
    X_train, y_train, X_test, _ = _problem(name, load_shared)
    linear = SVC(kernel="linear", tol=TIGHT_TOL).fit(X_train, y_train)
    gram = SVC(kernel="precomputed", tol=TIGHT_TOL).fit(X_train @ X_train.T, y_train)

    assert_array_equal(gram.support_, linear.support_)
    assert_allclose(gram.dual_coef_, linear.dual_coef_, rtol=1e-6, atol=1e-7)
    assert_allclose(gram.intercept_, linear.intercept_, rtol=1e-6, atol=1e-7)
    assert_allclose(
        gram.decision_function(X_test @ X_train.T),
        linear.decision_function(X_test),
        rtol=1e-6,
        atol=1e-7,
    )


_EXPLICIT_KERNELS = {
    "linear": ({}, linear_kernel),
    "rbf": ({"gamma": 0.05}, lambda A, B: rbf_kernel(A, B, gamma=0.05)),
    "poly": (
        {"gamma": 0.05, "degree": 3, "coef0": 1.0},
        lambda A, B: polynomial_kernel(A, B, degree=3, gamma=0.05, coef0=1.0),
    ),
    "sigmoid": (
        {"gamma": 0.005, "coef0": 0.0},
        lambda A, B: sigmoid_kernel(A, B, gamma=0.005, coef0=0.0),
    ),
}


@pytest.mark.parametrize("kernel", KERNELS)
def test_binary_decision_function_is_the_kernel_expansion(kernel, load_shared):
    X_train, y_train, X_test, _ = _problem("breast_cancer", load_shared)
    params, kernel_function = _EXPLICIT_KERNELS[kernel]
    model = SVC(kernel=kernel, **params).fit(X_train, y_train)

    expansion = kernel_function(X_test, model.support_vectors_) @ model.dual_coef_.T
    expected = expansion.ravel() + model.intercept_[0]
    assert_allclose(model.decision_function(X_test), expected, rtol=1e-9, atol=1e-9)


def test_binary_decision_function_is_the_expansion_for_precomputed(load_shared):
    X_train, y_train, X_test, _ = _problem("breast_cancer", load_shared)
    model = SVC(kernel="precomputed").fit(X_train @ X_train.T, y_train)
    kernel_test = X_test @ X_train.T
    expected = kernel_test[:, model.support_] @ model.dual_coef_[0] + model.intercept_[0]
    assert_allclose(model.decision_function(kernel_test), expected, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", ["iris", "breast_cancer", "wine"])
def test_support_vectors_are_the_rows_named_by_support(name, load_shared):
    X_train, y_train, _, _ = _problem(name, load_shared)
    model = SVC().fit(X_train, y_train)
    assert_array_equal(model.support_vectors_, X_train[model.support_])
    assert model.n_support_.sum() == len(model.support_)


@pytest.mark.parametrize("name", ["iris", "breast_cancer"])
def test_linear_coef_matches_sklearn(name, load_shared):
    ours, theirs = _fit_both(name, "linear", TIGHT_TOL, load_shared)
    assert ours.coef_.shape == theirs.coef_.shape
    assert_allclose(ours.coef_, theirs.coef_, rtol=1e-5, atol=1e-6)


def test_binary_linear_coef_is_dual_coef_times_support_vectors(load_shared):
    X_train, y_train, _, _ = _problem("breast_cancer", load_shared)
    model = SVC(kernel="linear").fit(X_train, y_train)
    assert_allclose(model.coef_, model.dual_coef_ @ model.support_vectors_, rtol=1e-10)


def test_coef_is_only_defined_for_the_linear_kernel(load_shared):
    X_train, y_train, _, _ = _problem("iris", load_shared)
    model = SVC(kernel="rbf").fit(X_train, y_train)
    with pytest.raises(AttributeError):
        _ = model.coef_


# --------------------------------------------------------------------------------------------
# Fitted attributes: same shapes, dtypes and Python types as scikit-learn
# --------------------------------------------------------------------------------------------

FITTED_ATTRIBUTES = [
    "classes_",
    "support_",
    "support_vectors_",
    "n_support_",
    "dual_coef_",
    "intercept_",
    "fit_status_",
    "n_iter_",
    "shape_fit_",
    "class_weight_",
    "n_features_in_",
]


@pytest.mark.parametrize("name", ["iris", "breast_cancer"])
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_fitted_attributes_have_sklearn_shapes_and_dtypes(name, kernel, load_shared):
    ours, theirs = _fit_both(name, kernel, 1e-3, load_shared)
    attributes = FITTED_ATTRIBUTES + (["coef_"] if kernel == "linear" else [])
    for attribute in attributes:
        mine, reference = getattr(ours, attribute), getattr(theirs, attribute)
        if isinstance(reference, np.ndarray):
            assert isinstance(mine, np.ndarray), attribute
            assert mine.shape == reference.shape, attribute
            assert mine.dtype == reference.dtype, attribute
        else:
            assert type(mine) is type(reference), attribute
    assert ours.shape_fit_ == theirs.shape_fit_
    assert ours.n_features_in_ == theirs.n_features_in_
    assert ours.fit_status_ == 0
    assert_array_equal(ours.classes_, theirs.classes_)
    assert_array_equal(ours.class_weight_, theirs.class_weight_)


# --------------------------------------------------------------------------------------------
# Labels, weights, decision shapes and ties
# --------------------------------------------------------------------------------------------

_LABEL_ENCODINGS = {
    "strings": lambda y: np.array(["setosa", "versicolor", "virginica"])[y],
    "objects": lambda y: np.array(["setosa", "versicolor", "virginica"], dtype=object)[y],
    "floats": lambda y: np.array([-1.0, 0.0, 7.0])[y],
    "negative_ints": lambda y: np.array([-3, -1, 4])[y],
}


@pytest.mark.parametrize("encoding", sorted(_LABEL_ENCODINGS))
def test_label_types_match_sklearn(encoding, load_shared):
    X_train, y_train, X_test, _ = _problem("iris", load_shared)
    labels = _LABEL_ENCODINGS[encoding](y_train.astype(int))
    ours = SVC().fit(X_train, labels)
    theirs = SklearnSVC().fit(X_train, labels)

    assert_array_equal(ours.classes_, theirs.classes_)
    predicted, expected = ours.predict(X_test), theirs.predict(X_test)
    assert predicted.dtype == expected.dtype
    assert_array_equal(predicted, expected)


@pytest.mark.parametrize("labels", [(-1.0, 1.0), (1.0, 2.0), ("no", "yes")])
def test_binary_labels_match_sklearn(labels, load_shared):
    X_train, y_train, X_test, _ = _problem("breast_cancer", load_shared)
    y = np.array(labels)[y_train.astype(int)]
    ours, theirs = SVC().fit(X_train, y), SklearnSVC().fit(X_train, y)
    assert_array_equal(ours.classes_, theirs.classes_)
    assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    assert_allclose(ours.decision_function(X_test), theirs.decision_function(X_test), atol=1e-3)


def _weights(n_samples):
    return np.random.default_rng(0).uniform(0.2, 3.0, size=n_samples)


_WEIGHTING_CASES = {
    "binary_class_weight_dict": ("breast_cancer", {"class_weight": {0: 3.0, 1: 0.5}}, False),
    "multiclass_class_weight_dict": ("iris", {"class_weight": {0: 1.0, 1: 5.0, 2: 0.2}}, False),
    "class_weight_balanced": ("wine", {"class_weight": "balanced"}, False),
    "binary_sample_weight": ("breast_cancer", {}, True),
    "multiclass_sample_weight": ("wine", {}, True),
    "sample_and_class_weight": ("iris", {"class_weight": "balanced"}, True),
}


@pytest.mark.parametrize("case", sorted(_WEIGHTING_CASES))
def test_weighting_matches_sklearn(case, load_shared):
    name, params, use_sample_weight = _WEIGHTING_CASES[case]
    X_train, y_train, X_test, _ = _problem(name, load_shared)
    fit_params = {"sample_weight": _weights(len(y_train))} if use_sample_weight else {}
    ours = SVC(tol=TIGHT_TOL, **params).fit(X_train, y_train, **fit_params)
    theirs = SklearnSVC(tol=TIGHT_TOL, **params).fit(X_train, y_train, **fit_params)

    assert_allclose(ours.class_weight_, theirs.class_weight_, rtol=1e-12)
    n_train = len(y_train)
    assert_allclose(
        _dense_dual_coef(ours, n_train), _dense_dual_coef(theirs, n_train), atol=DECISION_ATOL
    )
    assert_allclose(ours.intercept_, theirs.intercept_, atol=DECISION_ATOL)
    assert_array_equal(ours.predict(X_test), theirs.predict(X_test))


def test_zero_sample_weights_drop_rows_like_sklearn(load_shared):
    X_train, y_train, X_test, _ = _problem("breast_cancer", load_shared)
    sample_weight = _weights(len(y_train))
    sample_weight[::7] = 0.0
    ours = SVC(tol=TIGHT_TOL).fit(X_train, y_train, sample_weight=sample_weight)
    theirs = SklearnSVC(tol=TIGHT_TOL).fit(X_train, y_train, sample_weight=sample_weight)

    assert_allclose(
        ours.decision_function(X_test), theirs.decision_function(X_test), atol=DECISION_ATOL
    )
    # scikit-learn's support_ indexes the rows left after dropping; svmx's indexes X itself.
    assert np.all(sample_weight[ours.support_] > 0)
    assert_array_equal(ours.support_vectors_, X_train[ours.support_])
    assert_allclose(ours.support_vectors_, theirs.support_vectors_)


@pytest.mark.parametrize("name", ["iris", "wine", "digits"])
@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_decision_function_shape_matches_sklearn(name, shape, load_shared):
    _, _, X_test, _ = _problem(name, load_shared)
    ours, theirs = _fit_both(name, "rbf", TIGHT_TOL, load_shared, decision_function_shape=shape)
    actual, expected = ours.decision_function(X_test), theirs.decision_function(X_test)
    assert actual.shape == expected.shape
    assert_allclose(actual, expected, atol=DECISION_ATOL)


def _three_class_problem_with_tied_votes():
    """Three blobs whose pairwise RBF classifiers vote cyclically far from the data.

    Far from every training point, each pairwise decision value is its intercept; with this
    seed and labelling the three intercepts make every class win one vote, and the class with
    the largest ovr confidence is not the first one, so ``break_ties`` changes the answer.
    """
    rng = np.random.default_rng(13)
    centres = [[0.0, 0.0], [3.0, 0.0], [1.5, 2.6]]
    X = np.concatenate([rng.normal(centre, 1.0, size=(20, 2)) for centre in centres])
    y = (np.repeat([0, 1, 2], 20) + 2) % 3
    far_away = np.array([[50.0, 50.0], [-40.0, 30.0], [0.0, -60.0]])
    X_test = np.concatenate([far_away, X[::5]])
    return X, y, X_test


@pytest.mark.parametrize("break_ties", [False, True])
def test_break_ties_matches_sklearn(break_ties):
    X, y, X_test = _three_class_problem_with_tied_votes()
    params = {"kernel": "rbf", "gamma": 1.0, "break_ties": break_ties}
    reference = SklearnSVC(**params).fit(X, y).predict(X_test)
    unbroken = SklearnSVC(**{**params, "break_ties": False}).fit(X, y).predict(X_test)
    # Guard: the problem really has ties that break_ties resolves differently.
    assert break_ties == bool(np.any(reference != unbroken))

    assert_array_equal(SVC(**params).fit(X, y).predict(X_test), reference)


# --------------------------------------------------------------------------------------------
# Estimator protocol: repeatability, parameters, cloning, pickling, memory layouts
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["digits", "breast_cancer"])
def test_two_fits_are_identical(name, load_shared):
    X_train, y_train, X_test, _ = _problem(name, load_shared)
    first = SVC().fit(X_train, y_train)
    second = SVC().fit(X_train, y_train)
    for attribute in ["support_", "dual_coef_", "intercept_", "n_iter_", "n_support_"]:
        assert_array_equal(getattr(first, attribute), getattr(second, attribute), attribute)
    assert_array_equal(first.decision_function(X_test), second.decision_function(X_test))


def test_default_parameters_match_sklearn():
    ours, theirs = SVC().get_params(), SklearnSVC().get_params()
    # svmx's own additions: the solver choice and the threads for one-vs-one pairs.
    assert ours.pop("solver") == "auto"
    assert ours.pop("n_jobs") is None
    assert ours.keys() == theirs.keys()
    # scikit-learn 1.9 deprecates `probability` behind a "deprecated" sentinel; svmx keeps False.
    assert ours.pop("probability") is False
    theirs.pop("probability")
    assert ours == theirs


def test_set_params_returns_self_and_updates():
    model = SVC()
    assert model.set_params(C=10.0, kernel="linear") is model
    assert model.get_params()["C"] == 10.0
    assert model.get_params()["kernel"] == "linear"


def test_set_params_rejects_unknown_names():
    with pytest.raises(ValueError, match="not_a_parameter"):
        SVC().set_params(not_a_parameter=1)


def test_clone_copies_parameters_but_not_the_fit(load_shared):
    X_train, y_train, X_test, _ = _problem("iris", load_shared)
    fitted = SVC(C=3.0, kernel="poly", degree=2, class_weight={0: 2.0}).fit(X_train, y_train)
    copy = clone(fitted)
    assert copy is not fitted
    assert copy.get_params() == fitted.get_params()
    with pytest.raises(NotFittedError):
        copy.predict(X_test)
    assert_array_equal(copy.fit(X_train, y_train).predict(X_test), fitted.predict(X_test))


@pytest.mark.parametrize("name", ["iris", "breast_cancer"])
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_pickle_round_trip_predicts_identically(name, kernel, load_shared):
    X_train, y_train, X_test, _ = _problem(name, load_shared)
    model = SVC(kernel=kernel).fit(X_train, y_train)
    restored = pickle.loads(pickle.dumps(model))
    assert_array_equal(restored.predict(X_test), model.predict(X_test))
    assert_array_equal(restored.decision_function(X_test), model.decision_function(X_test))
    assert restored.get_params() == model.get_params()


def _in_layout(array, layout):
    if layout == "read_only":
        array = array.copy()
        array.setflags(write=False)
        return array
    if layout == "fortran":
        return np.asfortranarray(array)
    if layout == "strided_rows":
        padded = np.zeros((2 * array.shape[0], *array.shape[1:]))
        padded[::2] = array
        return padded[::2]
    if layout == "strided_columns":
        padded = np.zeros((array.shape[0], 2 * array.shape[1]))
        padded[:, ::2] = array
        return padded[:, ::2]
    raise KeyError(layout)


@pytest.mark.parametrize("layout", ["read_only", "fortran", "strided_rows", "strided_columns"])
@pytest.mark.parametrize("name", ["iris", "breast_cancer"])
def test_memory_layouts_give_the_contiguous_model(name, layout, load_shared):
    X_train, y_train, X_test, _ = _problem(name, load_shared)
    sample_weight = _weights(len(y_train))
    reference = SVC().fit(X_train, y_train, sample_weight=sample_weight)

    X_layout = _in_layout(X_train, layout)
    assert not X_layout.flags.c_contiguous or not X_layout.flags.writeable
    if layout == "read_only":
        y_train = _in_layout(y_train, layout)
        sample_weight = _in_layout(sample_weight, layout)
    model = SVC().fit(X_layout, y_train, sample_weight=sample_weight)

    assert_array_equal(model.support_, reference.support_)
    assert_allclose(model.dual_coef_, reference.dual_coef_, rtol=1e-12, atol=1e-12)
    X_test_layout = _in_layout(X_test, layout)
    assert_array_equal(model.predict(X_test_layout), reference.predict(X_test))
    assert_allclose(
        model.decision_function(X_test_layout),
        reference.decision_function(X_test),
        rtol=1e-10,
        atol=1e-10,
    )


def test_read_only_precomputed_gram_works(load_shared):
    X_train, y_train, X_test, _ = _problem("iris", load_shared)
    gram, gram_test = X_train @ X_train.T, X_test @ X_train.T
    reference = SVC(kernel="precomputed").fit(gram, y_train)
    model = SVC(kernel="precomputed").fit(_in_layout(gram, "read_only"), y_train)
    assert_array_equal(
        model.predict(_in_layout(gram_test, "read_only")), reference.predict(gram_test)
    )
