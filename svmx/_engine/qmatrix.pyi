"""Type stubs for svmx._engine.qmatrix (the methods are C-level, see qmatrix.pxd)."""

import numpy as np
from numpy.typing import NDArray

from svmx._engine.kernel import Kernel

class QMatrix: ...

class SvcQ(QMatrix):
    def __init__(self, kernel: Kernel, y: NDArray[np.int8], cache_size_bytes: float) -> None: ...

class OneClassQ(QMatrix):
    def __init__(self, kernel: Kernel, cache_size_bytes: float) -> None: ...

class SvrQ(QMatrix):
    def __init__(self, kernel: Kernel, cache_size_bytes: float) -> None: ...
