"""The base of the formulations that solve one problem: one-class, epsilon-SVR, nu-SVR."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._base import BaseLibSVM, _n_rows
from svmx._fitted import FittedModel, write_fitted_state
from svmx._probability import decisions_on, density_marks, laplace_scale
from svmx._specs import Problem
from svmx._training import cache_memories, solve_problem
from svmx._validation import validate_sample_weight, validate_targets
from svmx._warm_start import regression_seed

__all__ = ["BaseSingleProblem"]


class BaseSingleProblem(BaseLibSVM):
    """Train one LIBSVM problem on all samples; its decision is K(x, SV) @ coef - rho."""

    # One-class SVM learns from X alone; the regressions need targets.
    _needs_targets = True

    def _problem(self, targets: np.ndarray | None, bounds: np.ndarray) -> Problem:
        raise NotImplementedError

    def _fit_with_libsvm_probability(self, X: Any, targets: Any, random_state: Any) -> Any:
        """Fit, and fit LIBSVM's probability model too, as ``svm-train -b 1`` does.

        Epsilon- and nu-SVR get ``probA_``, the scale of a Laplace distribution of
        the error from a 5-fold cross-validation shuffled by ``random_state`` (a
        :class:`~svmx.preprocessing.GlibcRand` makes svm-train's folds); one-class
        SVM gets ``prob_density_marks_`` (LIBSVM 3.37), unless too few training
        decision values fall on either side of 0. ``svmx train -b 1`` fits this
        way; `svmx.io.save_model` writes both to the model file.
        """
        self._fit_single(X, targets, None, probability=True, random_state=random_state)
        return self

    def _fit_warm(self, X: Any, targets: Any, sample_weight: Any, previous: Any) -> Any:
        """Fit, epsilon-SVR started from `previous` (fitted on the same rows, weights
        and kernel with another C) scaled into the new box; the optimum is the same.
        The other formulations fit from their usual start."""
        self._fit_single(X, targets, sample_weight, seed_from=previous)
        return self

    def _fit_single(self, X: Any, targets: Any, sample_weight: Any, probability: bool = False,
                    random_state: Any = None, seed_from: Any = None) -> None:
        self._validate_parameters()
        X, matrix = self._training_matrix(X)
        if self._needs_targets:
            targets = validate_targets(
                targets, _n_rows(X), classification=False, owner=type(self).__name__
            )
        weights = validate_sample_weight(sample_weight, _n_rows(X))
        kernel, solve = self._training_kernel(X), self._solve_spec()
        rows = np.flatnonzero(weights > 0)
        bounds = self._bound_scale() * weights[rows]
        problem = self._problem(None if targets is None else targets[rows], bounds)
        if seed_from is not None and problem.formulation == "epsilon_svr":
            problem = problem.seeded(regression_seed(
                seed_from, rows, problem.target, problem.epsilon,
                float(self.C) / float(seed_from.C)))
        prob_a = np.empty(0, dtype=np.float64)
        if probability and problem.formulation != "one_class":
            # The model and its five folds hand their kernel caches' memory on.
            solve = solve.replace(memories=cache_memories([rows.size], solve.cache_bytes, 1))
        solution = solve_problem(matrix, rows, problem, kernel, solve)
        extra = {"_objective": float(solution.obj)}
        nonzero = solution.coef != 0
        support = rows[nonzero].astype(np.int32)
        # LIBSVM 3.37 fits the probability model after the model itself.
        if probability and problem.formulation != "one_class":
            prob_a = np.array([laplace_scale(matrix, rows, problem, kernel, solve,
                                             random_state)])
        elif probability:
            marks = density_marks(decisions_on(matrix, rows, support,
                                                     solution.coef[nonzero], solution.rho,
                                                     kernel))
            if marks is not None:
                extra["prob_density_marks_"] = marks
        for stale in ("probA_", "prob_density_marks_"):  # of an earlier fit
            self.__dict__.pop(stale, None)
        write_fitted_state(self, FittedModel(
            support=support,
            support_vectors=self._support_vectors_of(X, support),
            n_support=np.array([int(nonzero.sum())], dtype=np.int32),
            dual_coef=solution.coef[nonzero][np.newaxis, :].astype(np.float64),
            intercept=np.array([-solution.rho], dtype=np.float64),
            n_iter=int(solution.n_iter),
            fit_status=int(solution.status != 0),
            gamma=kernel.gamma,
            shape_fit=getattr(X, "shape", (_n_rows(X),)),
            prob_a=prob_a,
            extra=extra,
            sparse_fit=self._sparse_fit(X),
        ))
        self._warn_if_stopped_early()

    def _bound_scale(self) -> float:
        """The C multiplying every sample weight."""
        return float(self.C)

    @property
    def n_support_(self) -> np.ndarray:
        """Number of support vectors, of shape (1,)."""
        return self._n_support

    @property
    def coef_(self) -> np.ndarray:
        """Primal weights of the linear kernel, of shape (1, n_features)."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        vectors = self.support_vectors_
        coef = self._dual_coef_ @ (vectors.toarray() if sp.issparse(vectors) else vectors)
        return self._fitted_coef(coef)

    def _libsvm_decision(self, X: Any, n_threads: int = 1) -> np.ndarray:
        """Decision values computed as LIBSVM's svm_predict_values, to the last bit.

        Slower than `decision_function` (one kernel value at a time, as LIBSVM);
        ``svmx predict`` writes regression values and one-class labels from
        these, so that its output file is svm-predict's byte for byte. With a
        precomputed kernel, X holds the kernel against every training sample. Rows
        are shared among ``n_threads`` threads; the values do not depend on it.
        """
        X = self._check_predict_input(X)
        if callable(self.kernel):
            raise ValueError("LIBSVM's arithmetic needs a built-in or precomputed kernel")
        vectors = (self.support_ if self.kernel == "precomputed"
                   else self.support_vectors_)
        return _libsvm.libsvm_decision_values(X, vectors, self._dual_coef_[0],
                                              -float(self._intercept_[0]),
                                              self._fitted_kernel(), n_threads)

    def _raw_decision(self, X: Any) -> np.ndarray:
        X = self._check_predict_input(X)
        values = self._decision_without_gram(X)
        if values is not None:
            return values[:, 0] + self._intercept_[0]
        values = np.empty(_n_rows(X), dtype=np.float64)
        for block in self._row_blocks(_n_rows(X)):
            values[block] = self._kernel_to_support(X[block]) @ self._dual_coef_[0]
        return values + self._intercept_[0]
