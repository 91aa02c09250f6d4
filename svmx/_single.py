"""The base of the formulations that solve one problem: one-class, epsilon-SVR, nu-SVR."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx._base import BaseLibSVM

__all__ = ["BaseSingleProblem"]


class BaseSingleProblem(BaseLibSVM):
    """Train one LIBSVM problem on all samples; its decision is K(x, SV) @ coef - rho."""

    # One-class SVM learns from X alone; the regressions need targets.
    _needs_targets = True

    def _problem(self, targets: np.ndarray | None, bounds: np.ndarray) -> dict[str, Any]:
        raise NotImplementedError

    def _fit_single(self, X: Any, targets: Any, sample_weight: Any) -> None:
        from svmx._validation import validate_targets

        self._validate_parameters()
        X, matrix, kernel_type = self._training_matrix(X)
        if self._needs_targets:
            targets = validate_targets(
                targets, X.shape[0], classification=False, owner=type(self).__name__
            )
        weights = self._sample_bounds(sample_weight, X.shape[0])
        self._gamma = self._resolve_gamma(X)
        rows = np.flatnonzero(weights > 0)
        bounds = self._bound_scale() * weights[rows]
        problem = self._problem(None if targets is None else targets[rows], bounds)
        result = self._solve(matrix, rows, kernel_type, **problem)
        coef = result["coef"]
        nonzero = coef != 0
        self._dual_coef_ = coef[nonzero][np.newaxis, :].astype(np.float64)
        self._intercept_ = np.array([-result["rho"]], dtype=np.float64)
        self.dual_coef_ = self._dual_coef_
        self.intercept_ = self._intercept_
        self._n_support = np.array([int(nonzero.sum())], dtype=np.int32)
        self.n_iter_ = int(result["n_iter"])
        self.fit_status_ = int(result["status"] != 0)
        self._solution = result
        self._report(
            f"{result['n_iter']} iterations, objective {result['obj']:.6g}, "
            f"rho {result['rho']:.6g}, {int(nonzero.sum())} support vectors"
        )
        self._finish_fit(X, rows[nonzero].astype(np.int32))

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
        coef = self.dual_coef_ @ (vectors.toarray() if sp.issparse(vectors) else vectors)
        coef.flags.writeable = False
        return coef

    def _raw_decision(self, X: Any) -> np.ndarray:
        X = self._check_predict_input(X)
        engine_values = self._engine_decision(X)
        if engine_values is not None:
            return engine_values[:, 0] + self._intercept_[0]
        values = np.empty(X.shape[0], dtype=np.float64)
        for block in self._row_blocks(X.shape[0]):
            values[block] = self._kernel_to_support(X[block]) @ self._dual_coef_[0]
        return values + self._intercept_[0]
