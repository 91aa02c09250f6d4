"""Type stubs for the Python wrappers of svmx._engine.platt (the C API is platt.pxd)."""

from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

MIN_PROB: float

def sigmoid_train_py(dec_values: ArrayLike, labels: ArrayLike) -> tuple[float, float, int]: ...
def sigmoid_predict_py(dec_values: ArrayLike, A: float, B: float) -> NDArray[np.float64]: ...
@overload
def pairwise_coupling(
    R: ArrayLike, *, return_status: Literal[False] = False
) -> NDArray[np.float64]: ...
@overload
def pairwise_coupling(
    R: ArrayLike, *, return_status: Literal[True]
) -> tuple[NDArray[np.float64], NDArray[np.intc] | int]: ...
