"""svmx train and predict against LIBSVM 3.37 on every shared dataset and a matrix of flags.

For each (dataset, flags) case, the same data file (a deterministic subset of the shared file,
every k-th line as written, so both tools read the same text) is given to
libsvm-official's ``svm_train`` (LIBSVM 3.37, the library svm-train calls; its C ``rand()``
seeded with 1, as in a fresh svm-train process) and to ``svmx train``. Checked:

- standard output, captured at the file-descriptor level, is identical (the solver's lines,
  the probability cross-validations' output, ``-v``'s result);
- the model file is byte-identical to ``svm_save_model``'s;
- ``svmx predict`` on that model writes what LIBSVM's own predictions are (labels, values
  and probabilities, formatted as svm-predict formats them), and, where Debian's
  ``svm-predict`` is installed and can read the model, exactly svm-predict's output file.

libsvm-official is built with OpenMP, and LIBSVM 3.37 sums a regression's or a one-class
model's decision value with an OpenMP reduction (``schedule(guided)``), whose last bits depend
on how the threads happened to share the work. The reference is LIBSVM's own arithmetic, the
sequential sum that svm-train computes when built as LIBSVM's Makefile builds it (without
OpenMP): the library is run with one OpenMP thread.
"""

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from conftest import one_openmp_thread

from svmx.cli import main

svmutil = pytest.importorskip("libsvm.svmutil")

ROWS = 240  # per subset: enough for every class and fold, quick for every flag set

CLASSIFICATION = ["heart_scale", "a9a", "w8a", "ijcnn1", "mushrooms", "svmguide1",
                  "reuters_lasvm", "dna.scale", "pendigits", "mnist_5k.libsvm"]
REGRESSION = ["abalone_scale", "cpusmall_scale", "housing_scale"]

CLASSIFIER_FLAGS = [
    "",
    "-b 1",
    "-c 4 -g 0.5 -b 1",
    "-s 1 -n 0.3 -b 1",
    "-t 0 -c 0.5 -h 0",
    "-t 1 -d 2 -g 0.1 -r 1 -e 0.01",
    "-t 3 -g 0.01 -r -1",
    "-s 2 -n 0.3 -b 1",
    "-v 5",
    "-v 4 -b 1 -h 0",
]
REGRESSION_FLAGS = [
    "-s 3",
    "-s 3 -p 0.05 -c 4 -b 1",
    "-s 4 -n 0.3 -b 1",
    "-s 4 -t 0 -h 0",
    "-s 3 -t 1 -d 2 -g 0.2",
    "-s 2 -n 0.2 -t 0 -b 1",
    "-s 3 -v 5",
    "-s 4 -v 3 -b 1",
]
CASES = ([(name, flags) for name in CLASSIFICATION for flags in CLASSIFIER_FLAGS]
         + [(name, flags) for name in REGRESSION for flags in REGRESSION_FLAGS]
         + [("dna.scale", "-w3 2 -w1 0.5 -c 2"), ("heart_scale", "-w-1 3 -b 1"),
            ("pendigits", "-s 1 -n 0.05 -t 0 -v 3")])

_libc = ctypes.CDLL(None)




def _subset(shared_data_dir, name, directory):
    source = shared_data_dir / name
    if not source.is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's "
                    "machines")
    lines = source.read_text().splitlines(keepends=True)
    stride = max(1, len(lines) // ROWS)
    target = directory / f"{name}.subset"
    target.write_text("".join(lines[::stride][:ROWS]))
    return target


def _captured(function):
    """function()'s return value and what it wrote on file descriptor 1."""
    sys.stdout.flush()
    with tempfile.TemporaryFile() as captured:
        saved = os.dup(1)
        os.dup2(captured.fileno(), 1)
        try:
            result = function()
            sys.stdout.flush()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        captured.seek(0)
        return result, captured.read().decode("ascii")


def _libsvm_train(capsys, path, flags, model_path):
    """What svm-train 3.37 prints and saves, from the library in this process.

    The library prints from C (file descriptor 1); with -v the binding prints the result
    from Python (captured by capsys), after the folds' output, as svm-train does.
    """
    y, x = svmutil.svm_read_problem(str(path))

    def train():
        _libc.srand(1)  # svm-train never seeds rand(): a fresh process draws this stream
        with one_openmp_thread():
            return svmutil.svm_train(y, x, flags)

    capsys.readouterr()
    model, out = _captured(train)
    out += capsys.readouterr().out
    if "-v" not in flags.split():
        svmutil.svm_save_model(str(model_path), model)
    return model, out


def _svmx_train(capsys, path, flags, model_path):
    """svmx train's standard output and error."""
    capsys.readouterr()
    assert main(["train", *flags.split(), str(path), str(model_path)]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("name", "flags"), CASES, ids=[f"{n}[{f}]" for n, f in CASES])
def test_train_as_svm_train(name, flags, shared_data_dir, workdir, capsys):
    path = _subset(shared_data_dir, name, workdir)
    try:
        model, expected = _libsvm_train(capsys, path, flags, workdir / "libsvm.model")
    except ValueError as error:  # svm_check_parameter refuses, so svm-train exits
        assert "infeasible" in str(error)
        capsys.readouterr()
        assert main(["train", *flags.split(), str(path), "svmx.model"]) == 1
        assert "infeasible" in capsys.readouterr().err
        return
    ours, _ = _svmx_train(capsys, path, flags, workdir / "svmx.model")
    assert ours == expected
    if "-v" in flags.split():
        assert "Cross Validation" in ours
        return
    assert (workdir / "svmx.model").read_bytes() == (workdir / "libsvm.model").read_bytes()
    # svm-predict reads the model file (support vectors with 8 digits), not the trained model
    _check_predictions(path, flags, svmutil.svm_load_model("libsvm.model"), workdir, capsys)


def _libsvm_lines(path, model, probability):
    """svm-predict's output lines from LIBSVM 3.37's own predictions."""
    y, x = svmutil.svm_read_problem(str(path))
    with one_openmp_thread():
        labels, _, values = svmutil.svm_predict(y, x, model,
                                                "-q" + (" -b 1" if probability else ""))
    svm_type = model.get_svm_type()
    if not probability:
        return [f"{label:.17g}" for label in labels]
    if svm_type in (3, 4):
        return [f"{label:.17g}" for label in labels]
    if svm_type == 2:
        header = ["label normal outlier"]
    else:
        header = ["labels" + "".join(f" {label}" for label in model.get_labels())]
    return header + [f"{label:g}" + "".join(f" {p:g}" for p in row)
                     for label, row in zip(labels, values, strict=True)]


def _check_predictions(path, flags, model, workdir, capsys):
    probability = "-b 1" in flags
    if probability and model.get_svm_type() == 2 and not model.prob_density_marks:
        probability = False  # too few decision values on a side: no marks, as LIBSVM
    options = ["-b", "1"] if probability else []
    capsys.readouterr()
    assert main(["predict", "-q", *options, str(path), "svmx.model", "svmx.out"]) == 0
    ours = (workdir / "svmx.out").read_text().splitlines()
    assert ours == _libsvm_lines(path, model, probability)
    svm_predict = shutil.which("svm-predict")
    if svm_predict is None or model.get_svm_type() == 2:  # 3.24 has no one-class marks
        return
    subprocess.run([svm_predict, *options, str(path), "svmx.model", "ref.out"],
                   check=True, capture_output=True)
    assert (workdir / "svmx.out").read_bytes() == (workdir / "ref.out").read_bytes()


def test_rand_is_glibcs():
    from svmx.preprocessing import GlibcRand

    for seed in (1, 7, 2**31 + 5):
        _libc.srand(ctypes.c_uint(seed))
        expected = [_libc.rand() for _ in range(1000)]
        rand = GlibcRand(seed)
        assert [rand.rand() for _ in range(1000)] == expected


def test_one_class_marks_too_few_warns(workdir, capsys):
    # Two decision values on one side of 0: LIBSVM writes no marks and warns on stderr.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 2))
    with open("tiny.txt", "w") as handle:
        for row in X:
            handle.write("1 " + " ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row)) + "\n")
    model, expected = _libsvm_train(capsys, workdir / "tiny.txt", "-s 2 -n 0.1 -b 1",
                                    workdir / "libsvm.model")
    ours, errors = _svmx_train(capsys, workdir / "tiny.txt", "-s 2 -n 0.1 -b 1",
                               "svmx.model")
    assert ours == expected
    assert (workdir / "svmx.model").read_bytes() == (workdir / "libsvm.model").read_bytes()
    assert "prob_density_marks" not in (workdir / "svmx.model").read_text()
    assert "too few to do a probability estimation" in errors
