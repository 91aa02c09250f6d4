"""Type stubs for svmx._engine.solver (`solve` is C-level, see solver.pxd)."""

import numpy as np

class Solver:
    def __init__(self) -> None: ...

class SolverNU(Solver): ...

def select_working_pair(
    y: np.ndarray, status: np.ndarray, G: np.ndarray, QD: np.ndarray, Q: np.ndarray
) -> tuple[int, int, float, float]: ...
def select_working_pair_nu(
    y: np.ndarray, status: np.ndarray, G: np.ndarray, QD: np.ndarray, Q: np.ndarray
) -> tuple[int, int, float]: ...
