"""SplitMix64: reference outputs, vectorised paths and unbiased bounded draws."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from svmx.preprocessing import SplitMix64

# Published SplitMix64 outputs for seed 1234567.
REFERENCE = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]


def test_reference_stream():
    rng = SplitMix64(1234567)
    assert [rng.next_uint64() for _ in REFERENCE] == REFERENCE


def test_state_advances_by_golden_gamma():
    rng = SplitMix64(5)
    rng.next_uint64()
    assert rng.state == 5 + 0x9E3779B97F4A7C15


def test_seed_is_reduced_modulo_2_64():
    assert SplitMix64(-1).state == 2**64 - 1
    assert SplitMix64(2**64 + 3).next_uint64() == SplitMix64(3).next_uint64()
    assert SplitMix64(np.int64(3)).next_uint64() == SplitMix64(3).next_uint64()


@pytest.mark.parametrize("seed", [1.5, "1", None, True])
def test_seed_must_be_an_integer(seed):
    with pytest.raises(TypeError, match="seed"):
        SplitMix64(seed)


@given(st.integers(0, 2**64 - 1), st.integers(0, 50))
def test_block_matches_sequential_draws(seed, count):
    sequential, vectorised = SplitMix64(seed), SplitMix64(seed)
    expected = [sequential.next_uint64() for _ in range(count)]
    assert vectorised.uint64_block(count).tolist() == expected
    assert vectorised.state == sequential.state


@given(
    st.integers(0, 2**64 - 1),
    st.lists(st.one_of(st.integers(1, 100), st.integers(2**63, 2**64 - 1)), max_size=30),
)
def test_bounded_many_matches_sequential_draws_with_rejections(seed, bounds):
    # Bounds just above 2**63 reject about half of the raw draws.
    sequential, vectorised = SplitMix64(seed), SplitMix64(seed)
    expected = [sequential.bounded(b) for b in bounds]
    assert vectorised.bounded_many(np.array(bounds, dtype=np.uint64)).tolist() == expected
    assert vectorised.state == sequential.state


def test_bounded_rejects_the_biased_low_range():
    bound = 2**63 + 1
    threshold = 2**64 % bound
    rng, raw = SplitMix64(11), SplitMix64(11)
    draws = [raw.next_uint64() for _ in range(64)]
    accepted = [value % bound for value in draws if value >= threshold]
    assert len(accepted) < len(draws)  # some draws were rejected
    assert [rng.bounded(bound) for _ in range(len(accepted))] == accepted


def test_bounded_is_roughly_uniform():
    rng = SplitMix64(2024)
    counts = np.bincount(rng.bounded_many(np.full(60_000, 6)).astype(np.int64), minlength=6)
    assert np.all(np.abs(counts - 10_000) < 500)


@pytest.mark.parametrize("bound", [0, 2**64 + 1])
def test_bounded_range_is_checked(bound):
    with pytest.raises(ValueError, match="bound"):
        SplitMix64(0).bounded(bound)


@given(st.integers(0, 2**64 - 1), st.integers(0, 60))
def test_shuffle_is_fisher_yates(seed, n):
    expected = list(range(n))
    rng = SplitMix64(seed)
    for i in range(n - 1, 0, -1):
        j = rng.bounded(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert SplitMix64(seed).permutation(n).tolist() == expected


def test_shuffle_needs_a_1d_array():
    with pytest.raises(TypeError, match="values"):
        SplitMix64(0).shuffle([1, 2, 3])


def test_every_permutation_of_three_is_reached_evenly():
    rng = SplitMix64(99)
    seen = {}
    for _ in range(6000):
        key = tuple(rng.permutation(3).tolist())
        seen[key] = seen.get(key, 0) + 1
    assert len(seen) == 6
    assert all(abs(count - 1000) < 120 for count in seen.values())
