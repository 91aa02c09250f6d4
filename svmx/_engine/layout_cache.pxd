# cython: language_level=3
# A model's support-vector layouts kept between predictions (layout_cache.pyx).

cdef bint scatter_is_cheaper(X, support_vectors, dict layouts,
                             Py_ssize_t max_transposed) except -1
cdef tuple kept_layout(dict layouts, str kind, build, tuple args)


cdef class LayoutCache:
    cdef tuple _source
    cdef tuple _shape
    cdef dict _layouts
    cdef tuple _n_support  # (numpy type number, the counts' bytes)
    cdef tuple _output_columns
