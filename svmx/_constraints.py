"""Parameter constraints (a range, a set of values, a type) and `validate_params`,
which checks an estimator's parameters against them before any work starts.

The checks run at every fit, so the common cases (a plain int, float or string)
take the shortest path.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from svmx.exceptions import InvalidParameterError

__all__ = ["Interval", "Kind", "OneOf", "validate_params"]


class Interval:
    """A numeric parameter constraint: a type and an (open or closed) range.

    Parameters
    ----------
    kind : {"real", "integral"}
        Whether floats are accepted or only integers.
    low, high : float or None
        Bounds; None means unbounded.
    closed : {"both", "left", "right", "neither"}
        Which bounds belong to the range.
    finite : bool, default=False
        Refuse infinities (a kernel's gamma = inf gives NaN kernel values; C = inf is valid).

    Examples
    --------
    >>> Interval("real", 0, None, closed="neither").describe()
    'a float in the range (0, inf)'
    """

    def __init__(self, kind: str, low: float | None, high: float | None, *, closed: str,
                 finite: bool = False):
        self.kind = kind
        self.low = low
        self.high = high
        self.closed = closed
        self.finite = finite
        self.integral = kind == "integral"
        self.wanted = numbers.Integral if self.integral else numbers.Real
        self.left_closed = closed in ("both", "left")
        self.right_closed = closed in ("both", "right")

    def accepts(self, value: Any) -> bool:
        kind = type(value)
        # Plain ints and floats skip the abstract-base-class checks (a fit validates
        # a dozen parameters; this is most of its cost).
        if kind is float:
            if self.integral:
                return False
        elif kind is not int and (
            isinstance(value, bool | np.bool_) or not isinstance(value, self.wanted)
        ):
            return False
        if value != value or (self.finite and (value == math.inf or value == -math.inf)):
            return False  # NaN, or an infinity where only finite values are taken
        if self.low is not None and (value < self.low or (value == self.low
                                                          and not self.left_closed)):
            return False
        return self.high is None or value < self.high or (value == self.high
                                                          and self.right_closed)

    def describe(self) -> str:
        left = "[" if self.left_closed else "("
        right = "]" if self.right_closed else ")"
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        article = "a finite " if self.finite else "an " if self.integral else "a "
        noun = article + ("int" if self.integral else "float")
        return f"{noun} in the range {left}{low}, {high}{right}"


class OneOf:
    """A parameter constraint: one of a fixed set of values.

    Examples
    --------
    >>> OneOf("ovr", "ovo").describe()
    "one of 'ovr', 'ovo'"
    """

    def __init__(self, *options: Any):
        self.options = options

    def accepts(self, value: Any) -> bool:
        for option in self.options:
            if value is option or (type(value) is type(option) and value == option):
                return True
        return False

    def describe(self) -> str:
        return "one of " + ", ".join(repr(option) for option in self.options)


class Kind:
    """A parameter constraint satisfied by instances of some types or by a predicate.

    Examples
    --------
    >>> Kind("a callable", predicate=callable).accepts(len)
    True
    """

    def __init__(self, description: str, *, types: tuple = (), predicate: Callable | None = None):
        self.description = description
        self.types = types
        self.predicate = predicate

    def accepts(self, value: Any) -> bool:
        if self.types and isinstance(value, self.types):
            return True
        return self.predicate is not None and bool(self.predicate(value))

    def describe(self) -> str:
        return self.description


def validate_params(estimator: Any, constraints: dict[str, list]) -> None:
    """Check each parameter of `estimator` against its list of accepted constraints.

    Raises
    ------
    InvalidParameterError
        A ValueError and TypeError naming the parameter, what it accepts, and
        the value it got.

    Examples
    --------
    >>> class Model:
    ...     C = -1.0
    >>> validate_params(Model(), {"C": [Interval("real", 0, None, closed="neither")]})
    Traceback (most recent call last):
    ...
    svmx.exceptions.InvalidParameterError: The 'C' parameter of Model must be a float in the \
range (0, inf); got -1.0.
    """
    for name, accepted in constraints.items():
        value = getattr(estimator, name)
        for constraint in accepted:
            if constraint.accepts(value):
                break
        else:
            expected = " or ".join(constraint.describe() for constraint in accepted)
            raise InvalidParameterError(
                f"The {name!r} parameter of {type(estimator).__name__} must be {expected}; "
                f"got {value!r}."
            )
