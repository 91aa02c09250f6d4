"""Type stubs for the compiled binding svmx._libsvm."""

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

KERNEL_TYPES: dict[str, int]
DENSE_ENOUGH: float

def block_size_for(l: int, cache_size: float) -> int: ...  # noqa: E741
def solve_c_svc(
    X: Any,
    rows: ArrayLike,
    y: NDArray[np.int8],
    C: NDArray[np.float64],
    *,
    kernel_type: int,
    degree: int,
    gamma: float,
    coef0: float,
    tol: float,
    cache_size: float,
    shrinking: bool,
    max_iter: int,
    solver: str = "smo",
    n_threads: int = 1,
) -> dict[str, Any]: ...
def solve_nu_svc(
    X: Any,
    rows: ArrayLike,
    y: NDArray[np.int8],
    C: NDArray[np.float64],
    nu: float,
    *,
    kernel_type: int,
    degree: int,
    gamma: float,
    coef0: float,
    tol: float,
    cache_size: float,
    shrinking: bool,
    max_iter: int,
    solver: str = "smo",
    n_threads: int = 1,
) -> dict[str, Any]: ...
def solve_one_class(
    X: Any,
    rows: ArrayLike,
    C: NDArray[np.float64],
    nu: float,
    *,
    kernel_type: int,
    degree: int,
    gamma: float,
    coef0: float,
    tol: float,
    cache_size: float,
    shrinking: bool,
    max_iter: int,
    solver: str = "smo",
    n_threads: int = 1,
) -> dict[str, Any]: ...
def solve_epsilon_svr(
    X: Any,
    rows: ArrayLike,
    target: NDArray[np.float64],
    C: NDArray[np.float64],
    epsilon: float,
    *,
    kernel_type: int,
    degree: int,
    gamma: float,
    coef0: float,
    tol: float,
    cache_size: float,
    shrinking: bool,
    max_iter: int,
    solver: str = "smo",
    n_threads: int = 1,
) -> dict[str, Any]: ...
def solve_nu_svr(
    X: Any,
    rows: ArrayLike,
    target: NDArray[np.float64],
    C: NDArray[np.float64],
    nu: float,
    *,
    kernel_type: int,
    degree: int,
    gamma: float,
    coef0: float,
    tol: float,
    cache_size: float,
    shrinking: bool,
    max_iter: int,
    solver: str = "smo",
    n_threads: int = 1,
) -> dict[str, Any]: ...
def squared_norms(X: Any) -> NDArray[np.float64]: ...
def dense_if_dense_enough(M: Any) -> Any: ...
def kernel_matrix(
    X: Any,
    Y: Any,
    *,
    kernel_type: int,
    degree: int,
    gamma: float,
    coef0: float,
    X_sq_norms: ArrayLike | None = None,
    Y_sq_norms: ArrayLike | None = None,
) -> NDArray[np.float64]: ...
