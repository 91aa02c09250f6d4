# What the binding's modules (_libsvm.pyx, _gram_folds.pyx) do around an engine solve.

cdef bint on_main_thread()
cdef int raise_for_status(int status) except -1
