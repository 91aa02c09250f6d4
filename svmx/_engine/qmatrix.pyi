"""Type stubs for svmx._engine.qmatrix (the hot-path methods are C-level, see qmatrix.pxd; the
Python methods below are a checked inspection surface over them)."""

import numpy as np
from numpy.typing import NDArray

from svmx._engine.cache import CacheMemories, KernelCache
from svmx._engine.kernel import Kernel

class QMatrix:
    @property
    def n_variables(self) -> int: ...
    def column(self, i: int, length: int | None = None) -> NDArray[np.float32]: ...
    def diagonal(self) -> NDArray[np.float64]: ...
    def swap(self, i: int, j: int) -> None: ...

class SvcQ(QMatrix):
    def __init__(
        self, kernel: Kernel, y: NDArray[np.int8], cache_size_bytes: float,
        memories: CacheMemories | None = None,
    ) -> None: ...
    @property
    def cache(self) -> KernelCache: ...

class OneClassQ(QMatrix):
    def __init__(
        self, kernel: Kernel, cache_size_bytes: float, memories: CacheMemories | None = None
    ) -> None: ...
    @property
    def cache(self) -> KernelCache: ...

class SvrQ(QMatrix):
    def __init__(
        self, kernel: Kernel, cache_size_bytes: float, memories: CacheMemories | None = None
    ) -> None: ...
    @property
    def cache(self) -> KernelCache: ...
