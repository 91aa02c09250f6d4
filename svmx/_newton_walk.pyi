"""Type stubs for svmx._newton_walk."""

import numpy as np
from numpy.typing import NDArray

def newton_walk(
    inverse: NDArray[np.float64],
    block: NDArray[np.float64],
    g: NDArray[np.float64],
    y: NDArray[np.float64],
    present: NDArray[np.float64],
    limit: NDArray[np.float64],
    max_steps: int,
) -> int: ...
