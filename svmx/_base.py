"""The shared machinery of the five estimators: parameters, kernels, training and decisions.

Data flows one way: validate in Python -> `svmx._libsvm` (the binding) ->
the engine -> arrays back -> LIBSVM-layout attributes (`svmx._layout`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._engine import predict
from svmx._estimator import BaseEstimator
from svmx._layout import (
    PairSolution,
    assemble_one_vs_one,
    ovo_pairs,
    pair_weights,
)
from svmx._shared_gram import shared_gram
from svmx._validation import (
    Interval,
    Kind,
    OneOf,
    check_feature_names,
    check_fitted,
    validate_params,
    validate_sample_weight,
    validate_X,
)
from svmx.exceptions import ConvergenceWarning

__all__ = ["BaseLibSVM", "NonFiniteSolution", "variance_of_entries"]


class NonFiniteSolution(ValueError):
    """The engine found no finite solution (for example nu-SVC with no margin)."""


KERNELS = ("linear", "poly", "rbf", "sigmoid", "precomputed")
# Kernel values computed per prediction block: bounds the memory of predict (16 MB),
# large enough for threaded BLAS to pay off, and under glibc's 32 MB mmap threshold so
# the allocator reuses one block's memory for the next instead of mapping fresh pages
# (at 32 MB the page faults cost more than the GEMM).
PREDICT_BLOCK_ENTRIES = 1 << 21

COMMON_CONSTRAINTS: dict[str, list] = {
    "kernel": [OneOf(*KERNELS), Kind("a callable", predicate=callable)],
    "degree": [Interval("integral", 0, None, closed="left")],
    "gamma": [OneOf("scale", "auto"), Interval("real", 0, None, closed="left")],
    "coef0": [Interval("real", None, None, closed="neither")],
    "tol": [Interval("real", 0, None, closed="neither")],
    "shrinking": [Kind("a bool", types=(bool, np.bool_))],
    "cache_size": [Interval("real", 0, None, closed="neither")],
    "verbose": [Kind("a bool or an int", types=(bool, np.bool_, int, np.integer))],
    "max_iter": [Interval("integral", -1, None, closed="left")],
    "solver": [OneOf("auto", "smo", "block")],
    "n_jobs": [OneOf(None), Interval("integral", None, -1, closed="right"),
               Interval("integral", 1, None, closed="left")],
}
# Problems with at least this many samples go to the block solver under solver='auto'
# (measured on the benchmark suite: from about 5,000 samples its batched kernel rows beat
# SMO's columns on reuters (3.4x) and cpusmall SVR (3x); mushrooms, where SMO needs few
# columns, is 1.5x slower but still 3.6x faster than the fastest peer).
BLOCK_SOLVER_MIN_SAMPLES = 5_000
# The formulations the block solver handles (it has no Solver_NU counterpart).
BLOCK_FORMULATIONS = ("c_svc", "one_class", "epsilon_svr")


# Rows per chunk when a statistic of X is accumulated without a full-size temporary.
STATISTICS_CHUNK_ROWS = 4096


def variance_of_entries(X: Any) -> float:
    """The variance of all entries of X (zeros included), in float64.

    Dense X takes two passes over row chunks, so no temporary the size of X is
    made (``X.var()`` would make one, in float64 even for float32 X); sparse X
    uses E[X^2] - E[X]^2 over the stored entries.

    Examples
    --------
    >>> variance_of_entries(np.array([[0.0, 2.0], [4.0, 6.0]]))
    5.0
    """
    size = X.shape[0] * X.shape[1]
    if sp.issparse(X):
        mean = float(X.sum(dtype=np.float64)) / size
        return float(X.multiply(X).sum(dtype=np.float64)) / size - mean**2
    chunks = range(0, X.shape[0], STATISTICS_CHUNK_ROWS)
    total = sum(float(X[i : i + STATISTICS_CHUNK_ROWS].sum(dtype=np.float64)) for i in chunks)
    mean = total / size
    squares = 0.0
    for i in chunks:
        centred = X[i : i + STATISTICS_CHUNK_ROWS].astype(np.float64) - mean
        squares += float(np.einsum("ij,ij->", centred, centred))
    return squares / size


class BaseLibSVM(BaseEstimator):
    """Everything the five LIBSVM formulations share.

    Subclasses set ``_formulation`` and extend ``_parameter_constraints``.
    """

    _formulation: str = ""
    _parameter_constraints: dict[str, list] = COMMON_CONSTRAINTS

    # -- parameters -------------------------------------------------------------------------
    def _validate_parameters(self) -> None:
        validate_params(self, self._parameter_constraints)

    def _resolve_gamma(self, X: Any) -> float:
        if self.gamma == "scale":
            variance = variance_of_entries(X)
            return 1.0 / (X.shape[1] * variance) if variance != 0 else 1.0
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        return float(self.gamma)

    def _kernel_arguments(self, kernel_type: int) -> dict[str, Any]:
        return {
            "kernel_type": kernel_type,
            "degree": int(self.degree),
            "gamma": float(self._gamma),
            "coef0": float(self.coef0),
        }

    def _solver_arguments(
        self, n_rows: int, kernel_type: int, cache_size: float | None = None,
        threads: int | None = None,
    ) -> dict[str, Any]:
        return {
            "n_threads": self._thread_count() if threads is None else threads,
            "tol": float(self.tol),
            "cache_size": float(self.cache_size if cache_size is None else cache_size),
            "shrinking": bool(self.shrinking),
            "max_iter": int(self.max_iter),
            "solver": self._engine_solver(n_rows, kernel_type),
        }

    def _engine_solver(self, n_rows: int, kernel_type: int) -> str:
        """'smo' or 'block' for a problem of n_rows samples."""
        block_possible = (
            self._formulation in BLOCK_FORMULATIONS
            and kernel_type != _libsvm.KERNEL_TYPES["precomputed"]
        )
        if self.solver == "block":
            if not block_possible:
                raise ValueError(
                    f"solver='block' is not available for {type(self).__name__} with "
                    f"kernel={self.kernel!r}; it serves C-SVC, one-class and epsilon-SVR "
                    "with a built-in kernel. Use solver='smo' or 'auto'."
                )
            return "block"
        if self.solver == "auto" and block_possible and n_rows >= BLOCK_SOLVER_MIN_SAMPLES:
            return "block"
        return "smo"

    def _thread_count(self) -> int:
        if self.n_jobs is None or self.n_jobs < 0:
            count = (os.cpu_count() or 1) + 1 + (self.n_jobs or -1)
            return max(1, count)
        return int(self.n_jobs)

    def _svmx_tags(self) -> dict[str, Any]:
        return {"pairwise": self.kernel == "precomputed", "requires_y": True}

    # -- training inputs --------------------------------------------------------------------
    def _training_matrix(self, X: Any) -> tuple[np.ndarray, np.ndarray, int]:
        """Validate X; return (X, the matrix the engine trains on, its kernel type).

        Records ``feature_names_in_`` (data frames with string column names);
        ``n_features_in_`` is set with the other attributes once training succeeds.
        """
        check_feature_names(self, X, reset=True)
        X = validate_X(X, accept_sparse=True)
        if callable(self.kernel):
            gram = self._call_kernel(X, X)
            if gram.shape != (X.shape[0], X.shape[0]):
                raise ValueError(
                    f"kernel: the callable must return the Gram matrix of shape "
                    f"{(X.shape[0], X.shape[0])}; got shape {gram.shape}"
                )
            return X, gram, _libsvm.KERNEL_TYPES["precomputed"]
        if self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    "X must be a square Gram matrix when kernel='precomputed'; "
                    f"got shape {X.shape}"
                )
            gram = X.toarray() if sp.issparse(X) else X
            return X, np.ascontiguousarray(gram, dtype=np.float64), \
                _libsvm.KERNEL_TYPES["precomputed"]
        return X, X, _libsvm.KERNEL_TYPES[self.kernel]

    def _call_kernel(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        kernel: Callable = self.kernel
        gram = np.asarray(kernel(A, B), dtype=np.float64)
        if gram.ndim != 2 or not np.isfinite(gram).all():
            raise ValueError(
                "kernel: the callable must return a finite 2-D array of kernel values"
            )
        return np.ascontiguousarray(gram)

    @staticmethod
    def _sample_bounds(sample_weight: Any, n_samples: int) -> np.ndarray:
        return validate_sample_weight(sample_weight, n_samples)

    def _finish_fit(self, X: np.ndarray, support: np.ndarray) -> None:
        self.shape_fit_ = X.shape
        self.n_features_in_ = X.shape[1]
        self.support_ = support
        if self.kernel == "precomputed":
            self.support_vectors_ = np.empty((0, 0), dtype=np.float64)
        elif sp.issparse(X):
            self.support_vectors_ = X[support].astype(np.float64)
        else:
            self.support_vectors_ = np.asarray(X[support], dtype=np.float64)
        if self.fit_status_ != 0:
            warnings.warn(
                ConvergenceWarning(
                    f"Solver terminated early (max_iter={self.max_iter}). Consider "
                    "pre-processing your data with StandardScaler or MinMaxScaler."
                ),
                stacklevel=4,
            )

    def _report(self, message: str) -> None:
        if self.verbose:
            print(f"[svmx] {type(self).__name__}: {message}", flush=True)

    def _solve(
        self, X: np.ndarray, rows: np.ndarray, kernel_type: int,
        cache_size: float | None = None, threads: int | None = None, **problem: Any,
    ) -> dict:
        """Solve one problem in the engine; raise NonFiniteSolution if it has no finite answer.

        ``cache_size`` (MB) and ``threads`` override the estimator's for this solve.

        nu-SVC divides its solution by the margin r, which is 0 when nu is too
        large for the data (the classes' reduced convex hulls overlap); the
        engine then returns infinities or raises ZeroDivisionError.
        """
        solve = getattr(_libsvm, f"solve_{self._formulation}")
        with np.errstate(divide="ignore", invalid="ignore"):
            try:
                result = solve(
                    X, rows, **problem, **self._kernel_arguments(kernel_type),
                    **self._solver_arguments(len(rows), kernel_type, cache_size, threads),
                )
            except ZeroDivisionError:
                result = None
        if result is None or not (
            np.isfinite(result["rho"]) and np.isfinite(result["coef"]).all()
        ):
            hints = {
                "nu_svc": f"with nu={getattr(self, 'nu', None)} the solution has no margin "
                "(r = 0), which happens when nu is too large for the data; use a smaller nu",
                "one_class": f"with nu={getattr(self, 'nu', None)} every sample sits at its "
                "bound, which leaves the offset rho unbounded; use a smaller nu",
            }
            hint = hints.get(
                self._formulation,
                "the input data may contain large values and need pre-processing",
            )
            raise NonFiniteSolution(
                f"The dual coefficients or intercepts are not finite: {hint}."
            )
        return result

    # -- decisions --------------------------------------------------------------------------
    def _check_predict_input(self, X: Any) -> np.ndarray:
        check_fitted(self, "support_")
        check_feature_names(self, X, reset=False)
        X = validate_X(X, accept_sparse=True)
        if X.shape[1] != self.n_features_in_:
            detail = (
                " (kernel='precomputed': one column per training sample)"
                if self.kernel == "precomputed"
                else ""
            )
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input{detail}."
            )
        return X

    def _kernel_to_support(self, X_block: np.ndarray) -> np.ndarray:
        """K(X_block, support vectors) for the fitted kernel."""
        if self.kernel == "precomputed":
            columns = X_block[:, self.support_]
            return columns.toarray() if sp.issparse(columns) else columns
        if callable(self.kernel):
            return self._call_kernel(X_block, self.support_vectors_)
        return _libsvm.kernel_matrix(
            X_block,
            self.support_vectors_,
            **self._kernel_arguments(_libsvm.KERNEL_TYPES[self.kernel]),
        )

    def _row_blocks(self, n_rows: int) -> list[slice]:
        n_support = max(int(self.support_.size), 1)
        size = max(1, PREDICT_BLOCK_ENTRIES // n_support)
        return [slice(start, min(start + size, n_rows)) for start in range(0, n_rows, size)]

    def _engine_decision(self, X: Any) -> np.ndarray | None:
        """K(X, SV) W without the intercept from the prediction engine, one column per
        pair (or one for a single problem); None where the engine does not apply.

        The engine serves the built-in kernels, with sparse support vectors or dense
        ones whose transposed copy stays within its size budget.
        """
        vectors = self.support_vectors_
        if (
            callable(self.kernel)
            or self.kernel == "precomputed"
            or vectors.shape[0] == 0
            or not predict.serves(vectors)
        ):
            return None
        return predict.decision_values(
            X, vectors, self._dual_coef_, self._n_support, n_threads=self._thread_count(),
            **self._kernel_arguments(_libsvm.KERNEL_TYPES[self.kernel]),
        )

    def _ovo_decision(self, X: np.ndarray) -> np.ndarray:
        """One-vs-one decision values in LIBSVM's sign (positive: first class)."""
        values = self._engine_decision(X)
        if values is None:
            weights = pair_weights(self._dual_coef_, self._n_support)
            values = np.empty((X.shape[0], weights.shape[1]), dtype=np.float64)
            for block in self._row_blocks(X.shape[0]):
                values[block] = self._kernel_to_support(X[block]) @ weights
        return values + self._intercept_


def fit_one_vs_one(
    estimator: BaseLibSVM,
    matrix: np.ndarray,
    class_rows: list[np.ndarray],
    bounds: np.ndarray,
    kernel_type: int,
    class_names: np.ndarray,
    **problem: Any,
) -> dict:
    """Train every one-vs-one pair and assemble LIBSVM's layout.

    ``bounds`` holds each training row's upper bound C_i; rows of class i get
    label +1 and rows of class j label -1 in pair (i, j).
    """
    pairs = ovo_pairs(len(class_rows))
    class_names = list(class_names.tolist())  # plain Python values read well in messages
    threads = min(estimator._thread_count(), len(pairs))
    # Pairs run side by side on `threads` threads, each solve on its share of the rest.
    threads_per_pair = max(1, estimator._thread_count() // threads)
    # Under solver='auto' the pairs of a many-class problem share one Gram matrix
    # when it fits the cache; 'smo' keeps LIBSVM's per-pair kernel columns.
    gram = None
    if estimator.solver == "auto" and kernel_type != _libsvm.KERNEL_TYPES["precomputed"]:
        gram = shared_gram(
            matrix, class_rows, estimator._kernel_arguments(kernel_type),
            float(estimator.cache_size), threads,
        )
    if gram is not None:
        estimator._report(
            f"one {gram.matrix.shape[0]} x {gram.matrix.shape[0]} kernel matrix shared by "
            f"{len(pairs)} pairs"
        )
        solve_matrix, solve_kernel, pair_cache = (
            gram.matrix, _libsvm.KERNEL_TYPES["precomputed"], gram.pair_cache_size
        )
        solve_rows = [gram.position[rows] for rows in class_rows]
    else:
        solve_matrix, solve_kernel, pair_cache = matrix, kernel_type, None
        solve_rows = class_rows

    def solve_pair(pair: tuple[int, int]) -> dict:
        i, j = pair
        rows = np.concatenate([class_rows[i], class_rows[j]])
        labels = np.concatenate(
            [np.ones(class_rows[i].size, np.int8), -np.ones(class_rows[j].size, np.int8)]
        )
        try:
            return estimator._solve(
                solve_matrix, np.concatenate([solve_rows[i], solve_rows[j]]), solve_kernel,
                cache_size=pair_cache, threads=threads_per_pair, y=labels,
                C=np.ascontiguousarray(bounds[rows]),
                **problem,
            )
        except NonFiniteSolution as error:
            raise NonFiniteSolution(
                f"Classes {class_names[i]!r} and {class_names[j]!r}: {error}"
            ) from None

    # Each pair is an independent solve that releases the GIL, so threads train
    # several at once; the results do not depend on the thread count.
    if threads > 1:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            results = pool.map(solve_pair, pairs)
            results = list(results)
    else:
        results = map(solve_pair, pairs)
    solutions = []
    for number, ((i, j), result) in enumerate(zip(pairs, results, strict=True), start=1):
        solutions.append(
            PairSolution(i, j, result["coef"], result["rho"], result["n_iter"], result["status"])
        )
        estimator._report(
            f"pair {number}/{len(pairs)} ({class_names[i]!r} vs {class_names[j]!r}): "
            f"{result['n_iter']} iterations, objective {result['obj']:.6g}, "
            f"rho {result['rho']:.6g}, {int(np.count_nonzero(result['coef']))} support vectors"
        )
    return assemble_one_vs_one(class_rows, solutions)
