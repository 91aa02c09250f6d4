"""Type stubs for svmx._input_scan."""

from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

MAX_SCANNED_CLASSES: int

def float_labels_problem(
    values: NDArray[np.float64],
) -> Literal["nonfinite", "continuous"] | None: ...
def encode_labels(values: Any) -> tuple[NDArray[Any], NDArray[np.intp]] | None: ...
def row_norms_overflow(X: Any) -> bool: ...
