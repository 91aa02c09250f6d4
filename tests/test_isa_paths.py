"""Every instruction-set path of the vectorised loops gives the same answers.

svmx's row loops are compiled for x86-64-v4 (AVX-512), x86-64-v3 (AVX2 + FMA) and the
x86-64 baseline (SSE2); ``SVMX_ISA`` caps the one a process runs (``svmx/_engine/isa.pxd``).
Each capped path runs in a child process (the cap is read once, on the first call):

- the engine's prediction tests against their numpy reference (1e-10) pass on it;
- fitted models, pickled once, predict the same decision values on every path to 1e-12
  (dense, CSR and float32 rows; dense and sparse support vectors; every kernel; classes,
  one-class and regression);
- SMO fits agree across paths, the block solver's to its tolerance.
"""

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import svmx_child_env

import svmx
from svmx._config import check_isa_setting, isa_info

TESTS = Path(__file__).resolve().parent
PROJECT = TESTS.parent
LEVELS = ("sse2", "avx2", "avx512")
RANK = {name: rank for rank, name in enumerate(LEVELS)}
MACHINE = isa_info()["machine"]
# The paths below the machine's own (which the rest of the suite runs) that it can run.
CAPPED = [level for level in LEVELS if RANK[level] < RANK[MACHINE]]
needs_paths = pytest.mark.skipif(
    not isa_info()["multi_isa"] or not CAPPED,
    reason="this build has one loop per function (not GCC on x86-64 Linux) "
    "or the CPU has only the baseline",
)


def run_child(code, tmp_path, isa=None, timeout=600):
    """Run ``python -c code`` outside the checkout with ``SVMX_ISA`` set (or unset)."""
    env = svmx_child_env()
    env.pop("SVMX_ISA", None)
    if isa is not None:
        env["SVMX_ISA"] = isa
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize("value", ["sse2", "AVX2", "avx512", "x86-64", "x86-64-v3", "x86-64-v4"])
def test_every_documented_setting_is_accepted(value):
    check_isa_setting(value)


@pytest.mark.parametrize(
    "value", ["avx3", "avx-512", "sse4", "v3", " avx2", "a" * 40, "avx2\x00junk", "x86-64-v2"]
)
def test_a_setting_that_names_no_level_is_refused_naming_the_variable(value):
    with pytest.raises(ValueError, match=r"SVMX_ISA=.* names no instruction set: expected"):
        check_isa_setting(value)


def test_importing_svmx_refuses_an_unknown_setting(tmp_path):
    result = run_child("import svmx", tmp_path, isa="avx1024")
    assert result.returncode != 0
    assert "ValueError: SVMX_ISA='avx1024' names no instruction set" in result.stderr


@needs_paths
@pytest.mark.parametrize("level", LEVELS)
def test_the_cap_sets_the_active_level(level, tmp_path):
    code = "import json, svmx._config as c; print(json.dumps(c.isa_info()))"
    info = json.loads(run_child(code, tmp_path, isa=level).stdout)
    expected = level if RANK[level] <= RANK[MACHINE] else MACHINE
    assert info == {"machine": MACHINE, "cap": level, "active": expected, "multi_isa": True}
    assert (
        f"isa: {expected} (machine {MACHINE}, SVMX_ISA {level}"
        in run_child("import svmx; svmx.show_config()", tmp_path, isa=level).stdout
    )


@needs_paths
@pytest.mark.parametrize("level", CAPPED)
def test_the_engine_prediction_tests_pass_on_every_path(level, tmp_path):
    """The numpy-reference tests (1e-10) of the prediction engine, with its kept layouts,
    the Q matrices' tests (SMO's kernel columns of narrow dense rows, SVR's signed
    gathers to the bit) and the sparse input's one-pass check, on a capped path."""
    narrow = TESTS / "_engine" / "test_engine_qmatrix.py"
    code = (
        "import sys, pytest; sys.exit(pytest.main(["
        f"{str(TESTS / '_engine' / 'test_engine_predict.py')!r}, "
        f"{str(TESTS / '_engine' / 'test_engine_block_products.py')!r}, "
        f"{str(TESTS / '_engine' / 'test_engine_layout_cache.py')!r}, "
        f"{str(TESTS / '_engine' / 'test_engine_csr_ready.py')!r}, "
        f"{str(narrow)!r}, "
        f"'-c', {str(PROJECT / 'pyproject.toml')!r}, '--rootdir', {str(PROJECT)!r}, "
        "'-q', '-p', 'no:cacheprovider', '-x']))"
    )
    result = run_child(code, tmp_path, isa=level)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert " passed" in result.stdout


def fitted_models():
    """Models of every kind, kernel and support-vector layout, with rows to predict."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(240, 37))
    X[rng.random(X.shape) < 0.6] = 0.0
    y3 = np.digitize(X[:, 0] + X[:, 1] + 0.3 * rng.normal(size=240), [-0.3, 0.3])
    y2 = (y3 > 0).astype(int)
    target = X[:, 2] - 0.5 * X[:, 3] + 0.1 * rng.normal(size=240)
    X_csr = sp.csr_matrix(X)
    X_test = rng.normal(size=(300, 37))
    X_test[rng.random(X_test.shape) < 0.6] = 0.0
    models = {
        "svc-rbf-dense": svmx.SVC(gamma=0.05).fit(X, y2),
        "svc-rbf-sparse-vectors": svmx.SVC(gamma=0.05).fit(X_csr, y2),
        "svc-3class-rbf": svmx.SVC(gamma=0.05, C=3.0).fit(X_csr, y3),
        "svc-3class-linear": svmx.SVC(kernel="linear", C=0.1).fit(X, y3),
        "svc-poly": svmx.SVC(kernel="poly", degree=3, gamma=0.1, coef0=1.0).fit(X, y2),
        "svc-sigmoid": svmx.SVC(kernel="sigmoid", gamma=0.01, coef0=0.1).fit(X_csr, y2),
        "nusvc-3class": svmx.NuSVC(nu=0.3, gamma=0.05).fit(X, y3),
        "one-class": svmx.OneClassSVM(nu=0.2, gamma=0.05).fit(X_csr),
        "svr-rbf": svmx.SVR(C=2.0, gamma=0.05).fit(X_csr, target),
        "nusvr-linear": svmx.NuSVR(kernel="linear", nu=0.4).fit(X, target),
    }
    inputs = {
        "dense": X_test,
        "csr": sp.csr_matrix(X_test),
        "float32": X_test.astype(np.float32),
        "csr-float32": sp.csr_matrix(X_test.astype(np.float32)),
    }
    return models, inputs


DECIDE = """
import pickle, sys
import numpy as np
models, inputs = pickle.load(open(sys.argv[1], "rb"))
out = {}
for model_name, model in models.items():
    sparse_model = hasattr(model.support_vectors_, "tocsr")
    for input_name, X in inputs.items():
        if hasattr(X, "tocsr") != sparse_model:
            continue  # as scikit-learn: rows in the layout the model was fitted on
        regression = type(model).__name__ in ("SVR", "NuSVR")
        values = model.predict(X) if regression else model.decision_function(X)
        out[model_name + "/" + input_name] = np.asarray(values, dtype=np.float64)
np.savez(sys.argv[2], **out)
"""


def results_on_every_level(script, payload, tmp_path):
    """Pickle ``payload``, run ``script`` (which reads it from ``sys.argv[1]`` and saves an
    npz to ``sys.argv[2]``) once per level the machine has; level -> dict of arrays."""
    source = tmp_path / "payload.pkl"
    with open(source, "wb") as file:
        pickle.dump(payload, file)
    results = {}
    for level in LEVELS[: RANK[MACHINE] + 1]:
        out = tmp_path / f"{level}.npz"
        code = script.replace("sys.argv[1]", repr(str(source))).replace(
            "sys.argv[2]", repr(str(out))
        )
        result = run_child(code, tmp_path, isa=level)
        assert result.returncode == 0, result.stderr[-3000:]
        results[level] = dict(np.load(out))
    return results


@needs_paths
def test_fitted_models_predict_the_same_on_every_path(tmp_path):
    models, inputs = fitted_models()
    results = results_on_every_level(DECIDE, (models, inputs), tmp_path)
    assert len(results[MACHINE]) == 2 * len(models)
    for level, values in results.items():
        for key, expected in results[MACHINE].items():
            scale = max(1.0, float(np.abs(expected).max()))
            np.testing.assert_allclose(
                values[key], expected, rtol=0, atol=1e-12 * scale, err_msg=f"{level}: {key}"
            )


FIT = """
import pickle, sys
import numpy as np
import svmx
X, y = pickle.load(open(sys.argv[1], "rb"))
out = {}
for solver in ("smo", "block"):
    model = svmx.SVC(gamma=0.02, C=4.0, solver=solver).fit(X, y)
    out[solver + "/support"] = model.support_
    out[solver + "/dual_coef"] = np.asarray(model.dual_coef_.todense()).ravel()
    out[solver + "/decision"] = model.decision_function(X)
np.savez(sys.argv[2], **out)
"""


@needs_paths
def test_fits_agree_on_every_path(tmp_path):
    """SMO's float64 kernel rows differ between paths by the rounding of fused multiply-adds
    only: the same support vectors and coefficients. The block solver's float32 blocks
    differ by more, so its models agree to its tolerance."""
    rng = np.random.default_rng(3)
    X = sp.random(600, 60, density=0.3, random_state=4, format="csr")
    y = (np.asarray(X[:, :5].sum(axis=1)).ravel() + 0.2 * rng.normal(size=600) > 0.4).astype(int)
    results = results_on_every_level(FIT, (X, y), tmp_path)
    reference = results[MACHINE]
    for level, values in results.items():
        np.testing.assert_array_equal(values["smo/support"], reference["smo/support"])
        np.testing.assert_allclose(values["smo/dual_coef"], reference["smo/dual_coef"], atol=1e-9)
        np.testing.assert_allclose(values["smo/decision"], reference["smo/decision"], atol=1e-9)
        np.testing.assert_allclose(
            values["block/decision"], reference["block/decision"], atol=2e-3, err_msg=level
        )


LEVELS_OF_MODULES = """
import importlib, json, os, sys
import numpy as np
import svmx
before = dict(svmx._config.isa_info())
os.environ["SVMX_ISA"] = sys.argv[1]  # too late: svmx read it at import
svmx.SVC(gamma=0.5).fit(np.array([[0.0], [1.0]]), [0, 1]).predict([[0.2]])
names = ["svmx._config", "svmx._libsvm", "svmx._kernel_values"] + [
    "svmx._engine." + name for name in ("block_solver", "gram_rows", "kernel", "kernel_map",
                                       "libsvm_values", "predict", "qmatrix", "rows", "solver",
                                       "support_layout")]
levels = {name: importlib.import_module(name)._ISA_LEVEL for name in names}
print(json.dumps({"levels": levels, "before": before, "after": svmx._config.isa_info()}))
"""


@needs_paths
@pytest.mark.parametrize("at_start", [None, "sse2"])
def test_every_module_runs_the_level_read_at_import(at_start, tmp_path):
    """Every compiled module fixes its level when svmx is imported; changing SVMX_ISA later
    (here to avx2, or to a value that names nothing) changes no module's level and not
    what isa_info reports."""
    expected = {"sse2": 1, "avx2": 3, "avx512": 4}[at_start or MACHINE]
    for late in ("avx2", "bogus"):
        result = run_child(LEVELS_OF_MODULES.replace("sys.argv[1]", repr(late)), tmp_path,
                           isa=at_start)
        assert result.returncode == 0, result.stderr[-3000:]
        report = json.loads(result.stdout)
        assert set(report["levels"].values()) == {expected}, report["levels"]
        assert report["after"] == report["before"]
        assert report["after"]["cap"] == at_start


def test_a_setting_that_is_not_a_string_is_a_type_error():
    with pytest.raises(TypeError, match="SVMX_ISA must be a string; got int"):
        check_isa_setting(5)


def test_a_long_setting_is_shortened_in_the_message():
    with pytest.raises(ValueError) as error:
        check_isa_setting("x" * 5000)
    assert len(str(error.value)) < 300
