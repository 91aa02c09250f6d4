# cython: language_level=3
"""Around an engine solve, for the binding's modules: whether to poll for signals, and
the exception an engine status stands for (raised after the solve has left ``nogil``)."""

import threading

from cpython.exc cimport PyErr_Occurred

from svmx._engine.solver cimport (
    SOLVE_BAD_ARGUMENT,
    SOLVE_BLOCK_NOT_RESERVED,
    SOLVE_INTERRUPTED,
    SOLVE_OUT_OF_MEMORY,
)


cdef bint on_main_thread():
    # Only the main thread receives signals: worker threads need not poll for them.
    return threading.current_thread() is threading.main_thread()


cdef int raise_for_status(int status) except -1:
    """Raise what a failed solve's status means; 0 for a solve that ended (at tol or at
    max_iter). An interrupted solve re-raises the exception its signal handler left
    pending (Ctrl-C's KeyboardInterrupt, or whatever the caller's handler raised)."""
    if status == SOLVE_OUT_OF_MEMORY:
        raise MemoryError("svmx: out of memory while training (try a smaller cache_size)")
    if status == SOLVE_INTERRUPTED:
        if PyErr_Occurred() != NULL:
            return -1
        raise KeyboardInterrupt
    if status == SOLVE_BLOCK_NOT_RESERVED:
        raise RuntimeError("svmx: the block solver's rows have no room for a block "
                           "(reserve_block was not called); this is a bug in svmx")
    if status == SOLVE_BAD_ARGUMENT:
        raise ValueError("the block solver takes a block_size of at least 2 and a built-in "
                         "kernel")
    return 0
