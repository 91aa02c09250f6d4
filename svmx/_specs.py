"""The resolved parameters of a fit: small frozen values that travel to the binding.

An estimator's parameters are checked and resolved once, at the top of ``fit``
(``gamma='scale'`` becomes a number, ``n_jobs`` a thread count, ``cache_size``
bytes), into three values that are all the layers below ever see:

- `KernelSpec`: which kernel, with its parameters;
- `SolveSpec`: how to solve (solver, tolerance, cache, shrinking, iteration
  limit, threads);
- `Problem`: what to solve, one LIBSVM formulation on chosen rows (labels or
  targets, per-row upper bounds, nu or epsilon).

The one-vs-one driver, the probability code and the shared Gram matrix take
these values, never the estimator, so they can be called (and tested) alone.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "BLOCK_FORMULATIONS",
    "BLOCK_SOLVER_MAX_BLOCK",
    "BLOCK_SOLVER_MIN_BLOCK",
    "BLOCK_SOLVER_MIN_SAMPLES",
    "EPSILON_SVR_BLOCK_MIN_SAMPLES",
    "FORMULATIONS",
    "KERNEL_TYPES",
    "KernelSpec",
    "Problem",
    "SolveSpec",
    "available_cores",
    "block_size_for",
    "resolve_threads",
    "thread_limit",
]

# LIBSVM's kernel codes, which the engine's KernelType enum follows.
KERNEL_TYPES = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3, "precomputed": 4}
PRECOMPUTED = KERNEL_TYPES["precomputed"]
# LIBSVM's five formulations, in svm_type order.
FORMULATIONS = ("c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr")
# The formulations the block solver handles (it has no Solver_NU counterpart).
BLOCK_FORMULATIONS = ("c_svc", "one_class", "epsilon_svr")
# Problems with at least this many samples go to the block solver under solver='auto'
# (measured on the benchmark suite: from about 5,000 samples its batched kernel rows beat
# SMO's columns on reuters (3.4x) and cpusmall SVR (3x); mushrooms, where SMO needs few
# columns, is 1.5x slower but still 3.6x faster than the fastest peer).
BLOCK_SOLVER_MIN_SAMPLES = 5_000
# epsilon-SVR, with two dual variables per sample, gains sooner. Block / SMO fit time
# (best of 5) on abalone and cpusmall subsets: sparse 0.91-0.96 at 2,500 samples and
# 0.67-0.73 at 3,342; dense 1.28-1.36 at 2,500, 1.00-1.08 at 3,342, 0.80-0.88 at 4,177.
EPSILON_SVR_BLOCK_MIN_SAMPLES = 3_300
# ... and a cache that holds at least this many of the block's kernel rows (which take at
# most half of it, `block_size_for`): a block of a few rows refills most of
# itself every round, a kernel row and a pass over the whole gradient for each pair update,
# where SMO's LRU cache keeps what it uses (w8a at cache_size=1: 2 rows a block). A guard,
# not a tuned optimum: the default cache gives 16 rows up to 1.6 million variables.
BLOCK_SOLVER_MIN_BLOCK = 16
# The block solver's working set holds at most this many rows (an even count).
BLOCK_SOLVER_MAX_BLOCK = 1024


def block_size_for(l: int, cache_bytes: float) -> int:  # noqa: E741
    """Working-set size of the block solver on `l` variables: its float32 kernel rows
    take at most half of `cache_bytes`, at least 2 rows and at most
    ``BLOCK_SOLVER_MAX_BLOCK``, an even count.

    Examples
    --------
    >>> block_size_for(100_000, 200.0 * 1048576)
    262
    >>> block_size_for(10, 200.0 * 1048576)
    10
    """
    size = min(BLOCK_SOLVER_MAX_BLOCK, int(cache_bytes / 2.0 / (4.0 * max(l, 1))))
    size -= size % 2
    return max(2, min(size, l))

BYTES_PER_MB = 1048576.0


@dataclass(frozen=True)
class KernelSpec:
    """A kernel with its parameters, as the engine takes it.

    ``kernel_type`` is LIBSVM's code (see ``KERNEL_TYPES``); a callable kernel
    reaches the engine as the Gram matrix it computed, so as 'precomputed'.

    Examples
    --------
    >>> KernelSpec.named("rbf", gamma=0.5)
    KernelSpec(kernel_type=2, degree=3, gamma=0.5, coef0=0.0)
    >>> KernelSpec.named("precomputed").is_precomputed
    True
    """

    kernel_type: int
    degree: int = 3
    gamma: float = 1.0
    coef0: float = 0.0

    @classmethod
    def named(cls, name: str, degree: int = 3, gamma: float = 1.0,
              coef0: float = 0.0) -> KernelSpec:
        """The spec of a built-in kernel given by its name."""
        return cls(KERNEL_TYPES[name], int(degree), float(gamma), float(coef0))

    @property
    def is_precomputed(self) -> bool:
        """True when the engine reads kernel values from a Gram matrix."""
        return self.kernel_type == PRECOMPUTED

    def as_gram(self) -> KernelSpec:
        """The spec for solving over a Gram matrix computed with this kernel."""
        return dataclasses.replace(self, kernel_type=PRECOMPUTED)


@dataclass(frozen=True)
class SolveSpec:
    """How each problem of a fit is solved.

    Attributes
    ----------
    solver : {'auto', 'smo', 'block'}
        As the estimator's ``solver``; `engine_solver` turns it into the
        engine that solves a given problem.
    tol : float
        Stopping tolerance on the maximal violating pair.
    cache_bytes : float
        Kernel cache budget in bytes.
    shrinking : bool
    max_iter : int
        -1 for no limit.
    threads : int
        Threads the solve may use (one-vs-one pairs, block products).
    log : svmx._training.TrainingLog or None
        Where a verbose fit writes LIBSVM's training output (None: nowhere).
        It is a destination, not a parameter: it takes no part in equality.
    memories : svmx._libsvm.CacheMemories or None
        Where the SMO solves' kernel caches that hold their whole matrix take their
        memory, one solve after another (None: each allocates its own). Like ``log``,
        it takes no part in equality.

    Examples
    --------
    >>> spec = SolveSpec("auto", tol=1e-3, cache_bytes=200 * BYTES_PER_MB, shrinking=True,
    ...                  max_iter=-1, threads=1)
    >>> spec.engine_solver("c_svc", KERNEL_TYPES["rbf"], n_rows=10_000)
    'block'
    >>> spec.engine_solver("nu_svc", KERNEL_TYPES["rbf"], n_rows=10_000)
    'smo'
    >>> spec.engine_solver("epsilon_svr", KERNEL_TYPES["rbf"], n_rows=3_342)  # abalone
    'block'
    >>> spec.cache_megabytes
    200.0
    """

    solver: str
    tol: float
    cache_bytes: float
    shrinking: bool
    max_iter: int
    threads: int
    log: Any = dataclasses.field(default=None, compare=False, repr=False)
    memories: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def cache_megabytes(self) -> float:
        return self.cache_bytes / BYTES_PER_MB

    def engine_solver(self, formulation: str, kernel_type: int, n_rows: int) -> str:
        """'smo' or 'block' for a problem of `n_rows` samples.

        The block solver serves C-SVC, one-class and epsilon-SVR with a
        built-in kernel; 'auto' takes it from ``BLOCK_SOLVER_MIN_SAMPLES``
        samples (``EPSILON_SVR_BLOCK_MIN_SAMPLES`` for epsilon-SVR, which has two
        dual variables per sample) where the cache holds a block of at least
        ``BLOCK_SOLVER_MIN_BLOCK`` kernel rows. A request for 'block' where it cannot
        serve is refused by `check_solver` before any solve.
        """
        if formulation not in BLOCK_FORMULATIONS or kernel_type == PRECOMPUTED:
            return "smo"
        if self.solver == "block":
            return "block"
        least = (EPSILON_SVR_BLOCK_MIN_SAMPLES if formulation == "epsilon_svr"
                 else BLOCK_SOLVER_MIN_SAMPLES)
        variables = 2 * n_rows if formulation == "epsilon_svr" else n_rows
        block_rows = block_size_for(variables, self.cache_bytes)
        if self.solver == "auto" and n_rows >= least and block_rows >= BLOCK_SOLVER_MIN_BLOCK:
            return "block"
        return "smo"

    def replace(self, **changes: Any) -> SolveSpec:
        """A copy with some fields changed (for example a pair's share of the cache)."""
        return dataclasses.replace(self, **changes)


def check_solver(solver: str, formulation: str, kernel: Any, owner: str) -> None:
    """Refuse solver='block' where the block solver cannot serve.

    Examples
    --------
    >>> check_solver("block", "nu_svc", "rbf", "NuSVC")
    Traceback (most recent call last):
        ...
    ValueError: solver='block' is not available for NuSVC with kernel='rbf'; ...
    """
    if solver != "block":
        return
    if formulation not in BLOCK_FORMULATIONS or callable(kernel) or kernel == "precomputed":
        raise ValueError(
            f"solver='block' is not available for {owner} with kernel={kernel!r}; it serves "
            "C-SVC, one-class and epsilon-SVR with a built-in kernel. Use solver='smo' or "
            "'auto'."
        )


def available_cores() -> int:
    """The CPUs this process may run on: its affinity mask (a container's or
    ``taskset``'s), else ``os.cpu_count()``.

    Examples
    --------
    >>> 1 <= available_cores() <= (os.cpu_count() or 1)
    True
    """
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counted is not None:
        return counted() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _environment_thread_limit() -> int | None:
    """OMP_NUM_THREADS's first entry, if it is a positive integer."""
    value = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(value) if value.isdigit() and int(value) > 0 else None


def thread_limit() -> int:
    """The threads svmx uses by default: the cores this process may use, within the
    limit already in force.

    That limit is OpenMP's on the calling thread (``omp_get_max_threads()``), which
    holds ``OMP_NUM_THREADS``, threadpoolctl's ``threadpool_limits`` and the limit
    joblib sets in its worker processes (cores / n_jobs), so that a fit inside
    ``GridSearchCV(n_jobs=k)`` takes its share of the cores and no more. As in
    scikit-learn's OpenMP estimators, an explicit ``OMP_NUM_THREADS`` is obeyed even
    above the core count. A build without OpenMP reads ``OMP_NUM_THREADS`` itself.

    Examples
    --------
    >>> from threadpoolctl import threadpool_limits
    >>> with threadpool_limits(limits=1, user_api="openmp"):
    ...     thread_limit()
    1
    """
    from svmx._config import openmp_thread_limit

    cores = available_cores()
    explicit = _environment_thread_limit()
    openmp = openmp_thread_limit()
    if openmp is None:
        return max(1, min(cores, explicit) if explicit else cores)
    return max(1, openmp if explicit else min(cores, openmp))


def resolve_threads(n_jobs: int | None) -> int:
    """The thread count that `n_jobs` asks for.

    None means `thread_limit()`: the cores the process may use, within the OpenMP
    limit in force (scikit-learn's convention for its OpenMP estimators, such as
    HistGradientBoosting); -1 means the same, -2 one fewer, and so on; a positive
    count is taken as it is.

    Examples
    --------
    >>> resolve_threads(3)
    3
    >>> resolve_threads(None) == resolve_threads(-1) == thread_limit()
    True
    """
    if n_jobs is None:
        return thread_limit()
    if n_jobs < 0:
        return max(1, thread_limit() + 1 + n_jobs)
    return int(n_jobs)


@dataclass(frozen=True, eq=False)
class Problem:
    """One LIBSVM problem over chosen rows of the training matrix.

    Attributes
    ----------
    formulation : {'c_svc', 'nu_svc', 'one_class', 'epsilon_svr', 'nu_svr'}
    C : ndarray of shape (n_rows,), float64
        Each row's upper bound (C times class and sample weights).
    y : ndarray of shape (n_rows,), int8, or None
        +1 / -1 labels of the classifiers.
    target : ndarray of shape (n_rows,), float64, or None
        Targets of the regressions.
    nu : float
        For nu-SVC, one-class and nu-SVR.
    epsilon : float
        For epsilon-SVR.
    initial_alpha : ndarray of float64, or None
        A feasible starting point of the solver (C-SVC: n_rows values in
        [0, C]; epsilon-SVR: alpha then alpha*, 2 n_rows values), for warm
        starts along C; None starts from 0. Only C-SVC and epsilon-SVR take one;
        a seed that breaks the equality constraint (once clipped into the box) is
        dropped.
    initial_gradients : (G, G_bar) of float64 ndarrays of shape (n_rows,), or None
        C-SVC only, with `initial_alpha`: its gradient G = Q alpha - 1 and G_bar =
        sum over the alphas at their bound of C_j Q_:j, so that SMO starts without
        a kernel column per nonzero alpha (a fold seeded from its pair's solution,
        `svmx._platt_folds`). Dropped with a dropped seed.
    keep_gradients : bool
        C-SVC under SMO: the solution carries its final (G, G_bar) as ``gradients``.
    start_active : ndarray of bool of shape (n_rows,), or None
        C-SVC under SMO, with `initial_alpha` and without `initial_gradients`: SMO
        starts shrunk to these rows and those with a nonzero alpha, as if the others
        had been shrunk, and checks every row before it stops (a fold seeded from its
        pair, whose rows far beyond the pair's margin are unlikely to move).

    Examples
    --------
    >>> problem = Problem("c_svc", C=np.ones(2), y=np.array([1, -1], np.int8))
    >>> problem.n_rows
    2
    """

    formulation: str
    C: np.ndarray
    y: np.ndarray | None = None
    target: np.ndarray | None = None
    nu: float = 0.0
    epsilon: float = 0.0
    initial_alpha: np.ndarray | None = None
    initial_gradients: tuple[np.ndarray, np.ndarray] | None = None
    keep_gradients: bool = False
    start_active: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.formulation not in FORMULATIONS:
            raise ValueError(f"formulation must be one of {FORMULATIONS}; got "
                             f"{self.formulation!r}")
        if self.initial_alpha is not None:
            self._check_initial_alpha()
        elif self.start_active is not None:
            object.__setattr__(self, "start_active", None)  # it goes with a seed
        object.__setattr__(self, "C", np.ascontiguousarray(self.C, dtype=np.float64))
        if self.y is not None:
            object.__setattr__(self, "y", np.ascontiguousarray(self.y, dtype=np.int8))
        if self.target is not None:
            object.__setattr__(self, "target",
                               np.ascontiguousarray(self.target, dtype=np.float64))

    def _check_initial_alpha(self) -> None:
        copies = {"c_svc": 1, "epsilon_svr": 2}.get(self.formulation)
        if copies is None:
            raise ValueError(f"initial_alpha is only taken by c_svc and epsilon_svr; "
                             f"got {self.formulation!r}")
        alpha = np.array(self.initial_alpha, dtype=np.float64)  # a copy the solver may own
        bounds = self.C if copies == 1 else np.concatenate([self.C, self.C])
        if alpha.shape != bounds.shape:
            raise ValueError(f"initial_alpha must have shape {bounds.shape}; "
                             f"got {alpha.shape}")
        # Rounding of a scaled seed may step a hair outside the box: clip it back in.
        alpha = np.clip(alpha, 0.0, bounds)
        # The solver keeps the equality constraint (y'alpha = 0, or sum(alpha - alpha*)
        # = 0) where its start puts it; a seed that breaks it (fitted with other
        # bounds, then clipped) would move the optimum, so it is dropped.
        if copies == 2:
            residual = abs(float(alpha[:self.n_rows].sum() - alpha[self.n_rows:].sum()))
        else:
            residual = abs(float(alpha @ self.y))
        if not np.isfinite(residual) or residual > 1e-10 * max(1.0, float(alpha.sum())):
            alpha = None
        object.__setattr__(self, "initial_alpha", alpha)
        gradients = self.initial_gradients
        if gradients is not None:
            if alpha is None or copies != 1:
                gradients = None  # they belong to the seed
            else:
                gradients = tuple(np.array(g, dtype=np.float64) for g in gradients)
                if len(gradients) != 2 or any(g.shape != alpha.shape for g in gradients):
                    raise ValueError(f"initial_gradients must be two arrays of shape "
                                     f"{alpha.shape}")
            object.__setattr__(self, "initial_gradients", gradients)
        active = self.start_active
        if active is not None:
            if alpha is None or copies != 1 or gradients is not None:
                active = None  # a start shrunk around the seed, with G computed
            else:
                active = np.ascontiguousarray(active, dtype=bool)
                if active.shape != alpha.shape:
                    raise ValueError(f"start_active must have shape {alpha.shape}")
            object.__setattr__(self, "start_active", active)

    @property
    def n_rows(self) -> int:
        return int(self.C.shape[0])

    def starting_alpha(self, copies: int = 1) -> np.ndarray:
        """The solver's starting point: `initial_alpha` (a copy), else zeros."""
        if self.initial_alpha is None:
            return np.zeros(copies * self.n_rows, dtype=np.float64)
        return self.initial_alpha.copy()

    def seeded(self, initial_alpha: np.ndarray | None,
               initial_gradients: tuple[np.ndarray, np.ndarray] | None = None,
               start_active: np.ndarray | None = None) -> Problem:
        """The same problem, started from `initial_alpha` (checked, not the rest), with
        its gradients or its active rows when given."""
        problem = copy.copy(self)
        object.__setattr__(problem, "initial_alpha", initial_alpha)
        object.__setattr__(problem, "initial_gradients", initial_gradients)
        object.__setattr__(problem, "start_active", start_active)
        if initial_alpha is not None:
            problem._check_initial_alpha()
        else:
            object.__setattr__(problem, "initial_gradients", None)
            object.__setattr__(problem, "start_active", None)
        return problem

    def keeping_gradients(self) -> Problem:
        """The same problem, its solution carrying its final gradients (C-SVC, SMO)."""
        problem = copy.copy(self)
        object.__setattr__(problem, "keep_gradients", True)
        return problem

    def on(self, C: np.ndarray, y: np.ndarray | None = None,
           target: np.ndarray | None = None) -> Problem:
        """The same formulation and nu/epsilon over other rows' bounds, labels, targets."""
        return Problem(self.formulation, C, y, target, self.nu, self.epsilon)
