"""The family cases of ``benchmarks/bench_family.py``: NuSVC, OneClassSVM, SVR and NuSVR.

Reuses the suite's data loading (:mod:`_datasets`) and adapters (:mod:`_peers`): the adapters
here only swap the estimator class (scikit-learn-style libraries) or the ``svm_train`` options
(LIBSVM), so preparing the data outside the clock, LIBSVM's prebuilt ``svm_node`` arrays and its
per-row C ``svm_predict`` all stay exactly as in ``benchmarks/run.py``.
"""

from dataclasses import dataclass

import numpy as np
from _datasets import (
    CLASSIFICATION,
    REGRESSION,
    Dataset,
    _dna,
    _heart_scale,
    _pendigits,
    _read,
    _split_every,
)
from _peers import CACHE_SIZE, TOL, EstimatorPeer, LibsvmPeer

KINDS = ["NuSVC", "OneClassSVM", "SVR", "NuSVR"]
# LIBSVM's -s value per estimator and the option each estimator parameter maps to.
LIBSVM_TYPES = {"NuSVC": 1, "OneClassSVM": 2, "SVR": 3, "NuSVR": 4}
LIBSVM_OPTIONS = {"nu": "-n", "C": "-c", "epsilon": "-p"}


@dataclass(frozen=True)
class Case:
    """One benchmark line-up: an estimator class, its parameters and a data set.

    ``name`` (``"NuSVR/housing_scale"``) is what ``--cases`` selects.
    """

    kind: str
    dataset: str
    params: tuple  # ((name, value), ...): hashable, in the order shown in the report

    @property
    def name(self):
        return f"{self.kind}/{self.dataset}"

    @property
    def task(self):
        """The :mod:`_datasets` task whose warm-up data and labels fit this estimator."""
        return REGRESSION if self.kind in ("SVR", "NuSVR") else CLASSIFICATION

    @property
    def params_text(self):
        return ", ".join(f"{key}={value:g}" for key, value in self.params)


REGRESSION_SETS = ["abalone_scale", "cpusmall_scale", "housing_scale"]
CASES = [
    Case("NuSVC", "dna.scale", (("nu", 0.5),)),
    Case("NuSVC", "pendigits", (("nu", 0.1),)),
    Case("OneClassSVM", "heart_scale", (("nu", 0.5),)),
    Case("OneClassSVM", "mushrooms", (("nu", 0.5),)),
    *[Case("SVR", name, (("C", 1.0), ("epsilon", 0.1))) for name in REGRESSION_SETS],
    *[Case("NuSVR", name, (("nu", 0.5), ("C", 1.0))) for name in REGRESSION_SETS],
]


def _mushrooms_whole(data_dir):
    X, y = _read(data_dir, "mushrooms", 112)
    return X, y, X, y, ["test = train"]


def _every_fifth(file_name, n_features):
    def recipe(data_dir):
        data = _split_every(5, *_read(data_dir, file_name, n_features))
        return (*data, ["every 5th row is test"])

    return recipe


# data set name -> recipe returning (X_train, y_train, X_test, y_test, notes), all CSR.
FAMILY_RECIPES = {
    "dna.scale": _dna,
    "pendigits": _pendigits,
    "heart_scale": _heart_scale,
    "mushrooms": _mushrooms_whole,
    "abalone_scale": _every_fifth("abalone_scale", 8),
    "cpusmall_scale": _every_fifth("cpusmall_scale", 12),
    "housing_scale": _every_fifth("housing_scale", 13),
}


def load_case_data(case, data_dir):
    """The :class:`_datasets.Dataset` of ``case``; FileNotFoundError when a file is missing."""
    X_train, y_train, X_test, y_test, notes = FAMILY_RECIPES[case.dataset](data_dir)
    return Dataset(case.dataset, case.task, X_train, y_train, X_test, y_test, list(notes))


class FamilyEstimatorPeer(EstimatorPeer):
    """An :class:`_peers.EstimatorPeer` building ``kind`` (e.g. ``NuSVR``) with ``params``."""

    def __init__(self, label, module, kind):
        super().__init__(label, module)
        self.estimator_class = getattr(self.module, kind)  # AttributeError: not in the library
        self.params = ()

    def estimator(self, task, gamma):
        """A fresh, unfitted estimator with the case's parameters (``task`` is implied)."""
        return self.estimator_class(
            kernel="rbf", gamma=gamma, tol=TOL, cache_size=CACHE_SIZE, **dict(self.params)
        )


class FamilyLibsvmPeer(LibsvmPeer):
    """A :class:`_peers.LibsvmPeer` training nu-SVC, one-class, epsilon-SVR or nu-SVR."""

    def __init__(self, kind, omp_threads=None):
        super().__init__(omp_threads)
        self.kind = kind
        self.params = ()

    def fit(self, gamma):
        """``svm_train`` with ``-s 1|2|3|4`` and the case's ``-n/-c/-p`` (timed)."""
        options = " ".join(f"{LIBSVM_OPTIONS[key]} {value!r}" for key, value in self.params)
        options = (
            f"-s {LIBSVM_TYPES[self.kind]} -t 2 {options} -g {gamma!r} -e {TOL!r} "
            f"-m {CACHE_SIZE!r} -q"
        )
        parameter = self.svm.svm_parameter(options)
        with self._threads():
            self.model = self.svmutil.svm_train(self.train_problem, parameter)


def make_family_peers(kind, names, libsvm_threads=None):
    """Adapters for ``kind`` in the requested libraries (in ``names``' order).

    Returns the adapters and one "library: reason" line per library that is not run.
    """
    factories = {
        "svmx": lambda: FamilyEstimatorPeer("svmx", "svmx", kind),
        "sklearn": lambda: FamilyEstimatorPeer("sklearn", "sklearn.svm", kind),
        "libsvm": lambda: FamilyLibsvmPeer(kind, libsvm_threads),
        "sklearnex": lambda: FamilyEstimatorPeer("sklearnex", "sklearnex.svm", kind),
    }
    peers, skipped = [], []
    for name in names:
        try:
            peers.append(factories[name]())
        except ImportError as error:
            skipped.append(f"{name}: {error}")
        except AttributeError:
            module = "sklearn.svm" if name == "sklearn" else name
            module = "sklearnex.svm" if name == "sklearnex" else module
            skipped.append(f"{name}: no {kind} in {module}")
    return peers, skipped


def quality(case, predictions, y_test, reference=None):
    """Accuracy (NuSVC), agreement with ``reference`` predictions (OneClassSVM) or MSE.

    Returns None for OneClassSVM without a reference (scikit-learn did not run).
    """
    if case.kind == "NuSVC":
        return float(np.mean(predictions == y_test))
    if case.kind == "OneClassSVM":
        return None if reference is None else float(np.mean(predictions == reference))
    return float(np.mean((predictions - y_test) ** 2))


def quality_text(case, value):
    """The quality cell: ``"94.69%"``, ``"agree 99.93%"`` or ``"MSE 0.123"``."""
    if value is None:
        return ""
    if case.kind == "NuSVC":
        return f"{100 * value:.2f}%"
    if case.kind == "OneClassSVM":
        return f"agree {100 * value:.2f}%"
    return f"MSE {value:.3f}"
