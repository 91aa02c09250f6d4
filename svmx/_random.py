"""Randomness in svmx: one meaning of ``random_state``, and a portable generator.

Every ``random_state`` (and every ``seed`` of the preprocessing splits)
accepts the same things: None, an int (numpy integers too, not bool), a
:class:`numpy.random.Generator`, a :class:`numpy.random.RandomState`, a
:class:`~svmx.preprocessing.SplitMix64` or a :class:`~svmx.preprocessing.GlibcRand`
(the C library's ``rand()`` that svm-train shuffles with: the probability
cross-validation of an estimator given one shuffles exactly as LIBSVM). Two
functions turn such a value into the generator a component draws from:

- :func:`numpy_generator` gives a :class:`numpy.random.Generator`, for code
  built on numpy's generators (the probability cross-validation);
- :func:`splitmix_generator` gives a :class:`SplitMix64`, for the index-based
  row splits, so that an int seed gives the same split on every platform;
- :func:`random_state_generator` gives what scikit-learn's ``check_random_state``
  gives (a :class:`numpy.random.RandomState` for None or an int), for the
  functions and splitters named after scikit-learn's, so that they draw the
  same splits as scikit-learn.

SplitMix64 (Steele, Lea and Flood, 2014) walks a 64-bit state by a fixed odd
increment and scrambles it with two xor-shift-multiply rounds. It is fully
specified by integer arithmetic modulo 2**64, so the same seed gives the same
stream on every platform, numpy version and Python version. It is public as
:class:`svmx.preprocessing.SplitMix64`; it lives here so that this module
depends on numpy only and every part of svmx can import it.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from svmx._glibc_rand import GlibcRand

__all__ = ["GlibcRand", "SplitMix64", "numpy_generator", "random_state_generator",
           "splitmix_generator", "validate_random_state"]

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


def _mix_array(z: np.ndarray) -> np.ndarray:
    # Array arithmetic on uint64 wraps modulo 2**64 without warnings.
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


class SplitMix64:
    """Deterministic 64-bit pseudo-random generator (SplitMix64).

    Every draw advances the state by ``0x9E3779B97F4A7C15`` and returns the
    state mixed by xor-shifts of 30, 27 and 31 bits with the multipliers
    ``0xBF58476D1CE4E5B9`` and ``0x94D049BB133111EB``. Bounded draws reject
    the few raw values that would make ``value % bound`` biased, and shuffles
    are Fisher-Yates, so results are identical on every platform.

    Parameters
    ----------
    seed : int
        Any Python or numpy integer; it is reduced modulo 2**64.

    Attributes
    ----------
    state : int
        The current 64-bit state. Copying it into a new generator
        (``SplitMix64(rng.state)``) reproduces the rest of the stream.

    References
    ----------
    G. L. Steele, D. Lea and C. H. Flood, "Fast splittable pseudorandom number
    generators", OOPSLA 2014.

    Examples
    --------
    >>> rng = SplitMix64(1234567)
    >>> rng.next_uint64()
    6457827717110365317
    >>> rng.next_uint64()
    3203168211198807973
    >>> SplitMix64(7).permutation(5).tolist()
    [4, 1, 3, 0, 2]
    """

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
        self.state = int(seed) & _MASK64

    def __repr__(self) -> str:
        return f"SplitMix64(state={self.state:#018x})"

    def next_uint64(self) -> int:
        """Return the next raw 64-bit output as a Python int.

        Returns
        -------
        int
            A value in ``[0, 2**64)``.

        Examples
        --------
        >>> SplitMix64(0).next_uint64()
        16294208416658607535
        """
        self.state = (self.state + _GAMMA) & _MASK64
        return _mix(self.state)

    def uint64_block(self, count: int) -> np.ndarray:
        """Return the next ``count`` raw outputs as a uint64 array.

        Equivalent to calling :meth:`next_uint64` ``count`` times, but
        vectorised: the i-th output only depends on ``state + i * gamma``.

        Parameters
        ----------
        count : int
            Number of outputs, at least 0.

        Returns
        -------
        ndarray of shape (count,), dtype uint64

        Examples
        --------
        >>> SplitMix64(0).uint64_block(1).tolist()
        [16294208416658607535]
        """
        steps = np.arange(1, count + 1, dtype=np.uint64)
        states = steps * np.uint64(_GAMMA) + np.uint64(self.state)
        self.state = (self.state + count * _GAMMA) & _MASK64
        return _mix_array(states)

    def bounded(self, bound: int) -> int:
        """Return an unbiased integer in ``[0, bound)``.

        Raw outputs below ``2**64 mod bound`` are rejected, so the accepted
        range is an exact multiple of ``bound`` and ``value % bound`` is uniform.

        Parameters
        ----------
        bound : int
            Exclusive upper limit, between 1 and 2**64.

        Returns
        -------
        int

        Examples
        --------
        >>> rng = SplitMix64(3)
        >>> [rng.bounded(6) for _ in range(5)]
        [3, 3, 3, 5, 0]
        """
        if not 1 <= bound <= 1 << 64:
            raise ValueError(f"bound must be in [1, 2**64], got {bound}")
        threshold = (1 << 64) % bound
        while True:
            value = self.next_uint64()
            if value >= threshold:
                return value % bound

    def bounded_many(self, bounds: np.ndarray) -> np.ndarray:
        """Draw ``[self.bounded(b) for b in bounds]``, vectorised.

        Parameters
        ----------
        bounds : array-like of int
            Exclusive upper limits, each between 1 and 2**64 - 1.

        Returns
        -------
        ndarray of uint64, same length as ``bounds``

        Examples
        --------
        >>> SplitMix64(3).bounded_many([6, 6, 6, 6, 6]).tolist()
        [3, 3, 3, 5, 0]
        """
        bounds = np.asarray(bounds, dtype=np.uint64).ravel()
        if bounds.size and bounds.min() == 0:
            raise ValueError("bounds must all be at least 1")
        # 2**64 mod b, computed in wrapping uint64 arithmetic as (2**64 - b) mod b.
        thresholds = (np.zeros_like(bounds) - bounds) % bounds
        result = np.empty_like(bounds)
        start = 0
        while start < bounds.size:
            raw = self.uint64_block(bounds.size - start)
            rejected = np.flatnonzero(raw < thresholds[start:])
            accepted = raw.size if rejected.size == 0 else int(rejected[0])
            result[start : start + accepted] = raw[:accepted] % bounds[start : start + accepted]
            if accepted < raw.size:
                # Rewind to just past the rejected draw; the stream stays sequential.
                self.state = (self.state - (raw.size - accepted - 1) * _GAMMA) & _MASK64
            start += accepted
        return result

    def shuffle(self, values: np.ndarray) -> None:
        """Shuffle a 1-D array in place with the Fisher-Yates algorithm.

        Position ``i`` (from the last down to 1) is swapped with a uniform
        position ``j`` in ``[0, i]``.

        Parameters
        ----------
        values : ndarray of shape (n,)
            The array to permute in place.

        Examples
        --------
        >>> import numpy as np
        >>> values = np.array([10, 20, 30, 40])
        >>> SplitMix64(1).shuffle(values)
        >>> values.tolist()
        [30, 10, 40, 20]
        """
        if not isinstance(values, np.ndarray) or values.ndim != 1:
            raise TypeError("values must be a 1-D numpy array")
        n = values.shape[0]
        if n < 2:
            return
        swaps = self.bounded_many(np.arange(n, 1, -1, dtype=np.uint64)).tolist()
        items = values.tolist()
        for i, j in zip(range(n - 1, 0, -1), swaps, strict=True):
            items[i], items[j] = items[j], items[i]
        values[:] = np.asarray(items, dtype=values.dtype)

    def permutation(self, n: int) -> np.ndarray:
        """Return a shuffled ``arange(n)`` as int64.

        Parameters
        ----------
        n : int
            Length of the permutation.

        Returns
        -------
        ndarray of shape (n,), dtype int64

        Examples
        --------
        >>> SplitMix64(7).permutation(5).tolist()
        [4, 1, 3, 0, 2]
        """
        indices = np.arange(n, dtype=np.int64)
        self.shuffle(indices)
        return indices


def validate_random_state(random_state: Any, name: str = "random_state") -> None:
    """Raise TypeError unless `random_state` is one of the accepted kinds; draw nothing.

    Used where a value is checked long before it is used (a splitter's
    ``__init__``), so that a generator passed in is not advanced by the check.

    Examples
    --------
    >>> validate_random_state(3)
    >>> validate_random_state(1.5, "seed")
    Traceback (most recent call last):
    ...
    TypeError: seed must be None, an int, a numpy Generator or RandomState, or a SplitMix64; \
got float
    """
    accepted = (SplitMix64, GlibcRand, np.random.Generator, np.random.RandomState)
    if random_state is None or isinstance(random_state, accepted):
        return
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool | np.bool_):
        return
    raise TypeError(
        f"{name} must be None, an int, a numpy Generator or RandomState, or a SplitMix64; "
        f"got {type(random_state).__name__}"
    )


def _draw_seed(random_state: GlibcRand) -> int:
    """62 bits from two ``rand()`` values, to seed another generator."""
    return (random_state.rand() << 31) | random_state.rand()


def numpy_generator(random_state: Any, name: str = "random_state") -> np.random.Generator:
    """Turn a ``random_state`` into a :class:`numpy.random.Generator`.

    Parameters
    ----------
    random_state : None, int, numpy.random.Generator, numpy.random.RandomState or SplitMix64
        - None: a generator seeded from fresh operating-system entropy
          (``numpy.random.default_rng()``), so results are not reproducible;
        - an int: ``numpy.random.default_rng(random_state)``;
        - a Generator: returned as it is, so draws advance it;
        - a RandomState: a generator seeded with
          ``random_state.randint(0, 2**31 - 1)`` (the RandomState advances);
        - a SplitMix64: a generator seeded with its next 64-bit output
          (the SplitMix64 advances);
        - a GlibcRand: a generator seeded with 62 bits from two ``rand()``
          values (the GlibcRand advances).
    name : str, default="random_state"
        The parameter's name, for the error message.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    TypeError
        If `random_state` is of none of these kinds (a bool or float, say).

    Examples
    --------
    >>> import numpy as np
    >>> first = numpy_generator(7).integers(1000, size=3)
    >>> bool((first == numpy_generator(7).integers(1000, size=3)).all())
    True
    >>> rng = np.random.default_rng(0)
    >>> numpy_generator(rng) is rng
    True
    >>> int(numpy_generator(SplitMix64(5)).integers(1000)) == int(
    ...     np.random.default_rng(SplitMix64(5).next_uint64()).integers(1000))
    True
    """
    validate_random_state(random_state, name)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    if isinstance(random_state, SplitMix64):
        return np.random.default_rng(random_state.next_uint64())
    if isinstance(random_state, GlibcRand):
        return np.random.default_rng(_draw_seed(random_state))
    return np.random.default_rng(None if random_state is None else int(random_state))


def splitmix_generator(random_state: Any, name: str = "random_state") -> SplitMix64:
    """Turn a ``random_state`` (or a split's ``seed``) into a :class:`SplitMix64`.

    An int gives ``SplitMix64(random_state)``, so an int seed gives the same
    stream, and the same splits, on every platform.

    Parameters
    ----------
    random_state : None, int, numpy.random.Generator, numpy.random.RandomState or SplitMix64
        - None: a SplitMix64 seeded from fresh operating-system entropy
          (``numpy.random.SeedSequence().entropy``), so results are not
          reproducible;
        - an int: ``SplitMix64(random_state)`` (reduced modulo 2**64);
        - a SplitMix64: returned as it is, so draws advance it;
        - a Generator: ``SplitMix64(int(random_state.integers(0, 2**63)))``,
          one draw from the Generator;
        - a RandomState: ``SplitMix64(int(random_state.randint(0, 2**63,
          dtype=numpy.int64)))``, one draw from the RandomState;
        - a GlibcRand: seeded with 62 bits from two ``rand()`` values.
    name : str, default="random_state"
        The parameter's name, for the error message.

    Returns
    -------
    SplitMix64

    Raises
    ------
    TypeError
        If `random_state` is of none of these kinds (a bool or float, say).

    Examples
    --------
    >>> import numpy as np
    >>> splitmix_generator(7).permutation(5).tolist()
    [4, 1, 3, 0, 2]
    >>> rng = SplitMix64(7)
    >>> splitmix_generator(rng) is rng
    True
    >>> seed = int(np.random.default_rng(0).integers(0, 2**63))
    >>> splitmix_generator(np.random.default_rng(0)).state == SplitMix64(seed).state
    True
    """
    validate_random_state(random_state, name)
    if isinstance(random_state, SplitMix64):
        return random_state
    if isinstance(random_state, GlibcRand):
        return SplitMix64(_draw_seed(random_state))
    if isinstance(random_state, np.random.Generator):
        return SplitMix64(int(random_state.integers(0, 2**63)))
    if isinstance(random_state, np.random.RandomState):
        return SplitMix64(int(random_state.randint(0, 2**63, dtype=np.int64)))
    if random_state is None:
        return SplitMix64(int(np.random.SeedSequence().entropy))
    return SplitMix64(int(random_state))


def random_state_generator(
    random_state: Any, name: str = "random_state"
) -> np.random.RandomState | np.random.Generator:
    """Turn a ``random_state`` into the generator scikit-learn would draw from.

    For the values scikit-learn accepts this is what its ``check_random_state``
    returns, so shuffles, permutations and choices are the same as
    scikit-learn's draw by draw; svmx's other kinds are accepted too.

    Parameters
    ----------
    random_state : None, int, numpy.random.RandomState, numpy.random.Generator or SplitMix64
        - None: numpy's global RandomState (``numpy.random.mtrand._rand``),
          as scikit-learn, so results are not reproducible unless
          ``numpy.random.seed`` was called;
        - an int: ``numpy.random.RandomState(random_state)``;
        - a RandomState or a Generator: returned as it is, so draws advance it;
        - a SplitMix64 or a GlibcRand: a RandomState seeded with one draw
          (modulo 2**32), so the generator advances.
    name : str, default="random_state"
        The parameter's name, for the error message.

    Returns
    -------
    numpy.random.RandomState or numpy.random.Generator

    Raises
    ------
    TypeError
        If `random_state` is of none of these kinds.

    Examples
    --------
    >>> random_state_generator(0).permutation(5).tolist()
    [2, 0, 1, 3, 4]
    >>> rng = np.random.RandomState(3)
    >>> random_state_generator(rng) is rng
    True
    """
    validate_random_state(random_state, name)
    if random_state is None:
        return np.random.mtrand._rand
    if isinstance(random_state, np.random.RandomState | np.random.Generator):
        return random_state
    if isinstance(random_state, SplitMix64):
        return np.random.RandomState(random_state.next_uint64() % 2**32)
    if isinstance(random_state, GlibcRand):
        return np.random.RandomState(_draw_seed(random_state) % 2**32)
    return np.random.RandomState(int(random_state))
