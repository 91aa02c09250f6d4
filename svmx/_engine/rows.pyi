"""Type stubs for svmx._engine.rows: constructors and Python methods only (the dot
products are C-level, see rows.pxd and svmx/engine/kernel.pxd)."""

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

class Rows:
    @property
    def n_rows(self) -> int: ...
    @property
    def n_features(self) -> int: ...
    def set_threads(self, n_threads: int) -> None: ...
    def block_kernel_rows(
        self,
        which: Sequence[int] | NDArray[np.integer],
        kernel_type: int,
        degree: int = ...,
        gamma: float = ...,
        coef0: float = ...,
    ) -> NDArray[np.float32]: ...

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
    def reserve_block(self, n_which: int) -> None: ...

class TiledRows(Rows):
    def __init__(self, base: Rows, copies: int) -> None: ...
