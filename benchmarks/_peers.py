"""The libraries compared by ``benchmarks/run.py``, behind one small adapter interface.

Each adapter converts a :class:`_datasets.Dataset` to its library's input outside the timed
region (``prepare``), then exposes the timed steps (``fit``, ``predict``) and what the report
reads from the fitted model (``n_support``, ``dual_parts``). Adapters:

* :class:`EstimatorPeer` for the scikit-learn-style estimators: svmx (optionally pinned to one
  ``solver``), scikit-learn and scikit-learn-intelex;
* :class:`LibsvmPeer` for LIBSVM's own ctypes interface (``libsvm-official``), fed ``svm_node``
  arrays built from CSR before timing and predicting row by row through the C ``svm_predict``.

:func:`dual_objective` evaluates the LIBSVM dual objective of any fitted model from its support
vectors and coefficients, with numpy only, so every library is scored by the same code.
"""

import contextlib
import importlib
import logging

import numpy as np
import scipy.sparse as sp
from _datasets import CLASSIFICATION

C, TOL, CACHE_SIZE, EPSILON = 1.0, 1e-3, 200.0, 0.1
PEER_NAMES = ["svmx", "sklearn", "libsvm", "sklearnex"]


def _dense(matrix):
    """``matrix`` as a C-contiguous float64 ndarray."""
    matrix = matrix.toarray() if sp.issparse(matrix) else matrix
    return np.ascontiguousarray(matrix, dtype=np.float64)


def pair_coefficients(dual_coef, n_support):
    """Per one-vs-one problem coefficients from LIBSVM's ``dual_coef`` layout.

    For the pair (i, j), i < j, the coefficients of class i's support vectors are in row
    ``j - 1`` and those of class j's in row ``i``; support vectors of other classes take no part.

    Parameters
    ----------
    dual_coef : ndarray of shape (n_classes - 1, n_SV)
    n_support : array-like of shape (n_classes,)
        Support vectors per class, in the order they are stored.

    Returns
    -------
    ndarray of shape (n_SV, n_classes * (n_classes - 1) / 2)
        Column p holds y_i alpha_i of problem p for every support vector (0 outside it).

    Examples
    --------
    >>> pair_coefficients(np.array([[0.5, -0.5]]), [1, 1]).ravel().tolist()
    [0.5, -0.5]
    """
    starts = np.concatenate([[0], np.cumsum(n_support)]).astype(int)
    columns = []
    for i in range(len(n_support)):
        for j in range(i + 1, len(n_support)):
            column = np.zeros(dual_coef.shape[1])
            class_i, class_j = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
            column[class_i] = dual_coef[j - 1, class_i]
            column[class_j] = dual_coef[i, class_j]
            columns.append(column)
    return np.column_stack(columns)


def rbf_kernel_times(support_vectors, coefficients, gamma, block_rows=2048):
    """``diag(V^T K V)`` for the RBF Gram matrix K of the support vectors, in row blocks.

    Blocks keep the memory at ``block_rows x n_SV`` doubles (a9a has ~12,000 support vectors).
    """
    norms = np.einsum("ij,ij->i", support_vectors, support_vectors)
    quadratic = np.zeros(coefficients.shape[1])
    for start in range(0, len(support_vectors), block_rows):
        rows = slice(start, start + block_rows)
        distances = (
            norms[rows, None] + norms[None, :] - 2 * support_vectors[rows] @ support_vectors.T
        )
        kernel = np.exp(-gamma * np.maximum(distances, 0.0))
        quadratic += np.einsum("ij,ij->j", coefficients[rows], kernel @ coefficients)
    return quadratic


def dual_objective(parts, gamma, epsilon=EPSILON):
    """The LIBSVM dual objective (to be minimised) of a fitted RBF model.

    C-SVC: ``0.5 c^T K c - sum |c|`` per one-vs-one problem, summed over the problems.
    epsilon-SVR: ``0.5 c^T K c + epsilon sum |c| - sum y_i c_i``, with c = alpha - alpha*.

    Parameters
    ----------
    parts : tuple (support_vectors, coefficients, targets)
        As returned by an adapter's ``dual_parts``; ``targets`` is None for classification.
    gamma : float
    epsilon : float, default=0.1

    Returns
    -------
    float

    Examples
    --------
    >>> parts = (np.array([[0.0], [1.0]]), np.array([[1.0], [-1.0]]), None)
    >>> round(dual_objective(parts, gamma=1.0), 4)  # 0.5 * (2 - 2 exp(-1)) - 2
    -1.3679
    """
    support_vectors, coefficients, targets = parts
    quadratic = rbf_kernel_times(_dense(support_vectors), coefficients, gamma)
    if targets is None:
        return float(0.5 * quadratic.sum() - np.abs(coefficients).sum())
    c = coefficients[:, 0]
    return float(0.5 * quadratic[0] + epsilon * np.abs(c).sum() - targets @ c)


class _FallbackLog(logging.Handler):
    """Collects scikit-learn-intelex's "fallback to original Scikit-learn" messages."""

    def __init__(self):
        super().__init__(level=logging.INFO)
        self.fell_back = False
        logger = logging.getLogger("sklearnex")
        for handler in logger.handlers:  # keep its own stderr handler quiet about INFO records
            handler.setLevel(max(handler.level, logging.WARNING))
        logger.setLevel(logging.INFO)
        logger.propagate = False
        logger.addHandler(self)

    def emit(self, record):
        if "fallback" in record.getMessage().lower():
            self.fell_back = True


class EstimatorPeer:
    """A scikit-learn-style estimator (svmx, scikit-learn, scikit-learn-intelex).

    Parameters
    ----------
    label : str
        Name in the table, e.g. ``"svmx[block]"``.
    module : str
        Module holding the ``SVC`` and ``SVR`` classes.
    extra_params : dict, optional
        Additional constructor parameters (svmx's ``solver``).
    """

    def __init__(self, label, module, extra_params=None):
        self.label = label
        self.module = importlib.import_module(module)
        self.extra_params = dict(extra_params or {})
        self.fallback_log = _FallbackLog() if module.startswith("sklearnex") else None
        self.dense_only = False
        self.notes = set()
        self.model = None

    def estimator(self, task, gamma):
        """A fresh, unfitted estimator with the benchmark's parameters."""
        params = {"C": C, "kernel": "rbf", "gamma": gamma, "tol": TOL, "cache_size": CACHE_SIZE}
        if task == CLASSIFICATION:
            return self.module.SVC(**params, **self.extra_params)
        return self.module.SVR(**params, epsilon=EPSILON, **self.extra_params)

    def probe_sparse(self, data):
        """Fit ``data`` (CSR) once; on failure fall back to dense input from now on."""
        try:
            self.estimator(data.task, 1.0 / data.n_features).fit(data.X_train, data.y_train)
        except (TypeError, ValueError) as error:
            self.dense_only = True
            self.notes.add(f"CSR input failed ({type(error).__name__}: {error}); dense used")

    def prepare(self, data):
        """Keep references to the data (densified when the library rejects CSR)."""
        self.data = data
        convert = _dense if (self.dense_only and data.is_sparse) else (lambda matrix: matrix)
        self.X_train, self.X_test = convert(data.X_train), convert(data.X_test)

    def fit(self, gamma):
        """Fit on the prepared training data (timed)."""
        if self.fallback_log is not None:
            self.fallback_log.fell_back = False
        self.model = self.estimator(self.data.task, gamma).fit(self.X_train, self.data.y_train)
        if self.fallback_log is not None and self.fallback_log.fell_back:
            self.notes.add(f"fell back to scikit-learn on {self.data.name}")

    def predict(self):
        """Predict the prepared test data (timed)."""
        return np.asarray(self.model.predict(self.X_test), dtype=np.float64)

    def n_support(self):
        """Total number of support vectors."""
        return len(self.model.support_)

    def dual_parts(self):
        """``(support_vectors, coefficients, targets)`` for :func:`dual_objective`."""
        dual_coef = _dense(self.model.dual_coef_)
        if self.data.task == CLASSIFICATION:
            coefficients = pair_coefficients(dual_coef, self.model.n_support_)
            targets = None
        else:
            coefficients = dual_coef.T
            targets = self.data.y_train[np.asarray(self.model.support_)]
        return self.model.support_vectors_, coefficients, targets

    def release(self):
        """Drop the fitted model and the data references."""
        self.model = self.data = self.X_train = self.X_test = None


class LibsvmPeer:
    """LIBSVM itself through ``libsvm-official``'s ctypes binding."""

    label = "libsvm"

    def __init__(self, omp_threads=None):
        from libsvm import svm, svmutil

        self.svm, self.svmutil = svm, svmutil
        self.omp_threads = omp_threads
        self.notes = {"predict = C svm_predict per row on prebuilt svm_node arrays"}
        if omp_threads:
            self.notes.add(f"OpenMP limited to {omp_threads} thread(s) during its fit and predict")
        self.model = None

    def _threads(self):
        """A context limiting OpenMP to ``omp_threads`` (no limit when None)."""
        if not self.omp_threads:
            return contextlib.nullcontext()
        from threadpoolctl import threadpool_limits

        return threadpool_limits(limits=self.omp_threads, user_api="openmp")

    def probe_sparse(self, data):
        """LIBSVM is always fed CSR-built ``svm_node`` arrays; nothing to probe."""

    def prepare(self, data):
        """Build ``svm_problem`` structures for training and test data (untimed)."""
        self.data = data
        self.train_problem = self.svm.svm_problem(data.y_train, sp.csr_matrix(data.X_train))
        self.test_problem = self.svm.svm_problem(data.y_test, sp.csr_matrix(data.X_test))

    def fit(self, gamma):
        """``svm_train`` with ``-s 0`` (C-SVC) or ``-s 3`` (epsilon-SVR) (timed)."""
        svm_type = "-s 0" if self.data.task == CLASSIFICATION else f"-s 3 -p {EPSILON!r}"
        options = f"{svm_type} -t 2 -c {C!r} -g {gamma!r} -e {TOL!r} -m {CACHE_SIZE!r} -q"
        parameter = self.svm.svm_parameter(options)
        with self._threads():
            self.model = self.svmutil.svm_train(self.train_problem, parameter)

    def predict(self):
        """One C ``svm_predict`` call per test row (timed)."""
        predict_row, model, rows = self.svm.libsvm.svm_predict, self.model, self.test_problem.x
        with self._threads():
            return np.array([predict_row(model, rows[i]) for i in range(self.test_problem.l)])

    def n_support(self):
        """Total number of support vectors."""
        return int(self.model.get_nr_sv())

    def _support_vectors(self):
        """The model's support vectors as CSR, read node by node from ``get_SV()``."""
        rows = self.model.get_SV()
        indptr = np.cumsum([0] + [len(row) for row in rows])
        indices = np.array([index - 1 for row in rows for index in row], dtype=np.int64)
        values = np.array([value for row in rows for value in row.values()], dtype=np.float64)
        return sp.csr_matrix((values, indices, indptr), shape=(len(rows), self.data.n_features))

    def dual_parts(self):
        """``(support_vectors, coefficients, targets)`` for :func:`dual_objective`."""
        model, n_sv = self.model, self.model.l
        dual_coef = np.array(
            [
                np.ctypeslib.as_array(model.sv_coef[row], (n_sv,))
                for row in range(model.nr_class - 1)
            ]
        )
        if self.data.task == CLASSIFICATION:
            coefficients = pair_coefficients(dual_coef, model.nSV[: model.nr_class])
            targets = None
        else:
            coefficients = dual_coef.T
            targets = self.data.y_train[np.asarray(model.get_sv_indices()) - 1]
        return self._support_vectors(), coefficients, targets

    def release(self):
        """Drop the model and the ``svm_node`` arrays."""
        self.model = self.data = self.train_problem = self.test_problem = None


def svmx_solvers(task):
    """svmx's ``solver`` choices to benchmark: [None] (the default) plus 'smo' and 'block' when
    the estimator has a ``solver`` parameter."""
    import svmx

    estimator = svmx.SVC() if task == CLASSIFICATION else svmx.SVR()
    return [None, "smo", "block"] if "solver" in estimator.get_params() else [None]


def make_peers(names, task, libsvm_threads=None):
    """Adapters for the requested libraries that import here; svmx's variants come first.

    ``libsvm_threads`` limits LIBSVM's OpenMP threads while it runs (None: library default).

    Returns
    -------
    peers : list
    skipped : list of str
        One "library: reason" line per library that could not be imported.
    """
    factories = {
        "sklearn": lambda: [EstimatorPeer("sklearn", "sklearn.svm")],
        "libsvm": lambda: [LibsvmPeer(libsvm_threads)],
        "sklearnex": lambda: [EstimatorPeer("sklearnex", "sklearnex.svm")],
        "svmx": lambda: [
            EstimatorPeer(
                "svmx" if solver is None else f"svmx[{solver}]",
                "svmx",
                # every core, as sklearnex and LIBSVM's OpenMP build use (svmx's n_jobs=None
                # is one thread, scikit-learn's convention)
                {"n_jobs": -1} if solver is None else {"solver": solver, "n_jobs": -1},
            )
            for solver in svmx_solvers(task)
        ],
    }
    peers, skipped = [], []
    for name in PEER_NAMES:
        if name not in names:
            continue
        try:
            peers.extend(factories[name]())
        except ImportError as error:
            skipped.append(f"{name}: {error}")
    return peers, skipped
