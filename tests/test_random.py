"""One meaning of ``random_state``: numpy_generator and splitmix_generator (svmx._random)."""

import pickle

import numpy as np
import pytest

from svmx._random import SplitMix64, numpy_generator, splitmix_generator, validate_random_state
from svmx.preprocessing import SplitMix64 as PublicSplitMix64

BAD_KINDS = [True, np.bool_(False), 1.5, "3", [1, 2], np.random.SeedSequence(0), object()]


def draws(generator, n=5):
    return generator.integers(0, 2**32, size=n).tolist()


def test_splitmix64_is_the_public_class():
    assert PublicSplitMix64 is SplitMix64
    restored = pickle.loads(pickle.dumps(SplitMix64(9)))
    assert restored.next_uint64() == SplitMix64(9).next_uint64()


@pytest.mark.parametrize("function", [numpy_generator, splitmix_generator, validate_random_state])
@pytest.mark.parametrize("value", BAD_KINDS, ids=lambda v: type(v).__name__)
def test_other_kinds_raise_a_type_error_naming_the_parameter(function, value):
    message = (
        r"^random_state must be None, an int, a numpy Generator or RandomState, or a "
        rf"SplitMix64; got {type(value).__name__}$"
    )
    with pytest.raises(TypeError, match=message):
        function(value)
    with pytest.raises(TypeError, match=r"^seed must be None"):
        function(value, "seed")


@pytest.mark.parametrize("seed", [0, 7, 2**31 - 2, np.int64(12), np.uint32(5)])
def test_numpy_generator_of_an_int_is_default_rng(seed):
    assert draws(numpy_generator(seed)) == draws(np.random.default_rng(int(seed)))


def test_numpy_generator_of_instances():
    rng = np.random.default_rng(3)
    assert numpy_generator(rng) is rng
    expected = np.random.default_rng(np.random.RandomState(4).randint(0, 2**31 - 1))
    assert draws(numpy_generator(np.random.RandomState(4))) == draws(expected)


def test_numpy_generator_of_none_is_fresh():
    assert isinstance(numpy_generator(None), np.random.Generator)
    assert draws(numpy_generator(None), 4) != draws(numpy_generator(None), 4)


def test_numpy_generator_of_splitmix_draws_one_seed():
    source = SplitMix64(11)
    generator = numpy_generator(source)
    assert draws(generator) == draws(np.random.default_rng(SplitMix64(11).next_uint64()))
    assert source.state == SplitMix64(11).state + 0x9E3779B97F4A7C15  # advanced by one draw


@pytest.mark.parametrize("seed", [0, 5, -1, 2**64 + 3, np.int64(42), np.uint64(2**63 + 1)])
def test_splitmix_generator_of_an_int_is_splitmix64_of_it(seed):
    assert splitmix_generator(seed).state == SplitMix64(int(seed)).state


def test_splitmix_generator_passes_a_splitmix_through():
    source = SplitMix64(1)
    assert splitmix_generator(source) is source


def test_splitmix_generator_of_numpy_generators_takes_one_draw():
    seed = int(np.random.default_rng(8).integers(0, 2**63))
    assert splitmix_generator(np.random.default_rng(8)).state == SplitMix64(seed).state
    legacy_seed = int(np.random.RandomState(8).randint(0, 2**63, dtype=np.int64))
    assert splitmix_generator(np.random.RandomState(8)).state == SplitMix64(legacy_seed).state
    shared = np.random.default_rng(8)
    assert splitmix_generator(shared).state != splitmix_generator(shared).state


def test_splitmix_generator_of_none_is_fresh():
    first, second = splitmix_generator(None), splitmix_generator(None)
    assert isinstance(first, SplitMix64) and first.state != second.state


def test_validate_random_state_draws_nothing():
    rng, legacy, splitmix = np.random.default_rng(0), np.random.RandomState(0), SplitMix64(0)
    for value in (None, 3, np.int8(3), rng, legacy, splitmix):
        validate_random_state(value)
    assert draws(rng) == draws(np.random.default_rng(0))
    assert legacy.randint(1000) == np.random.RandomState(0).randint(1000)
    assert splitmix.state == 0


@pytest.mark.parametrize("make", [
    lambda: 7, lambda: np.int64(7), lambda: np.random.default_rng(7),
    lambda: np.random.RandomState(7), lambda: SplitMix64(7),
])
def test_svc_probability_accepts_every_random_state_kind_reproducibly(make):
    from svmx import SVC

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    first = SVC(probability=True, random_state=make()).fit(X, y)
    second = SVC(probability=True, random_state=make()).fit(X, y)
    assert first.probA_.tolist() == second.probA_.tolist()
    assert first.probB_.tolist() == second.probB_.tolist()


@pytest.mark.parametrize("bad", [True, 1.5, "3"])
def test_svc_refuses_what_random_state_never_accepts(bad):
    from svmx import SVC
    from svmx.exceptions import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="random_state"):
        SVC(probability=True, random_state=bad).fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
