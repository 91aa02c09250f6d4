"""Type stubs for svmx._engine.gram_rows: constructors only (see gram_rows.pxd)."""

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from svmx._engine.rows import Rows

class GramRows(Rows):
    def __init__(self, gram: NDArray[np.float64],
                 positions: Sequence[int] | NDArray[np.integer]) -> None: ...

class GramRows32(Rows):
    def __init__(self, gram: NDArray[np.float32],
                 positions: Sequence[int] | NDArray[np.integer]) -> None: ...
