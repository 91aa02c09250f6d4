"""Type stubs for svmx._engine.libsvm_values (LIBSVM's svm_predict_values, bit for bit)."""

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

def libsvm_decision_values(
    X: ArrayLike, support_vectors: ArrayLike, coef: ArrayLike, rho: float, kernel: Any,
    n_threads: int = 1,
) -> NDArray[np.float64]: ...
def libsvm_ovo_values(
    X: ArrayLike, support_vectors: ArrayLike, dual_coef: ArrayLike, n_support: ArrayLike,
    rho: ArrayLike, kernel: Any, n_threads: int = 1,
) -> NDArray[np.float64]: ...
