"""A grid search fold's C values solved in the binding (`ClassifierFold`, `RegressorFold`).

- a fold from zero is, pair by pair, the model a fresh fit on the fold's block of the
  Gram matrix gives (the same solver steps, so the same values);
- started from the last C's solution, every solve reaches the fresh fit's dual
  objective within tol, and predicts as it does, on synthetic and real data;
- the grid search that uses them scores as the per-candidate search (scores, train
  scores, best parameters), with class and sample weights, for SVC and SVR; it records
  failed candidates and warns on max_iter as the per-candidate search does, and keeps
  the per-fit path where the score or the estimator needs a fitted model.
"""

import os
import signal
import sys
import warnings

import numpy as np
import pytest
from conftest import load_shared

from svmx import SVC, SVR, NuSVC
from svmx._layout import vote
from svmx._libsvm import ClassifierFold, RegressorFold
from svmx._shared_gram import gram_matrix
from svmx._specs import KernelSpec
from svmx.exceptions import ConvergenceWarning
from svmx.model_selection import GridSearch, KFold, StratifiedKFold, _kernel_groups
from svmx.model_selection._fold_paths import FoldAlongC

C_PATH = [2.0 ** e for e in range(-5, 16, 2)]
SOLVE = (1e-3, True, -1, 200.0 * 2**20)  # tol, shrinking, max_iter, cache bytes


def _blobs(n_classes=3, rows=180, seed=0, spread=1.5):
    """Overlapping Gaussian classes (apart with a large `spread`): some pairs easy, some
    with bounded alphas."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=spread, size=(n_classes, 4))
    y = np.arange(rows) % n_classes
    return centres[y] + rng.normal(size=(rows, 4)), y * 10 + 1  # labels 1, 11, 21, ...


def _split(n):
    train = np.flatnonzero(np.arange(n) % 5 != 0)
    return train, np.flatnonzero(np.arange(n) % 5 == 0)


def _classifier_fold(K, y, train, seeded, weights=None):
    classes, codes = np.unique(y[train], return_inverse=True)
    bounds = np.ones(train.size) if weights is None else weights
    return ClassifierFold(K, [train[codes == c] for c in range(classes.size)],
                          [bounds[codes == c] for c in range(classes.size)], seeded)


def _vote(fold, block):
    """LIBSVM's vote over the fold's pair decision values (class codes)."""
    values = fold.decision_values(block)
    return vote(values, int(round((1 + np.sqrt(1 + 8 * values.shape[1])) / 2)))


def _pair_objectives(fold, K):
    """1/2 c'Kc - sum |c| of every pair, from the fold's dual coefficients."""
    rows = fold.training_rows
    coef = fold.dual_coef()
    block = K[np.ix_(rows, rows)]
    return np.array([0.5 * c @ block @ c - np.abs(c).sum() for c in coef.T])


def _fresh(K, y, train, C, **params):
    return SVC(kernel="precomputed", C=C, decision_function_shape="ovo", **params).fit(
        K[np.ix_(train, train)], y[train])


def test_an_unseeded_fold_is_the_fresh_fit_on_its_block_at_every_c():
    X, y = _blobs()
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.3))
    train, test = _split(y.size)
    fold = _classifier_fold(K, y, train, seeded=False)
    block = K[np.ix_(test, fold.training_rows)]
    for C in (2.0, 0.25, 64.0):
        n_iter, _ = fold.solve(C, *SOLVE)
        fresh = _fresh(K, y, train, C)
        np.testing.assert_array_equal(n_iter, fresh.n_iter_)  # the same solver steps
        # The fold's rows are class by class; the fresh fit's decision values are too.
        np.testing.assert_allclose(fold.decision_values(block),
                                   fresh.decision_function(K[np.ix_(test, train)]),
                                   rtol=0, atol=1e-12)
        np.testing.assert_array_equal(np.unique(y[train])[_vote(fold, block)],
                                      fresh.predict(K[np.ix_(test, train)]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_warm_solves_along_c_reach_the_fresh_objective(seed):
    X, y = _blobs(n_classes=4, seed=seed)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.5))
    train, test = _split(y.size)
    fold = _classifier_fold(K, y, train, seeded=True)
    saved = 0
    for C in C_PATH:
        n_iter, stopped_early = fold.solve(C, *SOLVE)
        assert not stopped_early
        fresh = _fresh(K, y, train, C)
        reference = _pair_objectives(_fresh_as_fold(K, y, train, C), K)
        np.testing.assert_allclose(_pair_objectives(fold, K), reference, rtol=1e-3, atol=1e-3)
        predicted = np.unique(y[train])[_vote(fold, K[np.ix_(test, fold.training_rows)])]
        assert np.mean(predicted == fresh.predict(K[np.ix_(test, train)])) >= 0.95
        saved += fresh.n_iter_.sum() - n_iter.sum()
    assert saved > 0  # the seeds save iterations over the path


def _fresh_as_fold(K, y, train, C):
    fold = _classifier_fold(K, y, train, seeded=False)
    fold.solve(C, *SOLVE)
    return fold


def test_a_given_class_order_orients_the_pairs_and_keeps_the_predictions():
    X, y = _blobs(n_classes=3)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.3))
    train, test = _split(y.size)
    sorted_fold, ordered_fold = FoldAlongC(K), FoldAlongC(K)
    sorted_fold.pose(SVC(), train, y[train], None, True)
    ordered_fold.pose(SVC(), train, y[train], None, True, class_order=[21, 1, 11])
    for fold in (sorted_fold, ordered_fold):
        fold.solve(4.0)
    assert ordered_fold.classes.tolist() == [21, 1, 11]
    # Pair (21, 1) is pair (1, 21) turned over: the decision values change sign (the same
    # optimum within tol, reached along another path).
    block = K[np.ix_(test, sorted_fold.fold.training_rows)]
    sorted_values = sorted_fold.fold.decision_values(block)
    ordered_values = ordered_fold.fold.decision_values(
        K[np.ix_(test, ordered_fold.fold.training_rows)])
    np.testing.assert_allclose(ordered_values[:, 0], -sorted_values[:, 1], rtol=0, atol=5e-3)
    np.testing.assert_array_equal(ordered_fold.predict(test), sorted_fold.predict(test))


def test_class_weights_and_sample_weights_set_the_bounds():
    X, y = _blobs(n_classes=2)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.3))
    train, test = _split(y.size)
    weights = np.linspace(0.2, 3.0, train.size)
    fold = _classifier_fold(K, y, train, seeded=False, weights=weights)
    fold.solve(0.5, *SOLVE)
    fresh = SVC(kernel="precomputed", C=0.5).fit(K[np.ix_(train, train)], y[train],
                                                 sample_weight=weights)
    coef = fold.dual_coef()[:, 0]
    assert np.all(np.abs(coef) <= 0.5 * weights[np.argsort(y[train], kind="stable")] + 1e-12)
    np.testing.assert_allclose(-fold.decision_values(K[np.ix_(test, fold.training_rows)])[:, 0],
                               fresh.decision_function(K[np.ix_(test, train)]), atol=1e-10)


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.5])
def test_regression_along_c_matches_fresh_fits(epsilon):
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, size=(160, 3))
    target = np.sin(3 * X[:, 0]) + X[:, 1] ** 2 + 0.1 * rng.normal(size=160)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=1.0))
    train, test = _split(target.size)
    fold = RegressorFold(K, train, target[train], np.ones(train.size), epsilon, True)
    for C in C_PATH[:8]:
        fold.solve(C, *SOLVE)
        fresh = SVR(kernel="precomputed", C=C, epsilon=epsilon).fit(K[np.ix_(train, train)],
                                                                    target[train])
        np.testing.assert_allclose(fold.predict(K[np.ix_(test, train)]),
                                   fresh.predict(K[np.ix_(test, train)]), rtol=0, atol=0.05)
        # The same optimum: the dual objectives agree within tol.
        warm = _fold_svr_objective(fold, K, train, target[train], epsilon)
        cold = _model_svr_objective(fresh, K, train, target[train], epsilon)
        assert abs(warm - cold) <= 1e-3 * max(1.0, abs(cold))


def _fold_svr_objective(fold, K, train, targets, epsilon):
    # predict on the identity block reads c - rho; rho is recovered from a zero row.
    block = np.vstack([np.eye(train.size), np.zeros(train.size)])
    values = fold.predict(block)
    coef = values[:-1] - values[-1]
    return 0.5 * coef @ K[np.ix_(train, train)] @ coef + epsilon * np.abs(coef).sum() \
        - targets @ coef


def _model_svr_objective(model, K, train, targets, epsilon):
    coef = np.zeros(train.size)
    coef[model.support_] = model.dual_coef_[0]
    return 0.5 * coef @ K[np.ix_(train, train)] @ coef + epsilon * np.abs(coef).sum() \
        - targets @ coef


def _both_searches(estimator, grid, X, y, cv, **kwargs):
    fit_params = kwargs.pop("fit_params", {})
    along_c = GridSearch(estimator, grid, cv=cv, refit=False, **kwargs).fit(X, y, **fit_params)
    plain = GridSearch(estimator, grid, cv=cv, refit=False, share_kernels=False,
                       **kwargs).fit(X, y, **fit_params)
    return along_c, plain


def _counting(monkeypatch):
    calls = []
    original = _kernel_groups.scores_along_c
    monkeypatch.setattr(_kernel_groups, "scores_along_c",
                        lambda *args: calls.append(1) or original(*args))
    return calls


@pytest.mark.parametrize("estimator, kwargs", [
    (SVC(), {}),
    (SVC(class_weight="balanced"), {"return_train_score": True}),
    (SVC(class_weight={1: 3.0, 11: 0.5}), {"scoring": "accuracy"}),
    (SVC(kernel="poly", degree=2, coef0=1.0), {}),
    (SVC(kernel="sigmoid", coef0=-1.0), {}),  # no seeds: every C from zero
    (SVC(), {"fit_params": {"sample_weight": np.linspace(0.5, 2.0, 180)}}),
])
def test_classification_search_along_c_scores_as_the_plain_search(monkeypatch, estimator,
                                                                   kwargs):
    calls = _counting(monkeypatch)
    X, y = _blobs()
    grid = {"C": [0.03125, 0.5, 8.0, 128.0], "gamma": [0.02, 0.3]}
    cv = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    along_c, plain = _both_searches(estimator, grid, X, y, cv, **kwargs)
    assert calls, "the search did not solve its folds along C"
    for key in ("mean_test_score", "split0_test_score", "mean_train_score"):
        if key in plain.cv_results_:
            np.testing.assert_allclose(along_c.cv_results_[key], plain.cv_results_[key],
                                       rtol=0, atol=0.02, err_msg=key)
    assert along_c.best_params_ == plain.best_params_


@pytest.mark.parametrize("scoring", [None, "neg_mean_squared_error", "r2"])
def test_regression_search_along_c_scores_as_the_plain_search(monkeypatch, scoring):
    calls = _counting(monkeypatch)
    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, size=(150, 3))
    y = X[:, 0] - 2 * X[:, 1] ** 2 + 0.1 * rng.normal(size=150)
    along_c, plain = _both_searches(SVR(), {"C": [0.1, 1.0, 10.0, 100.0], "gamma": [0.1, 1.0]},
                                    X, y, KFold(3, shuffle=True, random_state=0),
                                    scoring=scoring, return_train_score=True)
    assert calls
    for key in ("mean_test_score", "mean_train_score"):
        np.testing.assert_allclose(along_c.cv_results_[key], plain.cv_results_[key],
                                   rtol=0, atol=0.02 * max(1.0, np.abs(plain.cv_results_[key])
                                                           .max()), err_msg=key)
    assert along_c.best_params_ == plain.best_params_


@pytest.mark.parametrize("estimator, scoring", [
    (SVC(probability=True, random_state=0), None),
    (SVC(break_ties=True), None),
    (NuSVC(), None),
    (SVC(), "balanced_accuracy"),
    (SVC(), ["accuracy", "r2"]),
])
def test_the_per_fit_path_serves_what_needs_a_fitted_model(monkeypatch, estimator, scoring):
    calls = _counting(monkeypatch)
    X, y = _blobs(rows=60)
    grid = {"nu": [0.3, 0.5]} if isinstance(estimator, NuSVC) else {"C": [0.5, 2.0]}
    GridSearch(estimator, grid, cv=3, scoring=scoring, refit=False).fit(X, y)
    assert not calls


def _warned(search, X, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y)
    return search, sorted({type(warning.message).__name__ for warning in caught})


def test_failed_candidates_are_recorded_as_in_the_plain_search():
    X, y = _blobs(rows=60)
    grid = {"C": [-1.0, 1.0]}
    along_c, warned = _warned(GridSearch(SVC(), grid, cv=3, refit=False), X, y)
    plain, warned_plain = _warned(GridSearch(SVC(), grid, cv=3, refit=False,
                                             share_kernels=False), X, y)
    assert "FitFailedWarning" in warned and warned == warned_plain
    np.testing.assert_array_equal(along_c.cv_results_["split0_test_score"][:1], [np.nan])
    for search in (along_c, plain):
        assert np.isnan(search.cv_results_["mean_test_score"][0])
        assert np.isfinite(search.cv_results_["mean_test_score"][1])
    with pytest.raises(ValueError, match="C"):
        GridSearch(SVC(), grid, cv=3, refit=False, error_score="raise").fit(X, y)


def test_a_fold_with_one_class_fails_as_the_plain_search():
    X, y = _blobs(n_classes=2, rows=40)
    y = np.where(np.arange(40) < 30, 1, 11)  # the first fold's training rows: one class
    cv = [(np.arange(10, 30), np.arange(0, 10)), (np.arange(0, 40, 2), np.arange(1, 40, 2))]
    along_c, warned = _warned(GridSearch(SVC(), {"C": [1.0, 2.0]}, cv=cv, refit=False), X, y)
    assert "FitFailedWarning" in warned
    assert np.all(np.isnan(along_c.cv_results_["split0_test_score"]))
    assert np.all(np.isfinite(along_c.cv_results_["split1_test_score"]))


@pytest.mark.parametrize("bad_C", [None, "abc"])
def test_a_c_that_is_no_number_fails_its_candidate_as_in_the_plain_search(bad_C):
    X, y = _blobs(rows=60)
    grid = {"C": [1.0, bad_C]}
    along_c, warned = _warned(GridSearch(SVC(), grid, cv=3, refit=False), X, y)
    plain, warned_plain = _warned(GridSearch(SVC(), grid, cv=3, refit=False,
                                             share_kernels=False), X, y)
    assert "FitFailedWarning" in warned and warned == warned_plain
    np.testing.assert_array_equal(along_c.cv_results_["mean_test_score"],
                                  plain.cv_results_["mean_test_score"])


@pytest.mark.parametrize("estimator", [SVC(max_iter=40), SVR(max_iter=40)])
def test_with_max_iter_the_search_is_the_plain_one(estimator, monkeypatch):
    # A solve that max_iter stops ends where its path leads, and rounding differences
    # in the kernel values (the shared Gram matrix against the fit's own) move it: the
    # search fits on the samples, as the plain search does, to the same scores.
    X, y = _blobs(rows=150)
    if isinstance(estimator, SVR):
        y = X[:, 0] - X[:, 1] ** 2
    grid = {"C": [0.1, 1.0, 10.0, 1e6]}
    calls = _counting(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        along_c, plain = _both_searches(estimator, grid, X, y, 3)
    assert not calls
    np.testing.assert_array_equal(along_c.cv_results_["mean_test_score"],
                                  plain.cv_results_["mean_test_score"])


def test_with_max_iter_heart_scale_scores_as_scikit_learns_plain_search():
    # On heart_scale at C = 100, 50 pair updates on the shared Gram matrix ended at other
    # support vectors than the fits on the samples (split 0: 0.7407 against 0.6852).
    X, y = load_shared("heart_scale")
    X = X.toarray() if hasattr(X, "toarray") else X
    cv = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        along_c, plain = _both_searches(SVC(max_iter=50), {"C": [100.0], "gamma": [0.1]},
                                        X, y, cv)
        fits = [SVC(C=100.0, gamma=0.1, max_iter=50).fit(X[train], y[train]).score(X[test],
                                                                                   y[test])
                for train, test in cv]
    np.testing.assert_array_equal(along_c.cv_results_["mean_test_score"],
                                  plain.cv_results_["mean_test_score"])
    assert along_c.cv_results_["split0_test_score"][0] == fits[0]


def test_a_solve_stopped_at_max_iter_warns():
    X, y = _blobs()
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        GridSearch(SVC(max_iter=3), {"C": [1.0, 100.0]}, cv=3, refit=False).fit(X, y)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to this process is POSIX")
def test_ctrl_c_stops_the_search_from_inside_a_solve():
    # C = 1e5 on 3,000 noisy targets takes many seconds of solving (SMO and Newton
    # steps) over the folds: the signal lands in a solve, and the KeyboardInterrupt the
    # handler left pending leaves the search (no fold records it as a failed fit).
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(3000, 3))
    y = np.sin(3 * X[:, 0]) + X[:, 1] ** 2 + 0.3 * rng.normal(size=3000)
    # The kernel's interval timer sends the signal (a timer thread would first need the
    # GIL); its handler sends SIGINT, whose default handler raises KeyboardInterrupt.
    previous = signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            GridSearch(SVR(), {"C": [1e5], "gamma": [0.5]}, cv=5, refit=False).fit(X, y)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_quiet_where_every_solve_converges():
    X, y = _blobs()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GridSearch(SVC(), {"C": [1.0, 100.0]}, cv=3, refit=False).fit(X, y)


@pytest.mark.parametrize("name, rows", [("dna.scale", 600), ("pendigits", 600)])
def test_real_data_search_along_c_picks_the_plain_searchs_candidate(name, rows):
    X, y = load_shared(name)
    step = max(1, X.shape[0] // rows)
    X, y = X[::step][:rows], y[::step][:rows]
    X = X.toarray() if hasattr(X, "toarray") else X
    grid = {"C": [2.0 ** e for e in (-3, 1, 5, 9)], "gamma": [2.0 ** e for e in (-7, -3, 1)]}
    cv = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    along_c, plain = _both_searches(SVC(), grid, X, y, cv)
    np.testing.assert_allclose(along_c.cv_results_["mean_test_score"],
                               plain.cv_results_["mean_test_score"], rtol=0, atol=0.01)
    assert along_c.best_params_ == plain.best_params_


@pytest.mark.parametrize("n_classes", [2, 3])  # a matrix-vector product per class, or not
@pytest.mark.parametrize("C, gamma, separated, rows, gathered", [
    (1.0, 0.2, False, 180, False), (0.01, 0.2, False, 180, False),
    (1000.0, 0.2, False, 180, False),
    (1000.0, 0.01, True, 900, True),  # few support vectors: their columns gathered
])
def test_decision_values_take_one_kernel_column_per_training_row(n_classes, C, gamma,
                                                                 separated, rows, gathered):
    X, y = _blobs(n_classes=n_classes, rows=rows, spread=8.0 if separated else 1.5)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=gamma))
    train, test = _split(len(y))
    fold = _classifier_fold(K, y, train, seeded=True)
    fold.solve(C, *SOLVE)
    n_support = np.count_nonzero(np.abs(fold.dual_coef()).sum(axis=1))
    width = n_classes - 1  # the product's columns of coefficients per class
    cost = 8.0 if width == 1 else 40.0  # GATHER_COST, GATHER_COST_WIDE
    assert (n_support * (cost + width) <= train.size * width) == gathered
    block = K[np.ix_(test, fold.training_rows)]
    rho = -fold.decision_values(np.zeros((1, train.size)))[0]  # each pair's offset
    expected = block @ fold.dual_coef() - rho  # one product with the (rows, pairs) matrix
    np.testing.assert_allclose(fold.decision_values(block), expected, rtol=0, atol=1e-12)
    n_pairs = n_classes * (n_classes - 1) // 2
    assert fold.decision_values(block[:0]).shape == (0, n_pairs)
    with pytest.raises(ValueError, match="one column per training row"):
        fold.decision_values(block[:, 1:])


def test_a_fold_started_from_another_folds_solution_reaches_the_fresh_objective():
    X, y = _blobs(n_classes=4, rows=240)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.5))
    first, second = _split(y.size)[0], np.flatnonzero(np.arange(y.size) % 5 != 1)
    C = 4.0
    source = _classifier_fold(K, y, first, seeded=True)
    assert source.solution() is None  # nothing solved yet
    source.solve(C, *SOLVE)
    started = _classifier_fold(K, y, second, seeded=True)
    n_started, stopped_early = started.solve(C, *SOLVE, source.solution())
    assert not stopped_early
    reference = _pair_objectives(_fresh_as_fold(K, y, second, C), K)
    np.testing.assert_allclose(_pair_objectives(started, K), reference, rtol=1e-3, atol=1e-3)
    cold = _classifier_fold(K, y, second, seeded=True)
    n_cold, _ = cold.solve(C, *SOLVE)
    assert n_started.sum() < n_cold.sum()  # the folds share 3/4 of their rows
    # A start solved at another C is not taken: the solve is the one from zero.
    other = _classifier_fold(K, y, second, seeded=True)
    np.testing.assert_array_equal(other.solve(2 * C, *SOLVE, source.solution())[0],
                                  _classifier_fold(K, y, second, True).solve(2 * C, *SOLVE)[0])


@pytest.mark.parametrize("model", [SVC(), SVR(epsilon=0.01)], ids=["SVC", "SVR"])
def test_predictions_are_kept_only_while_no_solve_moves_a_solution(model):
    X, y = _blobs(n_classes=3, spread=8.0)  # apart: no bounded alpha from a moderate C on
    if isinstance(model, SVR):
        y = X[:, 0] * 0.5
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.05))
    train, test = _split(len(y))
    fold = FoldAlongC(K)
    fold.pose(model, train, y[train], None, True)
    fold.solve(0.01)  # many alphas at the bound: the next C moves them
    first = fold.predict(test)
    fold.solve(1e3)
    assert fold.fold.changed
    moved = fold.predict(test)
    fresh = FoldAlongC(K)
    fresh.pose(model, train, y[train], None, True)
    fresh.solve(0.01)
    fresh.solve(1e3)
    np.testing.assert_array_equal(moved, fresh.predict(test))
    if isinstance(model, SVR):
        assert not np.array_equal(first, moved)
        return
    fold.solve(1e6)  # separable: the solution at 1e3 is still optimal
    assert not fold.fold.changed
    kept = fold.predict(test)
    np.testing.assert_array_equal(kept, moved)
    kept[:] = -1  # a copy: the next call is not changed by it
    np.testing.assert_array_equal(fold.predict(test), moved)


def _bound_start_case(name):
    """A Gram matrix, labels and training rows: 600 rows of a shared set (skipped when the
    shared data are absent) or overlapping blobs."""
    if name == "blobs":
        X, y = _blobs(n_classes=3, rows=300, spread=1.0)
    else:
        X, y = load_shared(name)
        X, y = X[:: max(1, X.shape[0] // 600)][:600], y[:: max(1, X.shape[0] // 600)][:600]
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=1.0 / X.shape[1]))
    return K, y, _split(y.size)[0]


@pytest.mark.parametrize("name", ["blobs", "pendigits", "svmguide1", "dna.scale"])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_first_small_c_starts_at_the_bounds_and_reaches_the_fresh_optimum(name, weighted):
    """At LIBSVM's first C (2^-5) most variables of the optimum sit at C: a seeded fold's
    first solve starts there (`SeededProblem.bound_start`, its gradient from the Gram
    matrix) and reaches the fresh fit's objective in fewer SMO steps than from zero."""
    K, y, train = _bound_start_case(name)
    weights = np.linspace(0.5, 2.0, train.size) if weighted else None
    seeded = _classifier_fold(K, y, train, seeded=True, weights=weights)
    fresh = _classifier_fold(K, y, train, seeded=False, weights=weights)
    C = 2.0 ** -5
    seeded_iter, _ = seeded.solve(C, *SOLVE)
    fresh_iter, _ = fresh.solve(C, *SOLVE)
    np.testing.assert_allclose(_pair_objectives(seeded, K), _pair_objectives(fresh, K),
                               rtol=1e-3, atol=1e-3)
    assert seeded_iter.sum() < 0.8 * fresh_iter.sum()
    # The next C goes on from the bound start's solution as from any other.
    test = np.setdiff1d(np.arange(y.size), train)
    _same_decisions(seeded, fresh, K[np.ix_(test, seeded.training_rows)])
    seeded.solve(4 * C, *SOLVE)
    fresh.solve(4 * C, *SOLVE)
    np.testing.assert_allclose(_pair_objectives(seeded, K), _pair_objectives(fresh, K),
                               rtol=1e-3, atol=1e-3)
    _same_decisions(seeded, fresh, K[np.ix_(test, seeded.training_rows)])


def _same_decisions(fold, other, block):
    """The held-out decision values of two folds at the same optimum within tol: the
    same dual, and the same bias where it is pinned (a free variable) or left to SMO's
    midpoint (every variable at a bound)."""
    np.testing.assert_allclose(fold.decision_values(block), other.decision_values(block),
                               rtol=0, atol=5e-3)


def test_a_balanced_fold_at_a_tiny_c_keeps_smos_bias():
    """Balanced classes at C = 0.01: the optimum has every variable at C and no free one,
    and its bias is SMO's midpoint. The bound start must not cut a variable by the
    rounding of y'a (it would be free by an ulp and pin the bias elsewhere)."""
    rng = np.random.RandomState(0)
    X = np.vstack([rng.randn(20, 2) - 1, rng.randn(20, 2) + 1])
    y = np.repeat([0, 1], 20)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=1.0 / (2 * X.var())))
    train, test = _split(y.size)
    seeded = _classifier_fold(K, y, train, seeded=True)
    fresh = _classifier_fold(K, y, train, seeded=False)
    seeded.solve(0.01, *SOLVE)
    fresh.solve(0.01, *SOLVE)
    np.testing.assert_allclose(seeded.dual_coef(), fresh.dual_coef(), rtol=0, atol=1e-12)
    _same_decisions(seeded, fresh, K[np.ix_(test, seeded.training_rows)])


def test_a_large_first_c_starts_from_zero_where_the_bounds_would_not_hold():
    """At a large first C few variables of the optimum are bounded: the bound start is
    declined and the seeded fold's first solve is the fresh fit's, step for step."""
    X, y = _blobs(n_classes=2, spread=3.0)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.5))
    train, _ = _split(y.size)
    seeded = _classifier_fold(K, y, train, seeded=True)
    fresh = _classifier_fold(K, y, train, seeded=False)
    seeded_iter, _ = seeded.solve(100.0, *SOLVE)
    fresh_iter, _ = fresh.solve(100.0, *SOLVE)
    np.testing.assert_array_equal(seeded_iter, fresh_iter)
    np.testing.assert_array_equal(seeded.dual_coef(), fresh.dual_coef())


@pytest.mark.parametrize("seed", [0, 3, 4])
def test_shared_search_scores_the_cold_searchs_rows_at_lib_svms_grid(seed):
    """LIBSVM's grid over 600 scaled pendigits rows (10 classes): every candidate's mean
    score within a row of the cold search's. At C = 2^-5 with a wide gamma every variable
    is bounded and the held-out votes hang on the bias alone; a fold started from another
    fold's solution cut to its rows gave 8-13 of 600 rows otherwise (a user's report)."""
    from svmx.preprocessing import SvmScaler

    X, y = load_shared("pendigits")
    rows = np.random.RandomState(seed).choice(X.shape[0], 600, replace=False)
    X, y = SvmScaler().fit_transform(X[rows]), y[rows]
    grid = {"C": C_PATH, "gamma": [2.0 ** e for e in range(3, -16, -2)]}
    folds = list(StratifiedKFold(5).split(X, y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        shared, cold = (GridSearch(SVC(), grid, cv=folds, share_kernels=share).fit(X, y)
                        for share in (True, False))
    gap = np.abs(shared.cv_results_["mean_test_score"] - cold.cv_results_["mean_test_score"])
    assert gap.max() <= 1.0 / 600 + 1e-12
    assert shared.best_params_ == cold.best_params_


@pytest.mark.parametrize("n_classes", [2, 4])
def test_the_class_sums_are_the_bound_starts_products_as_smo_sees_them(n_classes):
    """`class_sums`: per class, its training rows' bounds times their rows of K rounded
    to float32, over every row of K; a pair's bound start is two of them at its rows,
    and so the same Q u (to rounding) as Q's own product."""
    X, y = _blobs(n_classes=n_classes, rows=200)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=0.4))
    train, _ = _split(y.size)
    weights = np.linspace(0.5, 2.0, train.size)
    fold = _classifier_fold(K, y, train, seeded=True, weights=weights)
    sums = fold.class_sums()
    K32 = K.astype(np.float32).astype(np.float64)
    classes, codes = np.unique(y[train], return_inverse=True)
    assert sums.shape == (classes.size, y.size)
    for c in range(classes.size):
        rows = train[codes == c]
        np.testing.assert_allclose(sums[c], K32[:, rows] @ weights[codes == c],
                                   rtol=1e-13, atol=1e-13)
    first, second = train[codes == 0], train[codes == 1]
    rows = np.concatenate([first, second])
    labels = np.concatenate([np.ones(first.size), -np.ones(second.size)])
    Q = K32[np.ix_(rows, rows)] * np.outer(labels, labels)
    u = np.concatenate([weights[codes == 0], weights[codes == 1]])
    np.testing.assert_allclose(labels * (sums[0, rows] - sums[1, rows]), Q @ u,
                               rtol=1e-13, atol=1e-12)


def test_kernel_block_is_numpys_block_and_names_bad_positions():
    from svmx._libsvm import kernel_block

    K = np.arange(30.0).reshape(5, 6)
    rows, columns = np.array([4, 0, 2]), np.array([5, 1, 1, 3])
    np.testing.assert_array_equal(kernel_block(K, rows, columns), K[np.ix_(rows, columns)])
    assert kernel_block(K, rows[:0], columns).shape == (0, 4)
    with pytest.raises(ValueError, match="rows must be positions in \\[0, 5\\)"):
        kernel_block(K, np.array([5]), columns)
    with pytest.raises(ValueError, match="columns must be positions in \\[0, 6\\)"):
        kernel_block(K, rows, np.array([-1]))


def test_a_start_already_optimal_is_taken_without_the_solver_and_predicts_as_fresh():
    """At small C with a wide kernel every variable stays at its bound from one C to the
    next: the scaled start meets SMO's stopping rule as posed, so the solve takes it
    (`SeededProblem.take_posed`, no pair update) with the solver's bias and gradient,
    and predicts as the fresh fit does."""
    X, y = _blobs(n_classes=3, rows=240, spread=0.5)
    K = gram_matrix(X, KernelSpec.named("rbf", gamma=2.0 ** -9))
    train, test = _split(y.size)
    seeded = _classifier_fold(K, y, train, seeded=True)
    block = K[np.ix_(test, seeded.training_rows)]
    untouched = 0
    for C in C_PATH[:5]:
        seeded_iter, _ = seeded.solve(C, *SOLVE)
        untouched += int(np.sum(seeded_iter == 0))
        fresh = _classifier_fold(K, y, train, seeded=False)
        fresh.solve(C, *SOLVE)
        np.testing.assert_allclose(_pair_objectives(seeded, K), _pair_objectives(fresh, K),
                                   rtol=1e-3, atol=1e-3)
        _same_decisions(seeded, fresh, block)
        # Pair (0, 1)'s kept gradient is its solution's: G = Q alpha - 1 (Q as SMO sees it).
        classes, codes = np.unique(y[train], return_inverse=True)
        rows = np.concatenate([train[codes == 0], train[codes == 1]])
        labels = np.repeat([1.0, -1.0], [np.sum(codes == 0), np.sum(codes == 1)])
        Q = K[np.ix_(rows, rows)].astype(np.float32).astype(np.float64) * np.outer(labels,
                                                                                  labels)
        alpha = np.abs(seeded.dual_coef()[:rows.size, 0])
        np.testing.assert_allclose(seeded.gradients()[0][0], Q @ alpha - 1.0, rtol=0,
                                   atol=1e-10 * max(1.0, np.abs(Q).sum(axis=0).max() * C))
    assert untouched >= 6  # three pairs, most of the path without a pair update


@pytest.mark.parametrize("class_weight", ["balanced", {1: 1.25 * (1 + 1e-15)}, {1: 1.25}])
def test_bounds_tied_by_rounding_give_the_cold_searchs_scores(class_weight):
    """heart_scale with class weights whose bound sums are equal but for rounding: LIBSVM's
    SMO from zero ends with one variable an ulp inside its box, which alone sets rho; the
    fold path's bound start ended without it (held-out accuracy 0.80 at every small C where
    the per-candidate search has 0.50 and 0.77, and picked another C). Such solves are
    solved again from zero, so the scores and the choice are the cold search's."""
    from conftest import load_shared

    from svmx.model_selection import GridSearch, StratifiedKFold

    X, y = load_shared("heart_scale")
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    grid = {"C": [0.001, 0.03, 1.0], "gamma": [0.01, 0.1]}
    shared = GridSearch(SVC(class_weight=class_weight), grid, cv=cv).fit(X, y)
    cold = GridSearch(SVC(class_weight=class_weight), grid, cv=cv, share_kernels=False).fit(X, y)
    np.testing.assert_array_equal(shared.cv_results_["mean_test_score"],
                                  cold.cv_results_["mean_test_score"])
    assert shared.best_params_ == cold.best_params_
