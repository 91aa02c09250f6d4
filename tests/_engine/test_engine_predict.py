"""The prediction engine (svmx._engine.predict) against a plain numpy reference.

The reference forms K(X, SV) with the kernels' textbook formulas (RBF from explicit squared
differences) and multiplies it by the one-vs-one weight matrix, built here pair by pair; the
engine never forms either. Checked for the four built-in kernels, dense float64 / float32 and CSR
input, support vectors stored dense or sparse, every estimator, and the edge cases of the
engine's blocking: one support vector, a class with a single one, all-zero rows, more rows than
one chunk, several tiles of support vectors, and thread counts.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import load_shared
from numpy.testing import assert_allclose, assert_array_equal

from svmx import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from svmx._engine import predict, support_layout
from svmx._layout import ovo_pairs, ovr_from_ovo

KERNELS = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3}
INPUTS = ["dense64", "dense32", "csr"]
RTOL = 1e-10


def reference_kernel(X, vectors, kernel, gamma, degree, coef0):
    """K(X, vectors) from the textbook formulas, in float64."""
    X = X.toarray() if sp.issparse(X) else np.asarray(X)
    vectors = vectors.toarray() if sp.issparse(vectors) else np.asarray(vectors)
    X, vectors = X.astype(np.float64), vectors.astype(np.float64)
    if kernel == "rbf":
        differences = X[:, np.newaxis, :] - vectors[np.newaxis, :, :]
        return np.exp(-gamma * np.einsum("ijk,ijk->ij", differences, differences))
    dots = X @ vectors.T
    if kernel == "linear":
        return dots
    if kernel == "poly":
        return (gamma * dots + coef0) ** degree
    return np.tanh(gamma * dots + coef0)


def reference_weights(dual_coef, n_support):
    """The (n_SV, n_pairs) weights: pair (i, j) takes row j - 1 on class i, row i on class j."""
    n_classes = len(n_support)
    if n_classes == 1:
        return dual_coef.T.copy()
    starts = np.concatenate([[0], np.cumsum(n_support)])
    pairs = ovo_pairs(n_classes)
    weights = np.zeros((dual_coef.shape[1], len(pairs)))
    for p, (i, j) in enumerate(pairs):
        weights[starts[i] : starts[i + 1], p] = dual_coef[j - 1, starts[i] : starts[i + 1]]
        weights[starts[j] : starts[j + 1], p] = dual_coef[i, starts[j] : starts[j + 1]]
    return weights


def assert_close(actual, expected):
    scale = max(1.0, float(np.abs(expected).max()))
    assert_allclose(actual, expected, rtol=RTOL, atol=RTOL * scale)


def as_input(X, kind):
    if kind == "dense32":
        return np.ascontiguousarray(X, dtype=np.float32)
    if kind == "csr":
        return sp.csr_matrix(X)
    return np.ascontiguousarray(X, dtype=np.float64)


def with_zeros(X, rng, fraction=0.4):
    """X with about `fraction` of its entries set to 0, and its rows 1 and 5 all zero."""
    X = np.where(rng.random(X.shape) < fraction, 0.0, X)
    X[[1, 5]] = 0.0
    return X


def classification_data(n_classes, n_rows=90, n_features=6, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n_rows) % n_classes
    X = rng.normal(size=(n_rows, n_features)) + 0.8 * y[:, np.newaxis]
    return with_zeros(X, rng), y


def kernel_parameters(kernel):
    # Sigmoid and poly with moderate gamma keep the values away from saturation and overflow.
    return {"kernel": kernel, "gamma": 0.2, "degree": 3, "coef0": 0.5 if kernel != "rbf" else 0.0}


def test_output_columns_follow_libsvm_pairs():
    n_support = [2, 1, 3, 1]
    starts, columns = support_layout.output_columns(n_support)
    pairs = ovo_pairs(4)
    for c in range(4):
        for r in range(3):
            i, j = pairs[columns[c, r]]
            # Row r of class c's coefficients is pair (r, c) when r < c, else (c, r + 1).
            assert (i, j) == ((r, c) if r < c else (c, r + 1))
    assert starts.tolist() == [0, 2, 3, 6, 7]


def takes_any_input(model):
    """The model, predicting dense and sparse X alike, as one read by svmx.io.load_model.

    A fit on dense X refuses sparse X (scikit-learn's rule); the engine still serves that
    combination for loaded models (``svmx predict``), which these tests cover.
    """
    model._sparse = None
    return model


def dense(matrix):
    """``dual_coef_`` as a dense array (it is CSR after a sparse fit)."""
    return matrix.toarray() if sp.issparse(matrix) else np.asarray(matrix)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("kind", INPUTS)
@pytest.mark.parametrize("fit_sparse", [False, True], ids=["dense_fit", "sparse_fit"])
@pytest.mark.parametrize("n_classes", [2, 4])
def test_svc_matches_reference(kernel, kind, fit_sparse, n_classes):
    X, y = classification_data(n_classes)
    params = kernel_parameters(kernel)
    model = SVC(C=2.0, decision_function_shape="ovo", **params)
    takes_any_input(model.fit(sp.csr_matrix(X) if fit_sparse else X, y))
    assert sp.issparse(model.support_vectors_) == fit_sparse
    X_test = as_input(with_zeros(np.random.default_rng(1).normal(size=(70, 6)),
                                 np.random.default_rng(2)), kind)
    K = reference_kernel(X_test, model.support_vectors_, kernel, 0.2, 3, params["coef0"])
    expected = K @ reference_weights(dense(model.dual_coef_), model.n_support_) + model.intercept_
    actual = model.decision_function(X_test)
    if n_classes == 2:
        assert_close(actual, expected[:, 0])
        return
    assert_close(actual, expected)
    model.set_params(decision_function_shape="ovr")
    # One-vs-rest scores are a function of the one-vs-one values in LIBSVM's sign
    # (dual_coef_ and intercept_ carry it for more than two classes).
    assert_close(model.decision_function(X_test), ovr_from_ovo(expected, n_classes))


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("kind", INPUTS)
def test_nusvc_matches_reference(kernel, kind):
    X, y = classification_data(3)
    params = kernel_parameters(kernel)
    if kernel == "sigmoid":  # not positive semi-definite: nu-SVC needs a margin to exist
        params["coef0"] = -0.5
    model = takes_any_input(NuSVC(nu=0.5, decision_function_shape="ovo", **params).fit(X, y))
    X_test = as_input(X[::2], kind)
    K = reference_kernel(X_test, model.support_vectors_, kernel, 0.2, 3, params["coef0"])
    expected = K @ reference_weights(dense(model.dual_coef_), model.n_support_) + model.intercept_
    assert_close(model.decision_function(X_test), expected)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("kind", INPUTS)
@pytest.mark.parametrize("estimator", [SVR(C=3.0, epsilon=0.05), NuSVR(nu=0.4),
                                       OneClassSVM(nu=0.3)], ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("fit_sparse", [False, True], ids=["dense_fit", "sparse_fit"])
def test_single_problems_match_reference(kernel, kind, estimator, fit_sparse):
    rng = np.random.default_rng(3)
    X = with_zeros(rng.normal(size=(80, 5)), rng)
    target = X[:, 0] - 0.5 * X[:, 1] + 0.1 * rng.normal(size=80)
    params = kernel_parameters(kernel)
    model = estimator.set_params(**params)
    X_fit = sp.csr_matrix(X) if fit_sparse else X
    model.fit(X_fit) if isinstance(model, OneClassSVM) else model.fit(X_fit, target)
    takes_any_input(model)
    X_test = as_input(with_zeros(rng.normal(size=(77, 5)), rng), kind)
    K = reference_kernel(X_test, model.support_vectors_, kernel, 0.2, 3, params["coef0"])
    expected = K @ dense(model.dual_coef_)[0] + model.intercept_[0]
    actual = model.predict(X_test) if not isinstance(model, OneClassSVM) \
        else model.decision_function(X_test)
    assert_close(actual, expected)


def engine_case(n_support, n_features, n_rows, seed, sparse_vectors=False, density=0.5):
    """A random engine problem: rows, support vectors and coefficients in LIBSVM's layout."""
    rng = np.random.default_rng(seed)
    n_sv = int(sum(n_support))
    vectors = rng.normal(size=(n_sv, n_features)) * (rng.random((n_sv, n_features)) < density)
    X = rng.normal(size=(n_rows, n_features)) * (rng.random((n_rows, n_features)) < density)
    X[::7] = 0.0  # all-zero rows, and CSR rows without entries
    n_rows_coef = max(len(n_support) - 1, 1)
    dual_coef = rng.normal(size=(n_rows_coef, n_sv))
    vectors = sp.csr_matrix(vectors) if sparse_vectors else vectors
    return X, vectors, dual_coef, np.asarray(n_support)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("kind", INPUTS)
@pytest.mark.parametrize(
    "n_support, n_features, n_rows, density",
    [
        ([1], 4, 9, 0.5),  # a single support vector
        ([1, 1], 3, 5, 0.5),  # two classes, one vector each
        ([3, 1, 4], 5, 30, 0.5),  # a class with a single vector
        # Several tiles of vectors, several chunks of rows and a tail of rows; rows that
        # share most features go four at a time, sparse ones one at a time.
        ([40, 25, 1, 60], 300, 203, 0.5),
        ([40, 25, 1, 60], 300, 203, 0.02),
        ([130], 300, 64, 0.3),  # a single problem over three tiles, one full chunk
        # Six classes: five coefficient rows per group, met four at a time and one alone.
        ([20, 17, 1, 33, 18, 40], 12, 70, 0.6),
    ],
    ids=["one_sv", "one_each", "single_sv_class", "tiles_and_chunks", "sparse_rows",
         "single_problem", "six_classes"],
)
@pytest.mark.parametrize("layout", ["transposed", "columns"])
def test_engine_matches_reference(kernel, kind, n_support, n_features, n_rows, density, layout):
    # Sparse support vectors may be scattered by columns; dense ones are always transposed.
    X, vectors, dual_coef, n_support = engine_case(n_support, n_features, n_rows, seed=4,
                                                   sparse_vectors=layout == "columns",
                                                   density=density)
    X_input = as_input(X, kind)
    arguments = {"kernel_type": KERNELS[kernel], "degree": 3, "gamma": 0.02, "coef0": 0.3}
    actual = predict.decision_values(X_input, vectors, dual_coef, n_support, layout=layout,
                                     **arguments)
    K = reference_kernel(X_input, vectors, kernel, 0.02, 3, 0.3)
    assert actual.shape == (n_rows, max(len(n_support) * (len(n_support) - 1) // 2, 1))
    assert_close(actual, K @ reference_weights(dual_coef, n_support))
    if layout == "columns":
        transposed = predict.decision_values(X_input, vectors, dual_coef, n_support,
                                             layout="transposed", **arguments)
        assert_close(actual, transposed)


def with_repeated_entries(matrix):
    """The same CSR matrix with every entry stored twice, as two halves."""
    matrix = sp.csr_matrix(matrix)
    return sp.csr_matrix(
        (np.repeat(matrix.data / 2, 2), np.repeat(matrix.indices, 2), 2 * matrix.indptr),
        shape=matrix.shape,
    )


def test_engine_accepts_any_csr_index_order_and_types():
    X, vectors, dual_coef, n_support = engine_case([20, 30], 40, 50, seed=5)
    arguments = {"kernel_type": 2, "degree": 3, "gamma": 0.05, "coef0": 0.0}
    expected = predict.decision_values(X, vectors, dual_coef, n_support, **arguments)
    csr = sp.csr_matrix(X)
    shuffled = sp.csr_matrix((csr.data.copy(), csr.indices.copy(), csr.indptr.copy()),
                             shape=csr.shape)
    for row in range(shuffled.shape[0]):  # reverse every row's entries
        bounds = slice(shuffled.indptr[row], shuffled.indptr[row + 1])
        shuffled.indices[bounds] = shuffled.indices[bounds][::-1]
        shuffled.data[bounds] = shuffled.data[bounds][::-1]
    shuffled.has_sorted_indices = False
    wide = sp.csr_matrix((csr.data, csr.indices.astype(np.int64), csr.indptr.astype(np.int64)),
                         shape=csr.shape)
    doubled = with_repeated_entries(csr)
    assert not doubled.has_canonical_format
    for variant in (shuffled, wide, doubled, csr.astype(np.float32)):
        actual = predict.decision_values(variant, vectors, dual_coef, n_support, **arguments)
        scale = 1e-6 if variant.dtype == np.float32 else RTOL
        assert_allclose(actual, expected, rtol=scale, atol=scale * np.abs(expected).max())
    for layout in ("transposed", "columns"):  # support vectors with repeated entries
        actual = predict.decision_values(csr, with_repeated_entries(vectors), dual_coef, n_support,
                                         layout=layout, **arguments)
        assert_allclose(actual, expected, rtol=RTOL, atol=RTOL * np.abs(expected).max())


def test_rows_with_no_entries_get_the_kernel_of_the_zero_vector():
    _, vectors, dual_coef, n_support = engine_case([5, 6], 8, 1, seed=6)
    X = sp.csr_matrix((3, 8))
    arguments = {"kernel_type": 2, "degree": 3, "gamma": 0.1, "coef0": 0.0}
    actual = predict.decision_values(X, vectors, dual_coef, n_support, **arguments)
    norms = np.einsum("ij,ij->i", vectors, vectors)
    expected = np.exp(-0.1 * norms) @ reference_weights(dual_coef, n_support)
    assert_close(actual, np.tile(expected, (3, 1)))


@pytest.mark.parametrize("kind", ["dense64", "csr"])
def test_rbf_values_are_exp_to_a_few_ulps(kind):
    """The RBF kernel's exponential (fastmath.pxd, a degree-11 polynomial) is within 5e-16 of
    numpy's over the exponents it serves: one support vector at the origin, rows at
    distance sqrt(t) for t in [0, 700], so that each value is exp(-t) of the same t."""
    t = np.concatenate([np.linspace(0.0, 1.0, 4001), np.linspace(1.0, 700.0, 4000)])
    X = np.sqrt(t)[:, np.newaxis]
    X = sp.csr_matrix(X) if kind == "csr" else X
    vectors = np.zeros((1, 1))
    values = predict.decision_values(X, vectors, np.ones((1, 1)), [1], kernel_type=2,
                                     degree=3, gamma=1.0, coef0=0.0)[:, 0]
    squared = np.sqrt(t) * np.sqrt(t)  # the distance the engine takes: x . x
    assert_allclose(values, np.exp(-squared), rtol=5e-16, atol=0)


@pytest.mark.parametrize("kind", ["dense", "csr"])
def test_rbf_rows_of_many_values_are_the_one_value_exponential_bit_for_bit(kind):
    """A row of 64 kernel values takes the vectorised exponential (whole vectors, several
    side by side), a row of one value the scalar one: the same e^-t to the bit. Rows
    (sqrt(t), 0) meet 64 vectors (0, b) whose coefficients are 1 for b = 0 and 0 for the
    rest, so each decision value is the first kernel value of its row."""
    t = np.concatenate([np.linspace(0.0, 1.0, 4001), np.linspace(1.0, 700.0, 4000), [750.0]])
    column = np.sqrt(t)[:, np.newaxis]
    X = np.hstack([column, np.zeros_like(column)])
    vectors = np.zeros((64, 2))
    vectors[1:, 1] = np.arange(1.0, 64.0)
    dual_coef = np.zeros((1, 64))
    dual_coef[0, 0] = 1.0
    rows = sp.csr_matrix(X) if kind == "csr" else X
    many = predict.decision_values(rows, vectors, dual_coef, [32, 32], kernel_type=2,
                                   degree=3, gamma=1.0, coef0=0.0)[:, 0]
    single = column if kind == "dense" else sp.csr_matrix(column)
    one = predict.decision_values(single, np.zeros((1, 1)), np.ones((1, 1)), [1],
                                  kernel_type=2, degree=3, gamma=1.0, coef0=0.0)[:, 0]
    assert_array_equal(many, one)
    assert_allclose(many[:-1], np.exp(-(np.sqrt(t) * np.sqrt(t)))[:-1], rtol=5e-16, atol=0)
    assert 0.0 < many[-1] < 1e-300  # e^-750 is taken as e^-708


@pytest.mark.parametrize("n_support", [[7, 9], [40, 51], [40, 33, 51, 20], [16, 16, 16, 16, 5]])
def test_a_row_alone_gets_the_value_it_gets_among_others_to_the_bit(n_support):
    """Rows go four at a time (their coefficient sums by svmx_dot_rows4) or one at a
    time (svmx_dot_rows, svmx_dot): the same sums of 16 lanes and the same tree, so a
    row's values do not depend on its neighbours, for any number of vectors per class
    (tails of 0 to 15 products)."""
    X, vectors, dual_coef, n_support = engine_case(n_support, 5, 37, seed=3)
    arguments = {"kernel_type": 2, "degree": 3, "gamma": 0.2, "coef0": 0.0}
    together = predict.decision_values(X, vectors, dual_coef, n_support, **arguments)
    for i in range(X.shape[0]):
        alone = predict.decision_values(X[i:i + 1], vectors, dual_coef, n_support,
                                        **arguments)
        assert_array_equal(alone[0], together[i], strict=True)


@pytest.mark.parametrize("kind", INPUTS)
@pytest.mark.parametrize("layout", ["transposed", "columns"])
def test_thread_count_does_not_change_a_bit(kind, layout):
    X, vectors, dual_coef, n_support = engine_case([300, 200, 250], 30, 1000, seed=7,
                                                   sparse_vectors=layout == "columns")
    X_input = as_input(X, kind)
    arguments = {"kernel_type": 2, "degree": 3, "gamma": 0.03, "coef0": 0.0, "layout": layout}
    one = predict.decision_values(X_input, vectors, dual_coef, n_support, n_threads=1,
                                  **arguments)
    for threads in (2, 3):
        many = predict.decision_values(X_input, vectors, dual_coef, n_support,
                                       n_threads=threads, **arguments)
        assert_array_equal(many, one, strict=True)


def test_n_jobs_does_not_change_predictions():
    X, y = classification_data(3, n_rows=300, n_features=10)
    model = takes_any_input(SVC(n_jobs=1, decision_function_shape="ovo").fit(X, y))
    X_test = sp.csr_matrix(with_zeros(np.random.default_rng(8).normal(size=(500, 10)),
                                      np.random.default_rng(9)))
    one = model.decision_function(X_test)
    model.set_params(n_jobs=2)
    assert_array_equal(model.decision_function(X_test), one, strict=True)


def test_engine_checks_its_inputs():
    X, vectors, dual_coef, n_support = engine_case([3, 4], 5, 6, seed=10)
    arguments = {"degree": 3, "gamma": 0.1, "coef0": 0.0}
    with pytest.raises(ValueError, match="kernel_type must be 0, 1, 2 or 3"):
        predict.decision_values(X, vectors, dual_coef, n_support, kernel_type=4, **arguments)
    with pytest.raises(ValueError, match="X has 4 features, but the support vectors have 5"):
        predict.decision_values(X[:, :4], vectors, dual_coef, n_support, kernel_type=2,
                                **arguments)
    with pytest.raises(ValueError, match="layout must be 'auto', 'transposed' or 'columns'"):
        predict.decision_values(X, vectors, dual_coef, n_support, kernel_type=2,
                                layout="csc", **arguments)
    with pytest.raises(ValueError, match="do not fit 7 support vectors in 2 group"):
        predict.decision_values(X, vectors, dual_coef, [3, 3], kernel_type=2, **arguments)


@pytest.mark.parametrize("fit_sparse", [False, True], ids=["dense_fit", "sparse_fit"])
def test_over_the_size_budget(fit_sparse, monkeypatch):
    """Past the transposed copy's budget, dense support vectors take the kernel-matrix path
    and sparse ones are scattered by columns: the same values either way."""
    X, y = classification_data(3)
    model = SVC(decision_function_shape="ovo").fit(sp.csr_matrix(X) if fit_sparse else X, y)
    takes_any_input(model)
    X_test = sp.csr_matrix(X[::3])
    expected = model.decision_function(X_test)
    monkeypatch.setattr(predict, "MAX_TRANSPOSED_ENTRIES", 0)
    assert predict.serves(model.support_vectors_) == fit_sparse
    assert_close(model.decision_function(X_test), expected)


def test_precomputed_and_callable_kernels_keep_the_kernel_matrix_path():
    X, y = classification_data(3)
    gram = X @ X.T
    for model, X_input in (
        (SVC(kernel="precomputed", decision_function_shape="ovo").fit(gram, y), gram),
        (SVC(kernel=lambda A, B: A @ B.T, decision_function_shape="ovo").fit(X, y), X),
    ):
        K = gram[:, model.support_]
        weights = reference_weights(dense(model.dual_coef_), model.n_support_)
        expected = K @ weights + model.intercept_
        assert_close(model.decision_function(X_input), expected)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("kind", ["dense64", "csr"])
def test_agrees_with_sklearn_on_pendigits(kernel, kind):
    """scikit-learn's model of pendigits (10 classes, 45 pairs) predicted by svmx.

    svmx predicts from its fitted attributes alone, so scikit-learn's support vectors and
    coefficients (in LIBSVM's sign for more than two classes) are copied into a fitted svmx
    model: the comparison is of the prediction code alone, and tight.
    """
    sklearn_svm = pytest.importorskip("sklearn.svm")
    X_train, y_train = load_shared("pendigits", n_features=16)
    X_test, _ = load_shared("pendigits.t", n_features=16)
    # scikit-learn predicts sparse input only with a model trained on sparse data.
    X_train, y_train = as_input(X_train[::3] / 100.0, kind), y_train[::3]
    X_test = as_input(X_test / 100.0, kind)
    params = {"kernel": kernel, "gamma": 1.0 / 16, "degree": 3,
              "coef0": -1.0 if kernel == "sigmoid" else 1.0}
    theirs = sklearn_svm.SVC(decision_function_shape="ovo", **params).fit(X_train, y_train)
    ours = SVC(decision_function_shape="ovo", **params).fit(X_train, y_train)
    assert_array_equal(ours.classes_, theirs.classes_)
    ours.support_ = theirs.support_.astype(np.int32)
    ours.support_vectors_ = theirs.support_vectors_
    ours._n_support = theirs.n_support_.astype(np.int32)
    dual_coef = theirs.dual_coef_  # sparse when trained on sparse data
    ours._dual_coef_ = dual_coef.toarray() if sp.issparse(dual_coef) else dual_coef
    ours._intercept_ = theirs.intercept_
    assert_close(ours.decision_function(X_test), theirs.decision_function(X_test))
    assert_array_equal(ours.predict(X_test), theirs.predict(X_test))


@pytest.mark.parametrize("shape", [(2,), (1, 2, 1), (1, 2, 0)])
def test_rows_that_are_not_a_matrix_are_refused(shape):
    vectors = np.array([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match=r"X must be 2-d \(n_samples, n_features\)"):
        predict.decision_values(np.zeros(shape), vectors, np.array([[1.0, -1.0]]), [1, 1],
                                kernel_type=0, degree=3, gamma=1.0, coef0=0.0)


@pytest.mark.parametrize("layout", ["auto", "transposed", "columns"])
def test_sparse_rows_far_wider_than_their_entries_predict_over_the_used_features(layout):
    # A test row with one feature index far beyond the model's (hashed features) made the
    # support vectors' column layout one entry per feature: 1.6 GB and 16 s at 10^8 (found
    # by svmx predict on such a file). The values are those over the features stored.
    rng = np.random.default_rng(0)
    width = predict.COMPACT_MIN_FEATURES * 4
    columns = rng.choice(width, size=30, replace=False)
    narrow_X, narrow_vectors = rng.normal(size=(12, 30)), rng.normal(size=(6, 30))
    narrow_X[narrow_X < 0] = 0.0
    narrow_vectors[narrow_vectors < 0.3] = 0.0

    def widened(matrix):
        rows, at = np.nonzero(matrix)
        return sp.csr_matrix((matrix[rows, at], (rows, columns[at])), shape=(len(matrix), width))

    coef, n_support = rng.normal(size=(1, 6)), [3, 3]
    params = dict(kernel_type=2, degree=3, gamma=0.3, coef0=0.0, layout=layout)
    wide = predict.decision_values(widened(narrow_X), widened(narrow_vectors), coef, n_support,
                                   **params)
    narrow = predict.decision_values(sp.csr_matrix(narrow_X[:, np.argsort(columns)]),
                                     sp.csr_matrix(narrow_vectors[:, np.argsort(columns)]),
                                     coef, n_support, **params)
    assert_array_equal(wide, narrow)
    assert predict.compact_features(widened(narrow_X), widened(narrow_vectors)) is not None
    assert predict.compact_features(narrow_X, widened(narrow_vectors)) is None
