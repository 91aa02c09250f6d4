from svmx._engine.kernel_map cimport KernelParams
from svmx._engine.rows cimport Rows
from svmx._engine.solver cimport SolutionInfo, SolverLog


cdef class BlockSolver:
    """Batched working-set SMO for the same dual as `Solver` (without Solver_NU's
    second constraint); see block_solver.pyx."""
    cdef int solve(self, Rows rows, const KernelParams* params, const double* p,
                   const signed char* y, double* alpha, const double* C, double eps,
                   long max_iter, int block_size, bint check_signals,
                   SolutionInfo* si, const SolverLog* log=*) noexcept nogil
