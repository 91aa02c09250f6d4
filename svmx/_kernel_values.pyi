"""Type stubs for svmx._kernel_values (re-exported by svmx._libsvm)."""

from typing import Any

import numpy as np
from numpy.typing import NDArray

from svmx._specs import KernelSpec

DENSE_ENOUGH: float

def squared_norms(X: Any) -> NDArray[np.float64]: ...
def mirror_upper(square: NDArray[Any]) -> NDArray[Any]: ...
def dense_if_dense_enough(M: Any) -> Any: ...
def kernel_matrix(
    X: Any, Y: Any, kernel: KernelSpec, *, X_sq_norms: Any = None, Y_sq_norms: Any = None
) -> NDArray[np.float64]: ...
def symmetric_kernel_matrix(
    X: Any, kernel: KernelSpec, *, X_sq_norms: Any = None
) -> NDArray[np.float64]: ...
