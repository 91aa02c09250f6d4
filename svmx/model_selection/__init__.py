"""Model selection: cross-validation splitters, cross-validation and grid search.

The names are scikit-learn's and behave as scikit-learn's (``KFold`` and
``StratifiedKFold`` draw its folds, ``cross_validate`` returns its dict of arrays,
``GridSearch`` / ``GridSearchCV`` fills its ``cv_results_``). They work with every
svmx estimator and any estimator following the scikit-learn protocol
(``get_params``, ``set_params``, ``fit``), with or without scikit-learn installed.
Parallel work goes through joblib when installed, so any joblib backend,
including a dask cluster, can run it.
"""

from ._clone import clone
from ._cross_validation import cross_validate
from ._search import GridSearch, GridSearchCV, expand_grid, libsvm_grid
from ._split import KFold, StratifiedKFold, check_cv

__all__ = [
    "GridSearch",
    "GridSearchCV",
    "KFold",
    "StratifiedKFold",
    "check_cv",
    "clone",
    "cross_validate",
    "expand_grid",
    "libsvm_grid",
]
