"""LIBSVM's one-class SVM (re-exported by `svmx.svm`, where it is documented)."""

from __future__ import annotations

from typing import Any

import numpy as np

from svmx._base import COMMON_CONSTRAINTS
from svmx._estimator import OutlierMixin
from svmx._single import BaseSingleProblem
from svmx._specs import Problem
from svmx._svm_common import _KERNEL_DOC, NU

__all__ = ["OneClassSVM"]


class OneClassSVM(OutlierMixin, BaseSingleProblem):
    __doc__ = f"""Unsupervised outlier detection (LIBSVM's one-class SVM).

    Parameters
    ----------
    nu : float, default=0.5
        An upper bound on the fraction of training errors and a lower bound
        on the fraction of support vectors, in (0, 1].
{_KERNEL_DOC}

    Attributes
    ----------
    support_, support_vectors_, n_support_, dual_coef_, intercept_
        As in :class:`SVR`.
    coef_, n_iter_, fit_status_, shape_fit_, n_features_in_
        As in :class:`SVR`.
    offset_ : ndarray of shape (1,)
        The offset: ``decision_function = score_samples - offset_`` (``-intercept_``).

    References
    ----------
    B. Schölkopf et al., Estimating the support of a high-dimensional
    distribution, Neural Computation 13, 2001.

    Examples
    --------
    >>> import numpy as np
    >>> from svmx import OneClassSVM
    >>> X = np.array([[0.0], [0.44], [0.45], [0.46], [1.0]])
    >>> OneClassSVM(gamma="auto").fit(X).predict(X).tolist()
    [-1, 1, 1, 1, -1]
    """

    _formulation = "one_class"
    _needs_targets = False
    _parameter_constraints = {**COMMON_CONSTRAINTS, "nu": [NU]}

    def __init__(
        self,
        *,
        kernel: Any = "rbf",
        degree: int = 3,
        gamma: Any = "scale",
        coef0: float = 0.0,
        tol: float = 1e-3,
        nu: float = 0.5,
        shrinking: bool = True,
        cache_size: float = 200,
        verbose: bool = False,
        max_iter: int = -1,
        solver: str = "auto",
        n_jobs: int | None = None,
    ) -> None:
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.solver = solver
        self.n_jobs = n_jobs

    def _bound_scale(self) -> float:
        return 1.0

    def _problem(self, targets: np.ndarray | None, bounds: np.ndarray) -> Problem:
        return Problem("one_class", C=bounds, nu=float(self.nu))

    def _svmx_tags(self) -> dict[str, Any]:
        return {"pairwise": self.kernel == "precomputed", "requires_y": False}

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> OneClassSVM:
        """Learn the support of X's distribution (`y` is ignored).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        self
        """
        self._fit_single(X, None, sample_weight)
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Signed distance to the boundary: positive for inliers.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples; for kernel='precomputed', their kernel values against the
            training samples, of shape (n_samples, n_training_samples).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._raw_decision(X)

    def score_samples(self, X: Any) -> np.ndarray:
        """The unshifted scores ``decision_function(X) + offset_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples; for kernel='precomputed', their kernel values against the
            training samples, of shape (n_samples, n_training_samples).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._raw_decision(X) + self.offset_

    def predict(self, X: Any) -> np.ndarray:
        """Classify samples as inliers (+1) or outliers (-1).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples; for kernel='precomputed', their kernel values against the
            training samples, of shape (n_samples, n_training_samples).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return np.where(self._raw_decision(X) > 0, 1, -1)


# Documented, pickled and shown (HTML repr) where users import it from.
OneClassSVM.__module__ = "svmx.svm"
