"""The five LIBSVM estimators: SVC, NuSVC, OneClassSVM, SVR and NuSVR.

They follow scikit-learn's names, defaults and fitted attributes, and
LIBSVM's mathematics (Chang & Lin 2011): one-vs-one multiclass over sorted
classes, the SMO solver with second-order working set selection (Fan, Chen
& Lin 2005), shrinking, and an LRU kernel cache.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from svmx._base import COMMON_CONSTRAINTS
from svmx._classifier import CLASSIFIER_CONSTRAINTS, BaseSVC
from svmx._constraints import Interval
from svmx._estimator import RegressorMixin
from svmx._one_class import OneClassSVM
from svmx._single import BaseSingleProblem
from svmx._specs import Problem
from svmx._svm_common import _KERNEL_DOC, NU, POSITIVE, RANDOM_STATE

__all__ = ["SVC", "NuSVC", "OneClassSVM", "SVR", "NuSVR"]

class SVC(BaseSVC):
    __doc__ = f"""C-support vector classification (LIBSVM's C-SVC).

    Parameters
    ----------
    C : float, default=1.0
        Regularisation: the upper bound of the dual variables. Must be > 0.
{_KERNEL_DOC}
    probability : bool, default=False
        Fit Platt sigmoids by internal 5-fold cross-validation, enabling
        ``predict_proba``.
    class_weight : dict or 'balanced', default=None
        Multiplies C per class; 'balanced' uses n_samples / (n_classes * count).
    decision_function_shape : {{'ovr', 'ovo'}}, default='ovr'
        Shape of ``decision_function`` for more than two classes.
    break_ties : bool, default=False
        With 'ovr' and more than two classes, predict by the argmax of the
        decision values instead of the one-vs-one vote.
    random_state : None, int, Generator, RandomState or SplitMix64, default=None
        Seeds the shuffling of the probability cross-validation (None: fresh
        entropy each fit).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training set, grouped by class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_support_ : ndarray of shape (n_classes,)
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
    coef_ : ndarray of shape (n_classes * (n_classes - 1) / 2, n_features)
        Only for the linear kernel.
    n_iter_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        Solver iterations per one-vs-one pair.
    fit_status_ : int
        0 when every solve converged, 1 when one stopped at ``max_iter``.
    class_weight_ : ndarray of shape (n_classes,)
    shape_fit_ : tuple
    n_features_in_ : int
    probA_, probB_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
        Platt sigmoid parameters (empty unless ``probability=True``).

    References
    ----------
    C.-C. Chang and C.-J. Lin, LIBSVM: a library for support vector machines,
    ACM TIST 2:27, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> from svmx import SVC
    >>> X = np.array([[-1.0, -1.0], [-2.0, -1.0], [1.0, 1.0], [2.0, 1.0]])
    >>> y = np.array([1, 1, 2, 2])
    >>> model = SVC(kernel="linear").fit(X, y)
    >>> model.predict([[-0.8, -1.0]]).tolist()
    [1]
    >>> model.n_support_.tolist()
    [1, 1]
    """

    _formulation = "c_svc"
    _parameter_constraints = {**CLASSIFIER_CONSTRAINTS, "C": [POSITIVE],
                              "random_state": [RANDOM_STATE]}

    def __init__(
        self,
        *,
        C: float = 1.0,
        kernel: Any = "rbf",
        degree: int = 3,
        gamma: Any = "scale",
        coef0: float = 0.0,
        shrinking: bool = True,
        probability: bool = False,
        tol: float = 1e-3,
        cache_size: float = 200,
        class_weight: Any = None,
        verbose: bool = False,
        max_iter: int = -1,
        solver: str = "auto",
        n_jobs: int | None = None,
        decision_function_shape: str = "ovr",
        break_ties: bool = False,
        random_state: Any = None,
    ) -> None:
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.solver = solver
        self.n_jobs = n_jobs
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    def _class_bounds(self, class_weight: np.ndarray) -> np.ndarray:
        return float(self.C) * class_weight


class NuSVC(BaseSVC):
    __doc__ = f"""nu-support vector classification (LIBSVM's nu-SVC).

    Parameters
    ----------
    nu : float, default=0.5
        An upper bound on the fraction of margin errors and a lower bound on
        the fraction of support vectors, in (0, 1]. For classes of sizes
        n_i, n_j it must not exceed 2 min(n_i, n_j) / (n_i + n_j).
{_KERNEL_DOC}
    probability, class_weight, decision_function_shape, break_ties, random_state
        As in :class:`SVC`.

    Attributes
    ----------
    classes_, support_, support_vectors_, n_support_, dual_coef_, intercept_
        As in :class:`SVC`.
    coef_, n_iter_, fit_status_, class_weight_, shape_fit_, n_features_in_, probA_, probB_
        As in :class:`SVC`.

    References
    ----------
    B. Schölkopf, A. Smola, R. Williamson and P. Bartlett, New support vector
    algorithms, Neural Computation 12, 2000.

    Examples
    --------
    >>> import numpy as np
    >>> from svmx import NuSVC
    >>> X = np.array([[-1.0, -1.0], [-2.0, -1.0], [1.0, 1.0], [2.0, 1.0]])
    >>> NuSVC(nu=0.5).fit(X, [0, 0, 1, 1]).predict([[1.5, 1.0]]).tolist()
    [1]
    """

    _formulation = "nu_svc"
    _parameter_constraints = {**CLASSIFIER_CONSTRAINTS, "nu": [NU],
                              "random_state": [RANDOM_STATE]}

    def __init__(
        self,
        *,
        nu: float = 0.5,
        kernel: Any = "rbf",
        degree: int = 3,
        gamma: Any = "scale",
        coef0: float = 0.0,
        shrinking: bool = True,
        probability: bool = False,
        tol: float = 1e-3,
        cache_size: float = 200,
        class_weight: Any = None,
        verbose: bool = False,
        max_iter: int = -1,
        solver: str = "auto",
        n_jobs: int | None = None,
        decision_function_shape: str = "ovr",
        break_ties: bool = False,
        random_state: Any = None,
    ) -> None:
        self.nu = nu
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.solver = solver
        self.n_jobs = n_jobs
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    def _class_bounds(self, class_weight: np.ndarray) -> np.ndarray:
        # As in LIBSVM and scikit-learn, class weights do not enter nu-SVC's
        # bounds (nu fixes the scale); sample weights still do.
        return np.ones_like(class_weight)

    def _pair_template(self) -> Problem:
        return Problem("nu_svc", C=np.empty(0), nu=float(self.nu))

    def _check_weighted_classes(self, class_rows: list[np.ndarray], classes: np.ndarray,
                                bounds: np.ndarray) -> None:
        # A class without weight makes every nu infeasible: `_check_feasible` says so.
        pass

    def _check_feasible(
        self, class_rows: list[np.ndarray], bounds: np.ndarray, classes: np.ndarray
    ) -> None:
        totals = [float(bounds[rows].sum()) for rows in class_rows]
        classes = classes.tolist()
        for i in range(len(totals)):
            for j in range(i + 1, len(totals)):
                both = totals[i] + totals[j]
                limit = 2.0 * min(totals[i], totals[j]) / both if both > 0 else 0.0
                if self.nu > limit:
                    raise ValueError(
                        f"specified nu is infeasible: nu={self.nu} is infeasible for classes "
                        f"{classes[i]!r} and {classes[j]!r}, which allow at most nu = "
                        f"{limit:.6g} (2 min(W_i, W_j) / (W_i + W_j), W being a class's "
                        "total positive sample weight; class_weight does not enter nu-SVC)"
                    )


class SVR(RegressorMixin, BaseSingleProblem):
    __doc__ = f"""epsilon-support vector regression (LIBSVM's epsilon-SVR).

    Parameters
    ----------
{_KERNEL_DOC}
    C : float, default=1.0
        Regularisation; must be > 0.
    epsilon : float, default=0.1
        Width of the insensitive tube; must be >= 0.

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_support_ : ndarray of shape (1,)
    dual_coef_ : ndarray of shape (1, n_SV)
    intercept_ : ndarray of shape (1,)
    coef_ : ndarray of shape (1, n_features), linear kernel only
    n_iter_ : int
    fit_status_ : int
    shape_fit_ : tuple
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from svmx import SVR
    >>> X = np.arange(10.0).reshape(-1, 1)
    >>> model = SVR(kernel="linear", C=10.0, epsilon=0.01).fit(X, 2.0 * X.ravel())
    >>> round(float(model.predict([[4.5]])[0]), 1)
    9.0
    """

    _formulation = "epsilon_svr"
    _parameter_constraints = {
        **COMMON_CONSTRAINTS,
        "C": [POSITIVE],
        "epsilon": [Interval("real", 0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        kernel: Any = "rbf",
        degree: int = 3,
        gamma: Any = "scale",
        coef0: float = 0.0,
        tol: float = 1e-3,
        C: float = 1.0,
        epsilon: float = 0.1,
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
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.solver = solver
        self.n_jobs = n_jobs

    def _problem(self, targets: np.ndarray | None, bounds: np.ndarray) -> Problem:
        return Problem("epsilon_svr", C=bounds, target=targets, epsilon=float(self.epsilon))

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> SVR:
        """Fit the regression on X and targets y.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        self
        """
        self._fit_single(X, y, sample_weight)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict the targets of X.

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


class NuSVR(RegressorMixin, BaseSingleProblem):
    __doc__ = f"""nu-support vector regression (LIBSVM's nu-SVR).

    Parameters
    ----------
    nu : float, default=0.5
        Bounds the fraction of support vectors; in (0, 1]. The tube width
        epsilon is found by the solver.
    C : float, default=1.0
        Regularisation; must be > 0.
{_KERNEL_DOC}

    Attributes
    ----------
    support_, support_vectors_, n_support_, dual_coef_, intercept_
        As in :class:`SVR`.
    coef_, n_iter_, fit_status_, shape_fit_, n_features_in_
        As in :class:`SVR`.

    Examples
    --------
    >>> import numpy as np
    >>> from svmx import NuSVR
    >>> X = np.arange(10.0).reshape(-1, 1)
    >>> model = NuSVR(kernel="linear", C=10.0).fit(X, 2.0 * X.ravel())
    >>> round(float(model.predict([[4.5]])[0]), 1)
    9.0
    """

    _formulation = "nu_svr"
    _parameter_constraints = {**COMMON_CONSTRAINTS, "C": [POSITIVE], "nu": [NU]}

    def __init__(
        self,
        *,
        nu: float = 0.5,
        C: float = 1.0,
        kernel: Any = "rbf",
        degree: int = 3,
        gamma: Any = "scale",
        coef0: float = 0.0,
        shrinking: bool = True,
        tol: float = 1e-3,
        cache_size: float = 200,
        verbose: bool = False,
        max_iter: int = -1,
        solver: str = "auto",
        n_jobs: int | None = None,
    ) -> None:
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter
        self.solver = solver
        self.n_jobs = n_jobs

    def _problem(self, targets: np.ndarray | None, bounds: np.ndarray) -> Problem:
        return Problem("nu_svr", C=bounds, target=targets, nu=float(self.nu))

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> NuSVR:
        """Fit the regression on X and targets y.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Training vectors; for kernel='precomputed' the (n_samples, n_samples)
            Gram matrix.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights: they rescale each sample's upper bound C.

        Returns
        -------
        self
        """
        self._fit_single(X, y, sample_weight)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict the targets of X.

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
