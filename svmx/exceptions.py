"""Exceptions and warnings raised by svmx."""

__all__ = ["ConvergenceWarning", "NotFittedError"]


class NotFittedError(ValueError, AttributeError):
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


class ConvergenceWarning(UserWarning):
    """Issued when the solver stops at ``max_iter`` before reaching ``tol``.

    Examples
    --------
    >>> import warnings
    >>> issubclass(ConvergenceWarning, UserWarning)
    True
    """
