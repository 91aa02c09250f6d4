"""svmx predict against svm-predict: the same output file and the same report lines.

The models are trained by libsvm-official and saved with its ``svm_save_model``. Where Debian's
``svm-predict`` (package libsvm-tools) is installed, its output file and stdout are the
reference, compared byte for byte; the tests that need it skip otherwise. Regression output
files are compared as numbers: their ``%.17g`` values carry the last bits of each
implementation's kernel sums (LIBSVM 3.24 and 3.37 differ there too).
"""

import shutil
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

from svmx.cli import main

svmutil = pytest.importorskip("libsvm.svmutil")
SVM_PREDICT = shutil.which("svm-predict")
needs_svm_predict = pytest.mark.skipif(
    SVM_PREDICT is None,
    reason="LIBSVM's svm-predict is not installed (apt-get install libsvm-tools)",
)


def _shared(shared_data_dir, name):
    path = shared_data_dir / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's machines")
    return str(path)


def _train(shared_data_dir, tmp_path, name, options, n_rows=None):
    y, x = svmutil.svm_read_problem(_shared(shared_data_dir, name))
    if n_rows:
        y, x = y[:n_rows], x[:n_rows]
    path = tmp_path / "model"
    svmutil.svm_save_model(str(path), svmutil.svm_train(y, x, options + " -q"))
    return str(path)


def _svmx_predict(capsys, options, test_file, model_file, output):
    capsys.readouterr()
    assert main(["predict", *options, test_file, model_file, output]) == 0
    return capsys.readouterr().out


def _svm_predict(options, test_file, model_file, output):
    done = subprocess.run([SVM_PREDICT, *options, test_file, model_file, output],
                          capture_output=True, text=True, check=True)
    return done.stdout


# (training set, rows of it, test set, svm-train options, svm-predict -b)
CLASSIFICATION = [
    ("heart_scale", None, "heart_scale", "-s 0 -c 2 -g 0.1", "0"),
    ("heart_scale", None, "heart_scale", "-s 0 -b 1 -w1 3", "1"),
    ("heart_scale", None, "heart_scale", "-s 0 -b 1", "0"),  # probabilities off
    ("dna.scale", 600, "dna.scale.t", "-s 0 -t 2 -g 0.01 -b 1", "1"),
    ("dna.scale", 600, "dna.scale.t", "-s 1 -t 1 -d 2 -n 0.1", "0"),
    ("mushrooms", 1000, "mushrooms", "-s 0 -t 0 -c 0.5", "0"),
    ("heart_scale", None, "heart_scale", "-s 2 -n 0.2", "0"),
]


@needs_svm_predict
@pytest.mark.parametrize(("train", "n_rows", "test", "options", "probability"), CLASSIFICATION)
def test_output_file_and_stdout_equal_svm_predict(tmp_path, shared_data_dir, capsys, train,
                                                  n_rows, test, options, probability):
    model = _train(shared_data_dir, tmp_path, train, options, n_rows)
    test_file = _shared(shared_data_dir, test)
    ours = _svmx_predict(capsys, ["-b", probability], test_file, model, str(tmp_path / "svmx"))
    theirs = _svm_predict(["-b", probability], test_file, model, str(tmp_path / "libsvm"))
    assert ours == theirs
    assert (tmp_path / "svmx").read_bytes() == (tmp_path / "libsvm").read_bytes()


REGRESSION = [
    ("housing_scale", "-s 3 -c 10 -g 0.1 -p 0.2", "0"),
    ("housing_scale", "-s 3 -t 1 -d 2 -g 0.1 -r 1 -b 1", "1"),  # the Laplace-scale line
    ("housing_scale", "-s 3 -b 1", "0"),  # "Model supports probability estimates, ..."
    ("cpusmall_scale", "-s 4 -t 0 -n 0.3", "0"),
]


@needs_svm_predict
@pytest.mark.parametrize(("data", "options", "probability"), REGRESSION)
def test_regression_report_equals_svm_predict(tmp_path, shared_data_dir, capsys, data, options,
                                              probability):
    model = _train(shared_data_dir, tmp_path, data, options, n_rows=800)
    test_file = _shared(shared_data_dir, data)
    ours = _svmx_predict(capsys, ["-b", probability], test_file, model, str(tmp_path / "svmx"))
    theirs = _svm_predict(["-b", probability], test_file, model, str(tmp_path / "libsvm"))
    assert ours == theirs
    ours_lines = (tmp_path / "svmx").read_text().splitlines()
    theirs_lines = (tmp_path / "libsvm").read_text().splitlines()
    assert len(ours_lines) == len(theirs_lines)
    assert all(line == f"{float(line):.17g}" for line in ours_lines)  # %.17g, nothing else
    np.testing.assert_allclose(np.array(ours_lines, dtype=float),
                               np.array(theirs_lines, dtype=float), rtol=1e-12, atol=1e-12)


@needs_svm_predict
def test_precomputed_kernel_output_equals_svm_predict(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    y = np.where(X[:, 0] - X[:, 1] > 0, 2, 5)
    gram = X @ X.T
    data = tmp_path / "gram.txt"
    data.write_text("".join(
        f"{label} 0:{i + 1} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(row)) + "\n"
        for i, (label, row) in enumerate(zip(y, gram, strict=True))
    ))
    y_list, x_list = svmutil.svm_read_problem(str(data))
    model = tmp_path / "model"
    svmutil.svm_save_model(str(model), svmutil.svm_train(y_list, x_list, "-t 4 -q"))
    ours = _svmx_predict(capsys, [], str(data), str(model), str(tmp_path / "svmx"))
    assert ours == _svm_predict([], str(data), str(model), str(tmp_path / "libsvm"))
    assert (tmp_path / "svmx").read_bytes() == (tmp_path / "libsvm").read_bytes()


def test_labels_and_probabilities_equal_libsvm_official(tmp_path, shared_data_dir, capsys):
    model = _train(shared_data_dir, tmp_path, "dna.scale", "-s 0 -g 0.01 -b 1", n_rows=300)
    test_file = _shared(shared_data_dir, "dna.scale.t")
    printed = _svmx_predict(capsys, ["-b", "1"], test_file, model, str(tmp_path / "out"))
    y, x = svmutil.svm_read_problem(test_file)
    labels, (accuracy, _, _), probabilities = svmutil.svm_predict(
        y, x, svmutil.svm_load_model(model), "-b 1 -q")
    lines = (tmp_path / "out").read_text().splitlines()
    assert lines[0] == "labels " + " ".join(
        str(label) for label in svmutil.svm_load_model(model).get_labels())
    assert lines[1:] == [f"{label:g}" + "".join(f" {p:g}" for p in row)
                         for label, row in zip(labels, probabilities, strict=True)]
    correct = int(np.sum(np.array(labels) == np.array(y)))
    assert printed == f"Accuracy = {accuracy:g}% ({correct}/{len(y)}) (classification)\n"


def test_one_class_probabilities_equal_libsvm_337(tmp_path, shared_data_dir, capsys):
    """LIBSVM 3.37's one-class -b 1: density marks in the model, two probabilities per row."""
    model = _train(shared_data_dir, tmp_path, "heart_scale", "-s 2 -n 0.3 -b 1")
    test_file = _shared(shared_data_dir, "heart_scale")
    printed = _svmx_predict(capsys, ["-b", "1"], test_file, model, str(tmp_path / "out"))
    y, x = svmutil.svm_read_problem(test_file)
    labels, _, probabilities = svmutil.svm_predict(y, x, svmutil.svm_load_model(model),
                                                   "-b 1 -q")
    lines = (tmp_path / "out").read_text().splitlines()
    assert lines[0] == "label normal outlier"
    assert lines[1:] == [f"{label:g}" + "".join(f" {p:g}" for p in row)
                         for label, row in zip(labels, probabilities, strict=True)]
    assert printed.startswith("Accuracy = ")
    printed = _svmx_predict(capsys, ["-b", "0"], test_file, model, str(tmp_path / "out"))
    assert printed.startswith("Model supports probability estimates, but disabled in prediction.\n")
    assert (tmp_path / "out").read_text() == "".join(f"{label:.17g}\n" for label in labels)


def test_test_set_is_predicted_as_csr(tmp_path, shared_data_dir, capsys, monkeypatch):
    model = _train(shared_data_dir, tmp_path, "dna.scale", "-s 0 -g 0.01", n_rows=400)
    test_file = _shared(shared_data_dir, "dna.scale.t")
    original = sp.csr_matrix.toarray

    def refuse_whole_test_set(self, *args, **kwargs):
        if self.shape[0] > 1000:  # dna.scale.t has 1186 rows
            raise AssertionError("the whole test set was made dense")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sp.csr_matrix, "toarray", refuse_whole_test_set)
    printed = _svmx_predict(capsys, [], test_file, model, str(tmp_path / "out"))
    assert printed.startswith("Accuracy = ")
