"""Type stubs for svmx._engine.cache (the methods are C-level, see cache.pxd)."""

class KernelCache:
    def __init__(self, l: int, size_bytes: float) -> None: ...  # noqa: E741
