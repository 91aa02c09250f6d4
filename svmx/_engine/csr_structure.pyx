# cython: language_level=3
"""The check that a CSR structure is one `CsrRows` may read without going out of bounds."""

__all__ = ["check_csr_structure"]


def check_csr_structure(const double[::1] values, const int[::1] indices,
                        const long long[::1] indptr, Py_ssize_t n_features):
    """Raise ValueError unless (values, indices, indptr) is a CSR matrix of `n_features`
    columns that `CsrRows` may read: indptr from 0, non-decreasing, ending at the number
    of values (as many as indices), and every index in [0, n_features)."""
    cdef Py_ssize_t k, n_values = values.shape[0]
    cdef int index, bad = -1
    if n_features < 0:
        raise ValueError(f"n_features must be non-negative; got {n_features}")
    if indices.shape[0] != n_values:
        raise ValueError(f"indices has {indices.shape[0]} entries but values has {n_values}")
    if indptr.shape[0] < 1 or indptr[0] != 0 or indptr[indptr.shape[0] - 1] != n_values:
        raise ValueError(f"indptr must run from 0 to the number of values ({n_values})")
    for k in range(indptr.shape[0] - 1):
        if indptr[k + 1] < indptr[k]:
            raise ValueError(f"indptr must be non-decreasing (entry {k + 1})")
    with nogil:
        for k in range(n_values):
            index = indices[k]
            if index < 0 or index >= n_features:
                bad = <int> k
                break
    if bad >= 0:
        raise ValueError(f"indices[{bad}] = {indices[bad]} is outside [0, {n_features})")
