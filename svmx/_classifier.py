"""The classifiers' shared base: labels, class weights, one-vs-one training and voting."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._base import COMMON_CONSTRAINTS, BaseLibSVM, _n_rows
from svmx._constraints import Kind, OneOf
from svmx._estimator import ClassifierMixin
from svmx._fitted import FittedModel, write_fitted_state
from svmx._input_scan import encode_labels
from svmx._layout import ovr_from_ovo, vote
from svmx._probability import PairSigmoids, coupled_probabilities
from svmx._specs import Problem
from svmx._training import fit_one_vs_one
from svmx._validation import available_if, validate_sample_weight, validate_targets
from svmx._warm_start import pair_seeds
from svmx.exceptions import NotFittedError

# Warm starts pay where the pairs are large enough for their solves to outweigh reading
# and checking the seeds: an average pair of at least this many rows (pendigits over
# LIBSVM's C values, 1,000 rows, 10 classes, pairs of about 200: 0.22 s cold, 0.19 s
# seeded; 300 rows, pairs of 60: 0.10 s cold, 0.11 s seeded).
WARM_START_MIN_PAIR_ROWS = 100

__all__ = ["BaseSVC"]

CLASSIFIER_CONSTRAINTS: dict[str, list] = {
    **COMMON_CONSTRAINTS,
    "class_weight": [
        OneOf("balanced", None),
        Kind("a dict mapping labels to weights", types=(dict,)),
    ],
    "decision_function_shape": [OneOf("ovr", "ovo")],
    "break_ties": [Kind("a bool", types=(bool, np.bool_))],
    "probability": [Kind("a bool", types=(bool, np.bool_))],
}


class BaseSVC(ClassifierMixin, BaseLibSVM):
    """Classification on top of one-vs-one binary problems (C-SVC and nu-SVC)."""

    _parameter_constraints = CLASSIFIER_CONSTRAINTS

    def _pair_template(self) -> Problem:
        """The formulation (and nu) every one-vs-one pair shares."""
        return Problem("c_svc", C=np.empty(0))

    def _class_bounds(self, class_weight: np.ndarray) -> np.ndarray:
        """The upper bound of each class's variables before sample weights."""
        raise NotImplementedError

    def _check_feasible(
        self, class_rows: list[np.ndarray], bounds: np.ndarray, classes: np.ndarray
    ) -> None:
        """Raise when the formulation has no solution (nu too large)."""

    def _check_weighted_classes(self, class_rows: list[np.ndarray], classes: np.ndarray,
                                bounds: np.ndarray) -> None:
        """Refuse classes that sample_weight leaves without a sample, in scikit-learn's
        words for one class left (C-SVC; nu-SVC reports an infeasible nu instead), and
        classes whose samples class_weight bounds at 0 (`bounds`: each sample's C)."""
        for rows, label in zip(class_rows, classes.tolist(), strict=True):
            if rows.size and not np.any(bounds[rows] > 0):
                raise ValueError(
                    f"class_weight gives class {label!r} the weight 0, so none of its samples "
                    "can be a support vector; give every class a positive weight"
                )
        left = [rows.size > 0 for rows in class_rows]
        if sum(left) == 1:
            raise ValueError(
                "Invalid input - all samples with positive weights belong to the same class"
            )
        if not all(left):
            empty = classes.tolist()[left.index(False)]
            raise ValueError(
                f"Invalid input - all samples of class {empty!r} have zero or negative "
                "weights; each class needs at least one sample with positive weight"
            )

    def _compute_class_weight(self, classes: np.ndarray, codes: np.ndarray) -> np.ndarray:
        weights = np.ones(classes.size, dtype=np.float64)
        if self.class_weight is None:
            return weights
        if isinstance(self.class_weight, str):  # 'balanced'
            counts = np.bincount(codes, minlength=classes.size)
            return codes.size / (classes.size * counts.astype(np.float64))
        lookup = {label: index for index, label in enumerate(classes.tolist())}
        for label, weight in self.class_weight.items():
            if label not in lookup:
                raise ValueError(
                    f"class_weight names the label {label!r}, which is not in y; "
                    f"the classes are {classes.tolist()}"
                )
            if not np.isfinite(weight) or weight < 0:
                raise ValueError(
                    f"class_weight for label {label!r} must be a finite non-negative number; "
                    f"got {weight!r}"
                )
            weights[lookup[label]] = float(weight)
        return weights

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> BaseSVC:
        """Fit the classifier on X and labels y.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors; for ``kernel='precomputed'`` the (n_samples,
            n_samples) Gram matrix.
        y : array-like of shape (n_samples,)
            Class labels of any sortable type (ints, floats, strings).
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights: they rescale each sample's upper bound C.
            Samples with zero or negative weight are left out of training, as in
            scikit-learn.

        Returns
        -------
        self
        """
        return self._fit(X, y, sample_weight)

    def _fit_in_class_order(self, X: Any, y: Any, class_order: Any) -> BaseSVC:
        """Fit with the one-vs-one pairs trained in ``class_order`` (a list of the labels).

        svm-train orders the classes by first appearance, which decides each pair's
        orientation and so the solver's path (its iterations and output). ``svmx
        train`` trains in that order through this method; the fitted attributes are
        the same layout over the sorted ``classes_`` as `fit` gives, up to rounding.
        """
        return self._fit(X, y, None, class_order)

    def _fit_warm(self, X: Any, y: Any, sample_weight: Any, previous: Any,
                  class_order: Any = None) -> BaseSVC:
        """Fit, C-SVC's pairs started from `previous` (fitted on the same rows, weights,
        kernel and ``class_order`` with another C) scaled into the new box; the optimum
        is the same. ``class_order`` as in `_fit_in_class_order`."""
        return self._fit(X, y, sample_weight, class_order, seed_from=previous)

    def _fit(self, X: Any, y: Any, sample_weight: Any, class_order: Any = None,
             seed_from: Any = None) -> BaseSVC:
        self._validate_parameters()
        X, matrix = self._training_matrix(X)
        n_rows = _n_rows(X)
        labels = validate_targets(y, n_rows, classification=True, owner=type(self).__name__)
        classes, codes = self._encode_classes(labels)
        sample_weight = validate_sample_weight(sample_weight, n_rows)
        class_weight = self._compute_class_weight(classes, codes)
        kernel, solve = self._training_kernel(X), self._solve_spec()
        bounds = self._class_bounds(class_weight)[codes] * sample_weight
        # As scikit-learn, samples of zero or negative weight are left out.
        keep = sample_weight > 0
        class_rows = [np.flatnonzero((codes == c) & keep) for c in range(classes.size)]
        self._check_weighted_classes(class_rows, classes, bounds)
        self._check_feasible(class_rows, bounds, classes)

        template = self._pair_template()
        # LIBSVM fits each pair's sigmoid just before training the pair (and prints the
        # folds' training output first).
        sigmoids = PairSigmoids(matrix, kernel, self.random_state) if self.probability else None
        seeds = None
        if (seed_from is not None and template.formulation == "c_svc"
                and (classes.size == 2
                     or 2 * n_rows >= WARM_START_MIN_PAIR_ROWS * classes.size)):
            seeds = pair_seeds(seed_from, class_rows, float(self.C) / float(seed_from.C))
        layout = fit_one_vs_one(matrix, class_rows, bounds, classes, template, kernel, solve,
                                self._class_positions(classes, class_order), sigmoids, seeds)
        prob_a, prob_b = layout["prob_a"], layout["prob_b"]
        write_fitted_state(self, FittedModel(
            support=layout["support"],
            support_vectors=self._support_vectors_of(X, layout["support"]),
            n_support=layout["n_support"],
            dual_coef=layout["dual_coef"],
            intercept=layout["intercept"],
            n_iter=layout["n_iter"],
            fit_status=layout["fit_status"],
            gamma=kernel.gamma,
            shape_fit=getattr(X, "shape", (n_rows,)),
            classes=classes,
            prob_a=prob_a,
            prob_b=prob_b,
            extra={"class_weight_": class_weight, "_pair_objectives": layout["objective"]},
            sparse_fit=self._sparse_fit(X),
        ))
        self._warn_if_stopped_early()
        return self

    @staticmethod
    def _class_positions(classes: np.ndarray, class_order: Any) -> np.ndarray | None:
        """The index in ``classes`` of each label of ``class_order`` (None: sorted order)."""
        if class_order is None:
            return None
        lookup = {label: index for index, label in enumerate(classes.tolist())}
        wanted = list(class_order)
        if len(wanted) != classes.size or set(wanted) != set(lookup):
            raise ValueError(
                f"class_order must list each of the classes {classes.tolist()} once; "
                f"got {wanted}"
            )
        return np.array([lookup[label] for label in wanted], dtype=np.intp)

    @staticmethod
    def _encode_classes(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The sorted classes and each label's index among them."""
        encoded = encode_labels(labels)  # one C pass for numbers and a few classes
        try:
            classes, codes = encoded or np.unique(labels, return_inverse=True)
        except TypeError:
            raise ValueError("y mixes label types that cannot be sorted") from None
        if classes.size < 2:
            raise ValueError(
                f"y must contain at least two classes; got 1 class ({classes.tolist()})"
            )
        return classes, codes.ravel()

    @property
    def n_support_(self) -> np.ndarray:
        """Number of support vectors per class, of shape (n_classes,)."""
        return self._n_support

    @property
    def coef_(self) -> np.ndarray:
        """Primal weights of the linear kernel, of shape (n_classes * (n_classes - 1) / 2,
        n_features); only for ``kernel='linear'``."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        vectors = self.support_vectors_
        if sp.issparse(vectors):
            vectors = vectors.toarray()
        dual_coef = self.dual_coef_
        if sp.issparse(dual_coef):
            dual_coef = dual_coef.toarray()
        if self.classes_.size == 2:
            coef = dual_coef @ vectors
        else:
            bounds = np.concatenate([[0], np.cumsum(self._n_support)])
            rows = []
            n_classes = self.classes_.size
            for i in range(n_classes):
                for j in range(i + 1, n_classes):
                    block_i = slice(bounds[i], bounds[i + 1])
                    block_j = slice(bounds[j], bounds[j + 1])
                    rows.append(
                        dual_coef[j - 1, block_i] @ vectors[block_i]
                        + dual_coef[i, block_j] @ vectors[block_j]
                    )
            coef = np.array(rows)
        return self._fitted_coef(coef)

    def _check_probability(self) -> bool:
        if not self.probability:
            raise AttributeError(
                "predict_proba is not available when probability=False; "
                "refit with probability=True"
            )
        return True

    def _libsvm_ovo_values(self, X: Any, n_threads: int = 1) -> np.ndarray:
        """One-vs-one decision values computed as LIBSVM's svm_predict_values, to the
        last bit, in LIBSVM's orientation over ``classes_`` (pair (i, j) positive for
        class i).

        Slower than `decision_function` (one kernel value at a time, as LIBSVM);
        ``svmx predict`` takes its labels and probabilities from these, so that its
        output file is svm-predict's byte for byte. With a precomputed kernel, X holds
        the kernel against every training sample. Rows are shared among ``n_threads``
        threads; the values do not depend on it.
        """
        X = self._check_predict_input(X)
        if callable(self.kernel):
            raise ValueError("LIBSVM's arithmetic needs a built-in or precomputed kernel")
        vectors = self.support_ if self.kernel == "precomputed" else self.support_vectors_
        return _libsvm.libsvm_ovo_values(X, vectors, self._dual_coef_, self._n_support,
                                         -np.asarray(self._intercept_, dtype=np.float64),
                                         self._fitted_kernel(), n_threads)

    @available_if("_check_probability")
    def predict_proba(self, X: Any) -> np.ndarray:
        """Class probabilities from Platt sigmoids coupled over the pairs.

        Their argmax can disagree with :meth:`predict`, which votes on the
        decision values (as in LIBSVM and scikit-learn): the sigmoids are fitted
        to cross-validated decision values, not to the final model's. Measured
        on dna.scale.t (1,186 points, 3 classes, default parameters,
        ``random_state=0``), the argmax agrees with ``predict`` on 99.7% of the
        points for SVC and 98.6% for NuSVC (scikit-learn: 99.7% and 98.5%);
        ``tests/test_probability.py`` holds it to at least 98%. Use
        ``predict`` when the label matters and ``predict_proba`` for
        calibrated scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns follow ``classes_``; rows sum to 1.
        """
        X = self._check_predict_input(X)
        if self.probA_.size == 0:
            raise NotFittedError(
                "predict_proba is not available when fitted with probability=False; call "
                "fit again with probability=True"
            )
        return coupled_probabilities(
            self._ovo_decision(X), self.probA_, self.probB_, self.classes_.size
        )

    @available_if("_check_probability")
    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Logarithm of :meth:`predict_proba`, of shape (n_samples, n_classes)."""
        return np.log(self.predict_proba(X))

    def decision_function(self, X: Any) -> np.ndarray:
        """Signed distances to the separating hyperplanes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (positive: ``classes_[1]``),
        (n_samples, n_classes) for ``decision_function_shape='ovr'`` or
        (n_samples, n_classes * (n_classes - 1) / 2) for 'ovo'.
        """
        X = self._check_predict_input(X)
        values = self._ovo_decision(X)
        n_classes = self.classes_.size
        if n_classes == 2:
            return -values[:, 0]
        if self.decision_function_shape == "ovr":
            return ovr_from_ovo(values, n_classes)
        return values

    def predict(self, X: Any) -> np.ndarray:
        """Class labels for the rows of X, by one-vs-one vote (ties: lowest class).

        With ``break_ties=True`` and more than two classes, the argmax of the
        one-vs-rest decision values decides instead; ``break_ties=True`` with
        ``decision_function_shape='ovo'`` raises ValueError here (it fits), as
        in scikit-learn.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError(
                "break_ties must be False when decision_function_shape is 'ovo'"
            )
        X = self._check_predict_input(X)
        values = self._ovo_decision(X)
        n_classes = self.classes_.size
        if self.break_ties and self.decision_function_shape == "ovr" and n_classes > 2:
            codes = np.argmax(ovr_from_ovo(values, n_classes), axis=1)
        else:
            codes = vote(values, n_classes)
        return self.classes_[codes]
