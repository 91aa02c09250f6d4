"""Type stubs for svmx._engine.block_solver (`solve` is C-level, see block_solver.pxd)."""

class BlockSolver:
    def __init__(self) -> None: ...
