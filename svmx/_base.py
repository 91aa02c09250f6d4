"""The shared machinery of the five estimators: parameters, kernels and decisions.

Data flows one way: validate in Python -> resolve the parameters once into the
specs of `svmx._specs` -> the training drivers (`svmx._training`) -> the
binding (`svmx._libsvm`) -> the engine -> arrays back -> LIBSVM-layout
attributes (`svmx._layout`), written by `svmx._fitted`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._constraints import Interval, Kind, OneOf, validate_params
from svmx._estimator import BaseEstimator
from svmx._fitted import LAYOUT_CACHE, WIDTH_FROM_MODEL_FILE, csr_like, csr_rows
from svmx._input_scan import row_norms_overflow
from svmx._layout import pair_weights
from svmx._specs import (
    BYTES_PER_MB,
    KERNEL_TYPES,
    KernelSpec,
    SolveSpec,
    check_solver,
    resolve_threads,
)
from svmx._training import NonFiniteSolution, Reporter, standard_log
from svmx._validation import check_feature_names, check_fitted, validate_X
from svmx.exceptions import ConvergenceWarning

__all__ = [
    "BaseLibSVM",
    "NonFiniteSolution",
    "check_kernel_values_finite",
    "variance_of_entries",
    "warn_stopped_early",
]


KERNELS = ("linear", "poly", "rbf", "sigmoid", "precomputed")
# Kernel values computed per prediction block: bounds the memory of predict (16 MB),
# large enough for threaded BLAS to pay off, and under glibc's 32 MB mmap threshold so
# the allocator reuses one block's memory for the next instead of mapping fresh pages
# (at 32 MB the page faults cost more than the GEMM).
PREDICT_BLOCK_ENTRIES = 1 << 21

COMMON_CONSTRAINTS: dict[str, list] = {
    "kernel": [OneOf(*KERNELS), Kind("a callable", predicate=callable)],
    "degree": [Interval("integral", 0, None, closed="left")],
    "gamma": [OneOf("scale", "auto"), Interval("real", 0, None, closed="left", finite=True)],
    "coef0": [Interval("real", None, None, closed="neither", finite=True)],
    "tol": [Interval("real", 0, None, closed="neither")],
    "shrinking": [Kind("a bool", types=(bool, np.bool_))],
    "cache_size": [Interval("real", 0, None, closed="neither")],
    "verbose": [Kind("a bool or an int", types=(bool, np.bool_, int, np.integer))],
    "max_iter": [Interval("integral", -1, None, closed="left")],
    "solver": [OneOf("auto", "smo", "block")],
    "n_jobs": [OneOf(None), Interval("integral", None, -1, closed="right"),
               Interval("integral", 1, None, closed="left")],
}

# numpy sums a contiguous float64 run pairwise: a run of n > 128 entries is split at
# n // 2 - (n // 2) % 8 and the halves' sums are added (numpy/_core/src/umath/
# loops_utils.h.src, ``pairwise_sum``); ``X.sum()`` and ``X.var()`` of a C-contiguous
# float64 array sum all its entries as one such run. `_pairwise_total` follows the same
# splits down to leaves of this many entries and lets numpy sum each leaf, so its total is
# numpy's, bit for bit, while only one leaf at a time is converted to float64.
PAIRWISE_LEAF_ENTRIES = 1 << 16


def _pairwise_total(leaf_sum: Callable[[int, int], float], start: int, count: int) -> float:
    """The sum of entries [start, start + count) in numpy's pairwise order.

    ``leaf_sum(start, count)`` must return numpy's sum of a float64 run of those entries.
    """
    if count <= PAIRWISE_LEAF_ENTRIES:
        return leaf_sum(start, count)
    half = count // 2
    half -= half % 8
    return _pairwise_total(leaf_sum, start, half) + _pairwise_total(
        leaf_sum, start + half, count - half
    )


def _sparse_variance_of_entries(data: np.ndarray, size: int) -> float:
    """``X.multiply(X).mean() - X.mean() ** 2`` from the stored entries of a canonical
    float64 CSR X, without scipy's sparse temporaries (a third of a small fit).

    It is scipy's arithmetic: each mean is numpy's sum of the stored values times
    ``1 / size``; the product's stored values are the nonzero squares in storage
    order (scipy drops the zeros an elementwise product makes), while X's own keep
    its explicit zeros.

    Examples
    --------
    >>> _sparse_variance_of_entries(np.array([2.0, 4.0, 6.0]), 4)
    5.0
    """
    scale = 1.0 / size
    squares = data * data
    if not squares.all():
        squares = squares[squares != 0]
    mean_of_squares = np.sum(squares * scale)
    mean = np.sum(data * scale)
    return float(mean_of_squares - mean**2)


def variance_of_entries(X: Any) -> float:
    """The variance of all entries of X (zeros included), as scikit-learn's gamma='scale'.

    The result is bit for bit what scikit-learn computes for the same input: it
    converts X to float64 (C order; CSR for sparse X) and takes ``X.var()`` for
    dense X, ``X.multiply(X).mean() - X.mean() ** 2`` for sparse X.

    Dense X is not copied whole: numpy's ``X.var()`` is ``sum((X - mean)**2) / size``
    with ``mean = X.sum() / size``, both sums pairwise over the C-order entries, and
    both are formed here leaf by leaf in numpy's order, from float64 temporaries of
    at most ``PAIRWISE_LEAF_ENTRIES`` entries (float64 X needs none for the mean).
    This depends on how numpy (tested with 2.x) sums a contiguous run;
    ``tests/test_gamma_scale.py`` checks it over many shapes. Sparse X makes
    temporaries of its stored entries, as scikit-learn does.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Dense X as `svmx._validation.validate_X` returns it: C-contiguous float64 or
        float32; sparse X in CSR form, float64 or float32.

    Returns
    -------
    float

    Examples
    --------
    >>> variance_of_entries(np.array([[0.0, 2.0], [4.0, 6.0]]))
    5.0
    >>> X = np.random.default_rng(0).normal(size=(300, 7))
    >>> bool(variance_of_entries(X) == X.var())
    True
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X) if X.format != "csr" else X
        if X.dtype != np.float64:
            X = X.astype(np.float64)
        if X.has_canonical_format:
            return _sparse_variance_of_entries(X.data, X.shape[0] * X.shape[1])
        return float(X.multiply(X).mean() - X.mean() ** 2)
    entries = np.ascontiguousarray(X).reshape(-1)
    size = entries.size
    buffer = np.empty(min(size, PAIRWISE_LEAF_ENTRIES), dtype=np.float64)

    def leaf_sum(start: int, count: int) -> float:
        run = entries[start : start + count]
        if run.dtype != np.float64:
            run = buffer[:count]
            run[...] = entries[start : start + count]
        return float(np.add.reduce(run))

    mean = _pairwise_total(leaf_sum, 0, size) / size

    def squared_deviations(start: int, count: int) -> float:
        run = buffer[:count]
        # float32 entries become float64 first: subtracting the mean from them would
        # round in float32 (numpy computes float32 - Python float in float32).
        run[...] = entries[start : start + count]
        np.subtract(run, mean, out=run)
        np.multiply(run, run, out=run)
        return float(np.add.reduce(run))

    return _pairwise_total(squared_deviations, 0, size) / size


def warn_stopped_early(max_iter: Any, stacklevel: int = 2) -> None:
    """The ConvergenceWarning of a solve that ``max_iter`` stopped, in scikit-learn's words."""
    warnings.warn(
        ConvergenceWarning(
            # Two spaces after the stop, scikit-learn's words exactly.
            f"Solver terminated early (max_iter={max_iter}).  Consider "
            "pre-processing your data with StandardScaler or MinMaxScaler."
        ),
        stacklevel=stacklevel + 1,
    )


def _n_rows(X: Any) -> int:
    """The number of samples of X (a matrix, or a sequence for a callable kernel)."""
    shape = getattr(X, "shape", None)
    return int(shape[0]) if shape is not None and len(shape) else len(X)


def _holds_non_numbers(X: Any) -> bool:
    """True when X cannot be read as an array of numbers (strings, ragged sequences)."""
    try:
        array = np.asarray(X)
    except (TypeError, ValueError):
        return True
    if array.dtype.kind not in "USOV":
        return False
    try:
        array.astype(np.float64)
    except (TypeError, ValueError):
        return True
    return False


def check_kernel_values_finite(X: Any) -> None:
    """Refuse training rows whose squared norms overflow float64.

    Every built-in kernel is computed from dot products of the rows (the RBF
    kernel from squared norms), so such rows give infinite or NaN kernel values,
    and the solver would stop at once with an empty model. scikit-learn raises
    its non-finite dual coefficients error there; so does svmx, before training.

    Examples
    --------
    >>> check_kernel_values_finite(np.array([[1.0, 2.0]]))
    >>> check_kernel_values_finite(np.array([[1e300, 1e300]]))
    Traceback (most recent call last):
    ...
    ValueError: The dual coefficients or intercepts are not finite. The input data may \
contain large values and need to be preprocessed: the squared norm of a training sample \
overflows float64, so its kernel values are not finite.
    """
    finite = not row_norms_overflow(X)  # one C pass (numpy's took 7 calls)
    if not finite:
        raise ValueError(
            "The dual coefficients or intercepts are not finite. The input data may contain "
            "large values and need to be preprocessed: the squared norm of a training sample "
            "overflows float64, so its kernel values are not finite."
        )


class BaseLibSVM(BaseEstimator):
    """Everything the five LIBSVM formulations share.

    Subclasses set ``_formulation`` and extend ``_parameter_constraints``.
    """

    _formulation: str = ""
    _parameter_constraints: dict[str, list] = COMMON_CONSTRAINTS

    # -- pickling: the prediction layouts are not kept --------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = dict(super().__getstate__())
        state.pop(LAYOUT_CACHE, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if "support_" in self.__dict__:  # fitted: an empty store, as after a fit
            self.__dict__[LAYOUT_CACHE] = _libsvm.LayoutCache()

    # -- parameters, resolved once per fit ----------------------------------------------------
    def _validate_parameters(self) -> None:
        validate_params(self, self._parameter_constraints)

    def _resolve_gamma(self, X: Any) -> float:
        if callable(self.kernel) or self.kernel == "precomputed":
            return 0.0  # unused: the engine reads the Gram matrix
        if self.gamma == "scale":
            variance = variance_of_entries(X)
            return 1.0 / (X.shape[1] * variance) if variance != 0 else 1.0
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        return float(self.gamma)

    def _training_kernel(self, X: Any) -> KernelSpec:
        """The kernel the engine trains with: the Gram matrix's for a callable."""
        kernel_type = KERNEL_TYPES["precomputed"] if callable(self.kernel) else \
            KERNEL_TYPES[self.kernel]
        return KernelSpec(kernel_type, int(self.degree), self._resolve_gamma(X),
                          float(self.coef0))

    def _solve_spec(self) -> SolveSpec:
        check_solver(self.solver, self._formulation, self.kernel, type(self).__name__)
        return SolveSpec(
            solver=self.solver,
            tol=float(self.tol),
            cache_bytes=float(self.cache_size) * BYTES_PER_MB,
            shrinking=bool(self.shrinking),
            max_iter=int(self.max_iter),
            threads=resolve_threads(self.n_jobs),
            log=self._reporter(),
        )

    # Whether a verbose fit also shows its progress line (FitStatus) on stderr; the
    # command line, whose output is svm-train's, turns it off on its estimators.
    _show_fit_status = True

    def _reporter(self) -> Reporter:
        """Where a verbose fit writes: LIBSVM's training output on stdout (what
        svm-train and scikit-learn print); svmx's own notes, and a progress line
        of the iterations and the optimality gap, on stderr."""
        if not self.verbose:
            return None
        return standard_log(prefix=f"[svmx] {type(self).__name__}: ",
                            status=self._show_fit_status)

    def _svmx_tags(self) -> dict[str, Any]:
        return {"pairwise": self.kernel == "precomputed", "requires_y": True}

    # -- training inputs --------------------------------------------------------------------
    def _training_matrix(self, X: Any) -> tuple[Any, Any]:
        """Validate X; return (X, the matrix the engine trains on).

        For a callable or precomputed kernel the second is the Gram matrix.
        Records ``feature_names_in_`` (data frames with string column names);
        ``n_features_in_`` is set with the other attributes once training succeeds.
        """
        check_feature_names(self, X, reset=True)
        if callable(self.kernel):
            X = self._callable_kernel_input(X)
            return X, self._call_kernel(X, X)
        X = validate_X(X, accept_sparse=True)
        if self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    "X must be a square Gram matrix when kernel='precomputed'; "
                    f"got shape {X.shape}"
                )
            gram = X.toarray() if sp.issparse(X) else X
            return X, np.ascontiguousarray(gram, dtype=np.float64)
        check_kernel_values_finite(X)
        return X, X

    def _sparse_fit(self, X: Any) -> bool | None:
        """`FittedModel.sparse_fit` for a fit on X: as scikit-learn, a fit on sparse X
        with a built-in kernel keeps CSR coefficients, and one on dense X refuses
        sparse X later; a precomputed kernel takes dense and sparse Gram matrices."""
        if self.kernel == "precomputed":
            return None
        return sp.issparse(X) and not callable(self.kernel)

    @staticmethod
    def _callable_kernel_input(X: Any) -> Any:
        """X as a callable kernel receives it: validated when it holds numbers (sparse
        or dense), otherwise (strings, documents, ...) as given, as scikit-learn does."""
        if sp.issparse(X) or not _holds_non_numbers(X):
            return validate_X(X, accept_sparse=True)
        return X

    def _call_kernel(self, A: Any, B: Any) -> np.ndarray:
        """The callable kernel's values K(A, B), checked: finite, of shape (len(A), len(B))
        (the Gram matrix at fit; the samples against the support vectors at prediction)."""
        kernel: Callable = self.kernel
        gram = kernel(A, B)
        if sp.issparse(gram):  # e.g. lambda a, b: a @ b.T on sparse X
            gram = gram.toarray()
        gram = np.asarray(gram, dtype=np.float64)
        if gram.ndim != 2 or not np.isfinite(gram).all():
            raise ValueError(
                "kernel: the callable must return a finite 2-D array of kernel values"
            )
        shape = (_n_rows(A), _n_rows(B))
        if gram.shape != shape:
            what = ("the Gram matrix" if A is B else
                    "the kernel values of the samples against the support vectors")
            raise ValueError(
                f"kernel: the callable must return {what} of shape {shape}; got shape "
                f"{gram.shape}"
            )
        return np.ascontiguousarray(gram)

    def _support_vectors_of(self, X: Any, support: np.ndarray) -> Any:
        """The rows `support` of X as float64 (empty for a precomputed kernel; as given
        for a callable kernel on X that is not numbers)."""
        if self.kernel == "precomputed":
            return np.empty((0, 0), dtype=np.float64)
        if sp.issparse(X):
            return csr_rows(X, support)
        if callable(self.kernel) and not isinstance(X, np.ndarray | np.generic):
            return [X[int(row)] for row in support]
        if callable(self.kernel) and X.dtype.kind not in "fiub":
            return X[support]
        return np.asarray(X[support], dtype=np.float64)

    def _warn_if_stopped_early(self) -> None:
        if self.fit_status_ != 0:
            warn_stopped_early(self.max_iter, stacklevel=4)

    # -- decisions --------------------------------------------------------------------------
    def _check_predict_input(self, X: Any) -> Any:
        check_fitted(self, "support_")
        check_feature_names(self, X, reset=False)
        self._check_internal_state()
        if callable(self.kernel):
            X = self._callable_kernel_input(X)
            if not hasattr(X, "shape") or not hasattr(self, "n_features_in_"):
                return X
        else:
            if sp.issparse(X) and getattr(self, "_sparse", None) is False:
                raise ValueError(
                    f"cannot use sparse input in {type(self).__name__!r} trained on dense data"
                )
            X = validate_X(X, accept_sparse=True)
        if X.shape[1] != self.n_features_in_:
            detail = (
                " (kernel='precomputed': one column per training sample)"
                if self.kernel == "precomputed"
                else ""
            )
            if X.shape[1] > self.n_features_in_ and getattr(self, WIDTH_FROM_MODEL_FILE, False):
                detail += (
                    "; a LIBSVM model file does not record the number of features, and "
                    "load_model took it from the support vectors: load the model with "
                    f"load_model(path, n_features={X.shape[1]})"
                )
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input{detail}."
            )
        return X

    def _check_internal_state(self) -> None:
        """Refuse a fitted state whose parts disagree (scikit-learn's CVE-2020-28975 check)."""
        counts = np.asarray(self._n_support).ravel().tolist()  # a few ints: Python is quicker
        vectors = self.support_vectors_
        n_vectors = len(vectors) if isinstance(vectors, list) else vectors.shape[0]
        if (sum(counts) != self._dual_coef_.shape[1] or min(counts, default=0) < 0
                or (self.kernel != "precomputed" and n_vectors != self._dual_coef_.shape[1])):
            raise ValueError(
                f"The internal representation of {type(self).__name__} was altered"
            )

    def _fitted_coef(self, coef: np.ndarray) -> Any:
        """`coef` (``coef_``) read-only, and CSR after a fit on sparse X, as scikit-learn's."""
        if getattr(self, "_sparse", None):
            coef = csr_like(self.support_vectors_, coef)
            coef.data.flags.writeable = False
        else:
            coef.flags.writeable = False
        return coef

    def _fitted_kernel(self) -> KernelSpec:
        """The built-in kernel with the fitted gamma (and the current degree and coef0)."""
        return KernelSpec.named(self.kernel, self.degree, self._gamma, self.coef0)

    def _kernel_to_support(self, X_block: np.ndarray) -> np.ndarray:
        """K(X_block, support vectors) for the fitted kernel."""
        if self.kernel == "precomputed":
            columns = X_block[:, self.support_]
            return columns.toarray() if sp.issparse(columns) else columns
        if callable(self.kernel):
            return self._call_kernel(X_block, self.support_vectors_)
        return _libsvm.kernel_matrix(X_block, self.support_vectors_, self._fitted_kernel())

    def _row_blocks(self, n_rows: int) -> list[slice]:
        n_support = max(int(self.support_.size), 1)
        size = max(1, PREDICT_BLOCK_ENTRIES // n_support)
        return [slice(start, min(start + size, n_rows)) for start in range(0, n_rows, size)]

    def _decision_without_gram(self, X: Any) -> np.ndarray | None:
        """K(X, SV) W without the intercept from the binding's prediction, one column per
        pair (or one for a single problem); None where it does not apply.

        It serves the built-in kernels, with sparse support vectors or dense ones
        whose transposed copy stays within its size budget.
        """
        vectors = self.support_vectors_
        if (
            callable(self.kernel)
            or self.kernel == "precomputed"
            or vectors.shape[0] == 0
            or not _libsvm.engine_serves(vectors)
        ):
            return None
        # Below the engine's threading threshold the thread count is not worked out.
        small = _n_rows(X) * vectors.shape[0] < _libsvm.PREDICT_MIN_THREADED_VALUES
        return _libsvm.decision_values(
            X, vectors, self._dual_coef_, self._n_support, self._fitted_kernel(),
            n_threads=1 if small else resolve_threads(self.n_jobs),
            cache=self.__dict__.get(LAYOUT_CACHE),
        )

    def _ovo_decision(self, X: np.ndarray) -> np.ndarray:
        """One-vs-one decision values in LIBSVM's sign (positive: first class)."""
        values = self._decision_without_gram(X)
        if values is None:
            weights = pair_weights(self._dual_coef_, self._n_support)
            values = np.empty((_n_rows(X), weights.shape[1]), dtype=np.float64)
            for block in self._row_blocks(_n_rows(X)):
                values[block] = self._kernel_to_support(X[block]) @ weights
        return values + self._intercept_
