"""svmx train prints what svm-train prints, byte for byte.

svm-train only parses its flags and calls the library, so its standard output is what
LIBSVM 3.37's ``svm_train`` prints: libsvm-official's ``svmutil.svm_train(y, x, flags)``
prints the same, from C with printf, so it is captured at the file-descriptor level.
svmx train reads CSR data and trains with SMO in svm-train's class order, which makes
its iterations (and so every printed figure) LIBSVM's.
"""

import os
import subprocess
import sys
import tempfile
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

import svmx
from svmx.cli import main
from svmx.datasets import dump_svmlight_file, load_svmlight_file

svmutil = pytest.importorskip("libsvm.svmutil")


def libsvm_stdout(path, flags):
    """What libsvm-official's svm_train prints on file descriptor 1."""
    y, x = svmutil.svm_read_problem(str(path))
    sys.stdout.flush()
    with tempfile.TemporaryFile() as captured:
        saved = os.dup(1)
        os.dup2(captured.fileno(), 1)
        try:
            svmutil.svm_train(y, x, flags)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        captured.seek(0)
        return captured.read().decode("ascii")


def svmx_stdout(capsys, path, flags, model="out.model"):
    capsys.readouterr()
    assert main(["train", *flags.split(), str(path), model]) == 0
    return capsys.readouterr().out


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _shared(shared_data_dir, name):
    path = shared_data_dir / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's "
                    "machines")
    return path


CASES = [
    # two classes, +1 first: every svm type, kernel and solver option
    ("heart_scale", ""),
    ("heart_scale", "-c 10 -g 0.5"),
    ("heart_scale", "-s 1 -n 0.3"),
    ("heart_scale", "-s 1 -t 1 -d 4 -g 0.1"),
    ("heart_scale", "-s 2 -n 0.2"),
    ("heart_scale", "-s 2 -t 0 -h 0"),
    ("heart_scale", "-t 0"),
    ("heart_scale", "-t 1 -d 2 -r 1 -g 0.1"),
    ("heart_scale", "-t 3 -g 0.05 -r -1"),
    ("heart_scale", "-h 0"),
    ("heart_scale", "-h 0 -t 0 -c 4"),
    ("heart_scale", "-e 0.1"),
    ("heart_scale", "-e 0.00001 -c 2"),
    ("heart_scale", "-w1 3 -c 2"),
    ("heart_scale", "-w-1 0.5"),
    # regression
    ("housing_scale", "-s 3"),
    ("housing_scale", "-s 3 -p 0.5 -c 8"),
    ("housing_scale", "-s 3 -t 1 -h 0"),
    ("housing_scale", "-s 4"),
    ("housing_scale", "-s 4 -n 0.2 -t 0"),
    ("housing_scale", "-s 2 -t 3 -g 0.01"),
    # three classes in order 3, 1, 2 (first appearance), sparse-ish
    ("dna.scale", ""),
    ("dna.scale", "-s 1 -n 0.2"),
    ("dna.scale", "-t 0 -c 0.5 -w2 4"),
    # unscaled features
    ("svmguide1", "-c 8"),
]


@pytest.mark.parametrize(("name", "flags"), CASES, ids=[f"{n}[{f}]" for n, f in CASES])
def test_stdout_is_svm_trains(name, flags, shared_data_dir, workdir, capsys):
    path = _shared(shared_data_dir, name)
    expected = libsvm_stdout(path, flags)
    assert "optimization finished" in expected
    assert svmx_stdout(capsys, path, flags) == expected


def test_model_file_in_svm_trains_class_order(shared_data_dir, workdir, capsys):
    # dna.scale's classes appear as 3, 1, 2: pairs (3, 1), (3, 2), (1, 2), as svm-train.
    path = _shared(shared_data_dir, "dna.scale")
    svmx_stdout(capsys, path, "-q -t 0", "dna.model")
    y, x = svmutil.svm_read_problem(str(path))
    svmutil.svm_save_model("libsvm.model", svmutil.svm_train(y, x, "-q -t 0"))
    ours = (workdir / "dna.model").read_text().splitlines()
    theirs = (workdir / "libsvm.model").read_text().splitlines()
    header = ours[: ours.index("SV")]
    assert header == theirs[: theirs.index("SV")][: len(header)]
    assert "label 3 1 2" in header


def test_minus_one_first_is_swapped_as_svm_train(workdir, capsys):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 4))
    y = np.where(X[:, 0] - X[:, 2] > 0.3, 1, -1)
    y[0] = -1
    dump_svmlight_file(X, y, workdir / "data.txt")
    expected = libsvm_stdout(workdir / "data.txt", "-c 3")
    assert svmx_stdout(capsys, workdir / "data.txt", "-c 3", "data.model") == expected
    assert "label 1 -1" in (workdir / "data.model").read_text()


def test_precomputed_kernel_stdout(workdir, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 2, 5)
    gram = X @ X.T
    with open(workdir / "gram.txt", "w") as handle:
        for i in range(40):
            values = " ".join(f"{j + 1}:{float(gram[i, j])!r}" for j in range(40))
            handle.write(f"{y[i]} 0:{i + 1} {values}\n")
    expected = libsvm_stdout(workdir / "gram.txt", "-t 4 -c 2")
    assert svmx_stdout(capsys, workdir / "gram.txt", "-t 4 -c 2", "gram.model") == expected


def test_quiet_prints_nothing(shared_data_dir, workdir, capsys):
    path = _shared(shared_data_dir, "heart_scale")
    assert libsvm_stdout(path, "-q") == ""
    assert svmx_stdout(capsys, path, "-q") == ""
    assert svmx_stdout(capsys, path, "-q -s 3") == ""


def test_weight_warning_goes_to_stderr(shared_data_dir, workdir, capsys):
    path = _shared(shared_data_dir, "heart_scale")
    expected = libsvm_stdout(path, "-w7 2")  # LIBSVM warns on stderr
    assert main(["train", "-w7", "2", str(path), "m.model"]) == 0
    captured = capsys.readouterr()
    assert captured.out == expected
    assert "class label 7 specified in weight is not found" in captured.err


def test_stdout_of_the_svmx_process(shared_data_dir, workdir):
    # The bytes a shell sees: standard output of the process, flushed in order.
    path = _shared(shared_data_dir, "heart_scale")
    expected = libsvm_stdout(path, "-t 0")
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(svmx.__file__)))
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [package_root,
                                                       os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "svmx", "train", "-t", "0", str(path)],
                          capture_output=True, check=True, env=env)
    assert done.stdout.decode("ascii") == expected
    assert done.stderr == b""


def test_estimator_verbose_prints_libsvm_output(shared_data_dir, capsys):
    # verbose=True prints the same as LIBSVM when trained in LIBSVM's class order.
    path = _shared(shared_data_dir, "dna.scale")
    expected = libsvm_stdout(path, "-c 2")
    X, y = load_svmlight_file(str(path))
    model = svmx.SVC(C=2, gamma=1 / 180, solver="smo", verbose=True)
    capsys.readouterr()
    model._fit_in_class_order(X, y, [3.0, 1.0, 2.0])
    assert capsys.readouterr().out == expected
    assert model.classes_.tolist() == [1.0, 2.0, 3.0]
    plain = svmx.SVC(C=2, gamma=1 / 180, solver="smo").fit(X, y)
    np.testing.assert_allclose(model.decision_function(X[:50]),
                               plain.decision_function(X[:50]), atol=1e-3)


@pytest.mark.parametrize("dense", [False, True], ids=["csr", "dense"])
def test_regressor_verbose_prints_libsvm_output(shared_data_dir, capsys, dense):
    path = _shared(shared_data_dir, "housing_scale")
    expected = libsvm_stdout(path, "-s 3 -c 4")
    X, y = load_svmlight_file(str(path))
    capsys.readouterr()
    svmx.SVR(C=4, gamma=1 / 13, solver="smo", verbose=True).fit(
        X.toarray() if dense else X, y)
    assert capsys.readouterr().out == expected


def test_block_solver_verbose_is_not_libsvm(capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    y = np.where(X[:, 0] > 0, 1, -1)
    svmx.SVC(solver="block", verbose=True).fit(X, y)
    out = capsys.readouterr().out
    assert out.startswith("\nblock solver finished, #iter = ")
    assert "optimization finished" not in out
    assert out.endswith("Total nSV = " + out.rsplit("= ", 1)[1])


def test_wide_sparse_set_is_never_dense(workdir, capsys):
    # 2,000 x 200,000 with 20 entries a row: dense it would take 3.2 GB.
    n_samples, n_features = 2000, 200_000
    rng = np.random.default_rng(0)
    columns = rng.choice(n_features - 1, size=(n_samples, 20)).ravel()
    columns[7 * 20] = n_features - 1  # the largest index, in one line only
    rows = np.repeat(np.arange(n_samples), 20)
    X = sp.csr_matrix((rng.random(n_samples * 20), (rows, columns)),
                      shape=(n_samples, n_features))
    y = np.where(np.asarray(X[:, :1000].sum(axis=1)).ravel() > 0.05, 1, -1)
    dump_svmlight_file(X, y, workdir / "wide.txt")
    tracemalloc.start()
    try:
        assert main(["train", "-q", "-t", "0", "wide.txt", "wide.model"]) == 0
        assert main(["train", "-q", "-m", "20", "wide.txt", "rbf.model"]) == 0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20, f"peak {peak / 2**20:.0f} MB"
    # gamma = 1/num_features, the largest index in the file, as svm-train's.
    assert "gamma 5.0000000000000004e-06" in (workdir / "rbf.model").read_text()
