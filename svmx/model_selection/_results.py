"""A grid search's ``cv_results_`` in scikit-learn's layout."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

__all__ = ["param_columns", "rank_descending", "tabulate"]


def param_columns(candidates: list[dict[str, Any]]) -> dict[str, np.ma.MaskedArray]:
    """One masked array per parameter name, masked where a candidate lacks the name.

    The dtype is numpy's for the values (object for strings, ragged or
    multi-dimensional values), as in scikit-learn's ``cv_results_``.

    Examples
    --------
    >>> columns = param_columns([{"C": 1.0}, {"C": 2.0, "gamma": 0.5}])
    >>> columns["param_C"].tolist(), columns["param_gamma"].tolist()
    ([1.0, 2.0], [None, 0.5])
    """
    by_name: dict[str, dict[int, Any]] = {}
    for index, params in enumerate(candidates):
        for name, value in params.items():
            by_name.setdefault(f"param_{name}", {})[index] = value
    columns = {}
    for key, values in by_name.items():
        try:
            inferred = np.array(list(values.values()))
        except ValueError:  # sequences of different lengths
            dtype = np.dtype(object)
        else:
            dtype = inferred.dtype if inferred.dtype.kind != "U" and inferred.ndim == 1 else object
        column = np.ma.MaskedArray(np.empty(len(candidates), dtype=dtype), mask=True)
        for index, value in values.items():
            column[index] = value
        columns[key] = column
    return columns


def rank_descending(means: np.ndarray) -> np.ndarray:
    """Rank 1 for the highest mean; ties share the lowest rank; NaN ranks last.

    Examples
    --------
    >>> rank_descending(np.array([0.5, 0.9, 0.5, np.nan])).tolist()
    [2, 1, 2, 4]
    """
    if np.isnan(means).all():
        return np.ones(means.shape, dtype=np.int32)
    filled = np.nan_to_num(means, nan=np.nanmin(means) - 1)
    return (1 + (filled[None, :] > filled[:, None]).sum(axis=1)).astype(np.int32)


def _store(results: dict[str, Any], key: str, table: np.ndarray, *, splits: bool = False,
           rank: bool = False) -> None:
    if splits:
        for fold in range(table.shape[1]):
            results[f"split{fold}_{key}"] = table[:, fold]
    means = table.mean(axis=1)
    results[f"mean_{key}"] = means
    if key.startswith(("train_", "test_")) and not np.all(np.isfinite(means)):
        warnings.warn(f"One or more of the {key.split('_')[0]} scores are non-finite: {means}",
                      UserWarning, stacklevel=4)
    results[f"std_{key}"] = np.sqrt(((table - means[:, None]) ** 2).mean(axis=1))
    if rank:
        results[f"rank_{key}"] = rank_descending(means)


def tabulate(candidates: list[dict[str, Any]], outcomes: list[dict[str, Any]],
             n_splits: int, return_train_score: bool) -> dict[str, Any]:
    """``cv_results_`` from the (candidate, fold) tasks' outcomes, candidate-major.

    Keys in scikit-learn's order: ``mean_fit_time``, ``std_fit_time``,
    ``mean_score_time``, ``std_score_time``, ``param_<name>``, ``params``, then
    for each metric (``score`` for one) ``split<k>_test_<metric>``,
    ``mean_test_<metric>``, ``std_test_<metric>``, ``rank_test_<metric>`` and,
    with `return_train_score`, ``split<k>_train_<metric>``, ``mean_train_<metric>``,
    ``std_train_<metric>``.
    """
    shape = (len(candidates), n_splits)

    def column(key: str, name: str | None = None) -> np.ndarray:
        values = [outcome[key] if name is None else outcome[key][name] for outcome in outcomes]
        return np.array(values, dtype=np.float64).reshape(shape)

    results: dict[str, Any] = {}
    _store(results, "fit_time", column("fit_time"))
    _store(results, "score_time", column("score_time"))
    results.update(param_columns(candidates))
    results["params"] = candidates
    first = outcomes[0]["test_scores"]
    names = list(first) if isinstance(first, dict) else [None]
    for name in names:
        suffix = "score" if name is None else name
        _store(results, f"test_{suffix}", column("test_scores", name), splits=True, rank=True)
        if return_train_score:
            _store(results, f"train_{suffix}", column("train_scores", name), splits=True)
    return results
