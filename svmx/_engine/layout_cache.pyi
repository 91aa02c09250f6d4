"""Type stubs for svmx._engine.layout_cache (support-vector layouts kept between calls)."""

from collections.abc import Callable
from typing import Any

MAX_CACHED_ENTRIES: int

class LayoutCache:
    def __init__(self) -> None: ...
    def layouts_for(self, support_vectors: Any) -> dict[str, Any] | None: ...
    def output_columns(self, n_support: Any, build: Callable[[Any], Any]) -> tuple[Any, ...]: ...
