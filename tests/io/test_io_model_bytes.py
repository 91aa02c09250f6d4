"""Model files byte for byte as LIBSVM 3.37's ``svm_save_model`` writes them.

LIBSVM -> svmx -> file: libsvm-official trains and saves; ``load_model`` then ``save_model``
must give the same bytes, for every svm_type, kernel and probability option LIBSVM allows.
svmx -> LIBSVM -> file: svmx fits (dense float64, float32 or CSR) and saves; LIBSVM loads that
file and saves it again, which must give svmx's bytes. Shared datasets are cut to a few hundred
rows so the matrix stays fast; the tests skip when ../shared/data is absent.
"""

import os
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

import svmx
from svmx.io import _model_writer, format_model, load_model, save_model

svmutil = pytest.importorskip("libsvm.svmutil")


def _problem(shared_data_dir, name, n_rows):
    path = shared_data_dir / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} not found: parity data is only on the team's machines")
    y, x = svmutil.svm_read_problem(str(path))
    return y[:n_rows], x[:n_rows]


def _linear_gram(x):
    """LIBSVM's precomputed-kernel rows: 0:serial, then K(x_i, x_j) for every j."""
    width = max(max(row) for row in x if row)
    X = np.zeros((len(x), width))
    for i, row in enumerate(x):
        for index, value in row.items():
            X[i, index - 1] = value
    gram = X @ X.T
    return [{0: i + 1, **dict(enumerate(gram[i].tolist(), 1))} for i in range(len(x))]


# (svm_type, data set, rows, extra options); every kernel and -b 0/1 are crossed with these.
LIBSVM_MODELS = [
    (0, "heart_scale", 150, ""),
    (0, "heart_scale", 150, "-w1 2 -w-1 0.5"),
    (0, "dna.scale", 150, "-c 2"),
    (1, "heart_scale", 150, "-n 0.4"),
    (1, "dna.scale", 150, "-n 0.2"),
    (2, "heart_scale", 150, "-n 0.3"),  # -b 1: 3.37's prob_density_marks
    (3, "housing_scale", 150, "-p 0.5"),  # -b 1: the Laplace scale in probA
    (4, "housing_scale", 150, "-n 0.4"),
]
KERNEL_OPTIONS = {0: "", 1: "-d 2 -g 0.3 -r 0.5", 2: "-g 0.2", 3: "-g 0.05 -r -0.5", 4: ""}


@pytest.mark.parametrize("probability", [0, 1])
@pytest.mark.parametrize("kernel", range(5))
@pytest.mark.parametrize(("svm_type", "name", "n_rows", "options"), LIBSVM_MODELS)
def test_libsvm_file_is_written_back_byte_for_byte(
    tmp_path, shared_data_dir, svm_type, name, n_rows, options, kernel, probability
):
    if kernel == 4:
        n_rows = min(n_rows, 80)
    y, x = _problem(shared_data_dir, name, n_rows)
    if kernel == 4:
        x = _linear_gram(x)
    command = f"-s {svm_type} -t {kernel} {KERNEL_OPTIONS[kernel]} -b {probability} {options} -q"
    libsvm_file, svmx_file = tmp_path / "libsvm.model", tmp_path / "svmx.model"
    svmutil.svm_save_model(str(libsvm_file), svmutil.svm_train(y, x, command))
    save_model(load_model(libsvm_file), svmx_file)
    assert svmx_file.read_bytes() == libsvm_file.read_bytes()


def test_what_libsvm_writes_for_each_model_type(tmp_path, shared_data_dir):
    """The lines that differ between model types, as seen in LIBSVM 3.37's files."""
    y, x = _problem(shared_data_dir, "heart_scale", 100)
    expected = {
        "-s 0 -t 1 -d 3 -b 1": ["degree 3", "probA ", "probB ", "nr_sv ", "label 1 -1"],
        "-s 2 -b 1": ["prob_density_marks "],
        "-s 3 -t 3 -b 1": ["probA ", "coef0 0"],
    }
    for command, lines in expected.items():
        path = tmp_path / "m"
        svmutil.svm_save_model(str(path), svmutil.svm_train(y, x, command + " -q"))
        model = load_model(path)
        header = format_model(model).split("SV\n")[0].splitlines()
        for start in lines:
            assert any(line.startswith(start) for line in header), (command, start)
        if "-s 2" in command:
            assert model.prob_density_marks_.size == 10
            assert not any(line.startswith(("probA", "label", "nr_sv")) for line in header)
        if "-s 3" in command:
            assert not any(line.startswith("probB") for line in header)


def _fit_inputs(kind, seed=0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(60, 6)), 3)
    X[rng.random(X.shape) < 0.4] = 0.0
    X[:, 4] = 1.0 / 3.0  # a value that needs all of %.8g's digits, and more
    if kind == "float32":
        return X.astype(np.float32)
    if kind == "csr":
        return sp.csr_matrix(X)
    return X


ESTIMATORS = {
    "SVC": lambda: svmx.SVC(kernel="poly", degree=2, gamma=0.4, coef0=1.0, C=2.0),
    "SVC-prob": lambda: svmx.SVC(gamma=0.3, probability=True, random_state=0),
    "NuSVC": lambda: svmx.NuSVC(kernel="sigmoid", nu=0.3, gamma=0.05, coef0=0.1),
    "OneClassSVM": lambda: svmx.OneClassSVM(nu=0.3, gamma=0.5),
    "SVR": lambda: svmx.SVR(kernel="linear", C=3.0),
    "NuSVR": lambda: svmx.NuSVR(nu=0.4, gamma=0.2),
}


def _fit(name, X):
    dense = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    target = dense[:, 0] - dense[:, 1]
    labels = np.digitize(target, [-0.3, 0.3]) * 2 - 1  # -1, 1, 3
    estimator = ESTIMATORS[name]()
    if name == "OneClassSVM":
        return estimator.fit(X)
    return estimator.fit(X, labels if "SVC" in name else target)


@pytest.mark.parametrize("kind", ["float64", "float32", "csr"])
@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_svmx_file_is_what_libsvm_writes(tmp_path, name, kind):
    estimator = _fit(name, _fit_inputs(kind))
    ours, theirs = tmp_path / "svmx.model", tmp_path / "libsvm.model"
    save_model(estimator, ours)
    assert svmutil.svm_save_model(str(theirs), svmutil.svm_load_model(str(ours))) is None
    assert ours.read_bytes() == theirs.read_bytes()
    # load_model then save_model writes the same file again
    again = tmp_path / "again.model"
    save_model(load_model(ours), again)
    assert again.read_bytes() == ours.read_bytes()
    assert ours.read_text() == format_model(estimator)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_dense_and_csr_support_vectors_are_written_alike(name):
    estimator = _fit(name, _fit_inputs("float64"))
    dense = format_model(estimator)
    estimator.support_vectors_ = sp.csr_matrix(estimator.support_vectors_)
    assert format_model(estimator) == dense
    # unsorted column indices are written in ascending order
    vectors = estimator.support_vectors_
    bounds = list(zip(vectors.indptr[:-1], vectors.indptr[1:], strict=True))
    reversed_rows = sp.csr_matrix(
        (np.concatenate([vectors.data[a:b][::-1] for a, b in bounds]),
         np.concatenate([vectors.indices[a:b][::-1] for a, b in bounds]), vectors.indptr),
        shape=vectors.shape,
    )
    reversed_rows.has_sorted_indices = False
    estimator.support_vectors_ = reversed_rows
    assert format_model(estimator) == dense


def test_precomputed_kernel_of_every_estimator(tmp_path):
    X = _fit_inputs("float64")
    gram = X @ X.T
    for name, estimator in [("SVC", svmx.SVC(kernel="precomputed")),
                            ("NuSVR", svmx.NuSVR(kernel="precomputed")),
                            ("OneClassSVM", svmx.OneClassSVM(kernel="precomputed", nu=0.4))]:
        estimator.fit(gram) if name == "OneClassSVM" else estimator.fit(gram, X[:, 0] > 0)
        ours, theirs = tmp_path / f"{name}.model", tmp_path / f"{name}.libsvm"
        save_model(estimator, ours)
        svmutil.svm_save_model(str(theirs), svmutil.svm_load_model(str(ours)))
        assert ours.read_bytes() == theirs.read_bytes()
        lines = ours.read_text().split("SV\n")[1].splitlines(keepends=True)
        assert [line.split()[-1] for line in lines] == [f"0:{i + 1}" for i in estimator.support_]
        assert all(line.endswith(" \n") for line in lines)


def test_csr_model_with_a_million_columns_is_streamed():
    rng = np.random.default_rng(0)
    n_rows, n_columns = 40, 1_000_000
    X = sp.random(n_rows, n_columns, density=2e-5, format="csr", random_state=1)
    X = sp.csr_matrix(sp.hstack([X, sp.csr_matrix(rng.normal(size=(n_rows, 1)))]))
    y = np.where(X[:, -1].toarray().ravel() > 0, 1, -1)
    model = svmx.SVC(kernel="linear").fit(X, y)
    tracemalloc.start()
    try:
        text = format_model(model)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # a dense copy of the support vectors would take n_SV * 8 MB
    assert peak < 16 * 2**20
    assert text.count("\n") == 8 + model.support_.size
    assert f" {n_columns + 1}:" in text


def test_old_svmx_files_with_17_digit_features_still_load(tmp_path):
    """svmx wrote %.17g feature values and no trailing spaces before LIBSVM's format."""
    old = (
        "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.25\n"
        "label 1 -1\nnr_sv 1 1\nSV\n1 1:0.33333333333333331 3:2\n-1 2:-0.10000000000000001\n"
    )
    path = tmp_path / "old.model"
    path.write_text(old)
    model = load_model(path)
    assert model.support_vectors_[0, 0] == 1.0 / 3.0
    assert model.support_vectors_[1, 1] == -0.1
    assert format_model(model).split("SV\n")[1] == "1 1:0.33333333 3:2 \n-1 2:-0.1 \n"


def test_negative_zero_and_formats_match_c_printf():
    # Python's %-formatting with 'g' is C's printf for finite doubles, negative zero included.
    assert f"{-0.0:.17g}" == "-0" and f"{-0.0:.8g}" == "-0"
    assert f"{1e-300:.8g}" == "1e-300" and f"{123456789.0:.8g}" == "1.2345679e+08"
    assert f"{0.1:.17g}" == "0.10000000000000001"


class _Interrupted(Exception):
    pass


@pytest.fixture
def failing_writer(monkeypatch):
    """Make the support-vector lines fail after the first few, as a crash mid-save would."""
    original = _model_writer._support_vector_lines

    def lines_then_fail(estimator, layout):
        for count, line in enumerate(original(estimator, layout)):
            if count == 3:
                raise _Interrupted("stopped mid-way")
            yield line

    monkeypatch.setattr(_model_writer, "_support_vector_lines", lines_then_fail)
    monkeypatch.setattr(_model_writer, "_LINES_PER_WRITE", 1)  # really write partial lines


def test_interrupted_save_keeps_the_old_file(tmp_path, failing_writer):
    path = tmp_path / "model.txt"
    path.write_text("the old model\n")
    model = svmx.SVC().fit(_fit_inputs("float64"), np.arange(60) % 2)
    with pytest.raises(_Interrupted):
        save_model(model, path)
    assert path.read_text() == "the old model\n"
    assert sorted(os.listdir(tmp_path)) == ["model.txt"]  # no temporary left behind


def test_interrupted_first_save_leaves_no_file(tmp_path, failing_writer):
    model = svmx.SVR().fit(_fit_inputs("float64"), np.arange(60.0))
    with pytest.raises(_Interrupted):
        save_model(model, tmp_path / "model.txt")
    assert os.listdir(tmp_path) == []


def test_save_replaces_the_file_with_ordinary_permissions(tmp_path):
    path = tmp_path / "model.txt"
    path.write_text("old\n")
    model = svmx.SVR().fit(_fit_inputs("float64"), np.arange(60.0))
    save_model(model, path)
    assert path.read_text() == format_model(model)
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert sorted(os.listdir(tmp_path)) == ["model.txt"]
    with pytest.raises(FileNotFoundError):
        save_model(model, tmp_path / "missing" / "model.txt")
