"""Exceptions and warnings raised by svmx.

scikit-learn is optional. When it is loaded (``import svmx`` loads it when it
is installed, see ``svmx._sklearn_compat``), every exception or warning created
from the classes below is an instance of the svmx class *and* of
scikit-learn's class of the same name, so
``except sklearn.exceptions.NotFittedError`` or a warnings filter on
``sklearn.exceptions.ConvergenceWarning`` sees it too. Without scikit-learn
they are plain subclasses of the builtin exceptions.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = [
    "ConvergenceWarning",
    "DataConversionWarning",
    "FitFailedWarning",
    "InvalidParameterError",
    "NotFittedError",
]

# Where scikit-learn keeps its class of the same name (looked up, never imported).
_SKLEARN_MODULE = "sklearn.exceptions"
_bridges: dict[type, type] = {}


def _bridge(cls: type) -> type:
    """`cls`, or a subclass of `cls` and of scikit-learn's namesake when that is loaded."""
    if getattr(cls, "_svmx_bridge", False):
        return cls
    if cls in _bridges:
        return _bridges[cls]
    module = sys.modules.get(_SKLEARN_MODULE)
    namesake = getattr(module, cls.__name__, None) if module is not None else None
    if not isinstance(namesake, type) or not issubclass(namesake, BaseException):
        return cls
    bridge = type(
        cls.__name__,
        (cls, namesake),
        {"__module__": cls.__module__, "__qualname__": cls.__qualname__,
         "__doc__": cls.__doc__, "_svmx_bridge": True},
    )
    _bridges[cls] = bridge
    return bridge


def _public_class(cls: type) -> type:
    """The svmx class behind a bridge (what pickle should name)."""
    return cls.__bases__[0] if getattr(cls, "_svmx_bridge", False) else cls


class _SklearnCompatible:
    """Mixin: instances also belong to scikit-learn's namesake class when it is loaded."""

    def __new__(cls, *args: Any, **kwargs: Any):
        return super().__new__(_bridge(cls), *args, **kwargs)

    def __reduce__(self):
        # Pickle names the svmx class; unpickling bridges again if scikit-learn is loaded.
        return (_public_class(type(self)), self.args)


class NotFittedError(_SklearnCompatible, ValueError, AttributeError):
    """Raised when an estimator is used before ``fit``.

    It subclasses both :class:`ValueError` and :class:`AttributeError`, as
    scikit-learn's exception of the same name does, so code written for either
    library catches it.

    Examples
    --------
    >>> from svmx import SVC
    >>> try:
    ...     SVC().predict([[0.0, 1.0]])
    ... except NotFittedError as error:
    ...     print(type(error).__name__)
    NotFittedError
    """


class InvalidParameterError(ValueError, TypeError):
    """Raised by ``fit`` when a constructor parameter has the wrong type or value.

    Like scikit-learn's exception of the same name it is both a
    :class:`ValueError` and a :class:`TypeError`; the message names the
    parameter and what it accepts.

    Examples
    --------
    >>> from svmx import SVC
    >>> try:
    ...     SVC(C=-1.0).fit([[0.0], [1.0]], [0, 1])
    ... except InvalidParameterError as error:
    ...     print(error)
    The 'C' parameter of SVC must be a float in the range (0, inf); got -1.0.
    """


class ConvergenceWarning(_SklearnCompatible, UserWarning):
    """Issued when the solver stops at ``max_iter`` before reaching ``tol``.

    Examples
    --------
    >>> issubclass(ConvergenceWarning, UserWarning)
    True
    """


class DataConversionWarning(_SklearnCompatible, UserWarning):
    """Issued when input is converted in a way the caller may not expect.

    For example a column vector ``y`` of shape (n_samples, 1) is flattened.

    Examples
    --------
    >>> issubclass(DataConversionWarning, UserWarning)
    True
    """


class FitFailedWarning(_SklearnCompatible, RuntimeWarning):
    """Issued when fits of a cross-validation fail and ``error_score`` stands in for their scores.

    Examples
    --------
    >>> issubclass(FitFailedWarning, RuntimeWarning)
    True
    """
