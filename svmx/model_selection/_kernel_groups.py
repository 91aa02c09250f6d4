"""Grid search by kernel: one Gram matrix for all folds and C values, warm starts along C.

A grid over C and the kernel's parameters with k folds is, for LIBSVM, scikit-learn and a
plain search, (candidates x k) fits from scratch, each computing its own kernel values.
For svmx's estimators with a built-in kernel the search groups the candidates instead:

- one group per kernel (and every other parameter but C); its task computes the Gram
  matrix over all the samples once (per ``gamma`` value: ``'scale'`` depends on the fold's
  rows), and every fold and C of the group trains on that fold's block of it
  (``kernel='precomputed'``) and scores on the test rows' block;
- within a fold the C values are solved in increasing order, C-SVC and epsilon-SVR each
  started from the previous solution scaled into the new box (`svmx._warm_start`); the
  optimum is the same (the search picks what a cold search picks).

The groups are the tasks handed to joblib, so they run on any backend (dask included)
with results identical to a local run. The Gram matrix (float64, n x n) and a fold's
blocks of it (at most as much again) must fit in the estimator's ``cache_size``; without
room, for other estimators, kernels or fit parameters, or with a ``max_iter`` limit (a
stopped solve's end turns on the last bits of its kernel values), the search falls back to
one task per (candidate, fold).
"""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx._constraints import validate_params
from svmx._shared_gram import gram_matrix, kernel_values_dear
from svmx._specs import BYTES_PER_MB, KERNEL_TYPES, KernelSpec
from svmx._validation import validate_targets
from svmx._warm_start import warm_starts_apply

from ._clone import clone, is_classifier
from ._fold_paths import FoldStarts, fold_paths_apply, scores_along_c
from ._parallel import effective_jobs
from ._scoring import reads_only_predictions
from ._split import Split
from ._validation import FitOptions, fold_params, score_fit, take_rows

__all__ = ["KernelGroup", "fit_kernel_group", "group_bytes", "plan_kernel_groups",
           "plan_shared_folds"]

SHARED_KERNELS = ("linear", "poly", "rbf", "sigmoid")


@dataclass(frozen=True)
class KernelGroup:
    """Candidates that differ only in C, in increasing C.

    Attributes
    ----------
    members : list of int
        Their indices in the search's candidate list.
    """

    members: list[int]


def group_bytes(n_samples: int) -> float:
    """Memory of one group's task: the float64 Gram matrix over the samples, and a fold's
    training and test blocks of it (n_train x n_train + n_test x n_train <= n x n).

    Examples
    --------
    >>> group_bytes(1000) / 2**20  # MB
    15.2587890625
    """
    return 2 * 8.0 * n_samples * n_samples


def _is_svmx_svm(estimator: Any) -> bool:
    from svmx._base import BaseLibSVM

    return isinstance(estimator, BaseLibSVM)


def plan_kernel_groups(estimator: Any, candidates: list[dict[str, Any]], X: Any,
                       fit_params: dict[str, Any]) -> list[KernelGroup] | None:
    """The search's candidates grouped by kernel, or None when grouping does not apply.

    It applies to svmx's five estimators with a built-in kernel (and a solver other
    than ``'block'``, which takes no precomputed kernel), finite numeric or sparse X,
    candidates whose parameters pass the fit's checks, no fit parameter but
    ``sample_weight``, no ``verbose`` fit, no ``max_iter`` limit, and a float64 Gram
    matrix over X that fits in ``cache_size`` twice over (`group_bytes`).

    Examples
    --------
    >>> from svmx import SVC
    >>> candidates = [{"C": 4.0, "gamma": 0.5}, {"C": 1.0, "gamma": 0.5}, {"C": 1.0}]
    >>> [group.members for group in plan_kernel_groups(SVC(), candidates, np.eye(3), {})]
    [[1, 0], [2]]
    """
    if not _is_svmx_svm(estimator) or set(fit_params) - {"sample_weight"}:
        return None
    if not (isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "fiu"
            or sp.issparse(X)):
        return None
    # What a fit refuses (non-finite values, a malformed parameter) takes the
    # per-candidate path, which reports it as the fits do.
    if not np.isfinite(X.data if sp.issparse(X) else X).all():
        return None
    defaults = estimator.get_params(deep=False)
    keys: dict[tuple, list[int]] = {}
    valid = _ParameterCheck(estimator)
    for index, candidate in enumerate(candidates):
        params = {**defaults, **candidate}
        if not isinstance(params["kernel"], str) or params["kernel"] not in SHARED_KERNELS:
            return None
        if params.get("solver") == "block":  # not available for a precomputed kernel
            return None
        if params.get("verbose") or group_bytes(X.shape[0]) > params["cache_size"] * BYTES_PER_MB:
            return None
        if not valid(candidate):
            return None
        # A solve that max_iter stops ends where its path leads, and the path turns on the
        # last bits of the kernel values (the shared Gram matrix's are not the fit's own to
        # the bit): only a fit on the samples reproduces it.
        if isinstance(params.get("max_iter"), numbers.Integral) and params["max_iter"] >= 0:
            return None
        key = tuple(sorted((name, repr(value)) for name, value in candidate.items()
                           if name != "C"))
        keys.setdefault(key, []).append(index)
    return [KernelGroup(sorted(members, key=lambda i: float({**defaults, **candidates[i]}
                                                            .get("C", 1.0))))
            for members in keys.values()]


def plan_shared_folds(estimator: Any, X: Any, splits: list[Split], scoring: Any,
                      fit_params: dict[str, Any], options: FitOptions,
                      n_jobs: int | None) -> list[list[Split]] | None:
    """A cross-validation's folds in runs that each share one Gram matrix, or None.

    `cross_validate` shares kernel values across its folds (one `fit_kernel_group`
    task per run of folds, as many runs as joblib has workers) when the grid
    search's grouping applies to the estimator alone (`plan_kernel_groups`), the
    score reads X only through the estimator, no fitted estimators are asked
    back (they would be fitted on kernel matrices), every fold trains with the same
    kernel (not ``gamma='scale'``, which each fold takes from its own rows, except
    for the linear kernel, which has no gamma) and kernel values are dear enough
    that one Gram matrix beats each fold's own kernel columns (`kernel_values_dear`).

    Examples
    --------
    >>> from svmx import SVC
    >>> splits = [(np.arange(2, 6), np.arange(2)), (np.arange(4), np.arange(4, 6))]
    >>> runs = plan_shared_folds(SVC(gamma=0.1), np.ones((6, 128)), splits, None, {},
    ...                          FitOptions(), n_jobs=None)
    >>> [len(run) for run in runs]
    [2]
    >>> plan_shared_folds(SVC(), np.ones((6, 128)), splits, None, {}, FitOptions(),
    ...                   n_jobs=None) is None  # gamma='scale'
    True
    """
    if options.return_estimator or not reads_only_predictions(scoring):
        return None
    if plan_kernel_groups(estimator, [{}], X, fit_params) is None or not kernel_values_dear(X):
        return None
    params = estimator.get_params(deep=False)
    if params["kernel"] != "linear" and isinstance(params.get("gamma"), str) \
            and params["gamma"] == "scale":
        return None
    n_runs = min(len(splits), effective_jobs(n_jobs))
    bounds = np.linspace(0, len(splits), n_runs + 1).round().astype(int)
    return [splits[start:end] for start, end in zip(bounds[:-1], bounds[1:], strict=True)]


class _ParameterCheck:
    """Whether `estimator` with a candidate's parameters passes its fit's checks
    (``_validate_parameters``, which checks each parameter on its own): each of the
    estimator's own values once, then each candidate value of a parameter once
    (LIBSVM's grid: 11 C and 10 gamma values for 110 candidates, where a clone,
    `set_params` and the whole check per candidate took 7 ms before the first task
    went out). Values that are no plain scalar are checked every time.

    Examples
    --------
    >>> from svmx import SVC
    >>> check = _ParameterCheck(SVC(C=-1.0))
    >>> check({"C": 2.0}), check({"C": -1.0}), check({"gamma": 0.5})
    (True, False, False)
    >>> check({"no_such_parameter": 1, "C": 1.0})
    False
    """

    def __init__(self, estimator: Any) -> None:
        self.constraints = getattr(estimator, "_parameter_constraints", {})
        own = estimator.get_params(deep=False)
        self.names = set(own)
        # The estimator's own values that fail: a candidate must set each of them.
        self.failing = {name for name, value in own.items() if not self._accepts(name, value)}
        self.checked: dict[tuple[str, Any], bool] = {}

    def __call__(self, candidate: dict[str, Any]) -> bool:
        if not self.failing <= candidate.keys() or not self.names >= candidate.keys():
            return False
        for name, value in candidate.items():
            if not isinstance(value, (str, bool, int, float, np.number, type(None))):
                if not self._accepts(name, value):
                    return False
                continue
            key = (name, type(value), value)
            if key not in self.checked:
                self.checked[key] = self._accepts(name, value)
            if not self.checked[key]:
                return False
        return True

    def _accepts(self, name: str, value: Any) -> bool:
        if name not in self.constraints:
            return True
        try:
            validate_params(SimpleNamespace(**{name: value}), {name: self.constraints[name]})
        except (TypeError, ValueError):
            return False
        return True


def _gram_key(kernel: KernelSpec) -> KernelSpec:
    """`kernel` with the parameters its values do not depend on set to their defaults
    (the linear kernel's values ignore gamma, which ``'scale'`` sets per fold)."""
    if kernel.kernel_type == KERNEL_TYPES["linear"]:
        return KernelSpec(kernel.kernel_type)
    return kernel


def _class_order(estimator: Any, y: Any) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The samples sorted by class (stably) and each sample's place in that order; both
    None where `y` is no valid target of `estimator` (each fold's fit then reports it).

    The Gram matrix of the folds solved along C is computed over the samples in this
    order (its rows and columns), so that each class is one run of rows: a pair's
    kernel column then reads two short runs of a row, where over the samples' own
    order it reads scattered entries of the whole row (LIBSVM's default grid on
    pendigits: 7% less solve time). Within a class the order is the samples' own, so
    every problem is posed on its rows in the same order as without it. The classes are
    those `fit` finds (`_encode_classes`).

    Examples
    --------
    >>> from svmx import SVC
    >>> order, rank = _class_order(SVC(), np.array(["b", "a", "b", "a"]))
    >>> order.tolist(), rank.tolist()
    ([1, 3, 0, 2], [2, 0, 3, 1])
    >>> _class_order(SVC(), np.array([1, 1, 1]))  # one class: the folds' fits say so
    (None, None)
    """
    try:
        labels = validate_targets(y, len(y), classification=True,
                                  owner=type(estimator).__name__)
        codes = estimator._encode_classes(labels)[1]
    except (ValueError, TypeError):
        return None, None
    order = np.argsort(codes, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return order, rank


def fit_kernel_group(estimator: Any, X: Any, y: Any, splits: list, candidates: list[dict],
                     scorer: Any, options: FitOptions,
                     prediction_scorer: Any = None) -> list[list[dict[str, Any]]]:
    """Fit and score every candidate of one kernel group on every fold.

    ``candidates`` are in increasing C. Returns, per candidate, per fold, what
    `svmx.model_selection._validation.fit_and_score` returns (``fit_time``
    includes the fit's share of computing the Gram matrix). With a
    ``prediction_scorer`` (the search's score as a metric of predictions alone, see
    `svmx.model_selection._scoring.prediction_scorer`), the folds that
    `svmx.model_selection._fold_paths` serves are solved there, without an
    estimator per fit.
    """
    along_c = prediction_scorer is not None and fold_paths_apply(estimator, candidates,
                                                                 options)
    outcomes: list[list[dict[str, Any]]] = [[] for _ in candidates]
    grams: dict[KernelSpec, tuple[np.ndarray, float, FoldStarts]] = {}
    n_samples = X.shape[0]
    first = clone(estimator).set_params(**candidates[0])
    order, rank = (_class_order(first, y) if along_c and is_classifier(estimator)
                   else (None, None))
    for train, test in splits:
        # The kernel a fit on the fold's rows uses (gamma='scale' from those rows).
        kernel = first._training_kernel(take_rows(X, train))
        key = _gram_key(kernel)
        if key not in grams:
            start = time.perf_counter()
            gram = gram_matrix(X if order is None else take_rows(X, order), kernel)
            grams[key] = (gram, time.perf_counter() - start, FoldStarts())
        gram, gram_seconds, starts = grams[key]
        share = gram_seconds / (len(candidates) * len(splits))
        if along_c:
            fold = scores_along_c(estimator, gram, y, (train, test), candidates,
                                  prediction_scorer, kernel, options, starts, rank)
            for index, outcome in enumerate(fold):
                outcome["fit_time"] += share
                outcomes[index].append(outcome)
            continue
        K_train, K_test = gram[np.ix_(train, train)], gram[np.ix_(test, train)]
        y_train = None if y is None else take_rows(y, train)
        y_test = None if y is None else take_rows(y, test)
        weights = fold_params(options.fit_params, n_samples, train).get("sample_weight")
        warm = warm_starts_apply(first.max_iter, kernel)
        previous = None
        for index, candidate in enumerate(candidates):
            model = clone(estimator).set_params(**{**candidate, "kernel": "precomputed"})

            def fit(model=model, previous=previous, K_train=K_train, y_train=y_train,
                    weights=weights) -> None:
                model._fit_warm(K_train, y_train, weights, previous)

            outcome = score_fit(model, fit, (K_train, y_train, train), (K_test, y_test, test),
                                n_samples, scorer, options)
            outcome["fit_time"] += share
            outcomes[index].append(outcome)
            previous = model if outcome["fit_error"] is None and warm else None
    return outcomes
