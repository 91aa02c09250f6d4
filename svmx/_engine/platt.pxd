# Probability outputs: Platt's sigmoid and Wu-Lin-Weng pairwise coupling.
#
# All functions are pure C (``noexcept nogil``), allocate nothing, keep no global state and
# report problems through the returned status instead of printing. Callers that need a
# warning or an exception raise it after leaving ``nogil``.

cdef enum:
    # Status codes returned by sigmoid_train and multiclass_probability.
    PLATT_OK = 0
    PLATT_NOT_CONVERGED = 1       # iteration cap reached
    PLATT_LINE_SEARCH_FAILED = 2  # sigmoid_train: the line search could not descend

cdef int sigmoid_train(Py_ssize_t n, const double* dec_values, const double* labels,
                       double* A, double* B) noexcept nogil

cdef double sigmoid_predict(double dec_value, double A, double B) noexcept nogil

cdef double clip_probability(double probability) noexcept nogil

cdef int multiclass_probability(int k, const double* r, double* p,
                                double* Q, double* Qp) noexcept nogil
