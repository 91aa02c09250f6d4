"""Newton steps on the free variables of a seeded fold (`svmx._free_set_newton`).

- a step keeps the point feasible (the box and y'alpha) and never raises the objective;
  with the bounds out of reach, one step lands on the optimum the KKT system gives;
- at large C with a smooth kernel (where SMO alone takes a hundred thousand pair
  updates), a grid search fold's seeded solves, which alternate SMO with these steps,
  stop at SMO's optimality gap and the fresh fit's objective, in a small fraction of
  the fresh fit's pair updates, on real data, for C-SVC and epsilon-SVR.
"""

import numpy as np
import pytest
from conftest import shared_subset

from svmx._free_set_newton import newton_steps
from svmx._libsvm import ClassifierFold, RegressorFold
from svmx._shared_gram import gram_matrix
from svmx._specs import KernelSpec

TOL = 1e-3
SOLVE = (TOL, True, -1, 200.0 * 2**20)  # tol, shrinking, max_iter, cache bytes


def _problem(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    gram = gram_matrix(X, KernelSpec.named("rbf", gamma=0.5))
    labels = np.where(np.arange(n) % 2 == 0, 1, -1).astype(np.int8)
    return gram, labels


def _q(gram, rows, labels):
    """Q as SMO sees it: kernel values rounded to float32, signed by the labels."""
    K = gram[np.ix_(rows, rows)].astype(np.float32).astype(np.float64)
    return K * np.outer(labels, labels)


def _objective(Q, p, alpha):
    return 0.5 * alpha @ Q @ alpha + p @ alpha


def _gap(Q, p, labels, bounds, alpha):
    """SMO's stopping measure: max over I_up of -y G minus min over I_low of -y G."""
    y = labels.astype(np.float64)
    minus_yG = -y * (Q @ alpha + p)
    up = ((y > 0) & (alpha < bounds)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < bounds))
    return minus_yG[up].max() - minus_yG[low].min()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_step_keeps_the_point_feasible_and_never_raises_the_objective(seed):
    gram, labels = _problem(seed=seed)
    rows, n = np.arange(labels.size), labels.size
    rng = np.random.default_rng(seed)
    bounds = np.full(n, 2.0)
    alpha = rng.uniform(0.0, 2.0, size=n)
    alpha[rng.random(n) < 0.3] = 0.0
    alpha[rng.random(n) < 0.2] = 2.0
    # y'alpha = 0: move the positive class's alphas onto the negative class's total.
    positive = labels > 0
    alpha[positive] *= alpha[~positive].sum() / alpha[positive].sum()
    p = -np.ones(n)
    Q = _q(gram, rows, labels)
    before, balance = _objective(Q, p, alpha), labels @ alpha
    for _ in range(5):
        newton_steps(gram, rows, labels, p, bounds, alpha, 3)
        assert np.all((alpha >= 0.0) & (alpha <= bounds))
        assert abs(labels @ alpha - balance) <= 1e-9
        after = _objective(Q, p, alpha)
        assert after <= before + 1e-12 * abs(before)
        before = after


def test_with_the_bounds_out_of_reach_one_step_lands_on_the_optimum():
    gram, labels = _problem(n=20)
    rows, n = np.arange(labels.size), labels.size
    y = labels.astype(np.float64)
    Q = _q(gram, rows, labels)
    rng = np.random.default_rng(3)

    def balanced(values):  # y'a = 0
        values[y > 0] *= values[y < 0].sum() / values[y > 0].sum()
        return values

    # p chosen so that optimum (inside the box [0, 1e3]) and multiplier 0.3 solve the
    # KKT system Q a + p + 0.3 y = 0, y'a = 0.
    optimum = balanced(rng.uniform(1.0, 2.0, size=n))
    p = -(Q @ optimum + 0.3 * y)
    alpha = balanced(rng.uniform(1.0, 2.0, size=n))
    assert newton_steps(gram, rows, labels, p, np.full(n, 1e3), alpha, 5) == 1
    np.testing.assert_allclose(alpha, optimum, rtol=0, atol=1e-6)


def test_steps_move_alpha_in_place_and_refuse_an_array_they_cannot_move():
    """`newton_steps` moves `alpha` itself (one compiled call); a copy it would have to
    make, of another dtype or layout, is refused rather than moved unseen."""
    gram, labels = _problem(n=12)
    rows, n = np.arange(labels.size), labels.size
    alpha = np.full(n, 0.5)
    moved = newton_steps(gram, rows, labels, -np.ones(n), np.full(n, 10.0), alpha, 5)
    assert moved >= 1 and not np.allclose(alpha, 0.5)
    for bad in (np.full(n, 0.5, dtype=np.float32), np.full(2 * n, 0.5)[::2]):
        with pytest.raises(TypeError, match="alpha must be a writeable, contiguous float64"):
            newton_steps(gram, rows, labels, -np.ones(n), np.full(n, 10.0), bad, 5)
    with pytest.raises(ValueError, match="one entry per variable"):
        newton_steps(gram, rows[:-1], labels, -np.ones(n), np.full(n, 10.0), alpha, 5)


def _path_classifier(K, y, train, seeded):
    classes = np.unique(y[train])
    fold = ClassifierFold(K, [train[y[train] == c] for c in classes],
                          [np.ones(np.count_nonzero(y[train] == c)) for c in classes], seeded)
    return fold


@pytest.mark.parametrize("gamma", [0.5, 0.125])
def test_seeded_classifier_folds_at_large_c_stop_at_the_gap_in_few_updates(gamma):
    X, y = shared_subset("svmguide1", 600)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=gamma))
    train = np.flatnonzero(np.arange(y.size) % 5 != 0)
    seeded, fresh = _path_classifier(K, y, train, True), None
    rows = seeded.training_rows
    labels = np.where(y[rows] == y[rows][0], 1, -1).astype(np.int8)
    Q = _q(K, rows, labels)
    for C in [2.0 ** e for e in range(5, 16, 2)]:
        warm_iter, stopped = seeded.solve(C, *SOLVE)
        assert not stopped
        fresh = _path_classifier(K, y, train, False)
        cold_iter, _ = fresh.solve(C, *SOLVE)
        warm_alpha = np.abs(seeded.dual_coef()[:, 0])
        cold_alpha = np.abs(fresh.dual_coef()[:, 0])
        p = -np.ones(rows.size)
        assert _gap(Q, p, labels, np.full(rows.size, C), warm_alpha) <= TOL * (1 + 1e-6)
        warm, cold = _objective(Q, p, warm_alpha), _objective(Q, p, cold_alpha)
        assert abs(warm - cold) <= 1e-3 * abs(cold)
    # At the largest C, SMO alone takes tens of thousands of pair updates.
    assert cold_iter.sum() > 20_000
    assert warm_iter.sum() < cold_iter.sum() / 5


@pytest.mark.parametrize("gamma", [0.5, 0.125])
def test_a_solve_after_one_that_stepped_steps_early(gamma, monkeypatch):
    """A problem whose last solve took Newton steps on a small free set is hard: the next
    C's solve steps after a short SMO round (`HARD_FIRST`), where a first solve waits
    for NEWTON_MIN_WORK (its first round alone is 4n/2 pair updates), and it ends in
    fewer pair updates than there are variables, at the gap and the fresh fit's objective."""
    from svmx import _seeded_problem

    steps = []

    def counted(*args):
        steps.append(newton_steps(*args))
        return steps[-1]

    monkeypatch.setattr(_seeded_problem, "newton_steps", counted)
    X, y = shared_subset("svmguide1", 600)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=gamma))
    train = np.flatnonzero(np.arange(y.size) % 5 != 0)
    seeded = _path_classifier(K, y, train, True)
    rows = seeded.training_rows
    labels = np.where(y[rows] == y[rows][0], 1, -1).astype(np.int8)
    Q, p = _q(K, rows, labels), -np.ones(rows.size)
    followed = 0
    stepped = False
    for C in [2.0 ** e for e in range(5, 16, 2)]:
        before = len(steps)
        warm_iter, _ = seeded.solve(C, *SOLVE)
        if stepped:
            assert warm_iter.sum() < rows.size
            followed += 1
        stepped = len(steps) > before
        fresh = _path_classifier(K, y, train, False)
        fresh.solve(C, *SOLVE)
        warm_alpha = np.abs(seeded.dual_coef()[:, 0])
        cold_alpha = np.abs(fresh.dual_coef()[:, 0])
        assert _gap(Q, p, labels, np.full(rows.size, C), warm_alpha) <= TOL * (1 + 1e-6)
        warm, cold = _objective(Q, p, warm_alpha), _objective(Q, p, cold_alpha)
        assert abs(warm - cold) <= 1e-3 * abs(cold)
    assert followed >= 1


def _regression_fold(X, y, gamma, epsilon=0.1):
    """A seeded epsilon-SVR fold (every 5th row held out) over the RBF Gram matrix of X,
    with its labels, p and Q as SMO sees them."""
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=gamma))
    train = np.flatnonzero(np.arange(y.size) % 5 != 0)
    n_rows = train.size
    labels = np.concatenate([np.ones(n_rows), -np.ones(n_rows)]).astype(np.int8)
    p = np.concatenate([epsilon - y[train], epsilon + y[train]])
    Q = _q(K, np.concatenate([train, train]), labels)
    fold = RegressorFold(K, train, y[train], np.ones(n_rows), epsilon, True)
    return K, train, labels, p, Q, fold


def test_seeded_regression_folds_at_large_c_stop_at_the_gap_in_few_updates():
    X, y = shared_subset("housing_scale", 400, regression=True)
    K, train, labels, p, Q, seeded = _regression_fold(X, y, 0.125)
    epsilon, n_rows = 0.1, train.size
    for C in [2.0 ** e for e in range(5, 16, 2)]:
        warm_iter, stopped = seeded.solve(C, *SOLVE)
        assert not stopped
        fresh = RegressorFold(K, train, y[train], np.ones(n_rows), epsilon, False)
        cold_iter, _ = fresh.solve(C, *SOLVE)
        objectives = []
        for fold in (seeded, fresh):
            coef = fold.dual_coef()
            alpha = np.concatenate([np.maximum(coef, 0), np.maximum(-coef, 0)])
            objectives.append(_objective(Q, p, alpha))
            if fold is seeded:
                assert _gap(Q, p, labels, np.full(2 * n_rows, C), alpha) <= TOL * (1 + 1e-6)
        assert abs(objectives[0] - objectives[1]) <= 1e-3 * abs(objectives[1])
    assert cold_iter.sum() > 100_000
    assert warm_iter.sum() < cold_iter.sum() / 5


@pytest.mark.parametrize("n", [1, 5, 63, 64, 65, 128, 130, 200])
def test_spd_inverse_is_the_inverse_across_tile_edges(n):
    # 64 x 64 tiles: orders at, below and above their edges.
    from svmx._newton_walk import spd_inverse

    rng = np.random.default_rng(n)
    factor = rng.normal(size=(n, n + 2))
    matrix = factor @ factor.T + 1e-2 * np.eye(n)
    inverse = np.array(matrix, order="F")
    assert spd_inverse(inverse) == 0
    expected = np.linalg.inv(matrix)
    np.testing.assert_allclose(np.tril(inverse), np.tril(expected),
                               atol=1e-10 * np.abs(expected).max())


@pytest.mark.parametrize("n, bad", [(3, 1), (70, 66), (130, 129)])
def test_spd_inverse_names_the_first_minor_that_is_not_positive(n, bad):
    from svmx._newton_walk import spd_inverse

    matrix = np.eye(n, order="F")
    matrix[bad - 1, bad - 1] = -1.0
    assert spd_inverse(matrix) == bad
    nan = np.eye(n, order="F")
    nan[bad - 1, bad - 1] = np.nan
    assert spd_inverse(nan) == bad


def test_free_gradient_reads_the_gram_as_smo_sees_it():
    from svmx._newton_walk import free_gradient

    gram, _ = _problem(40)
    rng = np.random.default_rng(1)
    free, used = rng.permutation(40)[:15], rng.permutation(40)[:25]
    weights = rng.normal(size=25)
    expected = gram[np.ix_(free, used)].astype(np.float32).astype(np.float64) @ weights
    np.testing.assert_allclose(free_gradient(gram, free, used, weights), expected,
                               rtol=1e-13, atol=1e-13)
    with pytest.raises(ValueError, match="index"):
        free_gradient(gram, free, np.array([40]), np.ones(1))


def _noisy_regression(n=300, seed=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.sin(2.0 * X[:, 0]) + 0.3 * X[:, 1] + 0.2 * rng.normal(size=n)
    return X, y


def _upper_part(Q, alpha, bounds):
    """G_bar: the sum over the variables at their upper bound of C_j Q_j."""
    upper = alpha >= bounds
    return Q[:, upper] @ bounds[upper]


def test_the_kept_gradients_are_those_of_the_solutions_through_newton_rounds(monkeypatch):
    """Seeded solves start from the last solution's G and G_bar, scaled along C and moved
    with the Newton steps' variables (no kernel column per support vector): after every C
    they are Qa + p and the upper-bound part of the solution, at SMO's float32 Q."""
    import svmx._seeded_problem as gram_folds

    steps = []

    def counted(*args):
        steps.append(newton_steps(*args))
        return steps[-1]

    monkeypatch.setattr(gram_folds, "newton_steps", counted)
    X, y = _noisy_regression()
    _, train, _, p, Q, fold = _regression_fold(X, y, 0.5)
    n_rows = train.size
    assert fold.gradients() is None
    for C in [2.0 ** e for e in range(-1, 14, 2)]:
        fold.solve(C, *SOLVE)
        coef = fold.dual_coef()
        alpha = np.concatenate([np.maximum(coef, 0), np.maximum(-coef, 0)])
        G, G_bar = fold.gradients()
        scale = max(1.0, np.abs(Q).sum(axis=0).max() * C)
        np.testing.assert_allclose(G, Q @ alpha + p, rtol=0, atol=1e-10 * scale)
        np.testing.assert_allclose(G_bar, _upper_part(Q, alpha, np.full(2 * n_rows, C)),
                                   rtol=0, atol=1e-10 * scale)
    assert sum(steps) > 0  # the rounds took Newton steps, whose moves G followed


@pytest.mark.parametrize("seed, Cs", [
    (0, [2.0 ** e for e in range(-5, 12, 2)]),
    (1, [2.0 ** e for e in range(-5, 12, 2)]),
    (2, np.logspace(-2, 3, 9)),  # C / last_C times a bound can fall an ulp short of it
])
def test_the_kept_gradients_of_classifier_pairs_follow_c(seed, Cs):
    """The same for a three-class fold's one-vs-one pairs along C, unequal class weights
    included (the bounds then differ within a pair)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(240, 3))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1] + 0.4 * rng.normal(size=240), [-0.5, 0.5])
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=1.0))
    weights = {0: 1.0, 1: 2.5, 2: 0.3}
    classes = [np.flatnonzero(y == c) for c in range(3)]
    fold = ClassifierFold(K, classes, [np.full(rows.size, weights[c])
                                       for c, rows in enumerate(classes)], True)
    pairs = [(0, 1), (0, 2), (1, 2)]
    for C in Cs:
        fold.solve(C, *SOLVE)
        coef = fold.dual_coef()
        sizes = np.cumsum([0] + [rows.size for rows in classes])
        for number, (i, j) in enumerate(pairs):
            at = np.concatenate([np.arange(sizes[i], sizes[i + 1]),
                                 np.arange(sizes[j], sizes[j + 1])])
            rows = np.concatenate([classes[i], classes[j]])
            labels = np.concatenate([np.ones(classes[i].size),
                                     -np.ones(classes[j].size)]).astype(np.int8)
            alpha = np.abs(coef[at, number])
            bounds = C * np.concatenate([np.full(classes[i].size, weights[i]),
                                         np.full(classes[j].size, weights[j])])
            Q = _q(K, rows, labels)
            G, G_bar = fold.gradients()[number]
            scale = max(1.0, np.abs(Q).sum(axis=0).max() * bounds.max())
            np.testing.assert_allclose(G, Q @ alpha - 1.0, rtol=0, atol=1e-10 * scale)
            np.testing.assert_allclose(G_bar, _upper_part(Q, alpha, bounds), rtol=0,
                                       atol=1e-10 * scale)


@pytest.mark.parametrize("n_second", [61, 62, 63, 64, 65])
def test_the_bound_starts_gradient_is_q_times_the_cut_start(n_second):
    """At a tiny C with a narrow kernel every variable of the optimum is bounded but the
    larger class's excess, cut from it whole (`SeededProblem.bound_start`): the first
    solve starts there, with G and G_bar from the cut rows of K (four at a time; the
    class sizes step the cuts through every remainder), and SMO updates them from there
    on: they are Q a + p and the bounded part of Q a at Q's float32 values."""
    rng = np.random.default_rng(n_second)
    X = np.vstack([rng.normal(size=(40, 2)) - 1.0, rng.normal(size=(n_second, 2)) + 1.0])
    y = np.repeat([0, 1], [40, n_second])
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.5))
    classes = [np.flatnonzero(y == c) for c in range(2)]
    fold = ClassifierFold(K, classes, [np.ones(rows.size) for rows in classes], True)
    C = 2.0 ** -5
    n_iter, _ = fold.solve(C, *SOLVE)
    alpha = np.abs(fold.dual_coef()[:, 0])
    assert np.count_nonzero(alpha[40:] == 0.0) >= (n_second - 40) // 2  # rows cut whole
    assert n_iter[0] < 20  # a few SMO steps on from the start, whose G they update
    labels = np.repeat([1, -1], [40, n_second]).astype(np.int8)
    Q = _q(K, np.concatenate(classes), labels)
    G, G_bar = fold.gradients()[0]
    np.testing.assert_allclose(G, Q @ alpha - 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(G_bar, _upper_part(Q, alpha, np.full(alpha.size, C)),
                               rtol=0, atol=1e-12)
