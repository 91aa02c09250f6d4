"""Type stubs for svmx._engine.gram_rows (see gram_rows.pxd)."""

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from svmx._engine.kernel import Kernel
from svmx._engine.rows import Rows

class GramRows(Rows):
    def __init__(self, gram: NDArray[np.float64],
                 positions: Sequence[int] | NDArray[np.integer]) -> None: ...

class GramRows32(Rows):
    def __init__(self, gram: NDArray[np.float32],
                 positions: Sequence[int] | NDArray[np.integer]) -> None: ...

class LazyGram:
    n_samples: int
    rows_computed: int
    def __init__(self, kernel: Kernel) -> None: ...
    def values_at(self, rows: Sequence[int] | NDArray[np.integer],
                  columns: Sequence[int] | NDArray[np.integer]) -> NDArray[np.float64]: ...

class LazyGramRows(Rows):
    def __init__(self, gram: LazyGram,
                 positions: Sequence[int] | NDArray[np.integer]) -> None: ...
