"""svmx: support vector machines in the style of LIBSVM, compiled with Cython.

Examples
--------
>>> import svmx
>>> model = svmx.SVC(kernel="linear").fit([[0.0], [1.0]], [0, 1])
>>> model.predict([[0.9]]).tolist()
[1]
"""

from svmx._config import show_config
from svmx._version import __version__
from svmx.exceptions import ConvergenceWarning, NotFittedError
from svmx.svm import SVC, SVR, NuSVC, NuSVR, OneClassSVM

__all__ = [
    "SVC",
    "SVR",
    "ConvergenceWarning",
    "NotFittedError",
    "NuSVC",
    "NuSVR",
    "OneClassSVM",
    "__version__",
    "show_config",
]
