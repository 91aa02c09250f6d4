"""The Q matrices of the duals (svmx._engine.qmatrix) against numpy kernels.

SvcQ is y_i y_j K(x_i, x_j), OneClassQ is K, and SvrQ is the 2l x 2l matrix
[[K, -K], [-K, K]] built from l cached kernel columns. Columns are float32 (LIBSVM's Qfloat),
the diagonal QD is float64. Row storages and kernels come from engine_builders.py.
"""

import doctest

import numpy as np
import pytest
from engine_builders import KERNELS, LAYOUTS, make_kernel
from hypothesis import given, settings
from hypothesis import strategies as st

import svmx._engine.qmatrix as qmatrix_module
from svmx._engine.qmatrix import OneClassQ, SvcQ, SvrQ

FORMULATIONS = ("svc", "one_class", "svr")
BIG_CACHE = 1e7


def sample_data(seed, n_samples=7, n_features=4):
    """Rows on the scale of scaled data, with zeros so that CSR storage is genuinely sparse."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n_samples, n_features))
    X[rng.random(X.shape) < 0.3] = 0.0
    X[n_samples // 2] = 0.0  # one empty row
    return X


def sample_labels(seed, n_samples):
    labels = np.where(np.random.default_rng(seed + 1).random(n_samples) < 0.5, 1, -1)
    labels[:2] = (1, -1)  # both classes, so signs matter
    return labels.astype(np.int8)


def make_q(formulation, kernel, y, cache_bytes):
    """The Q matrix object of a formulation and its expected dense matrix from the Gram."""
    engine_kernel, gram = kernel
    if formulation == "svc":
        return SvcQ(engine_kernel, y, cache_bytes), np.outer(y, y) * gram
    if formulation == "one_class":
        return OneClassQ(engine_kernel, cache_bytes), gram
    signs = np.concatenate([np.ones(len(gram)), -np.ones(len(gram))])
    return SvrQ(engine_kernel, cache_bytes), np.outer(signs, signs) * np.tile(gram, (2, 2))


def tolerance(layout, expected):
    """Float32 entries: ~1e-6 relative to the matrix's scale (float32 sums for 'dense32')."""
    rtol = 2e-6 if layout == "dense32" else 1e-6
    return {"rtol": rtol, "atol": rtol * max(1.0, np.abs(expected).max())}


def full_matrix(Q, length=None):
    """All columns of Q (or their first `length` entries) as a dense float32 matrix."""
    return np.column_stack([Q.column(i, length) for i in range(Q.n_variables)])


# --- exact values on tiny problems --------------------------------------------------------------


def test_svc_linear_exact_values():
    X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    y = np.array([1, -1, 1], dtype=np.int8)
    Q, _ = make_q("svc", make_kernel(X, "dense64", "linear"), y, BIG_CACHE)
    np.testing.assert_array_equal(
        full_matrix(Q), [[1.0, 0.0, 1.0], [0.0, 4.0, -2.0], [1.0, -2.0, 2.0]]
    )
    np.testing.assert_array_equal(Q.diagonal(), [1.0, 4.0, 2.0])


def test_poly_kernel_exact_values_over_csr():
    X = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 1.0]])
    engine_kernel, _ = make_kernel(X, "csr", "poly", degree=2, gamma=1.0, coef0=1.0)
    Q = OneClassQ(engine_kernel, BIG_CACHE)
    # (x_i . x_j + 1)^2 with dot products [[5, 0, 2], [0, 0, 0], [2, 0, 10]]
    np.testing.assert_array_equal(full_matrix(Q), [[36, 1, 9], [1, 1, 1], [9, 1, 121]])
    np.testing.assert_array_equal(Q.diagonal(), [36.0, 1.0, 121.0])


def test_svr_exact_block_structure():
    X = np.array([[1.0, 2.0], [3.0, 0.0]])
    Q, _ = make_q("svr", make_kernel(X, "dense32", "linear"), None, BIG_CACHE)
    assert Q.n_variables == 4
    np.testing.assert_array_equal(
        full_matrix(Q),
        [[5, 3, -5, -3], [3, 9, -3, -9], [-5, -3, 5, 3], [-3, -9, 3, 9]],
    )
    np.testing.assert_array_equal(Q.diagonal(), [5.0, 9.0, 5.0, 9.0])
    # Only the l real columns are cached.
    assert Q.cache.n_columns == 2


@pytest.mark.parametrize("layout", LAYOUTS)
def test_rbf_diagonal_of_integer_data_is_exactly_one(layout):
    X = np.array([[1.0, -2.0, 3.0], [0.0, 0.0, 0.0], [4.0, 0.0, -1.0]])
    for formulation in FORMULATIONS:
        y = np.array([1, -1, -1], dtype=np.int8)
        Q, _ = make_q(formulation, make_kernel(X, layout, "rbf"), y, BIG_CACHE)
        np.testing.assert_array_equal(Q.diagonal(), np.ones(Q.n_variables))


@pytest.mark.parametrize("layout_name", ["dense64", "csr"])  # float32 rows cannot hold 1 + 2^-30
def test_diagonal_is_not_rounded_to_float32(layout_name):
    X = np.array([[1.0 + 2.0**-30], [0.5]])
    Q, _ = make_q("one_class", make_kernel(X, layout_name, "linear"), None, BIG_CACHE)
    assert Q.diagonal()[0] == 1.0 + 2.0**-29  # (1 + 2^-30)^2 in float64; float32 gives 1.0
    assert Q.column(0)[0] == np.float32(1.0)


# --- every formulation, kernel and row storage against numpy ------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kernel_name", KERNELS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_columns_and_diagonal_match_numpy(formulation, kernel_name, layout):
    X = sample_data(seed=3)
    y = sample_labels(3, len(X))
    Q, expected = make_q(formulation, make_kernel(X, layout, kernel_name), y, BIG_CACHE)
    assert Q.n_variables == len(expected)
    columns = full_matrix(Q)
    assert columns.dtype == np.float32
    np.testing.assert_allclose(columns, expected, **tolerance(layout, expected))
    diagonal = Q.diagonal()
    assert diagonal.dtype == np.float64
    np.testing.assert_allclose(diagonal, np.diag(expected), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("layout_name", LAYOUTS)
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_wide_rows_span_several_blas_blocks(layout_name, kernel):
    # Dense columns are computed in blocks of 8192 // n_features rows (27 here).
    X = sample_data(seed=5, n_samples=70, n_features=300)
    Q, expected = make_q(
        "one_class", make_kernel(X, layout_name, kernel, gamma=0.01), None, BIG_CACHE
    )
    tol = tolerance(layout_name, expected)
    for i in (0, 30, 69):
        # A cached prefix that ends inside a block, then the rest from there.
        np.testing.assert_allclose(Q.column(i, 40), expected[:40, i], **tol)
        np.testing.assert_allclose(Q.column(i), expected[:, i], **tol)


@pytest.mark.parametrize("n_features", range(1, 11))
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_narrow_dense_rows_each_width(n_features, kernel):
    # Up to 8 features a dense column has its own loop per width (svmx_narrow_dots),
    # wider rows go to BLAS; a column started at a row other than 0 reads the right rows.
    X = sample_data(seed=n_features, n_samples=45, n_features=n_features)
    Q, expected = make_q("one_class", make_kernel(X, "dense64", kernel, gamma=0.3), None,
                         BIG_CACHE)
    tol = tolerance("dense64", expected)
    for i in (0, 17, 44):
        np.testing.assert_allclose(Q.column(i, 20), expected[:20, i], **tol)
        np.testing.assert_allclose(Q.column(i), expected[:, i], **tol)


def assert_columns_through_swaps(Q, rng, at, signs, values):
    """Swap Q's variables at random (and `at` and `signs` with them) three times over;
    after each round every column, at a random length, is float32(signs[i] signs[t]
    values[at[i], at[t]]) to the bit, zeros' signs included."""
    n = at.size
    for _ in range(3):
        for _ in range(n):
            a, b = rng.integers(0, n, size=2)
            Q.swap(a, b)
            at[[a, b]], signs[[a, b]] = at[[b, a]], signs[[b, a]]
        for i in range(n):
            length = int(rng.integers(0, n + 1))
            want = (signs[i] * signs * values[at[i], at])[:length].astype(np.float32)
            got = Q.column(i, length)
            assert got.dtype == np.float32
            np.testing.assert_array_equal(got.view(np.int32), want.view(np.int32))


@pytest.mark.parametrize("n_samples", [4, 13, 37])
def test_svr_columns_are_the_kernel_columns_signed_to_the_bit(n_samples):
    # SvrQ builds each column from a cached kernel column by gathering it in the 2l
    # variables' order and flipping signs (8 or 16 lanes at once on AVX2 and AVX-512):
    # every entry is +-float32(K), bit for bit, zeros' signs included, after any swaps
    # and for any length (the lanes' remainders too).
    X = sample_data(seed=n_samples, n_samples=n_samples, n_features=5)  # a row of zeros:
    # its linear kernel values are 0.0, and -0.0 where signs differ
    Q, expected = make_q("svr", make_kernel(X, "dense64", "linear"), None, BIG_CACHE)
    kernel32 = np.column_stack([Q.column(i)[:n_samples] for i in range(n_samples)])
    signs = np.concatenate([np.ones(n_samples), -np.ones(n_samples)]).astype(np.float32)
    rows = np.tile(np.arange(n_samples), 2)
    assert_columns_through_swaps(Q, np.random.default_rng(n_samples), rows, signs, kernel32)
    block = expected[:n_samples, :n_samples]
    np.testing.assert_allclose(kernel32, block, **tolerance("dense64", block))


@pytest.mark.parametrize("source", ["gram64", "gram32", "lazy"])
@pytest.mark.parametrize("n_samples", [1, 3, 4, 5, 7, 8, 9, 16, 17, 40])
def test_svc_columns_over_a_gram_matrix_are_its_values_signed_to_the_bit(source, n_samples):
    # Over a Gram matrix (GramRows, GramRows32, or a LazyGram's rows) SvcQ gathers each
    # column from the Gram row with the signs y_i y_t (4 to 16 lanes on AVX2 and
    # AVX-512): every entry is float32(+-gram[a, b]), bit for bit, zeros' signs
    # included, after any swaps and for any length. Positions pick a subset of the
    # Gram's samples.
    from svmx._engine.gram_rows import GramRows, GramRows32, LazyGram, LazyGramRows
    from svmx._engine.kernel import Kernel
    from svmx._engine.rows import DenseRows

    rng = np.random.default_rng(n_samples)
    X = sample_data(seed=n_samples, n_samples=n_samples + 3, n_features=5)
    X[0] = 0.0  # linear kernel values 0.0: -0.0 where the signs differ
    gram = (X @ X.T).astype(np.float32)
    positions = rng.permutation(n_samples + 3)[:n_samples]
    if source == "gram64":
        gram = X @ X.T + 1e-9 * rng.random((n_samples + 3, n_samples + 3))  # float32 rounds
        rows = GramRows(gram, positions)
    elif source == "gram32":
        rows = GramRows32(gram, positions)
    else:
        lazy = LazyGram(Kernel(DenseRows(X.copy()), 0, 3, 1.0, 0.0))
        gram = lazy.values_at(np.arange(n_samples + 3), np.arange(n_samples + 3))
        gram = gram.astype(np.float32)
        rows = LazyGramRows(lazy, positions)
    y = np.where(rng.random(n_samples) < 0.5, 1, -1).astype(np.int8)
    Q = SvcQ(Kernel(rows, 4, 0, 0.0, 0.0), y.copy(), BIG_CACHE)
    assert_columns_through_swaps(Q, rng, positions.copy(), y.astype(gram.dtype), gram)


def test_constructor_copies_the_labels():
    X = sample_data(seed=4)
    y = sample_labels(4, len(X))
    Q, expected = make_q("svc", make_kernel(X, "dense64", "linear"), y, BIG_CACHE)
    y[:] = 1
    Q.swap(0, 1)
    Q.swap(0, 1)
    np.testing.assert_allclose(full_matrix(Q), expected, **tolerance("dense64", expected))


# --- partial columns and a cache that must evict ------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_partial_columns_grow_to_the_right_values(formulation, layout):
    X = sample_data(seed=6, n_samples=9)
    y = sample_labels(6, len(X))
    Q, expected = make_q(formulation, make_kernel(X, layout, "rbf"), y, BIG_CACHE)
    tol = tolerance(layout, expected)
    n = Q.n_variables
    for length in (1, 4, 3, n - 1, n, 2):
        for i in (0, n // 2, n - 1):
            np.testing.assert_allclose(Q.column(i, length), expected[:length, i], **tol)
    assert Q.column(1, 0).shape == (0,)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_tiny_cache_evicts_and_still_gives_the_right_values(formulation, layout):
    X = sample_data(seed=7, n_samples=8)
    y = sample_labels(7, len(X))
    # Zero bytes: the floor of two full kernel columns.
    Q, expected = make_q(formulation, make_kernel(X, layout, "poly"), y, 0.0)
    tol = tolerance(layout, expected)
    n = Q.n_variables
    assert Q.cache.free_floats == 2 * len(X)
    for _sweep in range(2):
        for i in range(n):
            np.testing.assert_allclose(Q.column(i), expected[:, i], **tol)
            np.testing.assert_allclose(Q.column((i + 3) % n, 5), expected[:5, (i + 3) % n], **tol)
        assert len(Q.cache.lru_order()) <= 2
    # Every column was evicted at least once and recomputed correctly.
    np.testing.assert_allclose(full_matrix(Q), expected, **tol)


# --- swap_index ---------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kernel_name", KERNELS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_swap_gives_the_permuted_matrix(formulation, kernel_name, layout):
    X = sample_data(seed=8, n_samples=6)
    y = sample_labels(8, len(X))
    Q, expected = make_q(formulation, make_kernel(X, layout, kernel_name), y, BIG_CACHE)
    tol = tolerance(layout, expected)
    n = Q.n_variables
    Q.column(0)  # a full column, swapped in the cache
    Q.column(2, 3)  # a partial column covering the smaller index only: must be evicted
    permutation = np.arange(n)
    for i, j in ((1, n - 1), (0, 3), (n - 1, 2)):
        Q.swap(i, j)
        permutation[[i, j]] = permutation[[j, i]]
    permuted = expected[np.ix_(permutation, permutation)]
    np.testing.assert_allclose(full_matrix(Q), permuted, **tol)
    np.testing.assert_allclose(Q.diagonal(), np.diag(permuted), rtol=1e-13, atol=1e-15)


@st.composite
def q_scenarios(draw):
    n_samples = draw(st.integers(2, 7))
    n_variables = 2 * n_samples  # SVR's 2l; other formulations use the first n_samples
    index = st.integers(0, n_variables - 1)
    operation = st.one_of(
        st.tuples(st.just("column"), index, st.integers(0, n_variables)),
        st.tuples(st.just("swap"), index, index),
    )
    return {
        "seed": draw(st.integers(0, 2**16)),
        "n_samples": n_samples,
        "formulation": draw(st.sampled_from(FORMULATIONS)),
        "kernel": draw(st.sampled_from(KERNELS)),
        "layout": draw(st.sampled_from(LAYOUTS)),
        "cache_bytes": draw(st.sampled_from([0.0, 300.0, BIG_CACHE])),
        "operations": draw(st.lists(operation, max_size=25)),
    }


@settings(max_examples=120, deadline=None)
@given(q_scenarios())
def test_q_matrix_under_random_swaps_and_partial_columns(scenario):
    X = sample_data(scenario["seed"], n_samples=scenario["n_samples"], n_features=3)
    y = sample_labels(scenario["seed"], len(X))
    Q, expected = make_q(
        scenario["formulation"],
        make_kernel(X, scenario["layout"], scenario["kernel"]),
        y,
        scenario["cache_bytes"],
    )
    tol = tolerance(scenario["layout"], expected)
    n = Q.n_variables
    permutation = np.arange(n)
    for name, a, b in scenario["operations"]:
        a = a % n
        if name == "column":
            b = b % (n + 1)
            permuted = expected[np.ix_(permutation, permutation)]
            np.testing.assert_allclose(Q.column(a, b), permuted[:b, a], **tol)
        else:
            b = b % n
            Q.swap(a, b)
            permutation[[a, b]] = permutation[[b, a]]
        Q.cache.lru_order()  # raises if the cache's list is broken
    permuted = expected[np.ix_(permutation, permutation)]
    np.testing.assert_allclose(full_matrix(Q), permuted, **tol)
    np.testing.assert_allclose(Q.diagonal(), np.diag(permuted), rtol=1e-13, atol=1e-15)


# --- argument checks and docstring examples -----------------------------------------------------


def test_out_of_range_arguments_raise():
    X = sample_data(seed=9, n_samples=3)
    Q, _ = make_q("svr", make_kernel(X, "dense64", "linear"), None, BIG_CACHE)
    with pytest.raises(IndexError, match="column 6 is out of range for 6 variables"):
        Q.column(6)
    with pytest.raises(ValueError, match="length 7 is out of range"):
        Q.column(0, 7)
    with pytest.raises(IndexError, match=r"variables \(0, -1\) are out of range"):
        Q.swap(0, -1)


def test_docstring_examples_run():
    results = doctest.testmod(qmatrix_module, optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0
    assert results.failed == 0
