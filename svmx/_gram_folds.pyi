"""Type stubs for svmx._gram_folds."""

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

def best_scale(objective: float, linear: float, limit: float) -> float: ...
def kernel_block(
    gram: NDArray[np.float64], rows: ArrayLike, columns: ArrayLike
) -> NDArray[np.float64]: ...

class ClassifierFold:
    def __init__(
        self,
        gram: NDArray[np.float64],
        class_positions: list[NDArray[np.intp]],
        class_bounds: list[NDArray[np.float64]],
        seeded: bool,
    ) -> None: ...
    def solve(
        self, C: float, tol: float, shrinking: bool, max_iter: int, cache_bytes: float
    ) -> tuple[NDArray[np.int64], bool]: ...
    def class_sums(self) -> NDArray[np.float64]: ...
    def gradients(
        self,
    ) -> list[tuple[NDArray[np.float64], NDArray[np.float64]] | None]: ...
    @property
    def training_rows(self) -> NDArray[np.intp]: ...
    def dual_coef(self) -> NDArray[np.float64]: ...
    def decision_values(self, kernel_block: ArrayLike) -> NDArray[np.float64]: ...

class RegressorFold:
    def __init__(
        self,
        gram: NDArray[np.float64],
        positions: ArrayLike,
        targets: ArrayLike,
        unit_bounds: ArrayLike,
        epsilon: float,
        seeded: bool,
    ) -> None: ...
    def solve(
        self, C: float, tol: float, shrinking: bool, max_iter: int, cache_bytes: float
    ) -> tuple[NDArray[np.int64], bool]: ...
    def gradients(self) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None: ...
    @property
    def training_rows(self) -> NDArray[np.intp]: ...
    def dual_coef(self) -> NDArray[np.float64]: ...
    def predict(self, kernel_block: ArrayLike) -> NDArray[np.float64]: ...

__all__: list[Any]
