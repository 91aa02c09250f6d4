"""svmx train and predict: svm-train and svm-predict, checked against libsvm-official."""

import re

import numpy as np
import pytest

from svmx import SVC
from svmx.cli import main
from svmx.datasets import dump_svmlight_file, load_svmlight_file
from svmx.io import load_model

svmutil = pytest.importorskip("libsvm.svmutil")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _shared(shared_data_dir, name):
    path = shared_data_dir / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found")
    return str(path)


def _write_data(path, X, y):
    dump_svmlight_file(X, y, path)
    return str(path)


def _blobs(n=60, seed=0, labels=(1, -1)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + X[:, 1] > 0, labels[0], labels[1])
    return X, y


def test_dna_accuracy_line_equals_libsvm(workdir, shared_data_dir, capsys):
    train_file = _shared(shared_data_dir, "dna.scale")
    test_file = _shared(shared_data_dir, "dna.scale.t")
    assert main(["train", "-c", "1", "-g", "0.0055", "-q", train_file, "dna.model"]) == 0
    assert main(["predict", test_file, "dna.model", "dna.out"]) == 0
    printed = capsys.readouterr().out.strip()
    y, x = svmutil.svm_read_problem(train_file)
    y_test, x_test = svmutil.svm_read_problem(test_file)
    model = svmutil.svm_train(y, x, "-c 1 -g 0.0055 -q")
    labels, (accuracy, _, _), _ = svmutil.svm_predict(y_test, x_test, model, "-q")
    correct = int(np.sum(np.array(labels) == np.array(y_test)))
    assert printed == (
        f"Accuracy = {accuracy:g}% ({correct}/{len(y_test)}) (classification)"
    )
    # The model file lists the classes in order of first appearance, as svm-train does.
    assert "label 3 1 2" in (workdir / "dna.model").read_text()
    written = np.loadtxt(workdir / "dna.out")
    assert np.mean(written == np.array(labels)) > 0.99


def test_model_file_is_read_by_libsvm_and_default_name(workdir, capsys):
    X, y = _blobs()
    data = _write_data(workdir / "blobs.txt", X, y)
    assert main(["train", "-q", "-t", "1", "-d", "2", "-r", "1", "-c", "4", data]) == 0
    model = svmutil.svm_load_model(str(workdir / "blobs.txt.model"))
    ours = load_model(workdir / "blobs.txt.model")
    # svm-train's order: first appearance, except that -1 before +1 is swapped (here -1
    # comes first, and the file says "label 1 -1", as svm-train's does).
    assert y[0] == -1 and model.get_labels() == [1, -1]
    y_list, x_list = svmutil.svm_read_problem(data)
    assert model.get_labels() == svmutil.svm_train(y_list, x_list, "-q").get_labels()
    assert ours.kernel == "poly" and ours.degree == 2
    assert main(["predict", "-q", data, "blobs.txt.model", "pred.txt"]) == 0
    assert capsys.readouterr().out == ""  # -q
    labels, _, _ = svmutil.svm_predict(list(y), [dict(enumerate(r, 1)) for r in X], model, "-q")
    assert (workdir / "pred.txt").read_text() == "".join(f"{v:.17g}\n" for v in labels)


def test_libsvm_model_predicted_by_svmx(workdir, capsys):
    X, y = _blobs(labels=(2, 7))
    data = _write_data(workdir / "train.txt", X, y)
    y_list, x_list = svmutil.svm_read_problem(data)
    svmutil.svm_save_model("libsvm.model", svmutil.svm_train(y_list, x_list, "-c 2 -q"))
    labels, (accuracy, _, _), _ = svmutil.svm_predict(y_list, x_list,
                                                      svmutil.svm_load_model("libsvm.model"), "-q")
    assert main(["predict", data, "libsvm.model", "out.txt"]) == 0
    correct = int(np.sum(np.array(labels) == y))
    assert capsys.readouterr().out == (
        f"Accuracy = {accuracy:g}% ({correct}/{len(y)}) (classification)\n"
    )


def test_probability_output_file(workdir, capsys):
    X, y = _blobs(n=80, labels=(3, 1))
    y[:20] = 2
    data = _write_data(workdir / "train.txt", X, y)
    assert main(["train", "-b", "1", "-q", data, "m"]) == 0
    assert main(["predict", "-b", "1", data, "m", "out"]) == 0
    lines = (workdir / "out").read_text().splitlines()
    model = svmutil.svm_load_model("m")
    assert lines[0] == "labels " + " ".join(str(label) for label in model.get_labels())
    y_list, x_list = svmutil.svm_read_problem(data)
    labels, _, probabilities = svmutil.svm_predict(y_list, x_list, model, "-b 1 -q")
    expected = [
        " ".join([f"{label:g}", *(f"{p:g}" for p in row)])
        for label, row in zip(labels, probabilities, strict=True)
    ]
    assert lines[1:] == expected
    assert main(["predict", "-b", "0", data, "m", "out"]) == 0
    assert "Model supports probability estimates, but disabled in prediction." in (
        capsys.readouterr().out
    )


def test_cross_validation_lines(workdir, capsys):
    X, y = _blobs(n=50)
    data = _write_data(workdir / "train.txt", X, y)
    assert main(["train", "-v", "5", "-q", data]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(r"Cross Validation Accuracy = \d+(\.\d+)?%\n", out)
    assert not (workdir / "train.txt.model").exists()  # -v does not save a model
    assert main(["train", "-s", "3", "-v", "4", "-q", data]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"Cross Validation Mean squared error = [\d.e+-]+", lines[0])
    assert re.fullmatch(r"Cross Validation Squared correlation coefficient = [\d.e+-]+", lines[1])


def test_regression_and_one_class(workdir, capsys):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    target = X[:, 0] - X[:, 1]
    data = _write_data(workdir / "reg.txt", X, target)
    for svm_type in ("3", "4"):
        assert main(["train", "-s", svm_type, "-p", "0.05", "-q", data, "r.model"]) == 0
        assert main(["predict", data, "r.model", "r.out"]) == 0
        predicted = np.loadtxt(workdir / "r.out")
        mse = np.mean((predicted - target) ** 2)
        out = capsys.readouterr().out.splitlines()
        assert out[0] == f"Mean squared error = {mse:g} (regression)"
        assert out[1].startswith("Squared correlation coefficient = ")
        assert out[1].endswith(" (regression)")
    assert main(["train", "-s", "2", "-n", "0.3", "-q", data, "o.model"]) == 0
    assert "svm_type one_class" in (workdir / "o.model").read_text()
    assert main(["predict", "-q", data, "o.model", "o.out"]) == 0
    assert set(np.loadtxt(workdir / "o.out")) <= {1.0, -1.0}


def test_class_weights_option(workdir, capsys):
    X, y = _blobs(n=60)
    data = _write_data(workdir / "train.txt", X, y)
    assert main(["train", "-q", "-w-1", "5", "-w1", "0.5", "-w9", "2", data, "w.model"]) == 0
    assert "class label 9 specified in weight is not found" in capsys.readouterr().err
    import svmx

    X_loaded, y_loaded = load_svmlight_file(data)
    # svm-train trains in its class order (+1 first here), which svmx train follows.
    direct = svmx.SVC(gamma=1 / 3, class_weight={-1.0: 5.0, 1.0: 0.5}, solver="smo")
    direct._fit_in_class_order(X_loaded, y_loaded, [1.0, -1.0])
    loaded = load_model(workdir / "w.model", n_features=3)
    sign = 1.0 if loaded.classes_.tolist() == direct.classes_.tolist() else -1.0
    # The model file holds the support vectors with 8 significant digits, as LIBSVM's does.
    np.testing.assert_allclose(sign * loaded.decision_function(X), direct.decision_function(X),
                               atol=1e-6)
    y_list, x_list = svmutil.svm_read_problem(data)
    reference = svmutil.svm_train(y_list, x_list, "-q -w-1 5 -w1 0.5")
    _, _, values = svmutil.svm_predict(y_list, x_list, reference, "-q")
    # Both positive for class +1 (svmx: classes_[1]; LIBSVM: its first label).
    assert direct.classes_.tolist() == [-1, 1] and reference.get_labels() == [1, -1]
    np.testing.assert_allclose(direct.decision_function(X), np.ravel(values), atol=1e-9)


def test_precomputed_kernel(workdir, capsys):
    X, y = _blobs(n=30)
    gram = X @ X.T
    with_serial = np.c_[np.arange(1, 31), gram]
    path = workdir / "gram.txt"
    dump_svmlight_file(with_serial, y, path, zero_based=True)
    assert main(["train", "-t", "4", "-q", str(path), "k.model"]) == 0
    assert main(["predict", str(path), "k.model", "k.out"]) == 0
    linear = main(["train", "-t", "0", "-q", _write_data(workdir / "x.txt", X, y), "l.model"])
    assert linear == 0
    assert main(["predict", str(workdir / "x.txt"), "l.model", "l.out"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == out[1]  # the same accuracy as the linear kernel
    assert (workdir / "k.out").read_text() == (workdir / "l.out").read_text()


def test_a_class_weight_given_twice_multiplies_as_in_svm_train(workdir):
    X, y = _blobs(n=60, seed=4)
    data = _write_data(workdir / "d.txt", X, y)
    assert main(["train", "-q", "-w1", "3", "-w1", "0.5", data, "twice.model"]) == 0
    y_list, x_list = svmutil.svm_read_problem(data)
    svmutil.svm_save_model(str(workdir / "libsvm.model"),
                           svmutil.svm_train(y_list, x_list, "-q -w1 3 -w1 0.5"))
    assert (workdir / "twice.model").read_text() == (workdir / "libsvm.model").read_text()
    assert main(["train", "-q", "-w1", "0.5", data, "once.model"]) == 0
    assert (workdir / "once.model").read_text() != (workdir / "twice.model").read_text()


def _kernel_lines(gram, y, serials, columns):
    """Lines ``label 0:serial 1:K ...`` of a precomputed-kernel file: each row's values at
    every column of ``columns`` (1-based sample serials)."""
    return [f"{y[i]:g} 0:{s} " + " ".join(f"{c}:{float(gram[s - 1, c - 1])!r}" for c in columns)
            for i, s in zip(range(len(serials)), serials, strict=True)]


@pytest.mark.parametrize("rows", ["shuffled", "every_other"])
def test_precomputed_rows_go_by_their_serial_numbers(workdir, capsys, rows):
    # svm-train reads K(x_i, x_j) at column serial(j), so the lines may come in any order
    # and cover a subset of the columns' samples; the model names its support vectors by
    # serial. svmx trained on the matrix as if line j were sample j (silently wrong on
    # shuffled lines) and refused a subset.
    X, y = _blobs(n=40, seed=3)
    gram = X @ X.T
    serials = (np.random.default_rng(0).permutation(40) + 1 if rows == "shuffled"
               else np.arange(2, 41, 2))
    labels = y[serials - 1]
    (workdir / "k.txt").write_text("\n".join(
        _kernel_lines(gram, labels, serials, range(1, 41))) + "\n")
    (workdir / "all.txt").write_text("\n".join(
        _kernel_lines(gram, y, np.arange(1, 41), range(1, 41))) + "\n")
    assert main(["train", "-t", "4", "-c", "2", "-q", "k.txt", "k.model"]) == 0
    y_list, x_list = svmutil.svm_read_problem(str(workdir / "k.txt"))
    svmutil.svm_save_model(str(workdir / "libsvm.model"),
                           svmutil.svm_train(y_list, x_list, "-t 4 -c 2 -q"))
    assert (workdir / "k.model").read_text() == (workdir / "libsvm.model").read_text()
    assert main(["predict", "all.txt", "k.model", "k.out"]) == 0
    fitted_rows = SVC(kernel="linear", C=2).fit(X[serials - 1], labels)
    assert np.array_equal(np.loadtxt(workdir / "k.out"), fitted_rows.predict(X))
    capsys.readouterr()
    assert main(["train", "-t", "4", "-c", "2", "-v", "4", "-q", "k.txt"]) == 0
    assert capsys.readouterr().out.startswith("Cross Validation Accuracy = ")


@pytest.mark.parametrize(("serial", "message"), [
    ("41", r"k\.txt, line 3: the serial number 0:41 must be an integer from 1 to the largest "
           r"kernel index \(40\)"),
    ("0", r"k\.txt, line 3: the serial number 0:0"),
    ("2.5", r"k\.txt, line 3: the serial number 0:2\.5"),
    ("1e30", r"k\.txt, line 3: the serial number 0:1e\+30"),  # no cast warning first
    (None, r"k\.txt, line 3: with a precomputed kernel \(-t 4\) every line needs 0:serial"),
])
def test_precomputed_serial_numbers_are_checked_by_line(workdir, capsys, serial, message):
    X, y = _blobs(n=40, seed=3)
    lines = _kernel_lines(X @ X.T, y, np.arange(1, 41), range(1, 41))
    label, _, rest = lines[1].split(" ", 2)
    lines[1] = f"{label} {rest}" if serial is None else f"{label} 0:{serial} {rest}"
    (workdir / "k.txt").write_text("# a comment line\n" + "\n".join(lines) + "\n")
    assert main(["train", "-t", "4", "-q", "k.txt", "k.model"]) != 0
    assert re.search(message, capsys.readouterr().err)


def test_blank_lines_and_query_ids_train_as_without_them(workdir):
    # svm-train stops at a blank line or a qid:n token (docs/differences.md); svmx train
    # reads the file with the Python loader's parser, which skips both.
    X, y = _blobs()
    plain = _write_data(workdir / "plain.txt", X, y)
    lines = (workdir / "plain.txt").read_text().splitlines()
    decorated = workdir / "decorated.txt"
    decorated.write_text("\n".join(
        f"{line.split(' ', 1)[0]} qid:{k % 3} {line.split(' ', 1)[1]}" + ("\n" if k % 5 else "\n\n")
        for k, line in enumerate(lines)))
    assert main(["train", "-q", plain, "plain.model"]) == 0
    assert main(["train", "-q", str(decorated), "decorated.model"]) == 0
    assert (workdir / "plain.model").read_text() == (workdir / "decorated.model").read_text()


@pytest.mark.parametrize("edit, message", [
    (lambda lines: lines[:2] + [lines[2].split(" ", 1)[0] + " 0:0.7 " + lines[2].split(" ", 1)[1]]
     + lines[3:], "line 3: feature index 0 in a one-based file"),
    (lambda lines: lines[:2] + [lines[2].replace(" 2:", " 2: ", 1)] + lines[3:],
     "line 3: could not read the value"),
    (lambda lines: lines[:2] + [lines[2].split(" ", 1)[0] + " 1:nan"] + lines[3:],
     "line 3: '1:nan' is not a finite number"),
    (lambda lines: [], "no data"),
], ids=["index-0", "blank-after-colon", "nan", "empty-file"])
def test_syntax_svm_train_reads_is_refused_naming_the_line(edit, message, workdir, capsys):
    # docs/differences.md: svm-train reads these (index 0, '2: 1', nan, an empty file);
    # svmx train refuses each, naming the file and the line.
    X, y = _blobs()
    _write_data(workdir / "plain.txt", X, y)
    lines = edit((workdir / "plain.txt").read_text().splitlines())
    (workdir / "edited.txt").write_text("".join(line + "\n" for line in lines))
    assert main(["train", "-q", "edited.txt", "edited.model"]) == 1
    err = capsys.readouterr().err
    assert "edited.txt" in err and message in err
    assert not (workdir / "edited.model").exists()


def test_scale_writes_the_rows_without_blank_lines_and_query_ids(workdir, capsys):
    (workdir / "data.txt").write_text("1 qid:4 1:0.5 2:1\n\n-1 qid:4 1:-0.5\n# a comment\n"
                                      "1 2:3\n")
    assert main(["scale", "data.txt"]) == 0
    written = capsys.readouterr().out.splitlines()
    assert len(written) == 3 and not any("qid" in line or not line for line in written)
    assert [line.split()[0] for line in written] == ["1", "-1", "1"]
