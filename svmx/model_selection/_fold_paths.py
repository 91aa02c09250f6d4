"""A fold's C values solved in the binding, without an estimator per fit.

The grid search by kernel (`svmx.model_selection._kernel_groups`) hands each fold of a
kernel group to this module when the search's score is a metric of predictions alone
(`svmx.model_selection._scoring.prediction_scorer`) and the estimator is svmx's `SVC`
(without probability estimates or ``break_ties``) or `SVR`. The fold's problems are
posed once (classes, weights, the rows' positions in the shared Gram matrix), and each
C is one call into the binding (`svmx._libsvm.ClassifierFold` or `RegressorFold`),
which solves it started from the last C's solution and predicts the held-out rows
from the Gram matrix. What the estimator's fit would do around that (validation,
class encoding, the LIBSVM layout, the fitted attributes, a prediction's input checks)
runs once per fold or not at all, which is most of a small fit's time.

The problems are the ones `fit` poses on the fold's rows with the candidate's
parameters (the same classes, bounds and samples left out), solved to the same
tolerance, so the scores are those of the per-candidate search up to which of the
optimal solutions within ``tol`` each solve stops at. A classification fold's first C
starts from the previous fold's solution at that C on the rows both train on (k-fold
alpha seeding, Wen et al., AAAI 2017; `FoldStarts`): the folds share most of their rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from svmx import _libsvm
from svmx._base import warn_stopped_early
from svmx._constraints import validate_params
from svmx._layout import vote
from svmx._validation import validate_sample_weight, validate_targets
from svmx._warm_start import warm_starts_apply

from ._clone import clone
from ._validation import FitOptions, fold_params, score_fit, take_rows

__all__ = ["FoldAlongC", "FoldStarts", "fold_paths_apply", "scores_along_c"]


def _estimator_kind(estimator: Any) -> str | None:
    from svmx.svm import SVC, SVR

    return {SVC: "classifier", SVR: "regressor"}.get(type(estimator))


def fold_paths_apply(estimator: Any, candidates: list[dict[str, Any]],
                     options: FitOptions) -> bool:
    """Whether a kernel group's folds can be solved along C here: svmx's SVC without
    ``probability`` or ``break_ties``, or SVR, and no fitted estimators asked back.

    Examples
    --------
    >>> from svmx import SVC, NuSVC
    >>> fold_paths_apply(SVC(), [{"C": 1.0}], FitOptions())
    True
    >>> fold_paths_apply(SVC(probability=True), [{"C": 1.0}], FitOptions())
    False
    >>> fold_paths_apply(NuSVC(), [{"nu": 0.5}], FitOptions())
    False
    """
    if _estimator_kind(estimator) is None or options.return_estimator:
        return False
    defaults = estimator.get_params(deep=False)
    return all(not {**defaults, **candidate}.get(name, False)
               for candidate in candidates for name in ("probability", "break_ties"))


class FoldStarts:
    """The first C's solution of the last fold solved over one Gram matrix: where the
    next fold's first solve starts (`FoldAlongC.solve`).

    Measured on LIBSVM's default grid (1,000 rows, 5 folds): the first C's pair
    updates halve on svmguide1 and pendigits (13,633 to 6,193; 171,277 to 74,613),
    the whole search's solves 2-3% faster (the first solve's kernel columns are
    computed either way).

    Examples
    --------
    >>> FoldStarts().latest is None
    True
    """

    def __init__(self) -> None:
        self.latest: tuple | None = None


class FoldAlongC:
    """One fold's problems over the Gram matrix, solved for one C after another; also
    what the fold's scorer is handed (`predict` at rows of the Gram matrix).

    `pose` sets the problems up as `fit` poses them on the fold's rows (classes, class
    and sample weights, samples left out, the solve's settings); each `solve` then
    starts from the last C's solution when `seeded`. ``class_order`` (a permutation of
    the classes) orders the classes as svm-train does: it orients the pairs and breaks
    the vote's ties; by default the classes are sorted, as `fit` has them.

    Examples
    --------
    >>> from svmx import SVC
    >>> X = np.array([[0.0], [0.2], [1.8], [2.0]])
    >>> gram = X @ X.T
    >>> fold = FoldAlongC(gram)
    >>> fold.pose(SVC(kernel="linear"), np.array([0, 2, 3]), np.array([5, 7, 7]), None, True)
    >>> fold.solve(1.0)
    >>> fold.predict(np.array([1])).tolist()
    [5]
    """

    def __init__(self, gram: np.ndarray) -> None:
        self.gram = gram
        self.fold: Any = None
        self.classes: np.ndarray | None = None
        self.spec: Any = None  # the fold's SolveSpec (tol, shrinking, max_iter, cache)
        self.blocks: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # The last predictions at each set of rows, while no solve has moved a solution.
        self.predictions: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.solved = False

    def pose(self, model: Any, train: np.ndarray, y_train: Any, weights: Any, seeded: bool,
             class_order: Any = None) -> None:
        weights = validate_sample_weight(weights, train.size)
        if _estimator_kind(model) == "classifier":
            self.fold, self.classes = _classifier_fold(model, self.gram, train, y_train,
                                                       weights, seeded, class_order)
        else:
            self.fold = _regressor_fold(model, self.gram, train, y_train, weights, seeded)
        self.spec = model._solve_spec()
        self.solved = False
        self.predictions = {}

    def solve(self, C: float, starts: FoldStarts | None = None) -> None:
        """Solve the fold's problems for C; warn (as `fit` does) where max_iter stopped one.

        With `starts`, a classification fold's first solve starts from the last fold's
        first solution when that was at this C with the same classes in the same
        order, and leaves its own there for the next fold.
        """
        spec = self.spec
        settings = (C, spec.tol, spec.shrinking, spec.max_iter, spec.cache_bytes)
        predictions, self.predictions = self.predictions, {}  # none kept if the solve fails
        if self.classes is None or starts is None or self.solved:
            _, stopped_early = self.fold.solve(*settings)
        else:
            latest = starts.latest
            same = latest is not None and np.array_equal(latest[0], self.classes)
            _, stopped_early = self.fold.solve(*settings, latest[1] if same else None)
            starts.latest = (self.classes, self.fold.solution())
        self.solved = True
        if not self.fold.changed:
            self.predictions = predictions
        if stopped_early:
            warn_stopped_early(spec.max_iter, stacklevel=3)

    def predict(self, positions: np.ndarray) -> np.ndarray:
        """Predictions at the rows `positions` of the Gram matrix (each set of rows has its
        kernel block cut once): LIBSVM's vote, or the regression's values; the last ones
        again where no solve since has moved a solution (separable pairs at large C)."""
        rows, predicted = self.predictions.get(id(positions), (None, None))
        if rows is positions:
            return predicted.copy()
        rows, block = self.blocks.get(id(positions), (None, None))
        if rows is not positions:
            block = _libsvm.kernel_block(self.gram, positions, self.fold.training_rows)
            self.blocks[id(positions)] = (positions, block)
        if self.classes is None:
            predicted = self.fold.predict(block)
        else:
            predicted = self.classes[vote(self.fold.decision_values(block),
                                          self.classes.size)]
        self.predictions[id(positions)] = (positions, predicted)
        return predicted.copy()


def _classifier_fold(model: Any, gram: np.ndarray, train: np.ndarray, y_train: Any,
                     weights: np.ndarray, seeded: bool,
                     class_order: Any) -> tuple[Any, np.ndarray]:
    """The fold's one-vs-one problems as `fit` poses them on its rows (C = 1)."""
    labels = validate_targets(y_train, train.size, classification=True,
                              owner=type(model).__name__)
    classes, codes = model._encode_classes(labels)
    if class_order is not None:
        at = np.searchsorted(classes, np.asarray(class_order))  # classes[at] is class_order
        rank = np.empty_like(at)
        rank[at] = np.arange(at.size)
        classes, codes = classes[at], rank[codes]
    unit_bounds = model._compute_class_weight(classes, codes)[codes] * weights
    keep = weights > 0
    class_rows = [np.flatnonzero((codes == c) & keep) for c in range(classes.size)]
    model._check_weighted_classes(class_rows, classes, unit_bounds)
    fold = _libsvm.ClassifierFold(gram, [train[rows] for rows in class_rows],
                                  [unit_bounds[rows] for rows in class_rows], seeded)
    return fold, classes


def _regressor_fold(model: Any, gram: np.ndarray, train: np.ndarray, y_train: Any,
                    weights: np.ndarray, seeded: bool) -> Any:
    """The fold's epsilon-SVR problem as `fit` poses it on its rows (C = 1)."""
    targets = validate_targets(y_train, train.size, classification=False,
                               owner=type(model).__name__)
    rows = np.flatnonzero(weights > 0)
    return _libsvm.RegressorFold(gram, train[rows], targets[rows], weights[rows],
                                 float(model.epsilon), seeded)


def scores_along_c(estimator: Any, gram: np.ndarray, y: Any, split: tuple,
                   candidates: list[dict[str, Any]], scorer: Any, kernel: Any,
                   options: FitOptions, starts: FoldStarts | None = None,
                   rank: np.ndarray | None = None) -> list[dict[str, Any]]:
    """Fit and score every candidate (in increasing C) on one fold of the Gram matrix.

    ``scorer`` is a metric of predictions (``scorer(model, rows, y)`` calls only
    ``model.predict(rows)``); ``starts`` is shared by the folds of one Gram matrix
    (`FoldStarts`); ``rank`` maps each sample to its row of `gram` where that is
    computed over the samples in another order (by default, sample i is row i).
    Returns, per candidate, what `svmx.model_selection._validation.fit_and_score`
    returns.
    """
    train, test = (np.asarray(rows, dtype=np.intp) for rows in split)
    at_train, at_test = (train, test) if rank is None else (rank[train], rank[test])
    n_samples = gram.shape[0]
    model = clone(estimator).set_params(**candidates[0])
    seeded = warm_starts_apply(model.max_iter, kernel)
    weights = fold_params(options.fit_params, n_samples, train).get("sample_weight")
    y_train, y_test = take_rows(y, train), take_rows(y, test)
    fold = FoldAlongC(gram)
    outcomes = []
    # The candidates of a group set the same few parameters: once every parameter has
    # passed validation, each fit checks only those it changes, and plain parameters
    # are set as set_params sets them (its deep get_params costs as much as a solve).
    names = set(model.get_params(deep=False))
    constraints = model._parameter_constraints
    validated = False
    for candidate in candidates:
        if names.issuperset(candidate):
            for name, value in candidate.items():
                setattr(model, name, value)
        else:
            model.set_params(**candidate)

        def fit(changed=candidate) -> None:
            nonlocal validated
            if validated:
                validate_params(model, {name: constraints[name] for name in changed
                                        if name in constraints})
            else:
                model._validate_parameters()
                validated = True
            if fold.fold is None:  # the fold's first fit poses it (a failure is recorded)
                fold.pose(model, at_train, y_train, weights, seeded)
            fold.solve(float(model.C), starts)

        outcomes.append(score_fit(fold, fit, (at_train, y_train, train),
                                  (at_test, y_test, test), n_samples, scorer, options))
    return outcomes
