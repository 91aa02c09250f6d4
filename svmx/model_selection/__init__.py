"""Model selection: cross-validation splitters, cross-validation and grid search.

Works with every svmx estimator and any estimator following the
scikit-learn protocol (``get_params``, ``set_params``, ``fit``), without
importing scikit-learn. Parallel work goes through joblib when installed,
so any joblib backend, including a dask cluster, can run it.
"""

from ._clone import clone
from ._search import GridSearch, expand_grid, libsvm_grid
from ._split import KFold, StratifiedKFold, check_cv
from ._validation import CrossValidationResult, cross_validate

__all__ = [
    "CrossValidationResult",
    "GridSearch",
    "KFold",
    "StratifiedKFold",
    "check_cv",
    "clone",
    "cross_validate",
    "expand_grid",
    "libsvm_grid",
]
