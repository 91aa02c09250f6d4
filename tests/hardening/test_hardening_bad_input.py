"""A catalogue of bad input to every public entry point, and of odd input that must work.

Each bad case names the exception type and a pattern the message must contain: the
offending argument (``X``, ``y``, ``sample_weight``, a parameter name) or, for files, the
file and line. The command line must exit non-zero with one ``svmx <command>: error:``
line on standard error and no traceback.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import svmx
from svmx import SVC, SVR, ConvergenceWarning, NuSVC, NuSVR, OneClassSVM
from svmx.cli import main
from svmx.datasets import load_svmlight_file
from svmx.exceptions import InvalidParameterError, NotFittedError
from svmx.io import load_model, save_model
from svmx.model_selection import GridSearch, KFold, check_cv, cross_validate, expand_grid
from svmx.preprocessing import (
    MinMaxScaler,
    OneHotEncoder,
    StandardScaler,
    SupervisedDiscretizer,
    apply_scaler,
    k_fold_indices,
    label_encode,
    min_max_scale,
    shuffled_indices,
    shuffled_split_indices,
    standardize,
)

RNG = np.random.default_rng(0)
X = RNG.normal(size=(20, 3))
Y = np.arange(20) % 2
TARGETS = X[:, 0] + 0.1 * RNG.normal(size=20)

GOOD_MODEL = (
    "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0\n"
    "label 1 -1\nnr_sv 1 1\nSV\n1 1:1\n-1 1:-1\n"
)
GOOD_DATA = b"1 1:1 2:0\n-1 1:-1 2:0.5\n1 1:0.8\n-1 1:-0.9 2:1\n"


class Context:
    """What a case may need: a scratch directory, fitted models and data files."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._fitted: dict[str, Any] = {}

    def write(self, name: str, content: bytes | str) -> str:
        path = self.directory / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return str(path)

    def fitted(self, kind: str = "svc") -> Any:
        if kind not in self._fitted:
            models = {
                "svc": lambda: SVC().fit(X, Y),
                "svr": lambda: SVR().fit(X, TARGETS),
                "oneclass": lambda: OneClassSVM(gamma="auto").fit(X),
                "scaler": lambda: StandardScaler().fit(X),
            }
            self._fitted[kind] = models[kind]()
        return self._fitted[kind]

    def model_file(self, text: str) -> str:
        return self.write("model.txt", text)

    def data_file(self, content: bytes = GOOD_DATA) -> str:
        return self.write("data.txt", content)


@dataclass
class Bad:
    id: str
    call: Callable[[Context], Any]
    error: type[BaseException]
    match: str


def _with_nan(values: np.ndarray, fill: float = np.nan) -> np.ndarray:
    values = values.copy()
    values[3, 1] = fill
    return values


BAD_CASES = [
    # -- constructors and fit parameters ----------------------------------------------------
    Bad("svc-unknown-keyword", lambda c: SVC(penalty=1.0), TypeError, "penalty"),
    Bad("svc-positional", lambda c: SVC(1.0), TypeError, "positional"),
    Bad("svc-C-negative", lambda c: SVC(C=-1.0).fit(X, Y), InvalidParameterError, "'C'"),
    Bad("svc-C-nan", lambda c: SVC(C=np.nan).fit(X, Y), InvalidParameterError, "'C'"),
    Bad("svc-C-string", lambda c: SVC(C="1").fit(X, Y), InvalidParameterError, "'C'"),
    Bad("svc-kernel", lambda c: SVC(kernel="cubic").fit(X, Y), InvalidParameterError, "'kernel'"),
    Bad("svc-gamma-negative", lambda c: SVC(gamma=-1.0).fit(X, Y), InvalidParameterError,
        "'gamma'"),
    Bad("svc-degree-float", lambda c: SVC(kernel="poly", degree=2.5).fit(X, Y),
        InvalidParameterError, "'degree'"),
    Bad("svc-tol-zero", lambda c: SVC(tol=0.0).fit(X, Y), InvalidParameterError, "'tol'"),
    Bad("svc-cache-zero", lambda c: SVC(cache_size=0).fit(X, Y), InvalidParameterError,
        "'cache_size'"),
    Bad("svc-max-iter", lambda c: SVC(max_iter=-2).fit(X, Y), InvalidParameterError,
        "'max_iter'"),
    Bad("svc-solver", lambda c: SVC(solver="newton").fit(X, Y), InvalidParameterError,
        "'solver'"),
    Bad("svc-n-jobs-zero", lambda c: SVC(n_jobs=0).fit(X, Y), InvalidParameterError, "'n_jobs'"),
    Bad("svc-random-state", lambda c: SVC(random_state="seed").fit(X, Y),
        InvalidParameterError, "'random_state'"),
    Bad("svc-shape", lambda c: SVC(decision_function_shape="ova").fit(X, Y),
        InvalidParameterError, "'decision_function_shape'"),
    # As scikit-learn: the model fits, and predict refuses (before looking at X).
    Bad("svc-break-ties-ovo", lambda c: SVC(break_ties=True, decision_function_shape="ovo")
        .fit(X, Y).predict(Y), ValueError, "break_ties must be False"),
    Bad("svc-class-weight-label", lambda c: SVC(class_weight={5: 1.0}).fit(X, Y), ValueError,
        "class_weight"),
    Bad("svc-class-weight-negative", lambda c: SVC(class_weight={0: -1.0}).fit(X, Y),
        ValueError, "class_weight"),
    Bad("nusvc-nu-zero", lambda c: NuSVC(nu=0.0).fit(X, Y), InvalidParameterError, "'nu'"),
    Bad("nusvr-nu-above-one", lambda c: NuSVR(nu=1.5).fit(X, TARGETS), InvalidParameterError,
        "'nu'"),
    Bad("nusvc-nu-infeasible", lambda c: NuSVC(nu=0.9).fit(X, (np.arange(20) < 3).astype(int)),
        ValueError, r"specified nu is infeasible: nu=0\.9 is infeasible"),
    Bad("nusvc-block-solver", lambda c: NuSVC(solver="block").fit(X, Y), ValueError,
        "solver='block'"),
    Bad("svr-epsilon-negative", lambda c: SVR(epsilon=-0.1).fit(X, TARGETS),
        InvalidParameterError, "'epsilon'"),
    Bad("oneclass-nu-negative", lambda c: OneClassSVM(nu=-0.5).fit(X), InvalidParameterError,
        "'nu'"),
    Bad("set-params-unknown", lambda c: SVC().set_params(cost=1.0), ValueError, "'cost'"),
    # -- fit: X -----------------------------------------------------------------------------
    Bad("fit-X-nan", lambda c: SVC().fit(_with_nan(X), Y), ValueError, "Input X contains NaN"),
    Bad("fit-X-inf", lambda c: SVR().fit(_with_nan(X, np.inf), TARGETS), ValueError,
        "Input X contains infinity"),
    Bad("fit-X-sparse-nan", lambda c: SVC().fit(sp.csr_matrix(_with_nan(X)), Y), ValueError,
        "Input X contains NaN"),
    Bad("fit-X-empty", lambda c: SVC().fit(np.empty((0, 3)), []), ValueError,
        "X must not be empty"),
    Bad("fit-X-no-features", lambda c: SVR().fit(np.empty((20, 0)), TARGETS), ValueError,
        "0 feature"),
    Bad("fit-X-1d", lambda c: SVC().fit(X[:, 0], Y), ValueError, "2-D array for X, got a 1-D"),
    Bad("fit-X-3d", lambda c: SVC().fit(X[np.newaxis], Y), ValueError,
        "2-D array for X, got a 3-D"),
    Bad("fit-X-object", lambda c: SVC().fit(np.array([[1.0, "a"]] * 20, dtype=object), Y),
        ValueError, "X must contain numbers"),
    Bad("fit-X-strings", lambda c: OneClassSVM().fit(np.array([["a", "b"]] * 20)), ValueError,
        "X must contain numbers"),
    Bad("fit-X-string-scalar", lambda c: SVC().fit("data.txt", Y), TypeError, "X must be"),
    Bad("fit-X-complex", lambda c: SVC().fit(X + 1j, Y), ValueError,
        "Complex data not supported: X"),
    Bad("precomputed-not-square", lambda c: SVC(kernel="precomputed").fit(X, Y), ValueError,
        "square Gram matrix"),
    Bad("callable-kernel-bad-shape", lambda c: SVC(kernel=lambda a, b: a).fit(X, Y), ValueError,
        "kernel: the callable"),
    # -- fit: y and sample_weight -----------------------------------------------------------
    Bad("fit-y-short", lambda c: SVC().fit(X, Y[:-1]), ValueError, "inconsistent lengths"),
    Bad("fit-y-nan-labels", lambda c: SVC().fit(X, np.where(Y == 1, np.nan, 0.0)), ValueError,
        "Input y contains NaN"),
    Bad("fit-y-object-nan", lambda c: SVC().fit(X, np.array(["a", np.nan] * 10, dtype=object)),
        ValueError, "Input y contains NaN"),
    Bad("fit-y-single-class", lambda c: SVC().fit(X, np.zeros(20)), ValueError,
        "at least two classes"),
    Bad("fit-y-continuous", lambda c: SVC().fit(X, TARGETS), ValueError, "continuous"),
    Bad("fit-y-2d", lambda c: SVC().fit(X, np.c_[Y, Y]), ValueError, "y should be a 1d array"),
    Bad("fit-y-none", lambda c: SVR().fit(X, None), ValueError, "requires y"),
    Bad("fit-y-complex", lambda c: SVR().fit(X, TARGETS + 1j), ValueError,
        "Complex data not supported: y"),
    Bad("svr-y-strings", lambda c: SVR().fit(X, ["a"] * 20), ValueError, "y must contain numbers"),
    Bad("svr-y-inf", lambda c: NuSVR().fit(X, np.full(20, np.inf)), ValueError,
        "Input y contains NaN or infinity"),
    Bad("weights-all-zero-svc", lambda c: SVC().fit(X, Y, sample_weight=np.zeros(20)),
        ValueError, "all samples have zero or negative weights"),
    Bad("weights-all-zero-oneclass", lambda c: OneClassSVM().fit(X, sample_weight=np.zeros(20)),
        ValueError, "all samples have zero or negative weights"),
    Bad("weights-zero-for-a-class", lambda c: SVC().fit(X, Y, sample_weight=(Y == 0) * 1.0),
        ValueError, "all samples with positive weights belong to the same class"),
    Bad("weights-negative", lambda c: SVR().fit(X, TARGETS, sample_weight=-np.ones(20)),
        ValueError, "all samples have zero or negative weights"),
    Bad("weights-nan", lambda c: SVC().fit(X, Y, sample_weight=np.full(20, np.nan)), ValueError,
        "sample_weight contains NaN"),
    Bad("weights-length", lambda c: SVC().fit(X, Y, sample_weight=np.ones(3)), ValueError,
        r"sample_weight must have shape \(20,\)"),
    # -- predict, decision_function, predict_proba ------------------------------------------
    Bad("predict-unfitted", lambda c: SVC().predict(X), NotFittedError, "not fitted"),
    Bad("predict-wrong-features", lambda c: c.fitted("svc").predict(X[:, :2]), ValueError,
        "X has 2 features, but SVC is expecting 3"),
    Bad("decision-wrong-features", lambda c: c.fitted("oneclass").decision_function(
        np.ones((2, 5))), ValueError, "X has 5 features, but OneClassSVM is expecting 3"),
    Bad("predict-sparse-wrong-features", lambda c: c.fitted("svr").predict(
        sp.csr_matrix((2, 4))), ValueError, "cannot use sparse input in 'SVR' trained on dense"),
    Bad("predict-nan", lambda c: c.fitted("svr").predict(_with_nan(X)), ValueError,
        "Input X contains NaN"),
    Bad("predict-1d", lambda c: c.fitted("svc").predict(X[0]), ValueError,
        "2-D array for X, got a 1-D"),
    Bad("decision-empty", lambda c: c.fitted("svc").decision_function(np.empty((0, 3))),
        ValueError, "X must not be empty"),
    Bad("predict-proba-disabled", lambda c: c.fitted("svc").predict_proba(X), AttributeError,
        "probability=True"),
    Bad("predict-proba-unfitted", lambda c: SVC(probability=True).predict_proba(X),
        NotFittedError, "not fitted"),
    # -- preprocessing ----------------------------------------------------------------------
    Bad("min-max-range", lambda c: min_max_scale(X, feature_range=(1, -1)), ValueError,
        "feature_range"),
    Bad("min-max-scaler-range", lambda c: MinMaxScaler(feature_range=(2, 1)).fit(X), ValueError,
        "feature_range"),
    Bad("standardize-1d", lambda c: standardize(np.ones(3)), ValueError, "X must be 2-D"),
    Bad("scaler-unfitted", lambda c: StandardScaler().transform(X), NotFittedError,
        "not fitted"),
    Bad("scaler-wrong-features", lambda c: c.fitted("scaler").transform(X[:, :2]), ValueError,
        "X has 2 features"),
    Bad("apply-scaler-type", lambda c: apply_scaler(X, "scaler"), TypeError, "scaler must be"),
    Bad("k-fold-k", lambda c: k_fold_indices(10, 1, 0), ValueError, "k must be at least 2"),
    Bad("split-ratio", lambda c: shuffled_split_indices(10, 1.5, 0), ValueError, "test_ratio"),
    Bad("shuffle-seed", lambda c: shuffled_indices(5, "x"), TypeError, "seed"),
    Bad("label-encode-2d", lambda c: label_encode([[1, 2]]), ValueError, "labels must be 1-D"),
    Bad("one-hot-unknown", lambda c: OneHotEncoder().fit([[1], [2]]).transform([[3]]),
        ValueError, "handle_unknown"),
    Bad("discretizer-criterion", lambda c: SupervisedDiscretizer(criterion="gini").fit(X, Y),
        ValueError, "criterion"),
    # -- model selection --------------------------------------------------------------------
    Bad("kfold-one-split", lambda c: KFold(1), ValueError, "n_splits"),
    Bad("kfold-too-many", lambda c: list(KFold(50).split(X)), ValueError, "n_splits=50"),
    Bad("cross-validate-scoring", lambda c: cross_validate(SVC(), X, Y, scoring="f9"),
        ValueError, "scoring"),
    Bad("check-cv-type", lambda c: check_cv("three"), TypeError, "cv must be"),
    Bad("grid-unknown-parameter", lambda c: GridSearch(SVC(), {"cost": [1]}).fit(X, Y),
        ValueError, "'cost'"),
    Bad("grid-empty-list", lambda c: GridSearch(SVC(), {"C": []}).fit(X, Y), ValueError,
        r"param_grid\['C'\]"),
    Bad("expand-grid-scalar", lambda c: expand_grid({"C": 1.0}), TypeError, r"param_grid\['C'\]"),
    # -- load_svmlight_file -----------------------------------------------------------------
    Bad("svmlight-binary", lambda c: load_svmlight_file(bytes(range(256))), ValueError,
        "<bytes>, line 1: contains a NUL byte"),
    Bad("svmlight-binary-file", lambda c: load_svmlight_file(c.data_file(b"1 1:1\n\xff\xfe\x00")),
        ValueError, r"data\.txt, line 2: contains a NUL byte"),
    Bad("svmlight-truncated", lambda c: load_svmlight_file(b"1 1:1 2:0\n-1 1:-1 2:"),
        ValueError, r"line 2: could not read the value of feature '2:'"),
    Bad("svmlight-negative-index", lambda c: load_svmlight_file(b"1 1:1\n1 -3:1\n"), ValueError,
        r"line 2: malformed feature index in '-3:1'"),
    Bad("svmlight-descending", lambda c: load_svmlight_file(b"1 3:1 2:1\n"), ValueError,
        r"line 1: feature indices must be ascending"),
    Bad("svmlight-bad-label", lambda c: load_svmlight_file(b"1 1:1\n\nabc 1:1\n"), ValueError,
        r"line 3: could not read the label 'abc'"),
    Bad("svmlight-no-colon", lambda c: load_svmlight_file(b"1 1\n"), ValueError,
        r"line 1: malformed feature '1'"),
    Bad("svmlight-index-overflow", lambda c: load_svmlight_file(b"1 99999999999999999999:1\n"),
        ValueError, "line 1: malformed feature index"),
    Bad("svmlight-n-features", lambda c: load_svmlight_file(b"1 3:1\n", n_features=1),
        ValueError, "n_features=1 is too small"),
    Bad("svmlight-zero-based", lambda c: load_svmlight_file(b"1 0:1\n", zero_based=False),
        ValueError, "line 1: feature index 0 in a one-based file"),
    Bad("svmlight-dtype", lambda c: load_svmlight_file(b"1 1:1\n", dtype=np.int32), ValueError,
        "dtype must be float32 or float64"),
    Bad("svmlight-source-type", lambda c: load_svmlight_file(3), TypeError, "f must be"),
    Bad("svmlight-missing", lambda c: load_svmlight_file(str(c.directory / "absent")),
        FileNotFoundError, "absent"),
    # -- load_model -------------------------------------------------------------------------
    Bad("model-binary", lambda c: load_model(c.write("model.bin", bytes(range(256)))),
        ValueError, r"model\.bin, line 2: not a LIBSVM model file"),
    Bad("model-nul", lambda c: load_model(c.model_file(GOOD_MODEL + "\0")), ValueError,
        "line 12: not a LIBSVM model file"),
    Bad("model-truncated-header", lambda c: load_model(c.model_file(GOOD_MODEL[:60])),
        ValueError, "line 5: total_sv needs 1 value"),
    Bad("model-truncated-vectors", lambda c: load_model(c.model_file(GOOD_MODEL[:-8])),
        ValueError, r"line 10: expected 2 support vectors after 'SV', found 1 \(truncated\?\)"),
    Bad("model-no-sv-line", lambda c: load_model(c.model_file(GOOD_MODEL.split("SV")[0])),
        ValueError, "before the 'SV' line"),
    Bad("model-negative-index", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("1 1:1\n", "1 -1:1\n"))), ValueError,
        "line 10: negative feature index in '-1:1'"),
    Bad("model-kernel", lambda c: load_model(c.model_file(GOOD_MODEL.replace("rbf", "cubic"))),
        ValueError, "line 2: unknown kernel_type 'cubic'"),
    Bad("model-gamma", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("gamma 0.5", "gamma x"))), ValueError, "line 3: could not read gamma"),
    Bad("model-nr-sv", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("nr_sv 1 1", "nr_sv 3 -1"))), ValueError, "line 8: nr_sv"),
    Bad("model-too-many-vectors", lambda c: load_model(c.model_file(GOOD_MODEL + "1 1:2\n")),
        ValueError, "line 12: more support vectors than total_sv"),
    Bad("model-huge-index", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("1 1:1\n", "1 99999999999:1\n"))), ValueError,
        "line 10: the feature index '99999999999' is out of the range of a C int"),
    Bad("model-huge-total-sv", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("total_sv 2", "total_sv 999999999999"))), ValueError,
        "line 5: total_sv '999999999999' is out of the range of a C int"),
    Bad("model-large-total-sv", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("svm_type c_svc", "svm_type epsilon_svr").replace(
            "total_sv 2", "total_sv 2000000000").replace("label 1 -1\nnr_sv 1 1\n", ""))),
        ValueError, "expected 2000000000 support vectors after 'SV', found 2"),
    Bad("model-nan-coefficient", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("-1 1:-1\n", "nan 1:-1\n"))), ValueError,
        "line 11: the coefficient 'nan' is not a finite number"),
    Bad("model-infinite-rho", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("rho 0", "rho -inf"))), ValueError,
        "line 6: rho '-inf' is not a finite number"),
    Bad("model-overflowing-value", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("1 1:1\n", "1 1:1e999\n"))), ValueError,
        "line 10: the feature value '1e999' is not a finite number"),
    Bad("model-features-too-few", lambda c: load_model(c.model_file(
        GOOD_MODEL.replace("1 1:1\n", "1 4:1\n")), n_features=2), ValueError, "n_features=2"),
    Bad("model-missing", lambda c: load_model(str(c.directory / "absent")), FileNotFoundError,
        "absent"),
    Bad("save-model-unfitted", lambda c: save_model(SVC(), str(c.directory / "m")),
        NotFittedError, "not fitted"),
]


@pytest.mark.parametrize("case", BAD_CASES, ids=[case.id for case in BAD_CASES])
def test_bad_input_raises_a_clear_error(case, tmp_path):
    context = Context(tmp_path)
    with pytest.raises(case.error, match=case.match):
        case.call(context)


CLI_CASES = [
    # (id, argv built from the context, the text the one error line must contain)
    ("train-missing-file", lambda c: ["train", str(c.directory / "absent")],
     "cannot open"),
    ("train-binary-file", lambda c: ["train", c.write("bin", bytes(range(256)))],
     "bin, line 1: contains a NUL byte"),
    ("train-truncated-file", lambda c: ["train", c.data_file(GOOD_DATA[:-3])],
     "data.txt, line 4: malformed feature '2' (expected index:value)"),
    ("train-negative-index", lambda c: ["train", c.data_file(b"1 -3:1\n")],
     "line 1: malformed feature index in '-3:1'"),
    ("train-cost-negative", lambda c: ["train", "-c", "-1", c.data_file()], "argument -c"),
    ("train-gamma-text", lambda c: ["train", "-g", "x", c.data_file()], "argument -g"),
    ("train-kernel-type", lambda c: ["train", "-t", "9", c.data_file()], "argument -t"),
    ("train-folds", lambda c: ["train", "-v", "1", c.data_file()], "n must be >= 2"),
    ("train-nu", lambda c: ["train", "-s", "1", "-n", "2", c.data_file()], "argument -n"),
    ("train-cache", lambda c: ["train", "-m", "0", c.data_file()], "argument -m"),
    ("train-weight", lambda c: ["train", "-w1", "x", c.data_file()], "-w1"),
    ("predict-missing-model", lambda c: ["predict", c.data_file(), str(c.directory / "absent"),
                                         str(c.directory / "out")], "cannot open"),
    ("predict-binary-model", lambda c: ["predict", c.data_file(), c.write("m", b"\x00\xff"),
                                        str(c.directory / "out")], "m, line 1"),
    ("predict-truncated-model", lambda c: ["predict", c.data_file(), c.model_file(GOOD_MODEL[:-8]),
                                           str(c.directory / "out")], "model.txt, line 10"),
    ("predict-probability", lambda c: ["predict", "-b", "1", c.data_file(),
                                       c.model_file(GOOD_MODEL), str(c.directory / "out")],
     "probability"),
    ("scale-bounds", lambda c: ["scale", "-l", "1", "-u", "0", c.data_file()],
     "inconsistent lower/upper"),
    ("scale-restore-garbage", lambda c: ["scale", "-r", c.write("range", b"\x01\x02"),
                                         c.data_file()], "range, line 1"),
    ("scale-save-and-restore", lambda c: ["scale", "-s", "a", "-r", "b", c.data_file()],
     "-r and -s"),
    ("grid-step", lambda c: ["grid", "-log2c", "1,2,0", c.data_file()], "-log2c"),
    ("grid-binary-file", lambda c: ["grid", c.write("bin", b"\x00")], "contains a NUL byte"),
    ("unknown-command", lambda c: ["fit"], "unknown command 'fit'"),
]


@pytest.mark.parametrize(("argv", "message"), [case[1:] for case in CLI_CASES],
                         ids=[case[0] for case in CLI_CASES])
def test_command_line_bad_input_prints_one_error_line(argv, message, tmp_path, capsys,
                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    status = main(argv(Context(tmp_path)))
    err = capsys.readouterr().err
    assert status != 0
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("svmx"), lines[0]
    assert ": error: " in lines[0]
    assert message in lines[0]


# -- odd input that must work -----------------------------------------------------------------

SEPARABLE_X = np.array([[0.0, 0.0], [0.2, 0.1], [1.0, 1.0], [1.2, 0.9]])
SEPARABLE_Y = np.array([0, 0, 1, 1])


def _read_only(values: np.ndarray) -> np.ndarray:
    values = values.copy()
    values.setflags(write=False)
    return values


def _unsorted_duplicate_csr() -> sp.csr_matrix:
    """X as CSR whose rows list columns backwards and split one entry in two."""
    rows, columns, values = [], [], []
    for i in range(X.shape[0]):
        for j in (2, 1, 0):
            if j == 0:  # X[i, 0] as two halves: a duplicate index
                rows += [i, i]
                columns += [0, 0]
                values += [X[i, 0] / 2, X[i, 0] / 2]
            else:
                rows.append(i)
                columns.append(j)
                values.append(X[i, j])
    indptr = np.arange(0, 4 * X.shape[0] + 1, 4)
    matrix = sp.csr_matrix((np.array(values), np.array(columns), indptr), shape=X.shape)
    assert not matrix.has_sorted_indices and not matrix.has_canonical_format
    return matrix


def _huge_C() -> np.ndarray:
    model = SVC(C=1e10, kernel="linear", max_iter=100_000)
    with warnings.catch_warnings():
        # Either it converges or it stops at max_iter with a ConvergenceWarning; never hangs.
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(SEPARABLE_X, SEPARABLE_Y)
    return model.predict(SEPARABLE_X)


def _sparse_matches_dense() -> None:
    dense = SVC(kernel="rbf", gamma=0.5).fit(X, Y)
    sparse = SVC(kernel="rbf", gamma=0.5).fit(_unsorted_duplicate_csr(), Y)
    np.testing.assert_allclose(
        sparse.decision_function(_unsorted_duplicate_csr()), dense.decision_function(X),
        rtol=1e-10, atol=1e-12,
    )


MUST_WORK = [
    ("huge-C", lambda: np.testing.assert_array_equal(_huge_C(), SEPARABLE_Y)),
    ("tiny-tol", lambda: np.testing.assert_array_equal(
        SVC(kernel="linear", tol=1e-12).fit(SEPARABLE_X, SEPARABLE_Y).predict(SEPARABLE_X),
        SEPARABLE_Y)),
    ("tiny-tol-svr", lambda: SVR(tol=1e-12).fit(X, TARGETS).predict(X)),
    # gamma=0 makes every rbf kernel value 1: a constant decision, but a valid model.
    ("gamma-zero", lambda: SVC(gamma=0.0).fit(X, Y).predict(X)),
    ("gamma-zero-oneclass", lambda: OneClassSVM(gamma=0).fit(X).decision_function(X)),
    ("read-only-fit-predict", lambda: SVC().fit(_read_only(X), _read_only(Y)).predict(
        _read_only(X))),
    ("read-only-weights", lambda: SVR().fit(_read_only(X), _read_only(TARGETS),
                                            sample_weight=_read_only(np.ones(20))).predict(X)),
    ("fortran-order", lambda: np.testing.assert_array_equal(
        SVC().fit(np.asfortranarray(X), Y).predict(np.asfortranarray(X)),
        SVC().fit(X, Y).predict(X))),
    ("strided-views", lambda: np.testing.assert_array_equal(
        SVC().fit(np.repeat(X, 2, axis=1)[:, ::2], Y[::1]).predict(np.repeat(X, 2, axis=0)[::2]),
        SVC().fit(X, Y).predict(X))),
    ("float32", lambda: SVC().fit(X.astype(np.float32), Y).predict(X.astype(np.float32))),
    ("integer-X", lambda: SVC().fit((X * 10).astype(np.int64), Y).predict(X.astype(np.int8))),
    ("sparse-unsorted-duplicates", _sparse_matches_dense),
    ("sparse-unsorted-svr", lambda: SVR().fit(_unsorted_duplicate_csr(), TARGETS).predict(
        _unsorted_duplicate_csr())),
    ("string-labels", lambda: SVC().fit(X, np.where(Y == 1, "yes", "no")).predict(X)),
    ("column-vector-weights-some-zero", lambda: SVC().fit(
        X, Y, sample_weight=np.r_[np.zeros(10), np.ones(10)]).predict(X)),
    ("svmlight-empty", lambda: load_svmlight_file(b"")),
    ("svmlight-comments-crlf", lambda: load_svmlight_file(b"# head\r\n1 1:2 # x\r\n\r\n")),
    ("public-namespace", lambda: svmx.SVC),
]


@pytest.mark.parametrize("call", [case[1] for case in MUST_WORK],
                         ids=[case[0] for case in MUST_WORK])
def test_odd_input_works(call):
    call()


# --------------------------------------------------------------------------------------------
# Sparse matrices whose index arrays lie about their shape (scipy checks only the lengths)
# --------------------------------------------------------------------------------------------


def _malformed(kind):
    rng = np.random.default_rng(3)
    matrix = (sp.csr_matrix if kind.startswith("csr") else sp.csc_matrix)(rng.random((40, 6)))
    if kind.endswith("far index"):
        matrix.indices[-1] = 10_000_000  # once a segfault: written far outside the rows
    elif kind.endswith("next index"):
        matrix.indices[0] = matrix.shape[1] if kind.startswith("csr") else matrix.shape[0]
    elif kind.endswith("negative index"):
        matrix.indices[3] = -1
    elif kind.endswith("decreasing pointers"):
        matrix.indptr[2] = matrix.indptr[3] + 1
    return matrix


MALFORMED = [f"{fmt} {what}" for fmt in ("csr", "csc")
             for what in ("far index", "next index", "negative index", "decreasing pointers")]


@pytest.mark.parametrize("kind", MALFORMED)
@pytest.mark.parametrize("make", [SVC, SVR, NuSVC, NuSVR, OneClassSVM])
def test_malformed_sparse_input_is_refused(kind, make):
    X, y = _malformed(kind), np.arange(40) % 2
    with pytest.raises(ValueError, match="X is a malformed sparse matrix"):
        make().fit(X) if make is OneClassSVM else make().fit(X, y)
    model = make().fit(sp.csr_matrix(np.ones((4, 6)) * np.arange(4)[:, None]),
                       None if make is OneClassSVM else np.array([0, 1, 0, 1]))
    with pytest.raises(ValueError, match="X is a malformed sparse matrix"):
        model.predict(_malformed(kind))


def test_two_class_vote_sends_nan_to_the_second_class():
    """As LIBSVM (a NaN decision value is not > 0) and the many-class vote."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    model = SVC(kernel="poly", degree=9, gamma=1.0, coef0=1.0).fit(X, y)
    far = np.full((1, 3), 1e40)
    assert np.isnan(model.decision_function(far)).all()
    assert model.predict(far).tolist() == [1]
