# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Decision values computed as LIBSVM's ``svm_predict_values`` computes them, bit for bit.

LIBSVM evaluates a model one kernel value at a time on sparse rows
(``Kernel::k_function``): dot products by merging the two rows' sorted indices,
the RBF kernel from the sum of squared differences (not from the squared
norms, as its training does), the polynomial power by repeated squaring; then it
adds ``coef[k] * K(x, sv_k)`` in support-vector order and subtracts rho. Where
svmx must reproduce LIBSVM's numbers exactly (the cross-validated decision
values behind ``svm-train -b 1``: Platt's sigmoids, SVR's Laplace scale,
one-class density marks), it evaluates with these functions; everywhere else
prediction takes the fast paths of :mod:`svmx._engine.predict`.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport exp, tanh

import numpy as np
import scipy.sparse as sp

from svmx._engine.isa cimport isa_level
from svmx._engine.kernel_map cimport (
    LINEAR,
    POLY,
    PRECOMPUTED,
    RBF,
    SIGMOID,
    KernelParams,
    kernel_params_of,
    power_int,
)

__all__ = ["libsvm_decision_values", "libsvm_ovo_values"]


cdef double sparse_dot(const int* a_index, const double* a_value, Py_ssize_t a_n,
                       const int* b_index, const double* b_value,
                       Py_ssize_t b_n) noexcept nogil:
    """LIBSVM's ``Kernel::dot`` of two rows with sorted indices."""
    cdef double total = 0.0
    cdef Py_ssize_t p = 0, q = 0
    while p < a_n and q < b_n:
        if a_index[p] == b_index[q]:
            total += a_value[p] * b_value[q]
            p += 1
            q += 1
        elif a_index[p] > b_index[q]:
            q += 1
        else:
            p += 1
    return total


cdef double sparse_squared_distance(const int* a_index, const double* a_value, Py_ssize_t a_n,
                                    const int* b_index, const double* b_value,
                                    Py_ssize_t b_n) noexcept nogil:
    """|a - b|^2 summed in index order, as LIBSVM's RBF ``k_function``."""
    cdef double total = 0.0, difference
    cdef Py_ssize_t p = 0, q = 0
    while p < a_n and q < b_n:
        if a_index[p] == b_index[q]:
            difference = a_value[p] - b_value[q]
            total += difference * difference
            p += 1
            q += 1
        elif a_index[p] > b_index[q]:
            total += b_value[q] * b_value[q]
            q += 1
        else:
            total += a_value[p] * a_value[p]
            p += 1
    while p < a_n:
        total += a_value[p] * a_value[p]
        p += 1
    while q < b_n:
        total += b_value[q] * b_value[q]
        q += 1
    return total


cdef double kernel_value(const KernelParams* params,
                         const int* a_index, const double* a_value, Py_ssize_t a_n,
                         const int* b_index, const double* b_value,
                         Py_ssize_t b_n) noexcept nogil:
    cdef int kind = params.kernel_type
    if kind == RBF:
        return exp(-params.gamma * sparse_squared_distance(a_index, a_value, a_n,
                                                           b_index, b_value, b_n))
    cdef double dot = sparse_dot(a_index, a_value, a_n, b_index, b_value, b_n)
    if kind == POLY:
        return power_int(params.gamma * dot + params.coef0, params.degree)
    if kind == SIGMOID:
        return tanh(params.gamma * dot + params.coef0)
    return dot  # LINEAR


cdef void sparse_kernel_row(const KernelParams* params, Py_ssize_t i,
                            const int[::1] x_indptr, const int[::1] x_indices,
                            const double[::1] x_data,
                            const int[::1] s_indptr, const int[::1] s_indices,
                            const double[::1] s_data, double* out) noexcept nogil:
    """K(x_i, sv_k) for every support vector k, as LIBSVM's k_function."""
    cdef Py_ssize_t k, x_start = x_indptr[i], s_start
    cdef Py_ssize_t x_n = x_indptr[i + 1] - x_start
    cdef const int* x_index = &x_indices[x_start] if x_n > 0 else NULL
    cdef const double* x_value = &x_data[x_start] if x_n > 0 else NULL
    for k in range(s_indptr.shape[0] - 1):
        s_start = s_indptr[k]
        out[k] = kernel_value(
            params, x_index, x_value, x_n,
            &s_indices[s_start] if s_indptr[k + 1] > s_start else NULL,
            &s_data[s_start] if s_indptr[k + 1] > s_start else NULL,
            s_indptr[k + 1] - s_start)


cdef void pair_sums(const double* kvalue, const double[:, ::1] coef,
                    const Py_ssize_t[::1] starts, const double[::1] rho,
                    double* out) noexcept nogil:
    """svm_predict_values' one-vs-one sums: class i's block, then class j's, minus rho."""
    cdef Py_ssize_t n_classes = starts.shape[0] - 1, i, j, k, p = 0
    cdef double total
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            total = 0.0
            for k in range(starts[i], starts[i + 1]):
                total += coef[j - 1, k] * kvalue[k]
            for k in range(starts[j], starts[j + 1]):
                total += coef[i, k] * kvalue[k]
            out[p] = total - rho[p]
            p += 1


def _sorted_csr(M, name):
    if not sp.issparse(M):
        M = sp.csr_matrix(np.asarray(M, dtype=np.float64))
    M = sp.csr_matrix(M, dtype=np.float64)
    if not M.has_sorted_indices:
        M = M.sorted_indices()
    if M.indices.dtype != np.intc:
        if M.nnz and M.indices.max() > np.iinfo(np.intc).max:
            raise ValueError(f"{name} has more columns than 32-bit indices address")
        M = sp.csr_matrix((M.data, M.indices.astype(np.intc), M.indptr.astype(np.intc)),
                          shape=M.shape)
    return M


def libsvm_decision_values(X, support_vectors, coef, double rho, kernel, int n_threads=1):
    """``sum_k coef[k] K(x, sv_k) - rho`` for each row x, exactly as LIBSVM computes it.

    For one decision function (a binary pair, a regression, a one-class model),
    with the support vectors in the model's order. Rows are read as LIBSVM's
    sparse nodes (a dense input is taken without its zeros, as LIBSVM's Python
    binding does). ``kernel`` has ``kernel_type``, ``degree``, ``gamma`` and
    ``coef0`` (a ``svmx._specs.KernelSpec``); with a precomputed kernel, ``X``
    holds the kernel values against the training samples and
    ``support_vectors`` the support vectors' indices among them.

    Examples
    --------
    >>> import numpy as np
    >>> from svmx._specs import KernelSpec
    >>> libsvm_decision_values(np.array([[1.0, 2.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]),
    ...                        np.array([0.5, -0.5]), 0.25, KernelSpec.named("linear")).tolist()
    [-0.75]
    """
    coef = np.asarray(coef, dtype=np.float64)
    if coef.ndim != 1:
        raise ValueError(f"coef must be 1-D, got shape {coef.shape}")
    # One class holding every support vector: the pair sum is the plain sequential sum.
    return libsvm_ovo_values(X, support_vectors, coef[np.newaxis, :],
                             np.array([coef.shape[0], 0]), np.array([rho]), kernel,
                             n_threads)[:, 0]


def libsvm_ovo_values(X, support_vectors, dual_coef, n_support, rho, kernel,
                      int n_threads=1):
    """One-vs-one decision values (n_rows, k (k - 1) / 2) exactly as LIBSVM computes them.

    ``dual_coef`` (k - 1, n_SV), ``n_support`` (k,) and ``rho`` are in LIBSVM's
    layout and class order (as in its model file); pair (i, j) adds class i's
    support vectors' terms, then class j's, and subtracts its rho. ``kernel``
    as in `libsvm_decision_values`. Sparse rows are shared among ``n_threads``
    threads; each row is computed alone, so the values do not depend on it.

    Examples
    --------
    >>> import numpy as np
    >>> from svmx._specs import KernelSpec
    >>> libsvm_ovo_values(np.array([[1.0, 2.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]),
    ...                   np.array([[0.5, -0.5]]), np.array([1, 1]), np.array([0.25]),
    ...                   KernelSpec.named("linear")).tolist()
    [[-0.75]]
    """
    cdef KernelParams params = kernel_params_of(kernel)
    cdef int kernel_type = params.kernel_type
    cdef const double[:, ::1] coef = np.ascontiguousarray(dual_coef, dtype=np.float64)
    cdef const double[::1] rho_view = np.ascontiguousarray(rho, dtype=np.float64)
    counts = np.asarray(n_support, dtype=np.intp)
    cdef const Py_ssize_t[::1] starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    cdef Py_ssize_t n_classes = counts.shape[0], n_sv = coef.shape[1], i, k
    if coef.shape[0] != max(n_classes - 1, 1) or starts[n_classes] != n_sv:
        raise ValueError("dual_coef and n_support do not describe the same support vectors")
    if rho_view.shape[0] != n_classes * (n_classes - 1) // 2:
        raise ValueError(f"one rho per pair is needed ({n_classes * (n_classes - 1) // 2})")
    n_threads = max(1, n_threads)
    kvalue = np.empty((n_threads, n_sv + 1), dtype=np.float64)
    cdef double[:, ::1] kvalue_view = kvalue
    cdef int thread
    cdef double[:, ::1] out
    cdef const double[:, :] gram
    cdef const Py_ssize_t[::1] columns
    if kernel_type == PRECOMPUTED:
        gram = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64)
        columns = np.ascontiguousarray(support_vectors, dtype=np.intp)
        if columns.shape[0] != n_sv or (n_sv and (np.min(columns) < 0
                                                  or np.max(columns) >= gram.shape[1])):
            raise ValueError("support-vector indices must address columns of X, one each")
        out = np.empty((gram.shape[0], rho_view.shape[0]), dtype=np.float64)
        if out.shape[1] == 0:
            return np.asarray(out)
        with nogil:
            for i in range(gram.shape[0]):
                for k in range(n_sv):
                    kvalue_view[0, k] = gram[i, columns[k]]
                pair_sums(&kvalue_view[0, 0], coef, starts, rho_view, &out[i, 0])
        return np.asarray(out)
    if kernel_type not in (LINEAR, POLY, RBF, SIGMOID):
        raise ValueError(f"kernel_type must be 0 to 4, got {kernel_type}")
    rows = _sorted_csr(X, "X")
    vectors = _sorted_csr(support_vectors, "support_vectors")
    if vectors.shape[0] != n_sv:
        raise ValueError(f"{vectors.shape[0]} support vectors but {n_sv} coefficients")
    cdef const int[::1] x_indptr = rows.indptr.astype(np.intc, copy=False)
    cdef const int[::1] x_indices = rows.indices
    cdef const double[::1] x_data = rows.data
    cdef const int[::1] s_indptr = vectors.indptr.astype(np.intc, copy=False)
    cdef const int[::1] s_indices = vectors.indices
    cdef const double[::1] s_data = vectors.data
    cdef Py_ssize_t n_rows = rows.shape[0]
    out = np.empty((n_rows, rho_view.shape[0]), dtype=np.float64)
    if out.shape[1] == 0:
        return np.asarray(out)
    with nogil:
        for i in prange(n_rows, schedule="dynamic", chunksize=16, num_threads=n_threads):
            thread = threadid()
            sparse_kernel_row(&params, i, x_indptr, x_indices, x_data, s_indptr, s_indices,
                              s_data, &kvalue_view[thread, 0])
            pair_sums(&kvalue_view[thread, 0], coef, starts, rho_view, &out[i, 0])
    return np.asarray(out)


# This module's vectorised loops run at the instruction-set level fixed here, at
# import, when every module of svmx reads SVMX_ISA (isa.pxd): later changes to the
# variable change nothing, so all of svmx runs at the level show_config() reports.
_ISA_LEVEL = isa_level()
