"""Type stubs for svmx._newton_walk."""

import numpy as np
from numpy.typing import NDArray

def spd_inverse(a: NDArray[np.float64]) -> int: ...
def free_gradient(
    gram: NDArray[np.float64],
    free_rows: NDArray[np.intp],
    used_rows: NDArray[np.intp],
    weights: NDArray[np.float64],
) -> NDArray[np.float64]: ...
def newton_walk(
    inverse: NDArray[np.float64],
    block: NDArray[np.float64],
    g: NDArray[np.float64],
    y: NDArray[np.float64],
    present: NDArray[np.float64],
    limit: NDArray[np.float64],
    max_steps: int,
) -> int: ...
