# Public: the batched working-set solver for the dual of Solver (without SolverNU's second
# constraint), computing float32 kernel rows in blocks (svmx/_engine/block_solver.pyx).
#
# BlockSolver.solve(rows, &params, p, y, alpha, C, eps, max_iter, block_size, check_signals,
# &info) works on a Rows object and KernelParams directly (no Q matrix, no precomputed
# kernel) and runs without the GIL.

from svmx._engine.block_solver cimport BlockSolver
