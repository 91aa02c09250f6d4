"""Type stubs for svmx._engine.libsvm_values (LIBSVM's svm_predict_values, bit for bit)."""

import numpy as np
from numpy.typing import ArrayLike, NDArray

def libsvm_decision_values(
    X: ArrayLike, support_vectors: ArrayLike, coef: ArrayLike, rho: float, *,
    kernel_type: int, degree: int = 3, gamma: float = 1.0, coef0: float = 0.0,
) -> NDArray[np.float64]: ...
def libsvm_ovo_values(
    X: ArrayLike, support_vectors: ArrayLike, dual_coef: ArrayLike, n_support: ArrayLike,
    rho: ArrayLike, *, kernel_type: int, degree: int = 3, gamma: float = 1.0,
    coef0: float = 0.0,
) -> NDArray[np.float64]: ...
