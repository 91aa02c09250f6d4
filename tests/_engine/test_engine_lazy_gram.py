"""The lazily computed Gram matrix (svmx._engine.gram_rows.LazyGram, LazyGramRows).

- a row is the kernel's column, rounded to float32, computed once and only when read;
  the diagonal is float64, as Q's;
- problems over subsets of the samples solved on it (``_libsvm.lazy_gram`` and
  ``train_one`` with the Gram kernel) are the solves on the subsets' own rows: the same
  iterations and solution;
- folds solved on one LazyGram from several threads give what they give one by one;
- bad positions raise IndexError.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import scipy.sparse as sp
from engine_builders import LAYOUTS, make_kernel, reference_gram

from svmx import _libsvm
from svmx._engine.gram_rows import LazyGram, LazyGramRows
from svmx._specs import KernelSpec, Problem, SolveSpec

SOLVE = SolveSpec("auto", 1e-3, 200.0 * 2**20, True, -1, 1)


def _data(seed=0, n=60, d=12):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, d))
    X[rng.random(X.shape) < 0.3] = 0.0
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.4, size=n) > 0, 1, -1)
    return X, y.astype(np.int8)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
def test_rows_are_the_kernels_columns_in_float32(layout, kernel):
    X, _ = _data()
    engine_kernel, _ = make_kernel(X, layout, kernel)
    gram = LazyGram(engine_kernel)
    expected = reference_gram(X, kernel)
    values = gram.values_at([3, 7], np.arange(X.shape[0]))
    np.testing.assert_allclose(values, expected[[3, 7]], rtol=1e-6, atol=1e-6)
    assert values.dtype == np.float64
    assert np.array_equal(values, values.astype(np.float32))  # stored as float32
    assert gram.rows_computed == 2  # nothing else was computed
    gram.values_at([7, 3], [0])
    assert gram.rows_computed == 2  # read again, not computed again


def test_bad_positions_raise():
    X, _ = _data(n=5)
    gram = LazyGram(make_kernel(X, "dense64", "rbf")[0])
    with pytest.raises(IndexError, match="row 5"):
        gram.values_at([5], [0])
    with pytest.raises(IndexError, match="column -1"):
        gram.values_at([0], [-1])
    for positions in ([0, 9], [-1, 2], [1, 5, 0], [4, 3, -2, 0]):
        with pytest.raises(IndexError, match=r"positions must lie in \[0, 5\)"):
            LazyGramRows(gram, positions)
    assert LazyGramRows(gram, [4, 0, 3]).n_rows == 3 and LazyGramRows(gram, []).n_rows == 0


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_a_subset_solved_on_it_is_the_solve_on_its_own_rows(sparse, kernel):
    X, y = _data(seed=1, n=120)
    matrix = sp.csr_matrix(X) if sparse else X
    spec = KernelSpec.named(kernel, degree=2, gamma=0.3, coef0=1.0)
    pair_rows = np.arange(10, 120)
    gram = _libsvm.lazy_gram(matrix, pair_rows, spec, "auto")
    rng = np.random.default_rng(2)
    for _ in range(3):
        subset = np.sort(rng.choice(pair_rows.size, size=80, replace=False))
        problem = Problem("c_svc", C=np.full(subset.size, 2.0), y=y[pair_rows[subset]])
        on_gram = _libsvm.train_one(gram, subset, problem, spec.as_gram(), SOLVE)
        on_rows = _libsvm.train_one(matrix, pair_rows[subset], problem, spec, SOLVE)
        assert on_gram.n_iter == on_rows.n_iter
        np.testing.assert_allclose(on_gram.coef, on_rows.coef, rtol=0, atol=1e-12)
        assert on_gram.rho == pytest.approx(on_rows.rho, abs=1e-12)
    assert gram.rows_computed < pair_rows.size  # only the rows the solves read


def test_folds_solved_side_by_side_give_what_they_give_one_by_one():
    X, y = _data(seed=3, n=400, d=16)
    spec = KernelSpec.named("rbf", gamma=0.1)
    folds = [np.flatnonzero(np.arange(400) % 5 != k) for k in range(5)]

    def solve_all(gram, threads):
        def one(train):
            problem = Problem("c_svc", C=np.ones(train.size), y=y[train])
            return _libsvm.train_one(gram, train, problem, spec.as_gram(), SOLVE)
        with ThreadPoolExecutor(threads) as pool:
            return list(pool.map(one, folds))

    alone = solve_all(_libsvm.lazy_gram(X, np.arange(400), spec), 1)
    for _ in range(3):
        together = solve_all(_libsvm.lazy_gram(X, np.arange(400), spec), 4)
        for a, b in zip(alone, together, strict=True):
            assert a.n_iter == b.n_iter
            np.testing.assert_array_equal(a.coef, b.coef)


def test_a_precomputed_kernel_has_no_lazy_gram():
    with pytest.raises(ValueError, match="built-in kernel"):
        _libsvm.lazy_gram(np.eye(3), [0, 1], KernelSpec.named("precomputed"))
