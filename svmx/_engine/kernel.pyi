"""Type stubs for svmx._engine.kernel: constructors only (the methods are C-level, see
kernel.pxd and svmx/engine/kernel.pxd)."""

import numpy as np
from numpy.typing import NDArray

class Rows:
    @property
    def n_rows(self) -> int: ...
    @property
    def n_features(self) -> int: ...

class DenseRows(Rows):
    def __init__(self, data: NDArray[np.float64]) -> None: ...

class DenseRows32(Rows):
    def __init__(self, data: NDArray[np.float32]) -> None: ...
    def reserve_block(self, n_which: int) -> None: ...

class CsrRows(Rows):
    def __init__(
        self,
        values: NDArray[np.float64],
        indices: NDArray[np.int32],
        indptr: NDArray[np.int64],
        n_features: int,
    ) -> None: ...

class TiledRows(Rows):
    def __init__(self, base: Rows, copies: int) -> None: ...

class Kernel:
    def __init__(
        self, rows: Rows, kernel_type: int, degree: int, gamma: float, coef0: float
    ) -> None: ...
