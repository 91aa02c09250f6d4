"""Embedding: third-party Cython code that cimports svmx's public engine.

A small extension is compiled in a temporary directory against the svmx under test (its
``svmx/engine/*.pxd`` files found through the package on ``sys.path``, as a user's build finds
them), trains C-SVC with ``Solver.solve`` on an ``SvcQ`` over ``Kernel(DenseRows(...))`` inside
``with nogil:``, and fits Platt's sigmoid with ``sigmoid_train``. Both must agree with the
Python API to 1e-12: same engine, same arithmetic.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import svmx
from svmx._engine.platt import sigmoid_train_py

EXTENSION_NAME = "svmx_embedding_demo"

EXTENSION_SOURCE = '''
# cython: language_level=3, boundscheck=False, wraparound=False
"""Trains C-SVC and fits Platt's sigmoid through svmx's public cimport-able engine."""

import numpy as np

# Every public name is cimported, so that a broken re-export fails this build.
from svmx.engine.block_solver cimport BlockSolver
from svmx.engine.cache cimport CacheMemories, KernelCache
from svmx.engine.kernel cimport (
    BLOCK_NOT_RESERVED, BLOCK_OK, BLOCK_OUT_OF_MEMORY, LINEAR, POLY, PRECOMPUTED, RBF, SIGMOID,
    BlockStatus, CsrRows, DenseRows, DenseRows32, Kernel, KernelParams, KernelType, Rows,
    TiledRows, kernel_block, kernel_from_dot,
)
from svmx.engine.platt cimport (
    PLATT_LINE_SEARCH_FAILED, PLATT_NOT_CONVERGED, PLATT_OK, clip_probability,
    multiclass_probability,
    sigmoid_predict, sigmoid_train,
)
from svmx.engine.qmatrix cimport OneClassQ, QMatrix, SvcQ, SvrQ
from svmx.engine.solver cimport (
    SOLVE_BAD_ARGUMENT, SOLVE_BLOCK_NOT_RESERVED, SOLVE_INTERRUPTED, SOLVE_MAX_ITER, SOLVE_OK,
    SOLVE_OUT_OF_MEMORY,
    LogProgress, LogWrite, SolutionInfo, Solver, SolverLog, SolverNU, SolveStatus,
)


cdef struct ProgressRecord:
    long count
    long n_iter[1024]
    double gap[1024]


cdef void record_progress(void* context, long n_iter, double gap, double eps) noexcept nogil:
    cdef ProgressRecord* record = <ProgressRecord*> context
    if record.count < 1024:
        record.n_iter[record.count] = n_iter
        record.gap[record.count] = gap
    record.count += 1


def train_c_svc(X, y, double C, double gamma, double tol, double cache_mb,
                CacheMemories memories=None):
    """Signed coefficients y_i alpha_i, rho and the status of C-SVC with the RBF kernel
    (its kernel cache from `memories` when given)."""
    # Construction needs the GIL: the objects allocate and copy numpy arrays.
    cdef Kernel kernel = Kernel(DenseRows(np.array(X, dtype=np.float64, order="C")),
                                RBF, 3, gamma, 0.0)
    cdef signed char[::1] labels = np.ascontiguousarray(y, dtype=np.int8)
    cdef SvcQ Q = SvcQ(kernel, labels, cache_mb * 1048576.0, memories)
    cdef int l = <int> labels.shape[0]
    cdef double[::1] alpha = np.zeros(l)
    cdef double[::1] p = np.full(l, -1.0)
    cdef double[::1] bounds = np.full(l, C)
    cdef Solver solver = Solver()
    cdef SolutionInfo info
    cdef int status
    with nogil:
        status = solver.solve(l, Q, &p[0], &labels[0], &alpha[0], &bounds[0], tol, True,
                              -1, False, &info)
    if status != SOLVE_OK and status != SOLVE_MAX_ITER:
        raise RuntimeError(f"solve failed with status {status}")
    coef = np.asarray(alpha) * np.asarray(labels, dtype=np.float64)
    return coef, info.rho, status


def solves_through_cache_memories(X, y, double C, double gamma, double tol, int n_solves):
    """`train_c_svc` n_solves times over one CacheMemories (each solve's cache takes the
    block the last one released): their results, and the blocks allocated."""
    cdef CacheMemories memories = CacheMemories(1, len(y) * len(y))
    results = [train_c_svc(X, y, C, gamma, tol, 200.0, memories) for _ in range(n_solves)]
    return results, memories.n_blocks


def progress_of_c_svc(X, y, double C, double gamma, double tol):
    """The (n_iter, gap) reports of a C-SVC solve through a SolverLog with only
    `progress` set, and the solve's own iteration count."""
    cdef Kernel kernel = Kernel(DenseRows(np.array(X, dtype=np.float64, order="C")),
                                RBF, 3, gamma, 0.0)
    cdef signed char[::1] labels = np.ascontiguousarray(y, dtype=np.int8)
    cdef SvcQ Q = SvcQ(kernel, labels, 100.0 * 1048576.0)
    cdef int l = <int> labels.shape[0]
    cdef double[::1] alpha = np.zeros(l)
    cdef double[::1] p = np.full(l, -1.0)
    cdef double[::1] bounds = np.full(l, C)
    cdef Solver solver = Solver()
    cdef SolutionInfo info
    cdef ProgressRecord record
    cdef SolverLog log
    record.count = 0
    log.write = NULL
    log.progress = record_progress
    log.context = &record
    with nogil:
        solver.solve(l, Q, &p[0], &labels[0], &alpha[0], &bounds[0], tol, True,
                     -1, False, &info, &log)
    reports = [(record.n_iter[i], record.gap[i]) for i in range(min(record.count, 1024))]
    return reports, info.n_iter


def statuses():
    """The failure statuses a caller checks for."""
    return PLATT_LINE_SEARCH_FAILED, SOLVE_BAD_ARGUMENT


def kernel_block_status(X, Y, out_rows, out_columns):
    """kernel_block's return value (linear kernel) for an out of the given shape."""
    cdef KernelParams params
    params.kernel_type = LINEAR
    params.degree = 3
    params.gamma = 1.0
    params.coef0 = 0.0
    cdef const double[:, ::1] a = np.ascontiguousarray(X, dtype=np.float64)
    cdef const double[:, ::1] b = np.ascontiguousarray(Y, dtype=np.float64)
    cdef double[::1] a_norms = np.zeros(a.shape[0])
    cdef double[::1] b_norms = np.zeros(b.shape[0])
    cdef double[:, ::1] out = np.full((out_rows, out_columns), -7.0)
    cdef int status
    with nogil:
        status = kernel_block(&params, a, a_norms, b, b_norms, out)
    return status, np.asarray(out)


def fit_sigmoid(dec_values, labels):
    """Platt's (A, B, status) through the cimported sigmoid_train."""
    cdef const double[::1] dec = np.ascontiguousarray(dec_values, dtype=np.float64)
    cdef const double[::1] target = np.ascontiguousarray(labels, dtype=np.float64)
    cdef double A = 0.0, B = 0.0
    cdef int status
    with nogil:
        status = sigmoid_train(dec.shape[0], &dec[0], &target[0], &A, &B)
    return A, B, status
'''

SETUP_SOURCE = """
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    name="svmx-embedding-demo",
    ext_modules=cythonize(
        [Extension("{name}", ["{name}.pyx"], include_dirs=[np.get_include()])],
        quiet=True,
    ),
)
"""


def _has_c_compiler(workdir):
    """True when setuptools' default C compiler can build a trivial source file."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    source = workdir / "probe.c"
    source.write_text("int probe(void) { return 0; }\n")
    compiler = new_compiler()
    customize_compiler(compiler)
    try:
        compiler.compile([str(source)], output_dir=str(workdir))
    except (CCompilerError, DistutilsError, OSError):
        return False
    return True


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    """The compiled demo extension, imported from its temporary build directory."""
    pytest.importorskip("Cython", reason="the embedding test compiles Cython code")
    pytest.importorskip("setuptools", reason="the embedding test builds with setuptools")
    workdir = tmp_path_factory.mktemp("embedding")
    if not _has_c_compiler(workdir):
        pytest.skip("no working C compiler: cannot compile the embedding extension")
    (workdir / f"{EXTENSION_NAME}.pyx").write_text(EXTENSION_SOURCE)
    (workdir / "setup.py").write_text(SETUP_SOURCE.format(name=EXTENSION_NAME))
    # The child must see the svmx under test (installed, or an in-place build): Cython then
    # finds svmx/engine/*.pxd on sys.path with no include_path of its own.
    package_root = str(Path(svmx.__file__).resolve().parent.parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [package_root, *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    }
    build = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    built = sorted(workdir.glob(f"{EXTENSION_NAME}*.so")) + sorted(
        workdir.glob(f"{EXTENSION_NAME}*.pyd")
    )
    assert built, f"no extension module in {sorted(p.name for p in workdir.iterdir())}"
    spec = importlib.util.spec_from_file_location(EXTENSION_NAME, built[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_public_pxd_files_ship_with_the_package():
    engine = Path(svmx.__file__).resolve().parent / "engine"
    names = sorted(path.name for path in engine.glob("*.pxd"))
    assert names == [
        "block_solver.pxd",
        "cache.pxd",
        "kernel.pxd",
        "platt.pxd",
        "qmatrix.pxd",
        "solver.pxd",
    ]


def _breast_cancer_scaled():
    """sklearn's breast cancer data (569 x 30) scaled to [-1, 1] per feature, as svm-scale."""
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    low, high = X.min(axis=0), X.max(axis=0)
    return np.ascontiguousarray(2.0 * (X - low) / (high - low) - 1.0), y


def test_solver_through_cimport_matches_svc(embedded):
    X, y = _breast_cancer_scaled()
    C, gamma, tol, cache_mb = 1.0, 0.05, 1e-3, 200.0
    model = svmx.SVC(
        C=C, kernel="rbf", gamma=gamma, tol=tol, cache_size=cache_mb, solver="smo"
    ).fit(X, y)

    # LIBSVM's binary problem as svmx poses it: the rows of classes_[0] (label +1), then those
    # of classes_[1] (label -1), each in their original order.
    rows = np.concatenate(
        [np.flatnonzero(y == model.classes_[0]), np.flatnonzero(y == model.classes_[1])]
    )
    labels = np.where(y[rows] == model.classes_[0], 1, -1)
    coef, rho, status = embedded.train_c_svc(X[rows], labels, C, gamma, tol, cache_mb)

    assert status == 0
    support = rows[coef != 0]
    np.testing.assert_array_equal(support, model.support_)
    # scikit-learn's convention for two classes flips LIBSVM's signs: dual_coef_ is
    # -(y_i alpha_i) and intercept_ is +rho.
    np.testing.assert_allclose(model.dual_coef_[0], -coef[coef != 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(model.intercept_, [rho], rtol=0, atol=1e-12)


def test_cache_memories_through_cimport_change_no_bit(embedded):
    # Solves whose kernel caches take their columns from one CacheMemories block, one
    # after another, give the coefficients of a solve with a cache of its own, bit for bit.
    X, y = _breast_cancer_scaled()
    labels = np.where(y == 1, 1, -1)
    alone, alone_rho, _ = embedded.train_c_svc(X, labels, 1.0, 0.05, 1e-3, 200.0)
    results, n_blocks = embedded.solves_through_cache_memories(X, labels, 1.0, 0.05, 1e-3, 3)
    assert n_blocks == 1
    for coef, rho, status in results:
        assert status == 0
        np.testing.assert_array_equal(coef, alone)
        assert rho == alone_rho


def test_progress_through_cimported_solver_log(embedded):
    X, y = _breast_cancer_scaled()
    labels = np.where(y == 1, 1, -1)
    reports, n_iter = embedded.progress_of_c_svc(X, labels, 1000.0, 0.5, 1e-3)
    assert len(reports) >= 2  # one per shrinking period (569 iterations), one at the end
    iterations = [count for count, _ in reports]
    assert iterations == sorted(iterations) and iterations[-1] == n_iter
    assert reports[0][1] > 1e-3 > reports[-1][1]


def test_sigmoid_train_through_cimport_matches_python(embedded):
    rng = np.random.default_rng(0)
    labels = np.where(rng.random(300) < 0.4, 1.0, -1.0)
    dec_values = 1.5 * labels + rng.normal(scale=1.2, size=300)
    A, B, status = embedded.fit_sigmoid(dec_values, labels)
    expected = sigmoid_train_py(dec_values, labels)
    assert (A, B, status) == expected
    assert status == 0 and A < 0


def test_failure_statuses_through_cimport(embedded):
    """sigmoid_train's failed line search and kernel_block's shape check, as documented."""
    line_search_failed, bad_argument = embedded.statuses()
    assert (line_search_failed, bad_argument) == (2, -4)
    assert embedded.fit_sigmoid([1e300, -1e300], [1.0, -1.0]) == (0.0, 0.0, 2)
    X, Y = np.ones((5, 3)), np.ones((4, 3))
    status, out = embedded.kernel_block_status(X, Y, 5, 4)
    assert status == 0 and (out == 3.0).all()
    for shape, other in (((2, 2), Y), ((5, 4), np.ones((4, 2)))):
        status, out = embedded.kernel_block_status(X, other, *shape)
        assert status == -1 and (out == -7.0).all()  # nothing written
