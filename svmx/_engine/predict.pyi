"""Type stubs for svmx._engine.predict (decision values without the kernel matrix)."""

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from svmx._engine.layout_cache import LayoutCache

MAX_TRANSPOSED_ENTRIES: int
COMPACT_MIN_FEATURES: int
COMPACT_RATIO: int

def serves(support_vectors: Any) -> bool: ...
def compact_features(X: Any, support_vectors: Any) -> tuple[Any, Any] | None: ...
def decision_values(
    X: Any,
    support_vectors: Any,
    dual_coef: ArrayLike,
    n_support: ArrayLike,
    *,
    kernel_type: int,
    degree: int,
    gamma: float,
    coef0: float,
    n_threads: int = 1,
    layout: Literal["auto", "transposed", "columns"] = "auto",
    cache: LayoutCache | None = None,
) -> NDArray[np.float64]: ...
