# Public: the SMO solver of LIBSVM (Fan, Chen & Lin 2005) and its nu variant
# (svmx/_engine/solver.pyx).
#
# Solver.solve minimises 1/2 a'Qa + p'a subject to y'a = Delta and 0 <= a_i <= C_i, starting
# from the feasible `alpha` it is given and updating it in place; it fills a SolutionInfo and
# returns its status (SOLVE_OK, SOLVE_MAX_ITER, SOLVE_OUT_OF_MEMORY, SOLVE_INTERRUPTED, and
# from BlockSolver also SOLVE_BLOCK_NOT_RESERVED, and SOLVE_BAD_ARGUMENT for a block_size
# below 2 or a precomputed kernel). An interrupted solve (check_signals) leaves the
# signal's exception (KeyboardInterrupt) pending: the caller's def function must raise
# it (`except *` or `raise_for_status`-like code), not return normally.
# SolverNU adds the second equality constraint of nu-SVC and nu-SVR. solve runs without the
# GIL (it takes it briefly only when check_signals is true). Its optional last argument, a
# SolverLog (NULL: silence), receives LIBSVM's training output (write) and the iterations
# and optimality gap as the solve goes (progress).

from svmx._engine.solver cimport (
    SOLVE_BAD_ARGUMENT,
    SOLVE_BLOCK_NOT_RESERVED,
    SOLVE_INTERRUPTED,
    SOLVE_MAX_ITER,
    SOLVE_OK,
    SOLVE_OUT_OF_MEMORY,
    LogProgress,
    LogWrite,
    SolutionInfo,
    Solver,
    SolverLog,
    SolverNU,
    SolveStatus,
)
