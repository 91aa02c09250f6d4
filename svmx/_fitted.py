"""The one place that writes an estimator's fitted state.

``fit`` (classifiers and single problems) and :func:`svmx.io.load_model`
build a `FittedModel` in LIBSVM's sign convention and hand it to
`write_fitted_state`, which sets every fitted attribute, including
scikit-learn's sign flip for two classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm

__all__ = ["LAYOUT_CACHE", "WIDTH_FROM_MODEL_FILE", "FittedModel", "csr_kind", "csr_like",
           "csr_rows", "write_fitted_state"]

# Where a fitted estimator keeps its support vectors' prediction layouts
# (`svmx._libsvm.LayoutCache`): set with the fitted state, so that predicting changes
# nothing in the estimator's __dict__; left out of pickles and copies (see
# `svmx._base.BaseLibSVM.__getstate__`), which start with an empty one.
LAYOUT_CACHE = "_layout_cache"
# Set on an estimator `svmx.io.load_model` read without `n_features`: its width is the
# support vectors' largest feature index, which a wider X may exceed.
WIDTH_FROM_MODEL_FILE = "_n_features_from_model_file"


def _empty() -> np.ndarray:
    return np.empty(0, dtype=np.float64)


@dataclass(frozen=True, eq=False)
class FittedModel:
    """A fitted model in LIBSVM's layout and sign convention.

    Attributes
    ----------
    support : ndarray of shape (n_SV,), int32
        Rows of the training set (grouped by class for classifiers).
    support_vectors : ndarray or sparse matrix of shape (n_SV, n_features)
        Empty (0, 0) for a precomputed kernel.
    n_support : ndarray of shape (n_classes,) or (1,), int32
    dual_coef : ndarray of shape (n_classes - 1, n_SV) or (1, n_SV)
        LIBSVM's signs: positive decision values favour a pair's first class.
    intercept : ndarray of shape (n_pairs,) or (1,)
        -rho per problem.
    n_iter : ndarray of shape (n_pairs,), int or None
        None (a model read from a file) leaves ``n_iter_`` unset.
    fit_status : int
    gamma : float
        The resolved kernel coefficient.
    shape_fit : tuple
        Shape of the training matrix (for a precomputed kernel, of the Gram matrix).
    classes : ndarray or None
        The class labels of a classifier, in the order of its pairs.
    prob_a, prob_b : ndarray
        Platt's parameters per pair (empty without probability). For a
        regression a one-element ``prob_a`` is LIBSVM's Laplace scale.
    extra : dict
        Other fitted attributes by name (``class_weight_``,
        ``prob_density_marks_``).
    sparse_fit : bool or None
        True after a fit on sparse X with a built-in kernel: ``dual_coef_`` (and
        ``coef_``) are then CSR, as in scikit-learn. False after a fit on dense X
        or with a callable kernel: sparse X is then refused at prediction with a
        built-in kernel, as scikit-learn does. None for a precomputed kernel and
        for a model read from a file, which take dense and sparse X alike.
    """

    support: np.ndarray
    support_vectors: Any
    n_support: np.ndarray
    dual_coef: np.ndarray
    intercept: np.ndarray
    n_iter: Any
    fit_status: int
    gamma: float
    shape_fit: tuple
    classes: np.ndarray | None = None
    prob_a: np.ndarray = field(default_factory=_empty)
    prob_b: np.ndarray = field(default_factory=_empty)
    extra: dict = field(default_factory=dict)
    sparse_fit: bool | None = None


def csr_kind(template: Any) -> type:
    """The CSR class matching `template`'s kind: ``csr_array`` for a sparse array,
    ``csr_matrix`` for a sparse matrix (scikit-learn keeps the input's kind).

    Examples
    --------
    >>> csr_kind(sp.csr_array((1, 1))).__name__, csr_kind(sp.coo_matrix((1, 1))).__name__
    ('csr_array', 'csr_matrix')
    """
    return sp.csr_array if isinstance(template, sp.sparray) else sp.csr_matrix


def csr_rows(X: Any, rows: np.ndarray) -> Any:
    """``X[rows]`` of a sparse X as a CSR matrix of X's kind, gathered in Cython (scipy's
    fancy indexing costs tens of microseconds of Python per call); int32 index
    pointers where they fit, as scipy makes them.

    Examples
    --------
    >>> X = sp.csr_array(np.array([[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]]))
    >>> picked = csr_rows(X, np.array([2, 0]))
    >>> type(picked).__name__, picked.toarray().tolist()
    ('csr_array', [[4.0, 5.0], [0.0, 2.0]])
    """
    data, indices, indptr = _libsvm.gather_csr_rows(X, rows)
    if indptr[-1] <= np.iinfo(np.int32).max:
        indptr = indptr.astype(np.int32)
    return csr_kind(X)((data, indices, indptr), shape=(len(rows), X.shape[1]))


def csr_like(template: Any, dense: np.ndarray, *, keep_zeros: bool = False) -> Any:
    """`dense` as a CSR matrix of the same kind as `template` (sparray or spmatrix).

    With ``keep_zeros`` every entry is stored, zeros too, as scikit-learn stores
    ``dual_coef_`` after a sparse fit (one entry per support vector and row).

    Examples
    --------
    >>> coef = csr_like(sp.csr_array((1, 2)), np.array([[0.0, -0.5]]), keep_zeros=True)
    >>> type(coef).__name__, coef.nnz, coef.toarray().tolist()
    ('csr_array', 2, [[0.0, -0.5]])
    """
    kind = csr_kind(template)
    dense = np.asarray(dense, dtype=np.float64)
    if not keep_zeros:
        return kind(dense)
    n_rows, n_columns = dense.shape
    indices = np.tile(np.arange(n_columns, dtype=np.int32), n_rows)
    indptr = np.arange(n_rows + 1, dtype=np.int32) * n_columns
    return kind((dense.ravel().copy(), indices, indptr), shape=dense.shape)


def write_fitted_state(estimator: Any, model: FittedModel) -> None:
    """Set the estimator's fitted attributes from `model`.

    Classifiers get ``classes_``, ``probA_`` and ``probB_``, with the
    two-class sign flip (scikit-learn's convention: positive decision values
    mean ``classes_[1]``); one-class SVMs get ``offset_`` (of shape (1,), as in
    scikit-learn); a regression gets
    ``probA_`` only when the model has a Laplace scale.

    Examples
    --------
    >>> from svmx import SVR
    >>> model = FittedModel(np.array([0], np.int32), np.ones((1, 1)), np.array([1], np.int32),
    ...                     np.array([[0.5]]), np.array([0.25]), 3, 0, 1.0, (4, 1))
    >>> estimator = SVR()
    >>> write_fitted_state(estimator, model)
    >>> estimator.intercept_.tolist(), estimator.n_features_in_
    ([0.25], 1)
    """
    estimator._n_support = np.asarray(model.n_support, dtype=np.int32)
    estimator._dual_coef_ = np.ascontiguousarray(model.dual_coef, dtype=np.float64)
    estimator._intercept_ = np.asarray(model.intercept, dtype=np.float64)
    if model.classes is not None:
        estimator.classes_ = model.classes
        sign = -1.0 if model.classes.size == 2 else 1.0
        estimator.dual_coef_ = sign * estimator._dual_coef_
        estimator.intercept_ = sign * estimator._intercept_
        estimator.probA_ = model.prob_a
        estimator.probB_ = model.prob_b
    else:
        estimator.dual_coef_ = estimator._dual_coef_
        estimator.intercept_ = estimator._intercept_
        if model.prob_a.size:
            estimator.probA_ = model.prob_a
    estimator._sparse = model.sparse_fit
    if model.sparse_fit:
        estimator.dual_coef_ = csr_like(model.support_vectors, estimator.dual_coef_,
                                        keep_zeros=True)
    estimator.support_ = np.asarray(model.support, dtype=np.int32)
    estimator.support_vectors_ = model.support_vectors
    estimator.shape_fit_ = tuple(model.shape_fit)
    if len(model.shape_fit) > 1:
        estimator.n_features_in_ = int(model.shape_fit[1])
    else:  # a callable kernel on X that is not a matrix (a list of strings)
        estimator.__dict__.pop("n_features_in_", None)
    if model.n_iter is not None:
        estimator.n_iter_ = model.n_iter
    estimator.fit_status_ = int(model.fit_status)
    estimator._gamma = float(model.gamma)
    if getattr(estimator, "_formulation", None) == "one_class":
        estimator.offset_ = -estimator._intercept_
    estimator.__dict__.pop(WIDTH_FROM_MODEL_FILE, None)  # a fit knows its width
    for name, value in model.extra.items():
        setattr(estimator, name, value)
    estimator.__dict__[LAYOUT_CACHE] = _libsvm.LayoutCache()
