"""save_model / load_model: exact text, svmx round trips, and clear errors for bad files."""

import re

import numpy as np
import pytest

import svmx
from svmx.io import format_model, load_model, read_model_file, save_model

X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0], [0.5, 2.5], [2.5, 0.0]])
Y3 = np.array([1, 1, 2, 2, 3, 3])


def _fit(estimator, y=None):
    return estimator.fit(X) if y is None else estimator.fit(X, y)


def test_exact_text_of_a_binary_linear_model():
    # As LIBSVM's svm_save_model writes it: every number on an SV line followed by a space.
    model = svmx.SVC(kernel="linear").fit([[0.0], [2.0]], [0, 1])
    assert format_model(model) == (
        "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho -1\nlabel 0 1\n"
        "nr_sv 1 1\nSV\n0.5 \n-0.5 1:2 \n"
    )


@pytest.mark.parametrize(
    ("estimator", "expected"),
    [
        (svmx.SVC(kernel="poly", degree=2, gamma=0.5, coef0=1.0),
         ["kernel_type polynomial", "degree 2", "gamma 0.5", "coef0 1", "nr_class 3"]),
        (svmx.NuSVC(kernel="sigmoid", gamma=0.25, coef0=-1.0),
         ["svm_type nu_svc", "kernel_type sigmoid", "gamma 0.25", "coef0 -1"]),
        (svmx.OneClassSVM(gamma=2.0), ["svm_type one_class", "kernel_type rbf", "gamma 2",
                                       "nr_class 2"]),
        (svmx.SVR(kernel="linear"), ["svm_type epsilon_svr", "kernel_type linear", "nr_class 2"]),
        (svmx.NuSVR(gamma=1.0), ["svm_type nu_svr", "gamma 1"]),
    ],
)
def test_header_lines_as_libsvm_writes_them(estimator, expected):
    y = None if isinstance(estimator, svmx.OneClassSVM) else (
        Y3 if hasattr(estimator, "break_ties") else X[:, 0])
    header = format_model(_fit(estimator, y)).split("\nSV\n")[0].splitlines()
    for line in expected:
        assert line in header
    is_classifier = hasattr(estimator, "break_ties")
    assert any(line.startswith("label ") for line in header) == is_classifier
    assert any(line.startswith("nr_sv ") for line in header) == is_classifier
    kernel = estimator.kernel
    assert any(line.startswith("degree") for line in header) == (kernel == "poly")
    assert any(line.startswith("coef0") for line in header) == (kernel in ("poly", "sigmoid"))
    assert any(line.startswith("gamma") for line in header) == (kernel != "linear")


@pytest.mark.parametrize(
    ("estimator", "y"),
    [
        (svmx.SVC(gamma=0.7, probability=True, random_state=0), Y3),
        (svmx.SVC(kernel="poly", gamma=0.3, coef0=0.5, degree=2), Y3 % 2),
        (svmx.NuSVC(nu=0.5, gamma=0.4), Y3),
        (svmx.OneClassSVM(nu=0.5, gamma=0.5), None),
        (svmx.SVR(kernel="sigmoid", gamma=0.1, C=5.0), X[:, 0] - X[:, 1]),
        (svmx.NuSVR(kernel="linear"), X[:, 0] - X[:, 1]),
    ],
)
def test_round_trip_predicts_exactly_the_same(tmp_path, estimator, y):
    _fit(estimator, y)
    path = tmp_path / "model.txt"
    save_model(estimator, path)
    loaded = load_model(path, n_features=X.shape[1])
    assert type(loaded) is type(estimator)
    grid = np.random.default_rng(0).uniform(-1, 4, size=(50, 2))
    np.testing.assert_array_equal(loaded.predict(grid), estimator.predict(grid))
    if hasattr(estimator, "decision_function"):
        np.testing.assert_array_equal(loaded.decision_function(grid),
                                      estimator.decision_function(grid))
    if getattr(estimator, "probability", False):
        np.testing.assert_array_equal(loaded.predict_proba(grid), estimator.predict_proba(grid))
    np.testing.assert_array_equal(loaded.support_vectors_, estimator.support_vectors_)
    np.testing.assert_array_equal(loaded.dual_coef_, estimator.dual_coef_)
    np.testing.assert_array_equal(loaded.intercept_, estimator.intercept_)
    np.testing.assert_array_equal(loaded.support_, np.arange(estimator.support_.size))
    assert loaded.fit_status_ == 0 and loaded.n_features_in_ == 2
    # and a second save writes the same text
    assert format_model(loaded) == format_model(estimator)


def test_precomputed_kernel_keeps_serial_numbers(tmp_path):
    gram = X @ X.T
    model = svmx.SVC(kernel="precomputed").fit(gram, Y3 % 2)
    path = tmp_path / "model.txt"
    save_model(model, path)
    lines = path.read_text().split("SV\n")[1].splitlines()
    assert [line.split()[-1] for line in lines] == [f"0:{i + 1}" for i in model.support_]
    loaded = load_model(path, n_features=X.shape[0])
    np.testing.assert_array_equal(loaded.support_, model.support_)
    np.testing.assert_array_equal(loaded.predict(gram), model.predict(gram))


def test_n_features_defaults_to_largest_index_and_is_checked(tmp_path):
    model = svmx.SVR(kernel="linear").fit(np.c_[X, np.zeros(len(X))], X[:, 0])
    path = tmp_path / "model.txt"
    save_model(model, path)
    assert load_model(path).n_features_in_ == 2  # the zero column is never written
    assert load_model(path, n_features=5).support_vectors_.shape[1] == 5
    with pytest.raises(ValueError, match="n_features=1 is smaller than the largest feature index"):
        load_model(path, n_features=1)


def test_a_wider_X_than_the_file_tells_points_to_n_features(tmp_path):
    # The last feature is 0 in every support vector, so the file never names it.
    X4 = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    path = tmp_path / "model.txt"
    save_model(svmx.SVC(kernel="linear").fit(X4, [0, 1, 0, 1]), path)
    with pytest.raises(ValueError, match=r"X has 3 features, but SVC is expecting 2 .*"
                                         r"load_model\(path, n_features=3\)"):
        load_model(path).predict(X4)
    assert load_model(path, n_features=3).predict(X4).tolist() == [0, 1, 0, 1]
    with pytest.raises(ValueError, match=r"expecting 2 features as input\.$"):
        load_model(path).predict(X4[:, :1])  # narrower: no hint
    refit = load_model(path).fit(X4[:, :2], [0, 1, 0, 1])  # a fit knows its width
    with pytest.raises(ValueError, match=r"expecting 2 features as input\.$"):
        refit.predict(X4)


def test_what_cannot_be_saved(tmp_path):
    path = tmp_path / "model.txt"
    with pytest.raises(ValueError, match="LIBSVM model files need numeric class labels"):
        save_model(svmx.SVC().fit(X, ["a", "a", "b", "b", "c", "c"]), path)
    with pytest.raises(ValueError, match="32-bit integers"):
        save_model(svmx.SVC().fit(X, Y3 * 2**40), path)
    with pytest.raises(ValueError, match="callable kernel"):
        save_model(svmx.SVC(kernel=lambda a, b: a @ b.T).fit(X, Y3), path)
    with pytest.raises(ValueError, match="not fitted yet"):
        save_model(svmx.SVC(), path)
    with pytest.raises(TypeError, match="save_model needs one of"):
        save_model(object(), path)
    assert not path.exists()


GOOD = (
    "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.1\n"
    "label 1 -1\nnr_sv 1 1\nSV\n1 1:0.5 2:1\n-1 2:-1\n"
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace("gamma 0.5", "gamma x"), "line 3: could not read gamma 'x' as a number"),
        (GOOD.replace("gamma 0.5", "gamma"), "line 3: gamma needs 1 value(s)"),
        (GOOD.replace("rho 0.1", "rho 0.1 0.2"), "line 6: rho has 2 values; expected 1"),
        (GOOD.replace("nr_sv 1 1", "nr_sv 1 2"), "line 8: nr_sv does not add up to total_sv = 2"),
        (GOOD.replace("svm_type c_svc", "svm_type c_svm"), "line 1: unknown svm_type 'c_svm'"),
        (GOOD.replace("kernel_type rbf", "kernel_type gauss"), "line 2: unknown kernel_type"),
        (GOOD.replace("label 1 -1\n", ""), "line 8: a c_svc model needs a label line"),
        (GOOD.replace("rho 0.1\n", ""), "line 8: the header has no rho line"),
        ("bogus 1\n" + GOOD, "line 1: unknown text in the model header: 'bogus 1'"),
        (GOOD.split("SV\n")[0], "line 8: the file ends before the 'SV' line (truncated?)"),
        (GOOD.rsplit("-1 2:-1\n", 1)[0],
         "line 10: expected 2 support vectors after 'SV', found 1 (truncated?)"),
        (GOOD + "1 1:1\n", "line 12: more support vectors than total_sv = 2"),
        (GOOD.replace("-1 2:-1", "-1 2-1"), "line 11: malformed feature '2-1'"),
        (GOOD.replace("-1 2:-1", "-1 2:y"), "line 11: could not read the feature value 'y'"),
        (GOOD.replace("-1 2:-1", "-1 b:1"), "line 11: could not read the feature index 'b'"),
        (GOOD.replace("-1 2:-1", "q 2:1"), "line 11: could not read the coefficient 'q'"),
        (GOOD.replace("-1 2:-1", "-1 -2:1"), "line 11: negative feature index in '-2:1'"),
        (GOOD.replace("label 1 -1", "label 1 \x00"), "line 7: not a LIBSVM model file (NUL byte)"),
    ],
)
def test_malformed_files_name_the_line(tmp_path, text, message):
    path = tmp_path / "bad.model"
    path.write_text(text)
    with pytest.raises(ValueError, match="^" + re.escape(f"{path}, {message}")):
        load_model(path)


def test_binary_garbage_and_good_file(tmp_path):
    path = tmp_path / "garbage.model"
    path.write_bytes(b"svm_type c_svc\n\x89PNG\xff\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}, line 2: not a LIBSVM model file")):
        load_model(path)
    path.write_text(GOOD.replace("\n", "\r\n"))  # CRLF files read too
    model = read_model_file(path)
    assert model["label"].tolist() == [1, -1] and model["coef"].tolist() == [[1.0, -1.0]]
    assert load_model(path).predict([[0.5, 1.0]]).tolist() == [1]


@pytest.mark.parametrize("sort_classes", [False, True])
def test_sparse_support_vectors_hold_the_dense_values(tmp_path, sort_classes):
    """load_model(sparse=True): CSR support vectors, the dense matrix's values, the same
    predictions (svmx predict reads wide text models this way)."""
    model = svmx.SVC(gamma=0.7).fit(np.c_[X, np.zeros(len(X))], Y3)
    path = tmp_path / "model.txt"
    save_model(model, path, class_order=[3, 1, 2])
    dense = load_model(path, n_features=4, sort_classes=sort_classes)
    sparse = load_model(path, n_features=4, sort_classes=sort_classes, sparse=True)
    assert sparse.support_vectors_.format == "csr"
    assert sparse.support_vectors_.has_sorted_indices
    assert sparse.support_vectors_.shape == dense.support_vectors_.shape == (model.support_.size, 4)
    np.testing.assert_array_equal(sparse.support_vectors_.toarray(), dense.support_vectors_)
    assert sparse.support_vectors_.nnz == np.count_nonzero(dense.support_vectors_)
    grid = np.random.default_rng(1).uniform(-1, 4, size=(40, 4))
    np.testing.assert_array_equal(sparse.predict(grid), dense.predict(grid))
    np.testing.assert_allclose(sparse.decision_function(grid), dense.decision_function(grid),
                               rtol=1e-12, atol=1e-12)
    assert format_model(sparse) == format_model(dense)


def test_sparse_support_vectors_of_an_irregular_file(tmp_path):
    """Unordered features, a feature written twice (the last value wins, as in the dense
    matrix), an explicit zero and an empty support vector."""
    path = tmp_path / "model.txt"
    path.write_text("svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 3\nrho 0\n"
                    "label 1 -1\nnr_sv 2 1\nSV\n1 3:1 1:2 \n0.5 2:5 2:7 4:0 \n-1.5 \n")
    dense = load_model(path).support_vectors_
    sparse = load_model(path, sparse=True).support_vectors_
    np.testing.assert_array_equal(sparse.toarray(), dense)
    assert dense.tolist() == [[2.0, 0.0, 1.0, 0.0], [0.0, 7.0, 0.0, 0.0], [0.0] * 4]
    assert sparse.nnz == 3 and sparse.has_sorted_indices
    sparse.sort_indices()
    np.testing.assert_array_equal(sparse.indices, [0, 2, 1])


def test_labels_read_back_as_integers(tmp_path):
    # The file stores C ints: bool or float labels come back as int64 classes (documented
    # in svmx.io._model_reader), which predict returns.
    X = np.array([[0.0, 0.0], [0.1, 0.2], [1.0, 1.0], [0.9, 1.1]])
    for labels in (np.array([False, False, True, True]), np.array([0.0, 0.0, 1.0, 1.0])):
        path = tmp_path / "model"
        save_model(svmx.SVC(kernel="linear").fit(X, labels), path)
        loaded = load_model(path)
        assert loaded.classes_.dtype == np.int64 and loaded.classes_.tolist() == [0, 1]
        assert loaded.predict(X).tolist() == [0, 0, 1, 1]


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="POSIX file types")
def test_saving_over_a_link_a_private_file_or_a_pipe_writes_where_svm_train_writes(tmp_path):
    import os
    import stat
    import threading

    model = svmx.SVC(kernel="linear").fit([[0.0], [2.0]], [0, 1])
    text = format_model(model)
    private = tmp_path / "private"
    private.write_text("old")
    private.chmod(0o600)
    save_model(model, private)
    assert private.read_text() == text and stat.S_IMODE(private.stat().st_mode) == 0o600
    target, link = tmp_path / "v1", tmp_path / "current"
    target.write_text("old")
    link.symlink_to(target)
    save_model(model, link)  # the link stays and the file it names gets the model
    assert link.is_symlink() and target.read_text() == text
    pipe, received = tmp_path / "pipe", []
    os.mkfifo(pipe)
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()))
    reader.start()
    save_model(model, pipe)
    reader.join(timeout=30)
    assert received == [text] and stat.S_ISFIFO(pipe.stat().st_mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["current", "pipe", "private",
                                                                "v1"]


def test_svm_trains_single_label_model_is_refused_by_name(tmp_path):
    """svm-train writes nr_class 1, total_sv 0 and a 'rho' line without a value for training
    data of one label; the reader said 'rho needs at least one value(s)'."""
    path = tmp_path / "one.model"
    path.write_text("svm_type c_svc\nkernel_type rbf\ngamma 0.076923076923076927\nnr_class 1\n"
                    "total_sv 0\nrho\nlabel 1\nnr_sv 0\nSV\n")
    with pytest.raises(ValueError, match=r"one.model, line 4: nr_class 1: svm-train's model "
                                         r"of training data with a single label"):
        load_model(path)
