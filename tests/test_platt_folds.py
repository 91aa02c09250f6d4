"""Platt's cross-validation under ``solver='auto'``: folds seeded from their pair, a shared
Gram matrix, folds side by side (``svmx._platt_folds``).

- the seeds are feasible (box and equality constraint) and keep the bounded alphas;
- a seeded fold reaches the dual objective of a fold trained from zero, within tol, on
  (a subset of) every shared classification dataset, and its held-out decision values
  are those of the cold fold to the solver's tolerance;
- the pair solved on its folds' inputs is its plain solution, bit for bit, and the
  lazy Gram matrix path gives the decision values of the kernel path;
- the probabilities are LIBSVM's procedure's (``solver='smo'``) to 1e-3, a hundredth of
  what another fold shuffle changes; they do not depend on the thread count.
"""

import numpy as np
import pytest
from conftest import load_shared, shared_subset

import svmx
import svmx._platt_folds as platt_folds
from svmx._platt_folds import (
    fold_gradients,
    fold_inputs,
    fold_seed,
    seeded_held_out_decisions,
    take_equally,
)
from svmx._probability import _held_out_decisions, fold_plan
from svmx._specs import BYTES_PER_MB, KernelSpec, Problem, SolveSpec
from svmx._training import solve_problem

CLASSIFICATION = ["heart_scale", "a9a", "w8a", "ijcnn1", "mushrooms", "dna.scale",
                  "pendigits", "mnist_5k.libsvm", "reuters_lasvm", "svmguide1"]
ROWS = 600
TOL = 1e-3
SOLVE = SolveSpec("auto", TOL, 100 * BYTES_PER_MB, True, -1, 1)


def _pair(name, C=1.0):
    X, y = shared_subset(name, ROWS)
    labels = np.where(y == np.unique(y)[0], 1, -1).astype(np.int8)
    rows = np.concatenate([np.flatnonzero(labels == 1), np.flatnonzero(labels == -1)])
    problem = Problem("c_svc", C=np.full(rows.size, C), y=labels[rows])
    kernel = KernelSpec.named("rbf", gamma=1.0 / X.shape[1])
    return X, rows, problem, kernel


@pytest.mark.parametrize("seed", range(20))
def test_take_equally_takes_the_amount_with_equal_cuts(seed):
    rng = np.random.default_rng(seed)
    values = rng.exponential(size=rng.integers(1, 40)) * (rng.random(1) < 0.8)
    amount = rng.uniform(0, 1.2) * values.sum()
    left = take_equally(values, amount)
    assert (left >= 0).all() and (left <= values).all()
    np.testing.assert_allclose(values.sum() - left.sum(), min(amount, values.sum()),
                               rtol=1e-12, atol=1e-12)
    cuts = (values - left)[left > 0]  # every value not emptied gives up the same cut
    if cuts.size:
        np.testing.assert_allclose(cuts, cuts[0], rtol=1e-9, atol=1e-12)
        assert (values[left == 0] <= cuts[0] + 1e-12).all()


@pytest.mark.parametrize("seed", range(20))
def test_fold_seeds_are_feasible_and_keep_bounded_alphas(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    labels = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int8)
    bounds = rng.choice([1.0, 2.5], size=n)
    alpha = np.where(rng.random(n) < 0.3, bounds, rng.random(n) * bounds)
    alpha[rng.random(n) < 0.3] = 0.0
    seed_alpha = fold_seed(alpha, labels, bounds)
    assert (seed_alpha >= 0).all() and (seed_alpha <= bounds).all()
    residual = seed_alpha[labels > 0].sum() - seed_alpha[labels < 0].sum()
    assert abs(residual) <= 1e-12 * max(1.0, alpha.sum())
    excess = alpha[labels > 0].sum() - alpha[labels < 0].sum()
    side = labels > 0 if excess > 0 else labels < 0
    assert np.array_equal(seed_alpha[~side], alpha[~side])  # the other class is untouched
    free = side & (alpha > 0) & (alpha < bounds)
    if alpha[free].sum() >= abs(excess):
        assert np.array_equal(seed_alpha[side & ~free], alpha[side & ~free])


@pytest.mark.parametrize("seed", range(20))
def test_fold_seeds_take_whole_bounded_alphas_in_priority_order(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 60))
    labels = np.where(rng.random(n) < 0.7, 1, -1).astype(np.int8)
    bounds = np.ones(n)
    alpha = np.where(rng.random(n) < 0.8, 1.0, 0.0)  # bounded or zero: no free alpha
    priority = rng.random(n)
    seed_alpha = fold_seed(alpha, labels, bounds, priority)
    residual = seed_alpha[labels > 0].sum() - seed_alpha[labels < 0].sum()
    assert abs(residual) <= 1e-12 * max(1.0, alpha.sum())
    cut = np.flatnonzero(seed_alpha != alpha)
    assert np.count_nonzero((seed_alpha[cut] > 0) & (seed_alpha[cut] < 1)) <= 1
    if cut.size:  # the cut alphas come first in priority among their class's bounded
        side = labels == labels[cut[0]]
        kept = np.flatnonzero(side & (alpha > 0) & (seed_alpha == alpha))
        if kept.size:
            assert priority[cut].min() >= priority[kept].max()


def _rbf_block(X, rows_a, rows_b, gamma):
    A, B = (np.asarray(part.toarray() if hasattr(part, "toarray") else part)
            for part in (X[rows_a], X[rows_b]))
    distances = (A**2).sum(1)[:, None] + (B**2).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-gamma * np.maximum(distances, 0.0))


@pytest.mark.parametrize("name", ["heart_scale", "svmguide1", "a9a"])
def test_fold_gradients_are_the_seeds_own(name):
    """G = Q seed - 1 and G_bar = sum over bounded alphas of C_j Q_:j, as SMO would build
    them from the seed, to the float32 precision of its kernel columns."""
    X, rows, problem, kernel = _pair(name)
    pair = solve_problem(X, rows, problem.keeping_gradients(), kernel, SOLVE)
    assert pair.gradients is not None
    alpha, signs = np.abs(pair.coef), problem.y.astype(np.float64)
    Q = signs[:, None] * signs[None, :] * _rbf_block(X, rows, rows, kernel.gamma)
    np.testing.assert_allclose(pair.gradients[0], Q @ alpha - 1.0, rtol=0, atol=1e-4)
    inputs = fold_inputs(X, rows, kernel, SOLVE)
    plan = fold_plan(np.random.default_rng(1).permutation(rows.size), problem.y)
    for fold in plan:
        held_out, training = fold
        if not isinstance(training, np.ndarray):
            continue
        bounds = problem.C[training]
        seed_alpha = fold_seed(alpha[training], problem.y[training], bounds,
                               pair.gradients[0][training])
        G, G_bar = fold_gradients(inputs.on, problem.y, problem.C, alpha,
                                  pair.gradients, fold, seed_alpha)
        Q_fold = Q[np.ix_(training, training)]
        np.testing.assert_allclose(G, Q_fold @ seed_alpha - 1.0, rtol=0, atol=1e-4)
        at_bound = np.where(seed_alpha >= bounds, bounds, 0.0)
        np.testing.assert_allclose(G_bar, Q_fold @ at_bound, rtol=0, atol=1e-4)


@pytest.mark.parametrize("name", CLASSIFICATION)
def test_seeded_folds_reach_the_cold_folds_objective(name):
    X, rows, problem, kernel = _pair(name)
    pair = solve_problem(X, rows, problem, kernel, SOLVE)
    alpha = np.abs(pair.coef)
    plan = fold_plan(np.random.default_rng(0).permutation(rows.size), problem.y)
    for _, training in plan:
        if not isinstance(training, np.ndarray):
            continue
        fold = problem.on(problem.C[training], y=problem.y[training])
        seeded = fold.seeded(fold_seed(alpha[training], problem.y[training], fold.C))
        assert seeded.initial_alpha is not None  # the seed is kept, not dropped
        cold = solve_problem(X, rows[training], fold, kernel, SOLVE)
        warm = solve_problem(X, rows[training], seeded, kernel, SOLVE)
        assert abs(warm.obj - cold.obj) <= TOL * max(1.0, abs(cold.obj))
    cold_values = _held_out_decisions(X, rows, problem, kernel, SOLVE,
                                      np.random.default_rng(0).permutation(rows.size))
    inputs = fold_inputs(X, rows, kernel, SOLVE)
    warm_values = seeded_held_out_decisions(inputs, problem, SOLVE, plan, alpha)
    # Both stop at an optimality gap of tol; the decision values agree to a few tol.
    np.testing.assert_allclose(warm_values, cold_values, rtol=0, atol=20 * TOL)
    # The same from the pair's final gradients (the start SMO does not build itself).
    kept = solve_problem(inputs.matrix, inputs.rows, problem.keeping_gradients(),
                         inputs.kernel, SOLVE)
    from_gradients = seeded_held_out_decisions(inputs, problem, SOLVE, plan,
                                               np.abs(kept.coef), kept.gradients)
    np.testing.assert_allclose(from_gradients, cold_values, rtol=0, atol=20 * TOL)


@pytest.mark.parametrize("name", ["dna.scale", "pendigits", "svmguide1"])
def test_the_pair_solved_on_its_folds_inputs_is_the_plain_pairs_solution(name):
    """The pair is solved on what its folds train on (a lazy Gram matrix over its rows,
    or its rows gathered dense): the same solution, bit for bit, as on its own rows."""
    X, rows, problem, kernel = _pair(name)
    inputs = fold_inputs(X, rows, kernel, SOLVE)
    assert inputs.shares_gram == (name != "svmguide1")
    on_inputs = solve_problem(inputs.matrix, inputs.rows, problem, inputs.kernel, SOLVE)
    plain = solve_problem(X, rows, problem, kernel, SOLVE)
    assert on_inputs.coef.tobytes() == plain.coef.tobytes()
    assert (on_inputs.rho, on_inputs.n_iter) == (plain.rho, plain.n_iter)


def test_no_gram_beyond_the_cache_budget():
    X, rows, _, kernel = _pair("dna.scale")
    assert not fold_inputs(X, rows, kernel, SOLVE.replace(cache_bytes=4.0 * rows.size**2 / 2)
                           ).shares_gram


@pytest.mark.parametrize("name", ["SVC", "NuSVC"])
def test_probabilities_are_libsvms_procedures(name):
    X, y = load_shared("dna.scale")
    X_test, _ = load_shared("dna.scale.t", n_features=X.shape[1])
    params = {"probability": True, "nu": 0.3} if name == "NuSVC" else {"probability": True}
    shared = getattr(svmx, name)(random_state=0, **params).fit(X, y)
    libsvm = getattr(svmx, name)(random_state=0, solver="smo", **params).fit(X, y)
    reshuffled = getattr(svmx, name)(random_state=1, solver="smo", **params).fit(X, y)
    np.testing.assert_array_equal(shared.dual_coef_, libsvm.dual_coef_)  # the same model
    gap = np.abs(shared.predict_proba(X_test) - libsvm.predict_proba(X_test)).max()
    shuffle_gap = np.abs(reshuffled.predict_proba(X_test) - libsvm.predict_proba(X_test)).max()
    assert gap <= 1e-3
    assert gap <= shuffle_gap / 10


def test_probabilities_do_not_depend_on_the_thread_count():
    X, y = shared_subset("svmguide1", 4000)  # all 3,089 rows
    one = svmx.SVC(probability=True, random_state=0, n_jobs=1).fit(X, y)
    two = svmx.SVC(probability=True, random_state=0, n_jobs=2).fit(X, y)
    assert one.probA_.tobytes() == two.probA_.tobytes()
    assert one.probB_.tobytes() == two.probB_.tobytes()


def _rbf(A, B, gamma):
    distances = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T
    return np.exp(-gamma * np.maximum(distances, 0.0))


@pytest.mark.parametrize("kernel", ["precomputed", "callable"])
def test_gram_inputs_take_the_shared_path(kernel):
    X, y = shared_subset("heart_scale", 270)
    gamma = 1.0 / X.shape[1]
    if kernel == "precomputed":
        model = svmx.SVC(kernel="precomputed", probability=True, random_state=0)
        model.fit(_rbf(X, X, gamma), y)
    else:
        model = svmx.SVC(kernel=lambda A, B: _rbf(A, B, gamma), probability=True,
                         random_state=0).fit(X, y)
    reference = svmx.SVC(gamma=gamma, probability=True, random_state=0).fit(X, y)
    np.testing.assert_allclose(model.probA_, reference.probA_, rtol=1e-3)
    np.testing.assert_allclose(model.probB_, reference.probB_, rtol=1e-3, atol=1e-4)


def test_folds_of_a_kernel_that_is_not_positive_semi_definite_start_from_zero():
    # With the sigmoid kernel the fold's dual is not convex: a seeded fold stopped at
    # another stationary point, 0.06 away in probability from LIBSVM's procedure.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 8))
    y = rng.integers(0, 5, 400)
    X[:, :3] += y[:, None] * 0.7
    X_test = np.random.default_rng(9).normal(size=(200, 8))
    params = {"kernel": "sigmoid", "C": 10.0, "probability": True, "random_state": 0}
    shared = svmx.SVC(**params).fit(X, y)
    libsvm = svmx.SVC(solver="smo", **params).fit(X, y)
    gap = np.abs(shared.predict_proba(X_test) - libsvm.predict_proba(X_test)).max()
    assert gap <= 1e-6


def test_verbose_output_keeps_libsvms_order(capfd):
    X, y = shared_subset("heart_scale", 270)
    model = svmx.SVC(probability=True, random_state=0, verbose=True).fit(X, y)
    lines = [line for line in capfd.readouterr().out.splitlines() if line.strip(".*")]
    total = f"Total nSV = {model.support_.size}"
    assert lines[-1] == total
    # The five folds first (each closing with its own total), then the pair's solve.
    assert sum(line.startswith("Total nSV") for line in lines) == 6
    assert sum("optimization finished" in line for line in lines) == 6
    assert lines[-2].startswith(f"nSV = {model.support_.size},")


def test_seeded_folds_give_no_advice_about_shrinking(capfd):
    """A seeded fold shrinks at once (a warm start, `Gradients.near_optimum`); LIBSVM's
    "using -h 0 may be faster" is about the user's choice and is not printed for it: the
    probability fit prints it as often as the plain fit of its pairs does."""
    X, y = shared_subset("dna.scale", 2000)
    svmx.SVC(verbose=True).fit(X, y)
    plain = capfd.readouterr().out.count("using -h 0")
    svmx.SVC(probability=True, random_state=0, verbose=True).fit(X, y)
    assert capfd.readouterr().out.count("using -h 0") == plain


def test_pairs_of_the_block_solver_keep_the_plain_model(monkeypatch):
    """A pair the block solver takes (from BLOCK_SOLVER_MIN_SAMPLES rows) is solved on its
    own rows as in the plain fit, not on its folds' Gram matrix (where SMO would take it):
    probability=True leaves the model as it is."""
    import svmx._specs as specs

    monkeypatch.setattr(specs, "BLOCK_SOLVER_MIN_SAMPLES", 300)
    X, y = shared_subset("pendigits", 1500)
    keep = y < 3
    X, y = X[keep], y[keep]
    plain = svmx.SVC().fit(X, y)
    shared = svmx.SVC(probability=True, random_state=0).fit(X, y)
    assert plain.fit_status_ == shared.fit_status_ == 0
    np.testing.assert_array_equal(shared.dual_coef_, plain.dual_coef_)
    np.testing.assert_array_equal(shared.intercept_, plain.intercept_)


@pytest.mark.parametrize("name", ["dna.scale", "pendigits", "svmguide1"])
def test_the_lazy_gram_path_gives_the_kernel_paths_values(monkeypatch, name):
    """dna.scale (45 entries per row) and pendigits (16 features) share one lazily
    computed Gram matrix between their folds, svmguide1 (4) does not; where they do,
    the folds' solutions are the per-fold ones and the held-out decision values differ
    only by the float32 kernel values."""
    X, rows, problem, kernel = _pair(name)
    shares = platt_folds.lazy_gram_fits(X, rows, kernel, SOLVE.cache_bytes)
    assert shares == (name != "svmguide1")
    plan = fold_plan(np.random.default_rng(1).permutation(rows.size), problem.y)
    pair = solve_problem(X, rows, problem, kernel, SOLVE)
    seed = np.abs(pair.coef)
    via_lazy = seeded_held_out_decisions(fold_inputs(X, rows, kernel, SOLVE), problem, SOLVE,
                                         plan, seed)
    monkeypatch.setattr(platt_folds, "lazy_gram_fits", lambda *args: False)
    via_kernel = seeded_held_out_decisions(fold_inputs(X, rows, kernel, SOLVE), problem,
                                           SOLVE, plan, seed)
    np.testing.assert_allclose(via_lazy, via_kernel, rtol=0, atol=1e-5 if shares else 0)


@pytest.mark.filterwarnings("ignore::svmx.ConvergenceWarning")
@pytest.mark.parametrize("max_iter", [10, 20])
def test_with_max_iter_the_folds_start_from_zero_as_libsvms(max_iter):
    # A max_iter that stops a fold leaves it where its start led: a fold seeded from
    # its pair stopped elsewhere than LIBSVM's from zero (heart_scale, max_iter=20:
    # probabilities 0.31 apart).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=200) > 0, 1, -1)
    auto = svmx.SVC(probability=True, max_iter=max_iter, random_state=0).fit(X, y)
    libsvm = svmx.SVC(probability=True, max_iter=max_iter, random_state=0,
                      solver="smo").fit(X, y)
    np.testing.assert_allclose(auto.probA_, libsvm.probA_, rtol=1e-6)
    np.testing.assert_allclose(auto.predict_proba(X), libsvm.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("name", ["svmguide1", "pendigits"])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_kernel_cache_memory_handed_between_solves_changes_no_bit(name, n_jobs, monkeypatch):
    """A fit's pairs and folds hand their kernel caches' memory on (`CacheMemories`):
    what a solve finds there from the last one must change nothing, bit for bit."""
    import svmx._training as training

    X, y = shared_subset(name, 1500)
    handed = []
    made = training.cache_memories
    monkeypatch.setattr(training, "cache_memories",
                        lambda *args: handed.append(made(*args)) or handed[-1])
    pooled = svmx.SVC(probability=True, random_state=0, n_jobs=n_jobs).fit(X, y)
    assert sum(memories.n_blocks for memories in handed) >= 1
    monkeypatch.setattr(training, "cache_memories", lambda *args: None)
    fresh = svmx.SVC(probability=True, random_state=0, n_jobs=n_jobs).fit(X, y)
    for attribute in ("dual_coef_", "intercept_", "probA_", "probB_", "n_iter_", "support_"):
        got, expected = getattr(pooled, attribute), getattr(fresh, attribute)
        if hasattr(got, "toarray"):
            got, expected = got.toarray(), expected.toarray()
        np.testing.assert_array_equal(got, expected, err_msg=attribute)


def test_start_gradients_go_with_their_seed():
    problem = Problem("c_svc", C=np.ones(3), y=np.array([1, 1, -1], np.int8))
    gradients = (np.zeros(3), np.ones(3))
    kept = problem.seeded(np.array([0.5, 0.0, 0.5]), gradients)
    assert kept.initial_gradients is not None
    np.testing.assert_array_equal(kept.initial_gradients[1], np.ones(3))
    # A seed that breaks y'alpha = 0 is dropped, and its gradients with it.
    assert problem.seeded(np.array([1.0, 0.0, 0.5]), gradients).initial_gradients is None
    assert problem.seeded(None, gradients).initial_gradients is None
    with pytest.raises(ValueError, match="initial_gradients must be two arrays of shape"):
        problem.seeded(np.array([0.5, 0.0, 0.5]), (np.zeros(2), np.zeros(2)))


@pytest.mark.parametrize("name", ["heart_scale", "dna.scale", "pendigits", "svmguide1",
                                  "mushrooms"])
def test_a_start_shrunk_to_any_rows_reaches_the_cold_objective(name):
    """SMO started shrunk (`Problem.start_active`) checks every row before it stops: a
    start around the wrong rows (none, the farthest from the margin, at random) costs
    time, not the optimum. So too on the pair's Gram matrix computed row by row (where
    its rows store enough entries), where the fold rebuilds its gradient from its free
    variables' rows, never its inactive ones' (`Gradients.whole_rows`): the wrong rows
    make it rebuild most of it."""
    X, rows, problem, kernel = _pair(name)
    inputs = fold_inputs(X, rows, kernel, SOLVE)
    _, training = fold_plan(np.random.default_rng(1).permutation(rows.size), problem.y)[0]
    fold = problem.on(problem.C[training], y=problem.y[training])
    cold = solve_problem(X, rows[training], fold, kernel, SOLVE)
    for matrix, pair_rows, on_kernel in [(X, rows, kernel)] + (
            [inputs.on] if inputs.shares_gram else []):
        pair = solve_problem(matrix, pair_rows, problem.keeping_gradients(), on_kernel, SOLVE)
        margins = pair.gradients[0] - problem.y * pair.rho
        seed = fold_seed(np.abs(pair.coef)[training], problem.y[training], fold.C)
        rng = np.random.default_rng(0)
        starts = {"near the margin": platt_folds.near_margin(margins[training]),
                  "none": np.zeros(training.size, bool),
                  "far from the margin": margins[training] > 1.0,
                  "at random": rng.random(training.size) < 0.2}
        # A zero start shrunk to no row at all starts from an empty active set.
        empty = solve_problem(matrix, pair_rows[training],
                              fold.seeded(np.zeros(training.size), None,
                                          np.zeros(training.size, bool)), on_kernel, SOLVE)
        assert abs(empty.obj - cold.obj) <= TOL * max(1.0, abs(cold.obj))
        for label, active in starts.items():
            shrunk = fold.seeded(seed, None, active)
            assert shrunk.start_active is not None
            warm = solve_problem(matrix, pair_rows[training], shrunk, on_kernel, SOLVE)
            assert abs(warm.obj - cold.obj) <= TOL * max(1.0, abs(cold.obj)), label
            assert warm.coef.size == training.size and np.isfinite(warm.rho)


@pytest.mark.parametrize("name", ["dna.scale", "pendigits"])
def test_folds_started_near_the_margin_give_the_cold_folds_values(name):
    X, rows, problem, kernel = _pair(name)
    inputs = fold_inputs(X, rows, kernel, SOLVE)
    assert inputs.shares_gram
    order = np.random.default_rng(0).permutation(rows.size)
    plan = fold_plan(order, problem.y)
    kept = solve_problem(inputs.matrix, inputs.rows, problem.keeping_gradients(),
                         inputs.kernel, SOLVE)
    margins = kept.gradients[0] - problem.y * kept.rho
    shrunk = seeded_held_out_decisions(inputs, problem, SOLVE, plan, np.abs(kept.coef),
                                       None, margins)
    cold = _held_out_decisions(X, rows, problem, kernel, SOLVE, order)
    np.testing.assert_allclose(shrunk, cold, rtol=0, atol=20 * TOL)


def test_a_start_shrunk_goes_with_its_seed():
    problem = Problem("c_svc", C=np.ones(3), y=np.array([1, 1, -1], np.int8))
    active = np.array([True, False, True])
    kept = problem.seeded(np.array([0.5, 0.0, 0.5]), None, active)
    np.testing.assert_array_equal(kept.start_active, active)
    # Dropped with a dropped seed, and beside start gradients (G is then given whole).
    assert problem.seeded(np.array([1.0, 0.0, 0.5]), None, active).start_active is None
    assert problem.seeded(None, None, active).start_active is None
    gradients = (np.zeros(3), np.zeros(3))
    assert problem.seeded(np.array([0.5, 0.0, 0.5]), gradients, active).start_active is None
    with pytest.raises(ValueError, match="start_active must have shape"):
        problem.seeded(np.array([0.5, 0.0, 0.5]), None, np.ones(2, bool))


def test_fold_seed_names_arrays_of_another_length():
    alpha, labels, bounds = np.array([1.0, 0.5, 1.0]), np.array([1, 1, -1], np.int8), np.ones(3)
    with pytest.raises(ValueError, match="alpha, labels and bounds must have one length"):
        fold_seed(alpha, labels[:2], bounds)
    with pytest.raises(ValueError, match="priority must have one value per alpha"):
        fold_seed(np.array([1.0, 1.0, 1.0, 0.5]), np.array([1, 1, 1, -1], np.int8),
                  np.ones(4), np.ones(2))
