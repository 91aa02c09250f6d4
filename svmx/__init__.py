"""svmx: support vector machines in the style of LIBSVM, compiled with Cython.

Examples
--------
>>> import svmx
>>> model = svmx.SVC(kernel="linear").fit([[0.0], [1.0]], [0, 1])
>>> model.predict([[0.9]]).tolist()
[1]
"""

from svmx import datasets, io, model_selection, preprocessing
from svmx._config import check_isa_setting, show_config
from svmx._version import __version__
from svmx.exceptions import ConvergenceWarning, InvalidParameterError, NotFittedError
from svmx.svm import SVC, SVR, NuSVC, NuSVR, OneClassSVM

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

# An SVMX_ISA the loops cannot read would be ignored by them: refuse it here instead.
check_isa_setting()
