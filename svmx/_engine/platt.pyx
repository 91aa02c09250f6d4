# cython: language_level=3, cdivision=True
"""Probability outputs: Platt's sigmoid and pairwise coupling.

The C-level functions (declared in ``platt.pxd``) are what the rest of the engine uses; the
``def`` functions below are thin wrappers over them for testing and for the binding.

Binary problems map a decision value ``f`` to ``P(y=1 | f) = 1 / (1 + exp(A f + B))``, with
``A`` and ``B`` fitted by Newton's method as in Lin, Lin & Weng (2007). With ``k`` classes the
``k(k-1)/2`` pairwise probabilities are coupled into one distribution by the second method of
Wu, Lin & Weng (2004).

References
----------
.. [1] J. Platt, "Probabilistic outputs for support vector machines and comparisons to
   regularized likelihood methods", Advances in Large Margin Classifiers, 1999.
.. [2] H.-T. Lin, C.-J. Lin and R. C. Weng, "A note on Platt's probabilistic outputs for support
   vector machines", Machine Learning 68, 2007.
.. [3] T.-F. Wu, C.-J. Lin and R. C. Weng, "Probability estimates for multi-class classification
   by pairwise coupling", JMLR 5, 2004.
"""

import numpy as np

from libc.math cimport exp, fabs, log
from libc.string cimport memcpy

__all__ = ["MIN_PROB", "pairwise_coupling", "sigmoid_predict_py", "sigmoid_train_py"]

# Newton's method for the sigmoid (the settings of Lin, Lin & Weng 2007).
cdef int SIGMOID_MAX_ITER = 100
cdef double SIGMOID_MIN_STEP = 1e-10
cdef double SIGMOID_HESSIAN_RIDGE = 1e-12
cdef double SIGMOID_GRADIENT_TOL = 1e-5
cdef double ARMIJO_FRACTION = 1e-4

# Pairwise probabilities are kept away from 0 and 1 so that coupling never sees a zero row.
cdef double _MIN_PROB = 1e-7
MIN_PROB = _MIN_PROB


# --------------------------------------------------------------------------------------------
# Platt's sigmoid
# --------------------------------------------------------------------------------------------

cdef double _loss_and_derivatives(Py_ssize_t n, const double* dec_values,
                                  const double* labels, double hi_target, double lo_target,
                                  double A, double B, double* derivatives) noexcept nogil:
    """The loss at (A, B), and into `derivatives` its gradient and Hessian there
    (g1, g2, h11, h22, h21), in one pass: each sample's exp serves both.

    The loss of a sample is -t log(p) - (1 - t) log(1 - p) with p = 1 / (1 + exp(fApB)),
    written so that exp only ever sees a non-positive argument; log(1 + e), not
    log1p(e), and p and q from e by LIBSVM's divisions: LIBSVM's arithmetic, so that the
    Newton steps and the line search are LIBSVM's to the last bit (each sum in its own
    accumulator, in the samples' order, as two passes would add them). The ridge keeps
    the Hessian invertible when all decision values are equal.
    """
    cdef Py_ssize_t i
    cdef double total = 0.0, target, fApB, e, p, q, d1, d2
    cdef double h11 = SIGMOID_HESSIAN_RIDGE, h22 = SIGMOID_HESSIAN_RIDGE, h21 = 0.0
    cdef double g1 = 0.0, g2 = 0.0
    for i in range(n):
        target = hi_target if labels[i] > 0.0 else lo_target
        fApB = dec_values[i] * A + B
        if fApB >= 0.0:
            e = exp(-fApB)
            total += target * fApB + log(1.0 + e)
            p = e / (1.0 + e)
            q = 1.0 / (1.0 + e)
        else:
            e = exp(fApB)
            total += (target - 1.0) * fApB + log(1.0 + e)
            p = 1.0 / (1.0 + e)
            q = e / (1.0 + e)
        d2 = p * q
        h11 += dec_values[i] * dec_values[i] * d2
        h22 += d2
        h21 += dec_values[i] * d2
        d1 = target - p
        g1 += dec_values[i] * d1
        g2 += d1
    derivatives[0], derivatives[1] = g1, g2
    derivatives[2], derivatives[3], derivatives[4] = h11, h22, h21
    return total


cdef int sigmoid_train(Py_ssize_t n, const double* dec_values, const double* labels,
                       double* A, double* B) noexcept nogil:
    """Fit ``P(y=1 | f) = 1 / (1 + exp(A f + B))`` to decision values ``f``.

    Minimises the cross-entropy against Platt's smoothed targets, ``(N+ + 1) / (N+ + 2)`` for
    positives (``labels > 0``) and ``1 / (N- + 2)`` for the rest, by Newton's method with a
    backtracking (Armijo) line search. Writes the result to ``A`` and ``B`` and returns
    ``PLATT_OK``, ``PLATT_NOT_CONVERGED`` when the iteration cap is reached or
    ``PLATT_LINE_SEARCH_FAILED`` when the line search cannot find a decrease (``A`` and ``B``
    then hold the last accepted iterate).

    Each point the line search tries gets its loss, gradient and Hessian in one pass
    (`_loss_and_derivatives`): the accepted one's are the next Newton step's, where a
    pass for the gradient and another for the loss computed each sample's exp twice
    (pendigits' 45 pairs: 17 ms of a probability fit).
    """
    cdef Py_ssize_t i
    cdef Py_ssize_t n_pos = 0
    cdef int _iteration
    cdef int status = PLATT_NOT_CONVERGED
    cdef double hi_target, lo_target
    cdef double a, b, loss, new_a, new_b, new_loss
    cdef double det, dA, dB, slope, step
    cdef double now[5]    # g1, g2, h11, h22, h21 at (a, b)
    cdef double tried[5]  # the same at the point the line search tries

    for i in range(n):
        if labels[i] > 0.0:
            n_pos += 1
    hi_target = (n_pos + 1.0) / (n_pos + 2.0)
    lo_target = 1.0 / (n - n_pos + 2.0)

    a = 0.0
    b = log((n - n_pos + 1.0) / (n_pos + 1.0))
    loss = _loss_and_derivatives(n, dec_values, labels, hi_target, lo_target, a, b, now)

    for _iteration in range(SIGMOID_MAX_ITER):
        if fabs(now[0]) < SIGMOID_GRADIENT_TOL and fabs(now[1]) < SIGMOID_GRADIENT_TOL:
            status = PLATT_OK
            break

        # Newton direction -H^{-1} g and its directional derivative.
        det = now[2] * now[3] - now[4] * now[4]
        dA = -(now[3] * now[0] - now[4] * now[1]) / det
        dB = -(-now[4] * now[0] + now[2] * now[1]) / det
        slope = now[0] * dA + now[1] * dB

        step = 1.0
        while step >= SIGMOID_MIN_STEP:
            new_a = a + step * dA
            new_b = b + step * dB
            new_loss = _loss_and_derivatives(n, dec_values, labels, hi_target, lo_target,
                                             new_a, new_b, tried)
            if new_loss < loss + ARMIJO_FRACTION * step * slope:
                a = new_a
                b = new_b
                loss = new_loss
                memcpy(now, tried, 5 * sizeof(double))
                break
            step *= 0.5
        if step < SIGMOID_MIN_STEP:
            status = PLATT_LINE_SEARCH_FAILED
            break

    A[0] = a
    B[0] = b
    return status


cdef double sigmoid_predict(double dec_value, double A, double B) noexcept nogil:
    """``1 / (1 + exp(A f + B))``, evaluated without overflow for any ``f``."""
    cdef double fApB = dec_value * A + B
    cdef double e
    if fApB >= 0.0:
        e = exp(-fApB)
        return e / (1.0 + e)
    return 1.0 / (1.0 + exp(fApB))


cdef double clip_probability(double probability) noexcept nogil:
    """Clip a pairwise probability to ``[MIN_PROB, 1 - MIN_PROB]`` (as LIBSVM does)."""
    if probability < _MIN_PROB:
        return _MIN_PROB
    if probability > 1.0 - _MIN_PROB:
        return 1.0 - _MIN_PROB
    return probability


# --------------------------------------------------------------------------------------------
# Pairwise coupling
# --------------------------------------------------------------------------------------------

cdef int multiclass_probability(int k, const double* r, double* p,
                                double* Q, double* Qp) noexcept nogil:
    """Couple pairwise probabilities into class probabilities (Wu, Lin & Weng 2004, method 2).

    Solves ``min_p 1/2 p^T Q p`` subject to ``sum(p) = 1``, where
    ``Q_tt = sum_{j != t} r_jt^2`` and ``Q_tj = -r_jt r_tj``, by the fixed-point iteration that
    moves one ``p_t`` at a time to satisfy the optimality condition ``(Q p)_t = p^T Q p`` and then
    renormalises ``p``.

    ``r`` is ``k*k`` row-major with ``r[i*k + j] = P(y=i | y in {i, j}, x)``; the diagonal is not
    read and ``r_ij + r_ji = 1`` is assumed. ``Q`` (``k*k``) and ``Qp`` (``k``) are workspaces.
    For ``k == 2`` the answer is ``[r_01, 1 - r_01]`` and is returned directly. Returns
    ``PLATT_OK``, or ``PLATT_NOT_CONVERGED`` after ``max(100, k)`` sweeps.
    """
    cdef int t, j, _iteration
    cdef int max_iter = 100 if k < 100 else k
    cdef double tol = 0.005 / k
    cdef double pQp, error, max_error, diff, scale

    if k <= 1:
        if k == 1:
            p[0] = 1.0
        return PLATT_OK
    if k == 2:
        p[0] = r[1]
        p[1] = 1.0 - r[1]
        return PLATT_OK

    for t in range(k):
        p[t] = 1.0 / k
        Q[t * k + t] = 0.0
        for j in range(k):
            if j != t:
                Q[t * k + t] += r[j * k + t] * r[j * k + t]
                Q[t * k + j] = -r[j * k + t] * r[t * k + j]

    for _iteration in range(max_iter):
        pQp = 0.0
        for t in range(k):
            Qp[t] = 0.0
            for j in range(k):
                Qp[t] += Q[t * k + j] * p[j]
            pQp += p[t] * Qp[t]
        max_error = 0.0
        for t in range(k):
            error = fabs(Qp[t] - pQp)
            if error > max_error:
                max_error = error
        if max_error < tol:
            return PLATT_OK

        for t in range(k):
            # Move p_t so that (Q p)_t = p^T Q p, then divide p by its new sum 1 + diff,
            # updating Q p and p^T Q p in place rather than recomputing them.
            diff = (pQp - Qp[t]) / Q[t * k + t]
            p[t] += diff
            scale = 1.0 + diff
            pQp = (pQp + diff * (diff * Q[t * k + t] + 2.0 * Qp[t])) / scale / scale
            for j in range(k):
                Qp[j] = (Qp[j] + diff * Q[t * k + j]) / scale
                p[j] /= scale
    return PLATT_NOT_CONVERGED


# --------------------------------------------------------------------------------------------
# Python wrappers
# --------------------------------------------------------------------------------------------

def _as_finite_vector(values, name):
    array = np.ascontiguousarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinity")
    return array


def sigmoid_train_py(dec_values, labels):
    """Fit Platt's sigmoid ``P(y=1 | f) = 1 / (1 + exp(A f + B))``.

    Parameters
    ----------
    dec_values : array-like of shape (n_samples,)
        Decision values, ideally from cross-validation.
    labels : array-like of shape (n_samples,)
        Positive values mark the positive class; zero and negative values the other.

    Returns
    -------
    A : float
        Slope of the sigmoid (negative when larger decision values mean ``y = 1``).
    B : float
        Offset of the sigmoid.
    status : int
        0 when the gradient fell below 1e-5; 1 when the iteration cap was reached; 2 when the
        line search failed (``A`` and ``B`` are then the last accepted iterate). The caller
        decides whether to warn.

    Examples
    --------
    >>> A, B, status = sigmoid_train_py([-2.0, -1.0, 1.0, 2.0], [-1, 1, -1, 1])
    >>> status, round(B, 6)
    (0, 0.0)
    >>> bool(A < 0)
    True
    """
    cdef const double[::1] dec_view = _as_finite_vector(dec_values, "dec_values")
    cdef const double[::1] label_view = _as_finite_vector(labels, "labels")
    cdef Py_ssize_t n = dec_view.shape[0]
    cdef double A = 0.0
    cdef double B = 0.0
    cdef int status
    if label_view.shape[0] != n:
        raise ValueError(
            f"dec_values and labels have different lengths ({n} and {label_view.shape[0]})"
        )
    if n == 0:
        raise ValueError("at least one decision value is needed")
    with nogil:
        status = sigmoid_train(n, &dec_view[0], &label_view[0], &A, &B)
    return A, B, status


def sigmoid_predict_py(dec_values, double A, double B):
    """Evaluate Platt's sigmoid ``1 / (1 + exp(A f + B))`` elementwise, without overflow.

    Parameters
    ----------
    dec_values : array-like of any shape
        Decision values ``f``.
    A, B : float
        Sigmoid parameters, as returned by :func:`sigmoid_train_py`.

    Returns
    -------
    probabilities : ndarray of the shape of ``dec_values``
        ``P(y=1 | f)``.

    Examples
    --------
    >>> sigmoid_predict_py([-1e6, 0.0, 1e6], -1.0, 0.0).tolist()
    [0.0, 0.5, 1.0]
    """
    values = np.asarray(dec_values, dtype=np.float64)
    cdef const double[::1] flat = np.ascontiguousarray(values).reshape(-1)
    out = np.empty(flat.shape[0], dtype=np.float64)
    cdef double[::1] out_view = out
    cdef Py_ssize_t i
    with nogil:
        for i in range(flat.shape[0]):
            out_view[i] = sigmoid_predict(flat[i], A, B)
    return out.reshape(values.shape)


def pairwise_coupling(R, *, return_status=False):
    """Combine pairwise class probabilities into one distribution per sample.

    Uses the second method of Wu, Lin & Weng (2004), as LIBSVM does: each ``R[i, j]`` with
    ``i < j`` is first clipped to ``[MIN_PROB, 1 - MIN_PROB]``, and ``R[j, i]`` is taken to be
    ``1 - R[i, j]``.

    Parameters
    ----------
    R : array-like of shape (n_samples, k, k) or (k, k)
        ``R[s, i, j] = P(y = i | y in {i, j}, x_s)``. Only the strict upper triangle is read.
    return_status : bool, default=False
        Also return the per-sample status (0 converged, 1 iteration cap reached).

    Returns
    -------
    P : ndarray of shape (n_samples, k), or (k,) for a single (k, k) matrix
        Class probabilities; each row is non-negative and sums to 1.
    status : ndarray of shape (n_samples,) of int, or int
        Only when ``return_status`` is true.

    Examples
    --------
    >>> p = np.array([0.5, 0.3, 0.2])
    >>> R = p[:, None] / (p[:, None] + p[None, :])
    >>> np.round(pairwise_coupling(R), 2).tolist()
    [0.5, 0.3, 0.2]
    >>> pairwise_coupling([[0.0, 0.75], [0.25, 0.0]]).tolist()
    [0.75, 0.25]
    """
    pairwise = np.asarray(R, dtype=np.float64)
    single = pairwise.ndim == 2
    if single:
        pairwise = pairwise[np.newaxis]
    if pairwise.ndim != 3 or pairwise.shape[1] != pairwise.shape[2] or pairwise.shape[1] < 1:
        raise ValueError(
            f"R must have shape (n_samples, k, k) or (k, k) with k >= 1, got {np.shape(R)}"
        )
    k = pairwise.shape[1]
    rows, cols = np.triu_indices(k, 1)
    if not np.all(np.isfinite(pairwise[:, rows, cols])):
        raise ValueError("R contains NaN or infinity above the diagonal")

    cdef const double[:, :, ::1] pairwise_view = np.ascontiguousarray(pairwise)
    cdef Py_ssize_t n_samples = pairwise_view.shape[0]
    cdef int n_classes = k
    probabilities = np.empty((n_samples, n_classes), dtype=np.float64)
    statuses = np.empty(n_samples, dtype=np.intc)
    cdef double[:, ::1] p_view = probabilities
    cdef int[::1] status_view = statuses
    # Workspaces shared by all rows: the clipped pairwise matrix, Q and Q p.
    cdef double[::1] r = np.zeros(n_classes * n_classes, dtype=np.float64)
    cdef double[::1] Q = np.empty(n_classes * n_classes, dtype=np.float64)
    cdef double[::1] Qp = np.empty(n_classes, dtype=np.float64)
    cdef Py_ssize_t s
    cdef int i, j
    cdef double r_ij
    with nogil:
        for s in range(n_samples):
            for i in range(n_classes):
                for j in range(i + 1, n_classes):
                    r_ij = clip_probability(pairwise_view[s, i, j])
                    r[i * n_classes + j] = r_ij
                    r[j * n_classes + i] = 1.0 - r_ij
            status_view[s] = multiclass_probability(
                n_classes, &r[0], &p_view[s, 0], &Q[0], &Qp[0]
            )

    if single:
        probabilities = probabilities[0]
        statuses = int(statuses[0])
    if return_status:
        return probabilities, statuses
    return probabilities
