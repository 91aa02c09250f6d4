# Public: probability outputs (svmx/_engine/platt.pyx): Platt's sigmoid fitted with Lin, Lin &
# Weng's Newton method, and Wu, Lin & Weng's pairwise coupling.
#
# Pure C functions (noexcept nogil) over caller-owned buffers: no allocation, no global state;
# they return PLATT_OK or PLATT_NOT_CONVERGED.

from svmx._engine.platt cimport (
    PLATT_NOT_CONVERGED,
    PLATT_OK,
    clip_probability,
    multiclass_probability,
    sigmoid_predict,
    sigmoid_train,
)
