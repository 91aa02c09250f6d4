"""The LRU kernel-column cache (svmx._engine.cache.KernelCache) through its inspection surface.

The cache stores float32 prefixes of the columns of an l x l matrix. Tests fill each column they
request with entries of a known matrix, so a wrong eviction, reuse or swap shows up as a wrong
value, not only as a wrong bookkeeping number.
"""

import doctest
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svmx._engine.cache as cache_module
from svmx._engine.cache import CacheMemories, KernelCache

# Per-column bookkeeping charged against the budget, in float32 slots: the column's data pointer,
# its length and its two LRU links (3 ints).
BOOKKEEPING_FLOATS = (struct.calcsize("P") + 3 * 4) // 4


def budget_bytes(l, floats):  # noqa: E741
    """The size in bytes that leaves exactly `floats` float32 entries for l columns."""
    return 4 * (floats + l * BOOKKEEPING_FLOATS)


def request_and_fill(cache, index, length, matrix):
    """Request a prefix of column `index` and write the missing entries from `matrix`."""
    start = cache.request(index, length)
    if start < length:
        cache.fill(index, matrix[start:length, index], start)
    return start


def entry_matrix(l):  # noqa: E741
    """An l x l float32 matrix whose entry (r, c) encodes (r, c) exactly."""
    rows, columns = np.indices((l, l))
    return (columns * 100 + rows).astype(np.float32)


# --- budget -------------------------------------------------------------------------------------


def test_budget_is_bytes_over_four_minus_bookkeeping():
    assert KernelCache(10, 4000).free_floats == 1000 - 10 * BOOKKEEPING_FLOATS
    assert KernelCache(10, budget_bytes(10, 123)).free_floats == 123
    # Fractions of a float are dropped, not rounded up.
    assert KernelCache(10, budget_bytes(10, 123) + 3.9).free_floats == 123


@pytest.mark.parametrize("size_bytes", [0.0, 1.0, budget_bytes(50, 99)])
def test_budget_floor_is_two_full_columns(size_bytes):
    cache = KernelCache(50, size_bytes)
    assert cache.free_floats == 100
    matrix = entry_matrix(50)
    assert request_and_fill(cache, 0, 50, matrix) == 0
    assert request_and_fill(cache, 1, 50, matrix) == 0
    assert cache.lru_order() == [0, 1]
    assert cache.free_floats == 0
    # A third column needs the room of the least recently used one.
    assert request_and_fill(cache, 2, 50, matrix) == 0
    assert cache.lru_order() == [1, 2]
    assert cache.cached_length(0) == 0
    np.testing.assert_array_equal(cache.column(1), matrix[:, 1])


@pytest.mark.parametrize("n_fit", [2, 3, 7])
def test_exactly_the_full_columns_that_fit_are_kept(n_fit):
    l = 40  # noqa: E741
    cache = KernelCache(l, budget_bytes(l, n_fit * l + l - 1))  # one entry short of n_fit + 1
    matrix = entry_matrix(l)
    for index in range(n_fit):
        request_and_fill(cache, index, l, matrix)
    assert cache.lru_order() == list(range(n_fit))
    assert cache.free_floats == l - 1
    request_and_fill(cache, n_fit, l, matrix)
    assert cache.lru_order() == list(range(1, n_fit + 1))
    assert cache.free_floats == l - 1


def test_one_megabyte_holds_the_expected_number_of_columns():
    # The binding passes cache_size MB as cache_size * 2**20 bytes.
    l = 1000  # noqa: E741
    cache = KernelCache(l, 1.0 * 1048576)
    n_fit = (1048576 // 4 - l * BOOKKEEPING_FLOATS) // l
    assert n_fit == 257
    for index in range(n_fit):
        assert cache.request(index, l) == 0
    assert len(cache.lru_order()) == n_fit
    cache.request(n_fit, l)
    assert cache.lru_order()[0] == 1
    assert cache.cached_length(0) == 0


# --- LRU order ----------------------------------------------------------------------------------


def test_eviction_takes_the_least_recently_used_first():
    l = 10  # noqa: E741
    cache = KernelCache(l, budget_bytes(l, 3 * l))
    matrix = entry_matrix(l)
    for index in (4, 7, 2):
        request_and_fill(cache, index, l, matrix)
    assert cache.lru_order() == [4, 7, 2]
    request_and_fill(cache, 5, l, matrix)
    assert cache.lru_order() == [7, 2, 5]
    assert cache.cached_length(4) == 0
    request_and_fill(cache, 4, l, matrix)
    assert cache.lru_order() == [2, 5, 4]
    for index in (2, 5, 4):
        np.testing.assert_array_equal(cache.column(index), matrix[:, index])


def test_a_re_requested_column_becomes_the_most_recent_and_survives():
    l = 10  # noqa: E741
    cache = KernelCache(l, budget_bytes(l, 3 * l))
    matrix = entry_matrix(l)
    for index in (0, 1, 2):
        request_and_fill(cache, index, l, matrix)
    # Fully cached: nothing to compute, but the column moves to the end.
    assert cache.request(0, l) == l
    assert cache.lru_order() == [1, 2, 0]
    # A shorter prefix of a cached column also counts as a use.
    assert cache.request(1, 3) == 3
    assert cache.lru_order() == [2, 0, 1]
    request_and_fill(cache, 3, l, matrix)
    assert cache.lru_order() == [0, 1, 3]
    np.testing.assert_array_equal(cache.column(0), matrix[:, 0])


def test_reading_a_column_does_not_change_the_order():
    cache = KernelCache(4, 1024)
    for index in (0, 1, 2):
        cache.request(index, 4)
    cache.column(0)
    cache.cached_length(0)
    cache.fill(0, [1.0])
    assert cache.lru_order() == [0, 1, 2]


# --- reuse of cached prefixes -------------------------------------------------------------------


def test_longer_request_returns_where_the_cached_part_ends_and_keeps_it():
    l = 12  # noqa: E741
    cache = KernelCache(l, 1e6)
    free_at_start = cache.free_floats
    matrix = entry_matrix(l)
    assert request_and_fill(cache, 3, 4, matrix) == 0
    assert cache.free_floats == free_at_start - 4
    assert cache.request(3, 9) == 4
    assert cache.cached_length(3) == 9
    assert cache.free_floats == free_at_start - 9
    # The old prefix survived the reallocation; the caller fills only [4, 9).
    np.testing.assert_array_equal(cache.column(3)[:4], matrix[:4, 3])
    cache.fill(3, matrix[4:9, 3], 4)
    np.testing.assert_array_equal(cache.column(3), matrix[:9, 3])


@pytest.mark.parametrize("length", [0, 1, 5, 9])
def test_shorter_or_equal_request_has_nothing_to_compute(length):
    l = 12  # noqa: E741
    cache = KernelCache(l, 1e6)
    matrix = entry_matrix(l)
    request_and_fill(cache, 3, 9, matrix)
    free_before = cache.free_floats
    assert cache.request(3, length) == length
    assert cache.cached_length(3) == 9
    assert cache.free_floats == free_before
    np.testing.assert_array_equal(cache.column(3), matrix[:9, 3])


def test_zero_length_request_of_an_uncached_column_leaves_the_list_intact():
    # Regression: get_data used to link an empty column into the LRU list; a second request
    # linked it twice and made the list cyclic (the eviction loop would then spin forever).
    cache = KernelCache(4, 0)
    assert cache.request(1, 0) == 0
    assert cache.request(1, 0) == 0
    assert cache.lru_order() == []
    assert cache.cached_length(1) == 0
    assert cache.request(1, 4) == 0
    assert cache.request(2, 4) == 0
    assert cache.request(3, 4) == 0
    assert cache.lru_order() == [2, 3]


# --- eviction frees what it held ----------------------------------------------------------------


def test_eviction_frees_the_evicted_lengths_and_no_more_columns_than_needed():
    l = 20  # noqa: E741
    cache = KernelCache(l, budget_bytes(l, 50))
    matrix = entry_matrix(l)
    for index, length in ((0, 5), (1, 10), (2, 15), (3, 20)):
        request_and_fill(cache, index, length, matrix)
    assert cache.free_floats == 0
    # 12 more entries for column 4: evicting column 0 (5) is not enough, 0 and 1 (15) are.
    request_and_fill(cache, 4, 12, matrix)
    assert cache.lru_order() == [2, 3, 4]
    assert cache.free_floats == 15 - 12
    # Growing column 2 by 5 evicts column 3 only; column 2 itself is never its own victim.
    assert cache.request(2, 20) == 15
    assert cache.lru_order() == [4, 2]
    assert cache.free_floats == 3 + 20 - 5
    np.testing.assert_array_equal(cache.column(2)[:15], matrix[:15, 2])
    np.testing.assert_array_equal(cache.column(4), matrix[:12, 4])


# --- swap_index ---------------------------------------------------------------------------------


def test_swap_moves_columns_swaps_entries_and_evicts_partial_columns():
    l = 6  # noqa: E741
    cache = KernelCache(l, 1e6)
    free_at_start = cache.free_floats
    matrix = entry_matrix(l)
    request_and_fill(cache, 0, 3, matrix)  # covers 1 but not 4: cannot stay consistent
    request_and_fill(cache, 1, 6, matrix)  # covers both: becomes column 4, entries swapped
    request_and_fill(cache, 2, 1, matrix)  # covers neither: untouched
    request_and_fill(cache, 5, 5, matrix)  # covers both (4 < 5)
    cache.swap(1, 4)
    assert cache.lru_order() == [2, 5, 4]
    assert [cache.cached_length(index) for index in range(l)] == [0, 0, 1, 0, 6, 5]
    assert cache.free_floats == free_at_start - 12
    permuted = matrix[np.ix_([0, 4, 2, 3, 1, 5], [0, 4, 2, 3, 1, 5])]
    np.testing.assert_array_equal(cache.column(4), permuted[:, 4])
    np.testing.assert_array_equal(cache.column(5), permuted[:5, 5])
    np.testing.assert_array_equal(cache.column(2), permuted[:1, 2])


def test_swap_of_two_cached_columns_appends_them_in_argument_order():
    l = 5  # noqa: E741
    cache = KernelCache(l, 1e6)
    matrix = entry_matrix(l)
    for index in (3, 0, 1):
        request_and_fill(cache, index, l, matrix)
    cache.swap(3, 0)
    assert cache.lru_order() == [1, 3, 0]
    np.testing.assert_array_equal(cache.column(3), matrix[[3, 1, 2, 0, 4], 0])
    np.testing.assert_array_equal(cache.column(0), matrix[[3, 1, 2, 0, 4], 3])


def test_swap_with_itself_changes_nothing():
    cache = KernelCache(3, 1e6)
    matrix = entry_matrix(3)
    request_and_fill(cache, 0, 3, matrix)
    request_and_fill(cache, 1, 2, matrix)
    cache.swap(1, 1)
    assert cache.lru_order() == [0, 1]
    np.testing.assert_array_equal(cache.column(0), matrix[:, 0])


# --- a reference model under random operations --------------------------------------------------


class ModelCache:
    """A plain-Python LRU cache with LIBSVM's rules, to compare KernelCache against."""

    def __init__(self, l, free):  # noqa: E741
        self.l = l
        self.free = free
        self.length = [0] * l
        self.order = []  # least recently used first

    def evict(self, index):
        self.order.remove(index)
        self.free += self.length[index]
        self.length[index] = 0

    def request(self, index, length):
        cached = self.length[index]
        if cached:
            self.order.remove(index)
        start = length
        if length > cached:
            while self.free < length - cached and self.order:
                self.evict(self.order[0])
            self.free -= length - cached
            self.length[index] = length
            start = cached
        if self.length[index]:
            self.order.append(index)
        return start

    def swap(self, i, j):
        if i == j:
            return
        for index in (i, j):
            if self.length[index]:
                self.order.remove(index)
        self.length[i], self.length[j] = self.length[j], self.length[i]
        for index in (i, j):
            if self.length[index]:
                self.order.append(index)
        low, high = min(i, j), max(i, j)
        for index in list(self.order):
            if low < self.length[index] <= high:
                self.evict(index)


@st.composite
def cache_scenarios(draw, smallest=1, largest=9, min_size=0, max_size=40):
    """(l, float budget, operations): requests of a prefix of a column and swaps."""
    l = draw(st.integers(smallest, largest))  # noqa: E741
    floats = draw(st.integers(0, l * l + 3))
    index = st.integers(0, l - 1)
    operation = st.one_of(
        st.tuples(st.just("request"), index, st.integers(0, l)),
        st.tuples(st.just("swap"), index, index),
    )
    return l, floats, draw(st.lists(operation, min_size=min_size, max_size=max_size))


def dirtied_memories(l):  # noqa: E741
    """A CacheMemories whose one block a finished cache has filled with garbage."""
    memories = CacheMemories(1, l * l)
    previous = KernelCache(l, budget_bytes(l, l * l), memories)
    assert previous.slab_mode
    for index in range(l):
        request_and_fill(previous, index, l, np.full((l, l), -7.5, np.float32))
    return memories


def run_against_model(scenario, shared_memory, inspect_each_step):
    """Play `scenario` on a KernelCache and on ModelCache; compare the state (LRU order,
    budget, lengths, every column's entries) after each operation, or only at the end,
    the requests' starts after each (inspection applies every logged swap at once)."""
    l, floats, operations = scenario  # noqa: E741
    memories = dirtied_memories(l) if shared_memory else None
    cache = KernelCache(l, budget_bytes(l, floats), memories)
    assert cache.slab_mode == (shared_memory and max(floats, 2 * l) >= l * l)
    model = ModelCache(l, max(floats, 2 * l))
    matrix = entry_matrix(l)
    # position -> original index: the cache must hold entries of the permuted matrix
    permutation = np.arange(l)

    def check_state():
        assert cache.lru_order() == model.order
        assert cache.free_floats == model.free
        assert [cache.cached_length(index) for index in range(l)] == model.length
        current = matrix[np.ix_(permutation, permutation)]
        for index in range(l):
            np.testing.assert_array_equal(
                cache.column(index), current[: model.length[index], index]
            )

    for name, a, b in operations:
        if name == "request":
            start = cache.request(a, b)
            assert start == model.request(a, b)
            current = matrix[np.ix_(permutation, permutation)]
            if inspect_each_step:
                np.testing.assert_array_equal(cache.column(a)[:start], current[:start, a])
            if start < b:
                cache.fill(a, current[start:b, a], start)
        else:
            cache.swap(a, b)
            model.swap(a, b)
            permutation[[a, b]] = permutation[[b, a]]
        if inspect_each_step:
            check_state()
    check_state()


@settings(max_examples=150, deadline=None)
@given(cache_scenarios(), st.booleans())
def test_cache_matches_a_reference_model(scenario, shared_memory):
    """With a CacheMemories the caches whose budget holds the matrix keep their columns
    in a block a previous cache has written over: they must behave the same."""
    run_against_model(scenario, shared_memory, inspect_each_step=True)


@settings(max_examples=150, deadline=None)
# Runs long enough to fill the swap log (64 swaps for these sizes) more than once.
@given(cache_scenarios(smallest=2, largest=12, min_size=20, max_size=300), st.booleans())
def test_logged_swaps_reach_each_column_as_the_solver_reads_it(scenario, shared_memory):
    """Without inspection between operations (which applies every logged swap), only the
    requests and fills the solver makes: each request must find the start LIBSVM's eager
    swaps give, and the columns at the end the entries of the permuted matrix."""
    run_against_model(scenario, shared_memory, inspect_each_step=False)


# --- slab mode: one block of columns, handed from cache to cache ---------------------------------


def test_slab_mode_needs_memories_and_a_budget_that_holds_the_whole_matrix():
    memories = CacheMemories(2)
    assert KernelCache(20, budget_bytes(20, 400), memories).slab_mode
    assert not KernelCache(20, budget_bytes(20, 399), memories).slab_mode
    assert not KernelCache(20, budget_bytes(20, 400)).slab_mode


def test_a_block_passes_to_the_next_cache_and_live_caches_never_share_one():
    memories = CacheMemories(1, 30 * 30)
    first = KernelCache(30, 1e6, memories)
    second = KernelCache(20, 1e6, memories)  # the one block is held: a malloc per column
    assert first.slab_mode and not second.slab_mode and memories.n_blocks == 1
    del first
    third = KernelCache(25, 1e6, memories)
    assert third.slab_mode and memories.n_blocks == 1
    del third
    bigger = KernelCache(40, 1e6, memories)  # the free block is too small: replaced
    assert bigger.slab_mode and memories.n_blocks == 1


@pytest.mark.parametrize("seed", range(20))
def test_caches_sharing_memories_stay_within_their_budgets(seed):
    # Caches of random sizes and budgets come and go over one pool of two blocks
    # (made for a larger matrix than most take). A cache holds a block no smaller than
    # its matrix and no larger than its budget; a cache without a block leaves no idle
    # block beside it; so the pool never holds more than the live caches' budgets.
    rng = np.random.default_rng(seed)
    memories = CacheMemories(2, 60 * 60)
    live = []
    for _ in range(60):
        if live and rng.random() < 0.45:
            live.pop(int(rng.integers(len(live))))
            continue
        l = int(rng.integers(1, 70))  # noqa: E741
        cache = KernelCache(l, 4.0 * l * l * rng.uniform(0.5, 2.0) + 20.0 * l, memories)
        live.append(cache)
        if cache.slab_mode:
            assert l * l <= cache.block_floats <= cache.free_floats
        else:
            assert cache.block_floats == 0
            assert all(in_use for _, in_use in memories.block_floats)
        del cache  # the live list alone holds the caches
        held = sorted(cache.block_floats for cache in live if cache.slab_mode)
        assert held == sorted(size for size, in_use in memories.block_floats if in_use)
        assert memories.n_blocks <= 2
        assert sum(size for size, _ in memories.block_floats) <= sum(
            cache.free_floats for cache in live) + max(
            (size for size, in_use in memories.block_floats if not in_use), default=0)


def test_a_block_beyond_a_cache_budget_is_replaced_and_idle_blocks_freed():
    memories = CacheMemories(1, 50 * 50)
    first = KernelCache(50, 1e6, memories)
    assert first.block_floats == 2500
    del first  # idle, 2500 floats: beyond the next cache's 20 x 20 budget
    small = KernelCache(20, budget_bytes(20, 420), memories)
    assert small.slab_mode and 400 <= small.block_floats <= 420
    assert memories.block_floats == [(small.block_floats, True)]
    del small
    no_room = KernelCache(40, budget_bytes(40, 1000), memories)  # 1600 floats do not fit
    assert not no_room.slab_mode and memories.n_blocks == 0


def test_slab_columns_hold_their_values_through_growth_eviction_and_swaps():
    l = 12  # noqa: E741
    matrix = entry_matrix(l)
    cache = KernelCache(l, budget_bytes(l, l * l), dirtied_memories(l))
    permutation = np.arange(l)
    for step in range(60):
        index, length = (step * 5) % l, (step * 7) % l + 1
        request_and_fill(cache, index, length,
                         matrix[np.ix_(permutation, permutation)])
        if step % 4 == 3:
            i, j = step % l, (3 * step + 1) % l
            cache.swap(i, j)
            permutation[[i, j]] = permutation[[j, i]]
        current = matrix[np.ix_(permutation, permutation)]
        for column in range(l):
            held = cache.column(column)
            np.testing.assert_array_equal(held, current[: held.size, column])


# --- argument checks and docstring examples -----------------------------------------------------


def test_out_of_range_arguments_raise_instead_of_touching_memory():
    cache = KernelCache(3, 1e6)
    with pytest.raises(IndexError, match="index 3 is out of range for 3 columns"):
        cache.request(3, 1)
    with pytest.raises(IndexError, match="index -1 is out of range"):
        cache.column(-1)
    with pytest.raises(ValueError, match="length 4 is out of range"):
        cache.request(0, 4)
    with pytest.raises(IndexError, match="j 5 is out of range"):
        cache.swap(0, 5)
    cache.request(0, 2)
    with pytest.raises(ValueError, match=r"entries \[1, 3\) of column 0 are not cached"):
        cache.fill(0, [1.0, 2.0], 1)
    assert cache.n_columns == 3


def test_docstring_examples_run():
    results = doctest.testmod(cache_module, optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0
    assert results.failed == 0
