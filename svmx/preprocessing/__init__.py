"""Preprocessing for SVMs: reproducible splits, labels, scaling and encoding.

Everything here is plain numpy and scipy. ``MinMaxScaler`` and ``StandardScaler``
behave as scikit-learn's classes of the same names (without importing scikit-learn);
``SvmScaler`` is LIBSVM's svm-scale (sparse input, constant columns dropped, range
files). ``train_test_split`` is scikit-learn's function (it cuts the arrays and
draws scikit-learn's rows for an int ``random_state``). The index-based helpers
(``shuffled_indices``, ``shuffled_split_indices``, ``stratified_split``,
``k_fold_indices``) return row indices so that parallel arrays stay aligned, and draw
from a :class:`SplitMix64` generator, so an int seed gives the same split on every
platform. Their ``seed`` accepts what every svmx ``random_state`` accepts: None, an
int, a numpy Generator or RandomState, or a SplitMix64.
"""

from svmx._random import GlibcRand, SplitMix64

from ._discretizer import SupervisedDiscretizer
from ._labels import class_counts, label_encode
from ._one_hot import OneHotEncoder, one_hot_encode
from ._scalers import MinMaxScaler, StandardScaler
from ._scaling import Scaler, apply_scaler, min_max_scale, standardize
from ._splits import k_fold_indices, shuffled_indices, shuffled_split_indices, stratified_split
from ._svm_scale import SvmScaler
from ._train_test_split import train_test_split

__all__ = [
    "GlibcRand",
    "MinMaxScaler",
    "OneHotEncoder",
    "Scaler",
    "SplitMix64",
    "StandardScaler",
    "SupervisedDiscretizer",
    "SvmScaler",
    "apply_scaler",
    "class_counts",
    "k_fold_indices",
    "label_encode",
    "min_max_scale",
    "one_hot_encode",
    "shuffled_indices",
    "shuffled_split_indices",
    "standardize",
    "stratified_split",
    "train_test_split",
]
