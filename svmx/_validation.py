"""Input and parameter validation shared by the estimators and the preprocessing helpers.

Every error names the offending parameter and says what was expected, and
is raised before any training work starts.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp

from svmx import _libsvm
from svmx._estimator import available_if  # re-exported: svmx._classifier imports it from here
from svmx._input_scan import float_labels_problem
from svmx._sparse_structure import check_compressed_structure
from svmx.exceptions import DataConversionWarning, NotFittedError

__all__ = [
    "available_if",
    "check_feature_names",
    "check_fitted",
    "check_int",
    "check_labels",
    "check_matrix",
    "check_n_features",
    "check_ratio",
    "feature_names_of",
    "validate_X",
    "validate_sample_weight",
    "validate_targets",
]


def check_int(value: Any, name: str, minimum: int | None = None) -> int:
    """Return `value` as an int, refusing bools, floats and other types.

    Examples
    --------
    >>> check_int(3, "k", minimum=2)
    3
    >>> check_int(2.0, "k")
    Traceback (most recent call last):
    ...
    TypeError: k must be an integer, got float
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def check_ratio(value: Any, name: str) -> float:
    """Return `value` as a float in [0, 1].

    Examples
    --------
    >>> check_ratio(0.25, "test_ratio")
    0.25
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a finite number in [0, 1], got {value!r}")
    return value


def check_labels(labels: Any, name: str = "labels") -> np.ndarray:
    """Return `labels` as a non-empty 1-D array without NaN.

    Examples
    --------
    >>> check_labels(["a", "b"]).tolist()
    ['a', 'b']
    """
    array = np.asarray(labels)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {array.shape}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} must not be empty")
    if array.dtype.kind == "f" and np.isnan(array).any():
        raise ValueError(f"{name} must not contain NaN")
    return array


def check_matrix(X: Any, name: str = "X", dtype: Any = np.float64) -> np.ndarray:
    """Return a dense `X` as a non-empty 2-D array; NaN and infinity are kept.

    Unlike :func:`validate_X`, which refuses them for the estimators, the
    preprocessing transformers pass non-finite values through.

    Examples
    --------
    >>> check_matrix([[1.0, float("nan")]]).shape
    (1, 2)
    """
    if sp.issparse(X):
        raise TypeError(f"{name} must be a dense array; sparse matrices are not supported")
    try:
        array = np.asarray(X)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be an array of numbers: {error}") from error
    if array.dtype.kind == "c":  # a cast to float would drop the imaginary parts
        raise ValueError(f"Complex data not supported: {name} must be real-valued")
    try:
        array = np.asarray(array, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be an array of numbers: {error}") from error
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features), got an array of shape {array.shape}. "
            "Reshape your data either using X.reshape(-1, 1) if it has a single feature or "
            "X.reshape(1, -1) if it contains a single sample."
        )
    check_not_empty(array.shape, name)
    return array


#: The largest |x|^2 n_features for which float32 dot products stay well inside float32's
#: range (3.4e38).
FLOAT32_PRODUCT_LIMIT = 1e37


def float32_products_fit(array: np.ndarray) -> bool:
    """Whether float32 rows' dot products (summed in float32 by SGEMV/SGEMM) cannot overflow:
    largest |x|^2 times the features at most `FLOAT32_PRODUCT_LIMIT`. Rows beyond it are
    trained and predicted in float64 (values of 1e20 made products infinite, and an RBF
    model on them silently wrong).

    Examples
    --------
    >>> float32_products_fit(np.array([[1e18, 1.0]], dtype=np.float32))
    True
    >>> float32_products_fit(np.array([[1e20, 1.0]], dtype=np.float32))
    False
    """
    if array.size == 0:
        return True
    largest = max(float(array.max()), -float(array.min()))
    return largest * largest * array.shape[1] <= FLOAT32_PRODUCT_LIMIT


def check_not_empty(shape: tuple, name: str = "X") -> None:
    """Refuse a matrix of no rows or no columns, in svmx's words then scikit-learn's.

    Examples
    --------
    >>> check_not_empty((3, 0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: X must not be empty: found array with 0 feature(s) (shape=(3, 0)) while ...
    """
    for axis, noun in ((0, "sample"), (1, "feature")):
        if shape[axis] == 0:
            raise ValueError(f"{name} must not be empty: found array with 0 {noun}(s) "
                             f"(shape={shape}) while a minimum of 1 is required.")


def check_n_features(X: Any, expected: int, *, name: str = "X", owner: str = "the model") -> None:
    """Raise ValueError, in scikit-learn's words, unless `X` has `expected` columns.

    Examples
    --------
    >>> import numpy as np
    >>> check_n_features(np.zeros((1, 3)), 2, owner="StandardScaler")
    Traceback (most recent call last):
    ...
    ValueError: X has 3 features, but StandardScaler is expecting 2 features as input.
    """
    if X.shape[1] != expected:
        raise ValueError(
            f"{name} has {X.shape[1]} features, but {owner} is expecting {expected} "
            "features as input."
        )


def _numbers_of(array: np.ndarray, name: str) -> np.ndarray:
    """A string or object array as float64; pandas' missing value (a nullable column's
    pd.NA) becomes NaN, which `validate_X` refuses with a ValueError, as scikit-learn does."""
    try:
        return array.astype(np.float64)
    except TypeError as error:
        missing = np.array([type(value).__name__ == "NAType" for value in array.flat],
                           dtype=bool).reshape(array.shape)
        if not missing.any():
            # e.g. "float() argument must be a string or a real number, not 'dict'"
            raise TypeError(f"{name} must contain numbers: {error}") from None
        return _numbers_of(np.where(missing, np.nan, array), name)
    except ValueError as error:
        raise ValueError(f"{name} must contain numbers: {error}") from None


def validate_X(
    X: Any,
    *,
    name: str = "X",
    n_features: int | None = None,
    accept_sparse: bool = False,
    owner: str = "the model",
) -> np.ndarray:
    """Return X as a 2-D float64 C-contiguous array, or raise a clear error.

    The messages follow scikit-learn's wording, so code (and scikit-learn's
    estimator checks) that matches on them works with svmx too.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    name : str
        The argument's name, used in messages.
    n_features : int, optional
        The number of features X must have (at predict time).
    accept_sparse : bool
        Whether scipy.sparse input is densified (True) or refused (False).
    owner : str
        Who expects `n_features` features (an estimator's class name), for messages.

    Examples
    --------
    >>> validate_X([[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> validate_X([1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: Expected a 2-D array for X, got a 1-D array instead. Reshape your data either \
using X.reshape(-1, 1) if it has a single feature or X.reshape(1, -1) if it is a single sample.
    """
    if sp.issparse(X):
        if not accept_sparse:
            raise TypeError(f"{name}: sparse input is not supported here; pass a dense array")
        return _validate_sparse(X, name=name, n_features=n_features, owner=owner)
    if isinstance(X, str | bytes):
        raise TypeError(f"{name} must be array-like of numbers; got a string")
    array = np.asarray(X)
    if array.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} must be real-valued")
    if array.dtype.kind in "USOV":
        array = _numbers_of(array, name)
    if array.ndim != 2:
        hint = ""
        if array.ndim == 1:
            hint = (
                f" Reshape your data either using {name}.reshape(-1, 1) if it has a single "
                f"feature or {name}.reshape(1, -1) if it is a single sample."
            )
        raise ValueError(
            f"Expected a 2-D array for {name}, got a {array.ndim}-D array instead.{hint}"
        )
    check_not_empty(array.shape, name)
    # float32 is used as it is; everything else becomes float64.
    array = np.ascontiguousarray(array, dtype=np.float32 if array.dtype == np.float32
                                 else np.float64)
    if not np.isfinite(array).all():
        kind = "NaN" if np.isnan(array).any() else "infinity"
        raise ValueError(f"Input {name} contains {kind}; svmx needs finite values.")
    if array.dtype == np.float32 and not float32_products_fit(array):
        array = array.astype(np.float64)
    if n_features is not None:
        check_n_features(array, n_features, name=name, owner=owner)
    return array


def _validate_sparse(X: Any, *, name: str, n_features: int | None, owner: str) -> Any:
    """CSR with sorted, unique indices and float32/float64 values; CSC and COO converted once."""
    n_rows, n_columns = X.shape
    if (X.format == "csr" and n_rows > 0 and n_columns > 0
            and _libsvm.csr_is_ready(X.indptr, X.indices, X.data, n_rows, n_columns)):
        # Sound, canonical and finite, checked in one pass: the steps below would
        # return X as it is.
        if n_features is not None:
            check_n_features(X, n_features, name=name, owner=owner)
        return X
    if X.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} must be real-valued")
    if X.format in ("csr", "csc"):
        check_compressed_structure(X, name)  # before scipy's conversions read them
    matrix = X.tocsr()
    if matrix.dtype not in (np.float32, np.float64):
        matrix = matrix.astype(np.float64)
    if not matrix.has_canonical_format:
        matrix = matrix.copy()
        matrix.sum_duplicates()
    check_not_empty(matrix.shape, name)
    if not np.isfinite(matrix.data).all():
        kind = "NaN" if np.isnan(matrix.data).any() else "infinity"
        raise ValueError(f"Input {name} contains {kind}; svmx needs finite values.")
    if n_features is not None:
        check_n_features(matrix, n_features, name=name, owner=owner)
    return matrix


def feature_names_of(X: Any) -> np.ndarray | None:
    """The string column names of a data frame as an object array, else None.

    Names are kept only when every column name is a string; a mix of strings
    and other types is refused, as scikit-learn does.

    Examples
    --------
    >>> feature_names_of([[1.0, 2.0]]) is None
    True
    >>> class Frame:
    ...     columns = ["height", "weight"]
    >>> feature_names_of(Frame()).tolist()
    ['height', 'weight']
    """
    columns = getattr(X, "columns", None)
    if columns is None or sp.issparse(X) or isinstance(X, np.ndarray):
        return None
    try:
        names = np.asarray(list(columns), dtype=object)
    except TypeError:
        return None
    kinds = {type(name).__name__ for name in names}
    are_strings = [isinstance(name, str) for name in names]
    if names.size == 0 or not any(are_strings):
        return None
    if not all(are_strings):
        raise TypeError(
            "Feature names are only supported if all input features have string names, "
            f"but your input has {sorted(kinds)} as feature name / column name types. "
            "Convert them all to strings (for example X.columns = X.columns.astype(str)) "
            "or to a non-string type."
        )
    return names


def _name_differences(fitted: np.ndarray, given: np.ndarray) -> str:
    """What differs between two lists of feature names, in scikit-learn's words."""
    unseen = [name for name in given if name not in set(fitted)]
    missing = [name for name in fitted if name not in set(given)]
    if not unseen and not missing:
        return "Feature names must be in the same order as they were in fit.\n"

    def listing(names: list) -> str:
        shown = [f"- {name}\n" for name in names[:5]]
        return "".join(shown) + ("- ...\n" if len(names) > 5 else "")

    message = ""
    if unseen:
        message += "Feature names unseen at fit time:\n" + listing(sorted(unseen))
    if missing:
        message += "Feature names seen at fit time, yet now missing:\n" + listing(sorted(missing))
    return message


def check_feature_names(estimator: Any, X: Any, *, reset: bool) -> None:
    """Record (``reset=True``) or compare the column names of X with those seen in fit.

    At fit, ``feature_names_in_`` is set when X is a data frame with string
    column names and removed otherwise. Afterwards, names that differ raise a
    ValueError, and a frame given to a model fitted without names (or the
    reverse) gives a UserWarning, as in scikit-learn.

    Examples
    --------
    >>> class Frame:
    ...     columns = ["a", "b"]
    >>> class Model:
    ...     pass
    >>> model = Model()
    >>> check_feature_names(model, Frame(), reset=True)
    >>> model.feature_names_in_.tolist()
    ['a', 'b']
    """
    names = feature_names_of(X)
    owner = type(estimator).__name__
    if reset:
        if names is not None:
            estimator.feature_names_in_ = names
        elif hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
        return
    fitted = getattr(estimator, "feature_names_in_", None)
    if fitted is None and names is None:
        return
    if fitted is None:
        warnings.warn(
            f"X has feature names, but {owner} was fitted without feature names",
            UserWarning,
            stacklevel=4,
        )
        return
    if names is None:
        warnings.warn(
            f"X does not have valid feature names, but {owner} was fitted with feature names",
            UserWarning,
            stacklevel=4,
        )
        return
    if len(names) != len(fitted) or np.any(names != fitted):
        raise ValueError(
            "The feature names should match those that were passed during fit.\n"
            + _name_differences(fitted, names)
        )


def validate_targets(
    y: Any, n_samples: int, *, classification: bool, owner: str = "the model"
) -> np.ndarray:
    """Return y as a 1-D array of length n_samples, or raise a clear error.

    A column vector of shape (n_samples, 1) is flattened with a
    :class:`~svmx.exceptions.DataConversionWarning`. For classification,
    labels may be of any sortable type, but continuous floats (non-integral
    values) are refused, as scikit-learn does.

    Examples
    --------
    >>> validate_targets(["a", "b"], 2, classification=True).tolist()
    ['a', 'b']
    >>> validate_targets([0.5, 1.5], 2, classification=True)
    Traceback (most recent call last):
    ...
    ValueError: Unknown label type: y has continuous values ('continuous'); a classifier \
needs discrete labels
    """
    if y is None:
        raise ValueError(f"{owner} requires y to be passed, but the target y is None")
    values = np.asarray(y)
    if values.ndim == 2 and values.shape[1] == 1:
        warnings.warn(
            DataConversionWarning(
                "A column-vector y was passed when a 1d array was expected. Please change "
                "the shape of y to (n_samples,), for example using ravel()."
            ),
            stacklevel=4,
        )
        values = values.ravel()
    if values.ndim != 1:
        raise ValueError(f"y should be a 1d array; got an array of shape {values.shape}")
    if values.shape[0] != n_samples:
        raise ValueError(
            f"X and y have inconsistent lengths: X has {n_samples} samples, y has "
            f"{values.shape[0]}"
        )
    if values.dtype.kind == "c":
        raise ValueError("Complex data not supported: y must be real-valued")
    if classification:
        if values.dtype.kind == "O":
            if any(isinstance(v, float) and np.isnan(v) for v in values):
                raise ValueError("Input y contains NaN")
        elif values.dtype.kind == "f":
            problem = float_labels_problem(np.ascontiguousarray(values, dtype=np.float64))
            if problem == "nonfinite":
                raise ValueError("Input y contains NaN or infinity")
            if problem == "continuous":
                raise ValueError(
                    "Unknown label type: y has continuous values ('continuous'); "
                    "a classifier needs discrete labels"
                )
        return values
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"y must contain numbers; got dtype {values.dtype}") from None
    if not np.isfinite(values).all():
        raise ValueError("Input y contains NaN or infinity")
    return np.ascontiguousarray(values)


def validate_sample_weight(sample_weight: Any, n_samples: int) -> np.ndarray:
    """Return sample weights as float64 of length n_samples (ones when None).

    As in scikit-learn, a sample whose weight is zero or negative is left out of
    training (a weight of -1e-17 can come out of arithmetic that meant 0); when
    that leaves no sample, the error is scikit-learn's.

    Examples
    --------
    >>> validate_sample_weight(None, 3).tolist()
    [1.0, 1.0, 1.0]
    >>> validate_sample_weight([1, -1e-17], 2).tolist()
    [1.0, -1e-17]
    >>> validate_sample_weight([0, -1], 2)
    Traceback (most recent call last):
    ...
    ValueError: Invalid input - all samples have zero or negative weights.
    """
    if sample_weight is None:
        return np.ones(n_samples, dtype=np.float64)
    if np.isscalar(sample_weight):
        weights = np.full(n_samples, sample_weight, dtype=np.float64)
    else:
        try:
            weights = np.asarray(sample_weight, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("sample_weight must be an array of numbers") from None
    if weights.ndim != 1 or weights.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight must have shape ({n_samples},), one weight per sample; "
            f"got shape {weights.shape}"
        )
    if not np.isfinite(weights).all():
        raise ValueError("sample_weight contains NaN or infinity")
    if not np.any(weights > 0):
        raise ValueError("Invalid input - all samples have zero or negative weights.")
    return weights


def check_fitted(estimator: Any, attribute: str) -> None:
    """Raise NotFittedError unless `estimator` has `attribute`.

    Examples
    --------
    >>> class Model:
    ...     pass
    >>> check_fitted(Model(), "support_")
    Traceback (most recent call last):
    ...
    svmx.exceptions.NotFittedError: This Model instance is not fitted yet; call 'fit' first.
    """
    if not hasattr(estimator, attribute):
        raise NotFittedError(
            f"This {type(estimator).__name__} instance is not fitted yet; call 'fit' first."
        )
