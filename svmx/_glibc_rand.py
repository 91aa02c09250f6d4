"""The C library's ``rand()`` as LIBSVM's programs draw from it, as an explicit generator.

LIBSVM shuffles with ``rand()``: the folds of ``svm-train -v`` and of the
internal cross-validation behind ``-b 1`` (Platt's sigmoids, the Laplace scale
of SVR). svm-train never seeds it, so a fresh svm-train process on Linux draws
the stream of glibc's ``rand()`` after ``srand(1)``. :class:`GlibcRand`
computes that stream in Python, with its state in the object (no global state,
nothing shared with other code in the process), so svmx can make the same folds
as svm-train.

glibc's ``rand()`` is its ``random()`` with the default 128-byte state: an
additive lagged Fibonacci generator ``r[i] = r[i-3] + r[i-31]`` (mod 2**32)
whose 34 first words come from the seed through ``16807 * r mod (2**31 - 1)``;
the first 310 outputs are discarded and each output is ``r[i] >> 1``.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["GlibcRand", "RAND_MAX"]

RAND_MAX = 2**31 - 1
_MODULUS = 2**31 - 1
_MASK32 = 2**32 - 1
_DEGREE = 31  # words of state
_SEPARATION = 3  # r[i] = r[i - 31] + r[i - 3]
_DISCARDED = 310  # outputs thrown away after seeding


class GlibcRand:
    """glibc's ``rand()`` after ``srand(seed)``, the generator svm-train shuffles with.

    Parameters
    ----------
    seed : int, default=1
        The ``srand`` seed; 1 is what an unseeded program uses (glibc replaces 0 by 1).

    Examples
    --------
    >>> rng = GlibcRand()
    >>> [rng.rand() for _ in range(3)]
    [1804289383, 846930886, 1681692777]
    >>> GlibcRand().permutation(5).tolist()
    [3, 0, 2, 4, 1]
    """

    def __init__(self, seed: int = 1) -> None:
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
        seed = int(seed) & _MASK32
        word = (seed or 1) - (1 << 32 if seed >= 1 << 31 else 0)  # an int32_t
        words = [word & _MASK32]
        for _ in range(1, _DEGREE):
            # 16807 * word mod (2**31 - 1) by Schrage's method, in C's truncating division.
            high, low = int(word / 127773), word - int(word / 127773) * 127773
            word = 16807 * low - 2836 * high
            if word < 0:
                word += _MODULUS
            words.append(word)
        self._state = words  # a ring of the last 31 words
        self._position = _SEPARATION  # where r[i - 31] is; r[i - 3] is 3 places before
        for _ in range(_DISCARDED):
            self._next_word()

    def __repr__(self) -> str:
        return "GlibcRand(<state>)"

    def _next_word(self) -> int:
        state = self._state
        oldest = self._position
        word = (state[oldest] + state[(oldest + _DEGREE - _SEPARATION) % _DEGREE]) & _MASK32
        state[oldest] = word
        self._position = (oldest + 1) % _DEGREE
        return word

    def rand(self) -> int:
        """The next value of ``rand()``, in ``[0, RAND_MAX]``.

        Returns
        -------
        int

        Examples
        --------
        >>> GlibcRand(2).rand()
        1505335290
        """
        return self._next_word() >> 1

    def permutation(self, n: int) -> np.ndarray:
        """``arange(n)`` shuffled as LIBSVM shuffles: ``swap(p[i], p[i + rand() % (n - i)])``.

        Parameters
        ----------
        n : int
            Length of the permutation.

        Returns
        -------
        ndarray of shape (n,), dtype int64

        Examples
        --------
        >>> GlibcRand().permutation(3).tolist()
        [1, 0, 2]
        """
        order = list(range(n))
        self.shuffle_list(order)
        return np.asarray(order, dtype=np.int64)

    def shuffle_list(self, items: list, start: int = 0, stop: int | None = None) -> None:
        """Shuffle ``items[start:stop]`` in place, LIBSVM's way.

        Parameters
        ----------
        items : list
        start, stop : int
            The slice to shuffle (default: all of it).

        Examples
        --------
        >>> items = ["a", "b", "c", "d"]
        >>> GlibcRand().shuffle_list(items, 1)
        >>> items
        ['a', 'c', 'b', 'd']
        """
        stop = len(items) if stop is None else stop
        count = stop - start
        for i in range(count):
            j = i + self.rand() % (count - i)
            items[start + i], items[start + j] = items[start + j], items[start + i]
