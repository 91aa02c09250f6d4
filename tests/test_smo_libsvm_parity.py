"""solver='smo' is LIBSVM step for step: the same iterations and decision values as
``libsvm-official`` (LIBSVM 3.37) and scikit-learn, on dense float64 and on CSR input.

Each case fits one model four times: svmx on dense float64 rows, svmx on the same rows
as CSR, scikit-learn (``sklearn.svm``, dense) and LIBSVM (``svmutil.svm_train`` with the
same ``-s -t -c -g -r -d -n -p -e -h``). It asserts

* ``n_iter_`` identical, per one-vs-one pair (LIBSVM's counts are read from its
  ``optimization finished, #iter = N`` lines);
* decision values within ``DECISION_TOL``: ``|ours - theirs| <= 1e-10 + 1e-10 |theirs|``
  (absolute for values below 1, relative above; SVR predicts targets of size ~10, and
  the sums of thousands of terms differ in their last bits between the libraries,
  which order their additions differently at prediction time);
* the same support vectors (``support_``), which is what README.md ("Solvers and
  threads") promises.

LIBSVM numbers classes in their order of first appearance (and swaps -1/+1 when -1 comes
first); svmx and scikit-learn use sorted order. LIBSVM therefore gets the class codes
0, 1, ... as labels and the training rows sorted stably by label, which makes its one-vs-one
pairs, their rows and their order svmx's. One-class and the regressions take the rows as
they are.

Where scikit-learn itself differs from LIBSVM svmx follows LIBSVM,
for two reasons found so far:

* scikit-learn's nu-SVC starts from another point (see ``SKLEARN_NU_INITIAL_POINT``);
* scikit-learn's dense kernel takes dot products with BLAS ``ddot``, whose summation order
  is not LIBSVM's sequential sum; the last-bit difference survives the float32 kernel
  cache now and then and, on a long degenerate path, changes a working-set choice
  (NuSVR, linear kernel, all of abalone: scikit-learn 5868 iterations, LIBSVM 7207, with
  one OpenBLAS build; whether it does depends on the BLAS). scikit-learn given the same
  rows as CSR sums sequentially and agrees with LIBSVM; svmx agrees with LIBSVM on both,
  which `test_nusvr_linear_abalone_follows_libsvm_not_sklearn_dense` checks.

Data come from ``../shared/data``; a case whose file is absent is skipped (see
conftest.py). Large sets are cut to their first rows so that the module runs in about a
minute.
"""

from functools import cache

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.svm
from conftest import SHARED_DATA_DIR
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import load_iris, load_svmlight_file

import svmx

svmutil = pytest.importorskip("libsvm.svmutil", reason="libsvm-official is not installed")
from libsvm.svm import (  # noqa: E402
    PRINT_STRING_FUN,
    c_double,
    gen_svm_nodearray,
    svm_parameter,
    svm_problem,
)
from libsvm.svm import libsvm as libsvm_c  # noqa: E402

DECISION_RTOL = 1e-10
DECISION_ATOL = 1e-10
# Decision values are compared on the first rows of the training set.
N_DECISION_ROWS = 200

# name -> (file, n_features, rows used (a slice), scale). svmguide1, mnist_5k and w8a are
# sorted by class, so every 3rd (20th, 70th) row is used.
CLASSIFICATION_FILES = {
    "heart_scale": ("heart_scale", None, slice(None), 1.0),
    "dna.scale": ("dna.scale", None, slice(600), 1.0),
    "pendigits": ("pendigits", None, slice(1000), 1.0),
    "mushrooms": ("mushrooms", None, slice(800), 1.0),
    "svmguide1": ("svmguide1", None, slice(None, None, 3), 1.0),
    "mnist_5k": ("mnist_5k.libsvm", 784, slice(None, None, 20), 1.0 / 255.0),
    "a9a": ("a9a", 123, slice(700), 1.0),
    "w8a": ("w8a", 300, slice(None, None, 70), 1.0),
    "ijcnn1": ("ijcnn1", None, slice(700), 1.0),
    "reuters_lasvm": ("reuters_lasvm", None, slice(400), 1.0),
}
REGRESSION_FILES = {
    "abalone_scale": ("abalone_scale", None, slice(1000), 1.0),
    "cpusmall_scale": ("cpusmall_scale", None, slice(1000), 1.0),
    "housing_scale": ("housing_scale", None, slice(None), 1.0),
    "abalone_full": ("abalone_scale", None, slice(None), 1.0),
}
CLASSIFICATION_SETS = ["iris", "iris_0_vs_2", *CLASSIFICATION_FILES]
REGRESSION_SETS = [name for name in REGRESSION_FILES if name != "abalone_full"]
SMALL_CLASSIFICATION_SETS = ["iris", "iris_0_vs_2", "heart_scale"]
SMALL_REGRESSION_SETS = ["housing_scale"]

LIBSVM_TYPE = {"SVC": 0, "NuSVC": 1, "OneClassSVM": 2, "SVR": 3, "NuSVR": 4}
LIBSVM_KERNEL = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3}

# nu-SVC: scikit-learn starts from alphas filled up to sum_i(nu * C_i) / 2, summed term by
# term; LIBSVM fills up to nu * l / 2. For most nu the two differ in the last bits (0.4
# added 1000 times is not 400.0), and so does the one alpha filled in part, which sets
# scikit-learn on another path. svmx starts where LIBSVM does.
SKLEARN_NU_INITIAL_POINT = "scikit-learn's nu-SVC initial point sums nu * C_i term by term"


def _sklearn_starts_as_libsvm(estimator, y, nu):
    """Whether scikit-learn's nu-SVC initial point is LIBSVM's for every pair."""
    if estimator != "NuSVC":
        return True
    counts = np.unique(y, return_counts=True)[1]
    for a in counts:
        for b in counts:
            total = 0.0
            for _ in range(a + b):
                total += nu * 1.0
            if total != nu * (a + b):
                return False
    return True


# ------------------------------------------------------------------------------------------
# Data
# ------------------------------------------------------------------------------------------


@cache
def _read(name):
    """(CSR float64, labels) of a dataset; frozen, shared by the cases."""
    if name.startswith("iris"):
        X, y = load_iris(return_X_y=True)
        if name == "iris_0_vs_2":
            keep = y != 1
            X, y = X[keep], y[keep]
        X = sp.csr_matrix(X)
    else:
        file, n_features, rows, scale = {**CLASSIFICATION_FILES, **REGRESSION_FILES}[name]
        path = SHARED_DATA_DIR / file
        if not path.is_file():
            return None
        X, y = load_svmlight_file(str(path), n_features=n_features, dtype=np.float64)
        X, y = X[rows], y[rows]
        if name == "reuters_lasvm":  # only the features the rows use: a small dense copy
            X = X[:, np.unique(X.indices)]
        X = sp.csr_matrix(X * scale)
        X.sort_indices()
    X.data.setflags(write=False)
    y.setflags(write=False)
    return X, y


def _data(name):
    data = _read(name)
    if data is None:
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's machines")
    return data


# ------------------------------------------------------------------------------------------
# The four fits
# ------------------------------------------------------------------------------------------


def _parameters(estimator, X, y, kernel, gamma):
    """Keyword parameters shared by svmx and scikit-learn for one case."""
    params = {"kernel": kernel, "gamma": gamma, "tol": 1e-3, "shrinking": True}
    if kernel == "poly":
        params.update(degree=3, coef0=1.0)
    if estimator in ("SVC", "SVR", "NuSVR"):
        params["C"] = 1.0
    if estimator == "SVR":
        params["epsilon"] = 0.1
    if estimator in ("NuSVC", "OneClassSVM", "NuSVR"):
        params["nu"] = 0.5
    if estimator == "NuSVC":
        # nu must be feasible for every pair: nu * (n_i + n_j) / 2 <= min(n_i, n_j).
        counts = np.unique(y, return_counts=True)[1]
        bound = min(2 * min(a, b) / (a + b) for a in counts for b in counts)
        params["nu"] = min(0.5, float(f"{0.8 * bound:.2g}"))
    return params


def _resolved_gamma(X, gamma):
    """scikit-learn's gamma for X (its dense and sparse formulas differ in the last bits)."""
    if gamma == "scale":
        variance = X.multiply(X).mean() - X.mean() ** 2 if sp.issparse(X) else X.var()
        return 1.0 / (X.shape[1] * float(variance)) if variance != 0 else 1.0
    return float(gamma)


def _libsvm_options(estimator, params, gamma):
    options = [
        f"-s {LIBSVM_TYPE[estimator]}",
        f"-t {LIBSVM_KERNEL[params['kernel']]}",
        f"-g {gamma!r}",
        f"-r {params.get('coef0', 0.0)!r}",
        f"-d {params.get('degree', 3)}",
        f"-e {params['tol']!r}",
        f"-h {int(params['shrinking'])}",
        "-m 200",
    ]
    if "C" in params:
        options.append(f"-c {params['C']!r}")
    if "nu" in params:
        options.append(f"-n {params['nu']!r}")
    if "epsilon" in params:
        options.append(f"-p {params['epsilon']!r}")
    return " ".join(options)


# LIBSVM keeps the print function it was last given, so it lives as long as the module.
_LIBSVM_OUTPUT: list[str] = []
_LIBSVM_PRINT = PRINT_STRING_FUN(lambda text: _LIBSVM_OUTPUT.append(text.decode()))


def _libsvm_decision_values(model, X):
    """``svm_predict_values`` row by row, into a buffer of k(k-1)/2 values.

    Not ``svmutil.svm_predict``: libsvm-official 3.37 sizes its buffer as 1 for NU_SVC
    (it lists NU_SVC where NU_SVR is meant), so a nu-SVC of three or more classes writes
    past it.
    """
    n_classes = model.get_nr_class()
    buffer = (c_double * max(1, n_classes * (n_classes - 1) // 2))()
    values = []
    for i in range(X.shape[0]):
        entries = slice(X.indptr[i], X.indptr[i + 1])
        row, _ = gen_svm_nodearray((X.indices[entries], X.data[entries]))
        libsvm_c.svm_predict_values(model, row, buffer)
        values.append(buffer[: len(buffer)])
    return np.asarray(values, dtype=np.float64)


def _fit_libsvm(estimator, X, y, params, gamma, X_test):
    """LIBSVM's per-pair iteration counts and decision values (in svmx's class order)."""
    classify = estimator in ("SVC", "NuSVC")
    if classify:
        classes, codes = np.unique(y, return_inverse=True)
        order = np.argsort(codes, kind="stable")
        X, labels = X[order], codes[order].astype(np.float64)
    else:
        labels = np.zeros(X.shape[0]) if y is None else np.asarray(y, dtype=np.float64)
    parameter = svm_parameter(_libsvm_options(estimator, params, gamma))
    parameter.print_func = _LIBSVM_PRINT
    _LIBSVM_OUTPUT.clear()
    model = svmutil.svm_train(svm_problem(labels, sp.csr_matrix(X)), parameter)
    text = "".join(_LIBSVM_OUTPUT)
    n_iter = [int(line.split("#iter = ")[1]) for line in text.splitlines() if "#iter = " in line]
    values = _libsvm_decision_values(model, sp.csr_matrix(X_test))
    if classify and model.get_nr_class() == 2:
        values = -values  # scikit-learn's sign: positive for the second class
    support = np.sort(np.asarray(model.get_sv_indices()) - 1)
    if classify:
        support = np.sort(order[support])
    return np.asarray(n_iter), values.reshape(X_test.shape[0], -1), support


def _fit(library, estimator, X, y, params):
    """(n_iter_, decision values on the first rows, sorted support_) of one fit."""
    if library == "sklearn":
        model = getattr(sklearn.svm, estimator)(**params)
    else:
        model = getattr(svmx, estimator)(solver="smo", n_jobs=1, **params)
    if estimator in ("SVC", "NuSVC"):
        model.set_params(decision_function_shape="ovo")
    model.fit(X) if y is None else model.fit(X, y)
    X_test = X[:N_DECISION_ROWS]
    if estimator in ("SVR", "NuSVR"):
        values = model.predict(X_test)
    else:
        values = model.decision_function(X_test)
    n_iter = np.atleast_1d(np.asarray(model.n_iter_))
    return n_iter, np.asarray(values).reshape(X_test.shape[0], -1), np.sort(model.support_)


@cache
def _case(estimator, name, kernel, gamma):
    """The four fits of one case: svmx dense, svmx CSR, scikit-learn dense, LIBSVM."""
    X_csr, y = _data(name)
    X_dense = X_csr.toarray()
    targets = None if estimator == "OneClassSVM" else y
    params = _parameters(estimator, X_csr, y, kernel, gamma)
    fits = {
        "svmx dense": _fit("svmx", estimator, X_dense, targets, params),
        "svmx csr": _fit("svmx", estimator, X_csr, targets, params),
        "sklearn": _fit("sklearn", estimator, X_dense, targets, params),
    }
    # LIBSVM with the gamma of each input kind, so that each is compared like for like.
    dense_gamma, csr_gamma = _resolved_gamma(X_dense, gamma), _resolved_gamma(X_csr, gamma)
    fits["libsvm dense"] = _fit_libsvm(estimator, X_csr, targets, params, dense_gamma,
                                       X_csr[:N_DECISION_ROWS])
    fits["libsvm csr"] = fits["libsvm dense"] if csr_gamma == dense_gamma else _fit_libsvm(
        estimator, X_csr, targets, params, csr_gamma, X_csr[:N_DECISION_ROWS])
    return fits


def _assert_same(fits, ours, theirs):
    n_iter, values, support = fits[ours]
    their_n_iter, their_values, their_support = fits[theirs]
    assert_array_equal(n_iter, their_n_iter, err_msg=f"n_iter_: {ours} vs {theirs}")
    assert_array_equal(support, their_support, err_msg=f"support_: {ours} vs {theirs}")
    assert_allclose(values, their_values, rtol=DECISION_RTOL, atol=DECISION_ATOL,
                    err_msg=f"decision values: {ours} vs {theirs}")


def _check(estimator, name, kernel, gamma):
    fits = _case(estimator, name, kernel, gamma)
    for kind in ("dense", "csr"):
        _assert_same(fits, f"svmx {kind}", f"libsvm {kind}")
    X, y = _data(name)
    nu = _parameters(estimator, X, y, kernel, gamma).get("nu")
    if _sklearn_starts_as_libsvm(estimator, y, nu):
        _assert_same(fits, "svmx dense", "sklearn")


# ------------------------------------------------------------------------------------------
# The cases
# ------------------------------------------------------------------------------------------

# A float gamma: what 'scale' gives on heart_scale, rounded (for unscaled sets it makes
# a kernel close to the identity, which is a case too).
FLOAT_GAMMA = 0.07
RBF_GAMMAS = ["scale", FLOAT_GAMMA]
OTHER_KERNELS = ["linear", "poly", "sigmoid"]


@pytest.mark.parametrize("gamma", RBF_GAMMAS, ids=["scale", "float"])
@pytest.mark.parametrize("name", CLASSIFICATION_SETS)
@pytest.mark.parametrize("estimator", ["SVC", "NuSVC", "OneClassSVM"])
def test_rbf_classification_sets_match_libsvm(estimator, name, gamma):
    _check(estimator, name, "rbf", gamma)


@pytest.mark.parametrize("gamma", RBF_GAMMAS, ids=["scale", "float"])
@pytest.mark.parametrize("name", REGRESSION_SETS)
@pytest.mark.parametrize("estimator", ["SVR", "NuSVR"])
def test_rbf_regression_sets_match_libsvm(estimator, name, gamma):
    _check(estimator, name, "rbf", gamma)


@pytest.mark.parametrize("kernel", OTHER_KERNELS)
@pytest.mark.parametrize("name", SMALL_CLASSIFICATION_SETS)
@pytest.mark.parametrize("estimator", ["SVC", "NuSVC", "OneClassSVM"])
def test_other_kernels_on_small_classification_sets_match_libsvm(estimator, name, kernel):
    _check(estimator, name, kernel, "scale")


@pytest.mark.parametrize("kernel", OTHER_KERNELS)
@pytest.mark.parametrize("name", SMALL_REGRESSION_SETS)
@pytest.mark.parametrize("estimator", ["SVR", "NuSVR"])
def test_other_kernels_on_small_regression_sets_match_libsvm(estimator, name, kernel):
    _check(estimator, name, kernel, "scale")


# ------------------------------------------------------------------------------------------
# The known differences, and what README.md promises
# ------------------------------------------------------------------------------------------


def test_nusvr_linear_abalone_follows_libsvm_not_sklearn_dense():
    X_csr, y = _data("abalone_full")
    params = _parameters("NuSVR", X_csr, y, "linear", "scale")
    dense = _fit("svmx", "NuSVR", X_csr.toarray(), y, params)
    libsvm = _fit_libsvm("NuSVR", X_csr, y, params, _resolved_gamma(X_csr, "scale"),
                         X_csr[:N_DECISION_ROWS])
    fits = {"svmx dense": dense, "libsvm": libsvm,
            "svmx csr": _fit("svmx", "NuSVR", X_csr, y, params),
            "sklearn csr": _fit("sklearn", "NuSVR", X_csr, y, params)}
    # scikit-learn's dense kernel (BLAS ddot) is not compared: whether its last bits change
    # the path depends on the BLAS build (5868 against 7207 iterations with one OpenBLAS,
    # LIBSVM's 7207 with OpenBLAS 0.3.30).
    for name in ("svmx dense", "svmx csr", "sklearn csr"):
        _assert_same(fits, name, "libsvm")


def test_nu_svc_takes_libsvm_steps_where_sklearn_takes_others():
    # docs/differences.md ("nu-SVC and nu-SVR against scikit-learn"): svmx's NuSVC is
    # LIBSVM's step for step; scikit-learn's bundled solver parts from it on this problem.
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=200, n_features=4, n_informative=4, n_redundant=0,
                               n_classes=4, random_state=2)
    params = {"kernel": "rbf", "gamma": "scale", "nu": 0.2, "tol": 1e-3, "shrinking": True}
    fits = {"svmx": _fit("svmx", "NuSVC", X, y, params),
            "sklearn": _fit("sklearn", "NuSVC", X, y, params),
            "libsvm": _fit_libsvm("NuSVC", sp.csr_matrix(X), y, params,
                                  _resolved_gamma(X, "scale"), sp.csr_matrix(X[:N_DECISION_ROWS]))}
    _assert_same(fits, "svmx", "libsvm")
    assert not np.array_equal(fits["sklearn"][0], fits["libsvm"][0])
    assert np.abs(fits["sklearn"][1] - fits["libsvm"][1]).max() > 1e-3


# nu-SVC on iris with the sigmoid kernel (not positive semi-definite): for these the margin
# r of every pair is negative. LIBSVM divides by r whatever its sign, and so do svmx and
# scikit-learn, which give LIBSVM's model.
NEGATIVE_MARGIN = [("scale", 0.0, 0.5), ("scale", -1.0, 0.5), ("scale", 1.0, 0.3),
                   (0.1, -1.0, 0.3)]


@pytest.mark.parametrize(("gamma", "coef0", "nu"), NEGATIVE_MARGIN)
def test_nu_svc_with_a_negative_margin_is_libsvm_model(gamma, coef0, nu):
    X_csr, y = _data("iris")
    params = {"kernel": "sigmoid", "gamma": gamma, "coef0": coef0, "nu": nu, "tol": 1e-3,
              "shrinking": True}
    _LIBSVM_OUTPUT.clear()
    fits = {"libsvm": _fit_libsvm("NuSVC", X_csr, y, params,
                                  _resolved_gamma(X_csr.toarray(), gamma),
                                  X_csr[:N_DECISION_ROWS])}
    margins = [1 / float(line.split("=")[1]) for line in "".join(_LIBSVM_OUTPUT).splitlines()
               if line.startswith("C = ")]
    assert len(margins) == 3 and all(r < 0 for r in margins)
    fits["svmx dense"] = _fit("svmx", "NuSVC", X_csr.toarray(), y, params)
    _assert_same(fits, "svmx dense", "libsvm")


def test_nu_svc_without_a_margin_is_refused_as_libsvm_has_none():
    # gamma=1 saturates tanh: every kernel value is the same, r = 0, and LIBSVM's model
    # is 1/0 (it prints C = inf); scikit-learn raises, and so does svmx, naming nu.
    X_csr, y = _data("iris")
    with pytest.raises(ValueError, match=r"nu=0\.5 .*no margin"):
        svmx.NuSVC(kernel="sigmoid", gamma=1.0, nu=0.5, solver="smo").fit(X_csr.toarray(), y)


def test_readme_promise_same_iterations_support_vectors_and_decisions():
    from conftest import PROJECT_ROOT

    readme = " ".join((PROJECT_ROOT / "README.md").read_text().split())
    assert ("`solver='smo'` is LIBSVM's algorithm step for step, on dense and sparse input: "
            "the same iterations, support vectors and decision values as LIBSVM and "
            "scikit-learn") in readme
    # The promise, on a binary, a three-class and a ten-class set, each estimator.
    for estimator, name in [("SVC", "heart_scale"), ("SVC", "dna.scale"),
                            ("NuSVC", "pendigits"), ("OneClassSVM", "iris"),
                            ("SVR", "housing_scale"), ("NuSVR", "housing_scale")]:
        fits = _case(estimator, name, "rbf", "scale")
        for theirs in ("libsvm dense", "sklearn"):
            assert_array_equal(fits["svmx dense"][2], fits[theirs][2])
            assert_array_equal(fits["svmx dense"][0], fits[theirs][0])
            assert_allclose(fits["svmx dense"][1], fits[theirs][1], rtol=DECISION_RTOL,
                            atol=DECISION_ATOL)
