"""svmx: support vector machines in the style of LIBSVM, compiled with Cython.

The estimators and subpackages are imported on first use (PEP 562), so that the
``svmx`` command and code that needs one part do not pay for the others; the compiled
engine is imported with the package.

Examples
--------
>>> import svmx
>>> model = svmx.SVC(kernel="linear").fit([[0.0], [1.0]], [0, 1])
>>> model.predict([[0.9]]).tolist()
[1]
"""

import importlib
from typing import Any

# The compiled engine is imported now, not on first use: each of its modules fixes the
# instruction-set level (SVMX_ISA) when it is imported, and all must read it at
# `import svmx`, so that a later change of the variable changes none of them.
from svmx import _libsvm  # noqa: F401
from svmx._config import check_isa_setting, show_config
from svmx._version import __version__

__all__ = [
    "SVC",
    "SVR",
    "ConvergenceWarning",
    "InvalidParameterError",
    "NotFittedError",
    "NuSVC",
    "NuSVR",
    "OneClassSVM",
    "__version__",
    "datasets",
    "io",
    "model_selection",
    "preprocessing",
    "show_config",
]

# Where each lazily imported name lives (a subpackage is its own module).
_LAZY = {
    "SVC": "svmx.svm",
    "SVR": "svmx.svm",
    "NuSVC": "svmx.svm",
    "NuSVR": "svmx.svm",
    "OneClassSVM": "svmx.svm",
    "ConvergenceWarning": "svmx.exceptions",
    "InvalidParameterError": "svmx.exceptions",
    "NotFittedError": "svmx.exceptions",
    "datasets": None,
    "io": None,
    "model_selection": None,
    "preprocessing": None,
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'svmx' has no attribute {name!r}")
    module_name = _LAZY[name]
    value = (importlib.import_module(f"svmx.{name}") if module_name is None
             else getattr(importlib.import_module(module_name), name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


# An SVMX_ISA the loops cannot read would be ignored by them: refuse it here instead.
check_isa_setting()
