"""What LIBSVM's model files contain: names, which header lines each model has, the class order.

Shared by the reader and the writer so both agree on one description of the format
(LIBSVM 3.x ``svm_save_model`` / ``svm_load_model``).
"""

from __future__ import annotations

import numpy as np

from svmx._layout import ovo_pairs

__all__ = [
    "CLASSIFIERS",
    "KERNEL_NAMES",
    "KERNEL_PARAMETERS",
    "SVM_TYPES",
    "reorder_classes",
    "sort_classes",
]

# svmx estimator class name <-> LIBSVM svm_type (svmx's `_formulation` uses the same names).
SVM_TYPES = {
    "c_svc": "SVC",
    "nu_svc": "NuSVC",
    "one_class": "OneClassSVM",
    "epsilon_svr": "SVR",
    "nu_svr": "NuSVR",
}
CLASSIFIERS = ("c_svc", "nu_svc")

# svmx kernel name <-> LIBSVM kernel_type.
KERNEL_NAMES = {
    "linear": "linear",
    "poly": "polynomial",
    "rbf": "rbf",
    "sigmoid": "sigmoid",
    "precomputed": "precomputed",
}

# The kernel parameters LIBSVM writes for each kernel, in its order.
KERNEL_PARAMETERS = {
    "linear": (),
    "poly": ("degree", "gamma", "coef0"),
    "rbf": ("gamma",),
    "sigmoid": ("gamma", "coef0"),
    "precomputed": (),
}


def sort_classes(
    labels: np.ndarray,
    n_support: np.ndarray,
    dual_coef: np.ndarray,
    rho: np.ndarray,
    prob_a: np.ndarray,
    prob_b: np.ndarray,
) -> dict:
    """Re-express a one-vs-one model whose classes are in any order with sorted classes.

    See :func:`reorder_classes`; the parameters and the result are the same.

    Examples
    --------
    >>> out = sort_classes(np.array([1, -1]), np.array([1, 1]), np.array([[0.5, -0.5]]),
    ...                    np.array([0.25]), np.array([-2.0]), np.array([0.1]))
    >>> out["classes"].tolist(), out["order"].tolist(), out["dual_coef"].tolist()
    ([-1, 1], [1, 0], [[0.5, -0.5]])
    >>> out["rho"].tolist(), out["prob_a"].tolist(), out["prob_b"].tolist()
    ([-0.25], [-2.0], [-0.1])
    """
    rank = np.empty(labels.size, dtype=np.intp)
    rank[np.argsort(labels, kind="stable")] = np.arange(labels.size)
    return reorder_classes(labels, n_support, dual_coef, rho, prob_a, prob_b, rank)


def reorder_classes(
    labels: np.ndarray,
    n_support: np.ndarray,
    dual_coef: np.ndarray,
    rho: np.ndarray,
    prob_a: np.ndarray,
    prob_b: np.ndarray,
    rank: np.ndarray,
) -> dict:
    """Re-express a one-vs-one model for another order of its classes.

    LIBSVM orders classes by first appearance in the training data, svmx
    sorts them; the order decides which class wins a tied vote. Pair (a, b)
    becomes pair (min, max) of the new positions; when the order flips, the
    pair's decision changes sign: its coefficients and rho are negated, and
    its Platt sigmoid keeps ``A`` and negates ``B`` (so that it gives
    ``1 - P``).

    Parameters
    ----------
    labels : ndarray of shape (k,)
        The classes in the file's order.
    n_support : ndarray of shape (k,)
        Support vectors per class, in the file's order.
    dual_coef : ndarray of shape (k - 1, n_SV)
        Coefficients in LIBSVM's layout, support vectors grouped in file order.
    rho : ndarray of shape (k (k - 1) / 2,)
    prob_a, prob_b : ndarray of shape (k (k - 1) / 2,) or (0,)
    rank : ndarray of shape (k,)
        The new position of each class.

    Returns
    -------
    dict
        ``classes``, ``order`` (row order of the support vectors),
        ``n_support``, ``dual_coef``, ``rho``, ``prob_a``, ``prob_b``.

    Examples
    --------
    >>> out = reorder_classes(np.array([1, 2]), np.array([1, 1]), np.array([[0.5, -0.5]]),
    ...                       np.array([0.25]), np.array([]), np.array([]), np.array([1, 0]))
    >>> out["classes"].tolist(), out["dual_coef"].tolist(), out["rho"].tolist()
    ([2, 1], [[0.5, -0.5]], [-0.25])
    """
    k = labels.size
    rank = np.asarray(rank, dtype=np.intp)
    starts = np.concatenate([[0], np.cumsum(n_support)])
    blocks = [np.arange(starts[c], starts[c + 1]) for c in range(k)]
    sorted_classes = np.argsort(rank)  # file class index at each sorted position
    order = np.concatenate([blocks[c] for c in sorted_classes]).astype(np.intp)
    new_position = np.empty(order.size, dtype=np.intp)
    new_position[order] = np.arange(order.size)
    new_pairs = {pair: index for index, pair in enumerate(ovo_pairs(k))}
    new_coef = np.zeros_like(dual_coef)
    new_rho = np.empty_like(rho)
    new_a, new_b = prob_a.copy(), prob_b.copy()
    for index, (a, b) in enumerate(ovo_pairs(k)):
        sign = 1.0 if rank[a] < rank[b] else -1.0
        target = new_pairs[(min(rank[a], rank[b]), max(rank[a], rank[b]))]
        for own, other in ((a, b), (b, a)):
            old_row = other - 1 if other > own else other
            new_row = rank[other] - 1 if rank[other] > rank[own] else rank[other]
            new_coef[new_row, new_position[blocks[own]]] = sign * dual_coef[old_row, blocks[own]]
        new_rho[target] = sign * rho[index]
        if prob_a.size:
            new_a[target] = prob_a[index]
            new_b[target] = sign * prob_b[index]
    return {
        "classes": labels[sorted_classes],
        "order": order,
        "n_support": n_support[sorted_classes],
        "dual_coef": new_coef,
        "rho": new_rho,
        "prob_a": new_a,
        "prob_b": new_b,
    }
