"""Type stubs for svmx._engine.kernel: the constructor only (the methods are C-level, see
kernel.pxd and svmx/engine/kernel.pxd)."""

from svmx._engine.rows import Rows

class Kernel:
    def __init__(
        self, rows: Rows, kernel_type: int, degree: int, gamma: float, coef0: float
    ) -> None: ...
