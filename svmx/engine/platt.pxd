# Public: probability outputs (svmx/_engine/platt.pyx): Platt's sigmoid fitted with Lin, Lin &
# Weng's Newton method, and Wu, Lin & Weng's pairwise coupling.
#
# Pure C functions (noexcept nogil) over caller-owned buffers: no allocation, no global state;
# they return PLATT_OK, PLATT_NOT_CONVERGED (the iteration cap), or from sigmoid_train
# PLATT_LINE_SEARCH_FAILED (A = B = 0: non-finite or extreme decision values).

from svmx._engine.platt cimport (
    PLATT_LINE_SEARCH_FAILED,
    PLATT_NOT_CONVERGED,
    PLATT_OK,
    clip_probability,
    multiclass_probability,
    sigmoid_predict,
    sigmoid_train,
)
