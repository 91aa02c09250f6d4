"""A model's support-vector layouts kept between predictions (svmx._engine.layout_cache).

The cache must never change a value: every call with it equals the call without it, and
support vectors, class sizes or coefficients changed after a prediction (in place or
replaced) are what the next prediction uses. Pickles and copies of a fitted estimator
leave the cache behind.
"""

import copy
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

from svmx import SVC, SVR
from svmx._engine import predict
from svmx._engine.layout_cache import MAX_CACHED_ENTRIES, LayoutCache
from svmx._fitted import LAYOUT_CACHE

RBF = {"kernel_type": 2, "degree": 3, "gamma": 0.3, "coef0": 0.0}


def model(sparse, n_classes=3, n_support=(4, 3, 5), n_features=7, seed=0):
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(sum(n_support), n_features))
    vectors[rng.random(vectors.shape) < 0.5] = 0.0
    dual_coef = rng.normal(size=(n_classes - 1, sum(n_support)))
    return (sp.csr_matrix(vectors) if sparse else vectors), dual_coef, np.array(n_support)


def values(X, vectors, dual_coef, n_support, cache=None, layout="auto"):
    return predict.decision_values(X, vectors, dual_coef, n_support, layout=layout,
                                   cache=cache, **RBF)


@pytest.mark.parametrize("sparse_vectors", [False, True], ids=["dense_sv", "csr_sv"])
@pytest.mark.parametrize("layout", ["auto", "transposed", "columns"])
@pytest.mark.parametrize("sparse_rows", [False, True], ids=["dense_X", "csr_X"])
def test_cached_calls_equal_uncached_ones_bit_for_bit(sparse_vectors, layout, sparse_rows):
    if layout == "columns" and not sparse_vectors:
        pytest.skip("the columns layout is for sparse support vectors")
    vectors, dual_coef, n_support = model(sparse_vectors)
    X = np.random.default_rng(1).normal(size=(30, 7))
    X = sp.csr_matrix(X) if sparse_rows else X
    cache = LayoutCache()
    expected = values(X, vectors, dual_coef, n_support, layout=layout)
    for _ in range(3):  # built on the first call, read on the others
        assert_array_equal(values(X, vectors, dual_coef, n_support, cache, layout), expected)


@pytest.mark.parametrize("sparse_vectors", [False, True], ids=["dense_sv", "csr_sv"])
def test_vectors_changed_in_place_are_laid_out_again(sparse_vectors):
    vectors, dual_coef, n_support = model(sparse_vectors)
    X = np.random.default_rng(2).normal(size=(10, 7))
    cache = LayoutCache()
    values(X, vectors, dual_coef, n_support, cache)
    stored = vectors.data if sparse_vectors else vectors
    stored[3] += 1.5  # one stored value of the fourth vector (or its row, dense)
    assert_array_equal(values(X, vectors, dual_coef, n_support, cache),
                       values(X, vectors, dual_coef, n_support))
    if sparse_vectors:  # the same values at other columns
        vectors.indices[:] = (vectors.indices + 1) % 7
        vectors.has_sorted_indices = False
        assert_array_equal(values(X, vectors, dual_coef, n_support, cache),
                           values(X, vectors, dual_coef, n_support))


def test_new_vectors_class_sizes_and_coefficients_are_used():
    vectors, dual_coef, n_support = model(False)
    X = np.random.default_rng(3).normal(size=(10, 7))
    cache = LayoutCache()
    values(X, vectors, dual_coef, n_support, cache)
    other, other_coef, _ = model(False, seed=5)
    assert_array_equal(values(X, other, other_coef, n_support, cache),
                       values(X, other, other_coef, n_support))
    resized = np.array([6, 1, 5])
    assert_array_equal(values(X, other, other_coef, resized, cache),
                       values(X, other, other_coef, resized))
    two_class = other_coef[:1]
    assert_array_equal(values(X, other, two_class, np.array([5, 7]), cache),
                       values(X, other, two_class, np.array([5, 7])))


def test_a_layout_over_the_size_limit_is_built_per_call():
    # 1,100 sparse vectors of 4,096 features store 2,200 entries, but their transposed
    # copy has 4.5M (36 MB): it is not kept, so a model never holds it for its lifetime.
    rng = np.random.default_rng(8)
    n_support, n_features = 1100, 4096
    assert n_support * n_features > MAX_CACHED_ENTRIES
    vectors = sp.random(n_support, n_features, density=2 / n_features, format="csr",
                        random_state=rng)
    dual_coef, counts = rng.normal(size=(1, n_support)), np.array([600, 500])
    X = np.zeros((2, n_features))
    X[:, :3] = 1.0
    cache = LayoutCache()
    expected = values(X, vectors, dual_coef, counts, layout="transposed")
    for _ in range(2):
        assert_array_equal(values(X, vectors, dual_coef, counts, cache, "transposed"),
                           expected)
    layouts = cache.layouts_for(vectors)
    assert "transposed" not in layouts
    values(X, vectors, dual_coef, counts, cache, "columns")
    assert "columns" in layouts  # the columns hold the stored entries only


def test_layouts_are_kept_only_for_plain_arrays_and_csr():
    cache = LayoutCache()
    assert cache.layouts_for(np.ones((3, 2))) == {}
    assert cache.layouts_for(np.ones((3, 2), dtype=np.float32)) is None
    assert cache.layouts_for(np.asfortranarray(np.ones((3, 2)))) is None
    assert cache.layouts_for(sp.csc_matrix(np.ones((3, 2)))) is None
    assert cache.layouts_for(sp.csr_matrix(np.ones((3, 2)))) == {}


def test_estimators_keep_one_cache_that_pickles_and_copies_leave_out():
    rng = np.random.default_rng(4)
    X, y = rng.normal(size=(60, 5)), np.arange(60) % 3
    clf = SVC().fit(X, y)
    cache = clf.__dict__[LAYOUT_CACHE]
    assert isinstance(cache, LayoutCache)
    expected = clf.decision_function(X)
    assert clf.__dict__[LAYOUT_CACHE] is cache  # predicting changes nothing in __dict__
    assert LAYOUT_CACHE not in clf.__getstate__()
    for clone in (pickle.loads(pickle.dumps(clf)), copy.deepcopy(clf)):
        assert clone.__dict__[LAYOUT_CACHE] is not cache  # an empty one of its own
        assert clone.__dict__[LAYOUT_CACHE].layouts_for(clone.support_vectors_) == {}
        assert_array_equal(clone.decision_function(X), expected)
    assert LAYOUT_CACHE not in pickle.loads(pickle.dumps(SVC())).__dict__
    # A cache is no part of the model: equal fits have equal states, whatever they hold.
    assert SVC().fit(X, y).__dict__[LAYOUT_CACHE] == cache
    clf.support_vectors_[0] *= 2.0  # the user's edit reaches the next prediction
    uncached = copy.deepcopy(clf)
    uncached.__dict__.pop(LAYOUT_CACHE)
    assert_array_equal(clf.decision_function(X), uncached.decision_function(X))
    assert not np.array_equal(clf.decision_function(X), expected)


def test_refit_predicts_with_the_new_model():
    rng = np.random.default_rng(6)
    X = sp.csr_matrix(rng.normal(size=(80, 4)))
    y = rng.normal(size=80)
    reg = SVR().fit(X, y)
    reg.predict(X)
    reg.fit(X, -y)
    assert_array_equal(reg.predict(X), SVR().fit(X, -y).predict(X))
