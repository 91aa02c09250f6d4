"""Type stubs for svmx._engine.support_layout (support vectors laid out by feature)."""

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

def transposed_support_vectors(
    support_vectors: Any, n_threads: int = 1
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
def support_vector_columns(
    support_vectors: Any,
) -> tuple[NDArray[np.intp], NDArray[np.intc], NDArray[np.float64], NDArray[np.float64]]: ...
def output_columns(n_support: ArrayLike) -> tuple[NDArray[np.intp], NDArray[np.intp]]: ...
def csr_arrays(
    matrix: Any, canonical: bool = True
) -> tuple[NDArray[Any], NDArray[np.intc], NDArray[np.intp]]: ...
def gather_csr_rows(
    matrix: Any, rows: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.intc], NDArray[np.intp]]: ...
def gather_csr_rows_dense(matrix: Any, rows: ArrayLike) -> NDArray[np.float64]: ...
def csr_is_ready(
    indptr: Any, indices: Any, data: Any, n_rows: int, n_features: int
) -> bool: ...
def compressed_structure_problem(
    indptr: ArrayLike, indices: ArrayLike, n_major: int, n_minor: int, n_data: int
) -> str | None: ...
