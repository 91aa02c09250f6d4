"""Type stubs for svmx._newton_walk."""

import numpy as np
from numpy.typing import ArrayLike, NDArray

def spd_inverse(a: NDArray[np.float64]) -> int: ...
def free_gradient(
    gram: NDArray[np.float64],
    free_rows: NDArray[np.intp],
    used_rows: NDArray[np.intp],
    weights: NDArray[np.float64],
) -> NDArray[np.float64]: ...
def free_set_steps(
    gram: NDArray[np.float64],
    rows: ArrayLike,
    labels: ArrayLike,
    p: ArrayLike,
    bounds: ArrayLike,
    alpha: NDArray[np.float64],
    max_steps: int,
    max_free: int,
    ridge_start: float,
    ridge_growth: float,
    ridge_limit: float,
) -> int: ...
