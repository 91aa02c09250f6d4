"""scikit-learn's conventions that its own SVM tests rely on (tests/sklearn_suite runs them).

CSR coefficients after a sparse fit, callable kernels on sparse and non-numeric X,
negative sample weights masked, break_ties checked at predict, non-finite solutions
refused, ``offset_`` of shape (1,), and scikit-learn's messages where they are matched.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from svmx import SVC, SVR, ConvergenceWarning, NuSVC, NuSVR, OneClassSVM
from svmx.io import load_model, save_model

X = np.array([[-2.0, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1]])
Y = np.array([1, 1, 1, 2, 2, 2])
ESTIMATORS = {"SVC": SVC, "NuSVC": NuSVC, "OneClassSVM": OneClassSVM, "SVR": SVR,
              "NuSVR": NuSVR}


def _fit(name, X, y=Y, **params):
    model = ESTIMATORS[name](**params)
    return model.fit(X) if name == "OneClassSVM" else model.fit(X, y)


def _decision(model, X):
    return model.decision_function(X) if hasattr(model, "decision_function") else \
        model.predict(X)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_a_callable_kernel_returning_a_sparse_gram_matrix_is_densified(name):
    csr = sp.csr_matrix(X)
    callable_fit = _fit(name, csr, kernel=lambda a, b: a @ b.T)
    linear_fit = _fit(name, X, kernel="linear")
    assert_array_equal(callable_fit.support_, linear_fit.support_)
    assert_allclose(_decision(callable_fit, csr), _decision(linear_fit, X), atol=1e-12)
    # A callable kernel keeps dense coefficients and takes sparse X, as scikit-learn's.
    assert not sp.issparse(callable_fit.dual_coef_)


def _count_kernel(A, B):
    return np.array([[a.count("A") * b.count("A") + a.count("B") * b.count("B") for b in B]
                     for a in A], dtype=np.float64)


@pytest.mark.parametrize("name", ["SVC", "NuSVC", "SVR", "NuSVR"])
def test_a_callable_kernel_receives_non_numeric_X_as_given(name):
    documents = ["A A", "A", "B", "B B", "A B"]
    counts = np.array([[2.0, 0], [1, 0], [0, 1], [0, 2], [1, 1]])
    y = np.array([1, 1, 2, 2, 1])
    seen = []

    def kernel(A, B):
        seen.append((type(A), type(B)))
        return _count_kernel(A, B)

    on_strings = ESTIMATORS[name](kernel=kernel).fit(documents, y)
    on_counts = ESTIMATORS[name](kernel="linear").fit(counts, y)
    assert seen[0] == (list, list)
    assert_array_equal(on_strings.support_, on_counts.support_)
    assert on_strings.support_vectors_ == [documents[i] for i in on_strings.support_]
    assert on_strings.shape_fit_ == (5,) and not hasattr(on_strings, "n_features_in_")
    assert_allclose(_decision(on_strings, documents), _decision(on_counts, counts), atol=1e-12)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_negative_weights_mask_samples_as_zero_weights(name):
    Xs = np.array([[-2.0, -1], [-1, -1], [-1, -2], [0, -1], [1, 1], [1, 2], [2, 1], [0, 1]])
    ys = np.array([1, 1, 1, 1, 2, 2, 2, 2])
    negative = np.array([1, -1e-17, 1, -0.5, 1, 1, -3, 1])
    model = ESTIMATORS[name](kernel="linear")
    zero = np.clip(negative, 0, None)
    if name == "OneClassSVM":
        masked = model.fit(Xs, sample_weight=negative)
        reference = ESTIMATORS[name](kernel="linear").fit(Xs, sample_weight=zero)
    else:
        masked = model.fit(Xs, ys, sample_weight=negative)
        reference = ESTIMATORS[name](kernel="linear").fit(Xs, ys, sample_weight=zero)
    assert not set(masked.support_.tolist()) & {1, 3, 6}
    assert_array_equal(masked.support_, reference.support_)
    assert_allclose(masked.dual_coef_, reference.dual_coef_, rtol=0, atol=0)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_all_samples_masked_is_scikit_learns_error(name):
    with pytest.raises(ValueError, match="Invalid input - all samples have zero or negative "
                                         "weights."):
        model = ESTIMATORS[name](kernel="linear")
        weights = np.array([0.0, -0.3, 0, -1e-17, 0, 0])
        model.fit(X, sample_weight=weights) if name == "OneClassSVM" else \
            model.fit(X, Y, sample_weight=weights)


def test_one_class_left_is_scikit_learns_error():
    weights = [0, -0.5, 0, 1, 1, 1]
    with pytest.raises(ValueError, match="Invalid input - all samples with positive weights "
                                         "belong to the same class"):
        SVC(kernel="linear").fit(X, Y, sample_weight=weights)
    with pytest.raises(ValueError, match="specified nu is infeasible"):
        NuSVC(kernel="linear").fit(X, Y, sample_weight=weights)


def test_a_class_left_without_weight_among_three_is_refused():
    # scikit-learn trains the two other classes and then mislabels the third's samples.
    y = np.array([0, 0, 1, 1, 2, 2])
    with pytest.raises(ValueError, match="all samples of class 1 have zero or negative"):
        SVC(kernel="linear").fit(X, y, sample_weight=[1, 1, 0, -1, 1, 1])


def test_a_class_weight_of_zero_is_refused_by_name():
    # scikit-learn solves and then reports non-finite dual coefficients; svmx names the
    # parameter. nu-SVC's bounds do not involve class_weight, so it still fits.
    y = np.array([0, 0, 1, 1, 2, 2])
    with pytest.raises(ValueError, match="class_weight gives class 2 the weight 0"):
        SVC(kernel="linear", class_weight={2: 0.0}).fit(X, y)
    assert NuSVC(kernel="linear", nu=0.1, class_weight={2: 0.0}).fit(X, y).n_support_.sum() > 0


@pytest.mark.parametrize("Classifier", [SVC, NuSVC])
def test_break_ties_with_ovo_fits_and_predict_refuses(Classifier):
    y = np.array([0, 0, 1, 1, 2, 2])
    model = Classifier(kernel="linear", decision_function_shape="ovo", break_ties=True)
    model.fit(X, y)
    assert model.decision_function(X).shape == (6, 3)
    with pytest.raises(ValueError, match="break_ties must be False when "
                                         "decision_function_shape is 'ovo'"):
        model.predict(y)  # refused before X is looked at, as in scikit-learn


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("sparse", [False, True])
def test_training_rows_that_overflow_are_refused(name, kernel, sparse):
    rng = np.random.RandomState(0)
    huge = np.finfo(np.float64).max * rng.uniform(size=(10, 2))
    y = np.array([0, 1] * 5)
    with pytest.raises(ValueError, match="The dual coefficients or intercepts are not finite"):
        _fit(name, sp.csr_matrix(huge) if sparse else huge, y, kernel=kernel)


def test_one_class_offset_has_shape_one():
    model = OneClassSVM(kernel="linear").fit(X)
    assert model.offset_.shape == (1,)
    assert_array_equal(model.offset_, -model.intercept_)
    assert_allclose(model.score_samples(X) - model.offset_, model.decision_function(X))


def test_an_altered_internal_state_is_refused():
    model = SVC(kernel="linear").fit(X, Y)
    model._n_support[0] = 1000000
    with pytest.raises(ValueError, match="The internal representation of SVC was altered"):
        model.predict(X)


def test_messages_matched_by_scikit_learns_tests():
    with pytest.warns(ConvergenceWarning, match=r"Solver terminated early \(max_iter=1\).  "
                                                "Consider pre-processing"):
        SVC(max_iter=1).fit(X, Y)
    model = SVC().fit(X, Y)
    model.probability = True
    with pytest.raises(Exception, match="predict_proba is not available when fitted with "
                                        "probability=False"):
        model.predict_proba(X)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_save_model_after_a_sparse_fit_writes_the_dense_fits_file(name, tmp_path):
    dense_fit = _fit(name, X, kernel="linear")
    sparse_fit = _fit(name, sp.csr_matrix(X), kernel="linear")
    assert sp.issparse(sparse_fit.dual_coef_)
    save_model(dense_fit, tmp_path / "dense.model")
    save_model(sparse_fit, tmp_path / "sparse.model")
    assert (tmp_path / "sparse.model").read_bytes() == (tmp_path / "dense.model").read_bytes()
    loaded = load_model(tmp_path / "sparse.model")
    # A model read from a file predicts dense and sparse X alike.
    assert_allclose(_decision(loaded, sp.csr_matrix(X)), _decision(sparse_fit, X), atol=1e-12)


def test_get_params_follows_a_replaced_init():
    """The parameter names are read once per class and ``__init__``; replacing the
    ``__init__`` (or subclassing) gives the new names, as scikit-learn's reading does."""
    class Subclass(SVC):
        pass

    assert "C" in Subclass().get_params()

    def init(self, C=1.0, extra=2):
        self.C, self.extra = C, extra

    Subclass.__init__ = init
    assert Subclass().get_params() == {"C": 1.0, "extra": 2}
    assert "kernel" in SVC().get_params()


@pytest.mark.parametrize("name", ["SVC", "NuSVC", "SVR", "NuSVR"])
def test_score_reads_a_column_vector_y_as_its_column(name):
    # numpy would compare (n,) predictions with (n, 1) truth as an n x n table: a
    # silently wrong score (SVC scored 0.33 on data it fits perfectly).
    model = _fit(name, X)
    assert model.score(X, Y[:, None]) == model.score(X, Y)
    with pytest.raises(ValueError, match="1-D"):
        model.score(X, np.c_[Y, Y])
    with pytest.raises(ValueError, match="5 values but there are 6 predictions"):
        model.score(X, Y[:5])
