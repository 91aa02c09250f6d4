"""The engine's public constructors refuse what would make a solve read out of bounds,
hang or crash (found by a user walk of the Cython API): None, inconsistent labels, a CSR
structure out of range, unknown kernels, invalid cache sizes and block sizes."""

import numpy as np
import pytest

from svmx._engine.cache import KernelCache
from svmx._engine.kernel import Kernel
from svmx._engine.qmatrix import OneClassQ, SvcQ, SvrQ
from svmx._engine.rows import CsrRows, DenseRows, DenseRows32, TiledRows


def _kernel(n_rows=3, kernel_type=2, degree=3):
    return Kernel(DenseRows(np.eye(n_rows)), kernel_type, degree, 1.0, 0.0)


@pytest.mark.parametrize("make", [
    lambda: SvcQ(None, np.ones(2, np.int8), 1e6),
    lambda: OneClassQ(None, 1e6),
    lambda: SvrQ(None, 1e6),
    lambda: TiledRows(None, 2),
    lambda: Kernel(None, 2, 3, 1.0, 0.0),
    lambda: DenseRows(None),
    lambda: DenseRows32(None),
])
def test_none_is_a_type_error_not_a_crash(make):
    with pytest.raises(TypeError):
        make()


@pytest.mark.parametrize(("make", "message"), [
    (lambda: CsrRows(np.array([1.0, 2.0]), np.array([0, 10**8], np.int32),
                     np.array([0, 1, 2], np.int64), 3), r"indices\[1\] = 100000000"),
    (lambda: CsrRows(np.array([1.0, 2.0]), np.array([0, -1], np.int32),
                     np.array([0, 1, 2], np.int64), 3), r"indices\[1\] = -1"),
    (lambda: CsrRows(np.array([1.0, 2.0]), np.array([0, 1], np.int32),
                     np.array([0, 1, 3], np.int64), 3), "indptr must run from 0"),
    (lambda: CsrRows(np.array([1.0, 2.0]), np.array([0, 1], np.int32),
                     np.array([0, 2, 1, 2], np.int64), 3), "non-decreasing"),
    (lambda: CsrRows(np.array([1.0, 2.0]), np.array([0], np.int32),
                     np.array([0, 2], np.int64), 3), "indices has 1 entries"),
    (lambda: _kernel(kernel_type=7), "kernel_type must be"),
    (lambda: _kernel(kernel_type=1, degree=-2), "degree must be non-negative"),
    (lambda: SvcQ(_kernel(), np.ones(5, np.int8), 1e6), "y has 5 labels but the kernel has 3"),
    (lambda: SvcQ(_kernel(), np.array([0, 1, 1], np.int8), 1e6), r"labels \+1 and -1"),
    (lambda: Kernel(DenseRows(np.ones((5, 1))), 4, 3, 0.5, 0.0), "PRECOMPUTED kernel's rows"),
    (lambda: KernelCache(-1, 1e6), "l must be non-negative"),
    (lambda: KernelCache(5, float("nan")), "size_bytes must be a finite"),
    (lambda: KernelCache(5, -1.0), "size_bytes must be a finite"),
])
def test_inconsistent_input_is_a_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_valid_input_is_still_taken():
    rows = CsrRows(np.array([1.0, 2.0]), np.array([0, 2], np.int32),
                   np.array([0, 1, 2], np.int64), 3)
    Q = SvcQ(Kernel(rows, 0, 3, 1.0, 0.0), np.array([1, -1], np.int8), 1e6)
    np.testing.assert_array_equal(Q.column(0), [1.0, 0.0])
