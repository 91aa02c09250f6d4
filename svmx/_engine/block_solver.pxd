from svmx._engine.kernel_map cimport KernelParams
from svmx._engine.rows cimport Rows
from svmx._engine.solver cimport SolutionInfo, SolverLog


# max over I_up of -y G plus max over I_low of y G: SMO's optimality gap over all l
# variables (a solve stops where it falls below eps).
cdef double global_gap(int l, const signed char* y, const double* alpha, const double* C,
                       const double* G) noexcept nogil


cdef class BlockSolver:
    """Batched working-set SMO for the same dual as `Solver` (without Solver_NU's
    second constraint); see block_solver.pyx."""
    cdef int solve(self, Rows rows, const KernelParams* params, const double* p,
                   const signed char* y, double* alpha, const double* C, double eps,
                   long max_iter, int block_size, bint check_signals,
                   SolutionInfo* si, const SolverLog* log=*) noexcept nogil
