# A prediction's rows, gathered: each row's stored entries as (feature, float64 value),
# four rows laid over the union of their features, and their squared norms
# (svmx._engine.predict). Inline C helpers, shared by nothing else.

from cython cimport floating
from libc.string cimport memcmp


cdef struct RowSource:
    # Exactly one of the dense or CSR layouts is set (the other pointers are NULL).
    const double* dense64           # (n_rows, n_features), C order
    const float* dense32
    const double* values64          # CSR
    const float* values32
    const int* indices
    const Py_ssize_t* indptr
    Py_ssize_t n_features


cdef inline Py_ssize_t gather_dense_row(const floating* row, Py_ssize_t n_features,
                                        int* indices, double* values) noexcept nogil:
    """gather_row for one dense row of float32 or float64 values."""
    cdef Py_ssize_t j, count = 0
    cdef double value
    for j in range(n_features):
        value = row[j]
        if value != 0.0:
            indices[count] = <int> j
            values[count] = value
            count += 1
    return count


cdef inline Py_ssize_t gather_row(const RowSource* rows, Py_ssize_t i, int* indices,
                                  double* values) noexcept nogil:
    """Write row i's non-zero entries as (feature, float64 value); return their count."""
    cdef Py_ssize_t k, count = 0
    cdef Py_ssize_t n_features = rows.n_features
    cdef double value
    if rows.indptr != NULL:
        for k in range(rows.indptr[i], rows.indptr[i + 1]):
            value = rows.values64[k] if rows.values64 != NULL else rows.values32[k]
            if value != 0.0:
                indices[count] = rows.indices[k]
                values[count] = value
                count += 1
    elif rows.dense64 != NULL:
        count = gather_dense_row(rows.dense64 + i * n_features, n_features, indices, values)
    else:
        count = gather_dense_row(rows.dense32 + i * n_features, n_features, indices, values)
    return count


cdef inline Py_ssize_t merge_four(const int* indices, const double* values,
                                  const Py_ssize_t* row_starts, int* union_indices,
                                  double* union_values) noexcept nogil:
    """Lay four rows (sorted entries) over the union of their features; return its size."""
    cdef Py_ssize_t position[4]
    cdef Py_ssize_t size = 0, n = row_starts[1] - row_starts[0], u
    cdef int r, feature, next_feature
    # Four rows of the same features (dense data stored as CSR): their entries side by side.
    if (row_starts[2] - row_starts[1] == n and row_starts[3] - row_starts[2] == n
            and row_starts[4] - row_starts[3] == n
            and memcmp(indices + row_starts[0], indices + row_starts[1], n * sizeof(int)) == 0
            and memcmp(indices + row_starts[0], indices + row_starts[2], n * sizeof(int)) == 0
            and memcmp(indices + row_starts[0], indices + row_starts[3], n * sizeof(int)) == 0):
        for u in range(n):
            union_indices[u] = indices[row_starts[0] + u]
            for r in range(4):
                union_values[4 * u + r] = values[row_starts[r] + u]
        return n
    for r in range(4):
        position[r] = row_starts[r]
    while True:
        feature = -1
        for r in range(4):
            if position[r] < row_starts[r + 1]:
                next_feature = indices[position[r]]
                if feature < 0 or next_feature < feature:
                    feature = next_feature
        if feature < 0:
            return size
        union_indices[size] = feature
        for r in range(4):
            if position[r] < row_starts[r + 1] and indices[position[r]] == feature:
                union_values[4 * size + r] = values[position[r]]
                position[r] += 1
            else:
                union_values[4 * size + r] = 0.0
        size += 1


cdef inline double sq_norm_of(const double* values, Py_ssize_t n) noexcept nogil:
    """A row's squared norm, its entries summed in feature order."""
    cdef Py_ssize_t k
    cdef double total = 0.0
    for k in range(n):
        total += values[k] * values[k]
    return total


cdef inline void sq_norms_of_four(const double* union_values, Py_ssize_t size,
                                  double* sq_norms) noexcept nogil:
    """`sq_norm_of` for four rows laid over their union: the same sums to the bit (a
    feature a row lacks adds 0 * 0 to a sum that is never -0), as four independent
    chains of additions rather than one after another."""
    cdef Py_ssize_t u
    cdef double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
    for u in range(size):
        s0 += union_values[4 * u] * union_values[4 * u]
        s1 += union_values[4 * u + 1] * union_values[4 * u + 1]
        s2 += union_values[4 * u + 2] * union_values[4 * u + 2]
        s3 += union_values[4 * u + 3] * union_values[4 * u + 3]
    sq_norms[0] = s0
    sq_norms[1] = s1
    sq_norms[2] = s2
    sq_norms[3] = s3
