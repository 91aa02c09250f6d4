"""Type stubs for the compiled binding svmx._libsvm."""

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from svmx._engine.cache import CacheMemories as CacheMemories
from svmx._engine.layout_cache import LayoutCache as LayoutCache
from svmx._gram_folds import ClassifierFold as ClassifierFold
from svmx._gram_folds import RegressorFold as RegressorFold
from svmx._gram_folds import best_scale as best_scale
from svmx._gram_folds import kernel_block as kernel_block
from svmx._specs import KernelSpec, Problem, SolveSpec

KERNEL_TYPES: dict[str, int]
DENSE_ENOUGH: float
SPARSE_BLOCK_DENSITY: float
SOLVED: int
MAX_ITER: int
NO_MARGIN: int
MIN_PROB: float

class LazyGram:
    n_samples: int
    rows_computed: int
    def values_at(self, rows: ArrayLike, columns: ArrayLike) -> NDArray[np.float64]: ...

def lazy_gram(X: Any, rows: ArrayLike, kernel: KernelSpec, solver: str = ...) -> LazyGram: ...

class Solution:
    @property
    def coef(self) -> NDArray[np.float64]: ...
    @property
    def rho(self) -> float: ...
    @property
    def obj(self) -> float: ...
    @property
    def r(self) -> float: ...
    @property
    def epsilon(self) -> float: ...
    @property
    def n_iter(self) -> int: ...
    @property
    def n_kernel_rows(self) -> int: ...
    @property
    def gradients(self) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None: ...
    @property
    def status(self) -> int: ...
    @property
    def solver(self) -> str: ...
    @property
    def converged(self) -> bool: ...

def train_one(
    X: Any, rows: ArrayLike, problem: Problem, kernel: KernelSpec, solve: SolveSpec
) -> Solution: ...
def block_size_for(l: int, cache_bytes: float) -> int: ...  # noqa: E741
PREDICT_MIN_THREADED_VALUES: int

def engine_serves(support_vectors: Any) -> bool: ...
def ovo_vote(values: ArrayLike, n_classes: int) -> NDArray[np.intp]: ...
def smo_trains_dense_rows(X: Any, solver: str) -> bool: ...
def compressed_structure_problem(
    indptr: Any, indices: Any, n_major: int, n_minor: int, n_data: int
) -> str | None: ...
def csr_is_ready(
    indptr: Any, indices: Any, data: Any, n_rows: int, n_features: int
) -> bool: ...
def gather_csr_rows(
    matrix: Any, rows: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.intc], NDArray[np.intp]]: ...
def decision_values(
    X: Any,
    support_vectors: Any,
    dual_coef: ArrayLike,
    n_support: ArrayLike,
    kernel: KernelSpec,
    n_threads: int = 1,
    cache: LayoutCache | None = None,
) -> NDArray[np.float64]: ...
def sigmoid_train(dec_values: ArrayLike, labels: ArrayLike) -> tuple[float, float, int]: ...
def sigmoid_predict(dec_values: ArrayLike, A: float, B: float) -> NDArray[np.float64]: ...
def pairwise_coupling(R: ArrayLike) -> NDArray[np.float64]: ...
def squared_norms(X: Any) -> NDArray[np.float64]: ...
def mirror_upper(square: NDArray[Any]) -> NDArray[Any]: ...
def dense_if_dense_enough(M: Any) -> Any: ...
def kernel_matrix(
    X: Any,
    Y: Any,
    kernel: KernelSpec,
    *,
    X_sq_norms: ArrayLike | None = None,
    Y_sq_norms: ArrayLike | None = None,
) -> NDArray[np.float64]: ...
def symmetric_kernel_matrix(
    X: Any, kernel: KernelSpec, *, X_sq_norms: ArrayLike | None = None
) -> NDArray[np.float64]: ...
def libsvm_decision_values(
    X: Any, support_vectors: Any, coef: ArrayLike, rho: float, kernel: KernelSpec
) -> NDArray[np.float64]: ...
def libsvm_ovo_values(
    X: Any, support_vectors: Any, dual_coef: ArrayLike, n_support: ArrayLike, rho: ArrayLike,
    kernel: KernelSpec,
) -> NDArray[np.float64]: ...
