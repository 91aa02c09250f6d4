"""Type stubs for svmx._fold_seed."""

import numpy as np
from numpy.typing import ArrayLike, NDArray

def take_equally(values: ArrayLike, amount: float) -> NDArray[np.float64]: ...
def fold_seed(
    alpha: ArrayLike,
    labels: ArrayLike,
    bounds: ArrayLike,
    priority: ArrayLike | None = None,
) -> NDArray[np.float64]: ...
