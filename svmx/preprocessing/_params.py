"""``get_params`` / ``set_params`` for the estimator-style transformers.

The parameters of an object are the arguments of its ``__init__``, stored
under the same names; this is the protocol scikit-learn and
:mod:`svmx.model_selection` rely on to clone and tune objects.
"""

from __future__ import annotations

import inspect
from typing import Any

from svmx.exceptions import NotFittedError


class ParamsMixin:
    """Parameter access by the names of the ``__init__`` arguments."""

    @classmethod
    def _param_names(cls) -> list[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(name for name in signature.parameters if name != "self")

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Return the constructor parameters as a dict.

        Parameters
        ----------
        deep : bool, default=True
            Accepted for protocol compatibility; these objects hold no
            nested estimators.

        Returns
        -------
        dict
        """
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> ParamsMixin:
        """Set constructor parameters; unknown names raise ``ValueError``.

        Parameters
        ----------
        **params
            New parameter values.

        Returns
        -------
        self
        """
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(
                    f"{name!r} is not a parameter of {type(self).__name__}; valid: {valid}"
                )
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        arguments = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({arguments})"

    def _check_fitted(self, attribute: str) -> None:
        if not hasattr(self, attribute):
            raise NotFittedError(
                f"This {type(self).__name__} is not fitted yet; call fit before using it"
            )
