"""load_svmlight_file: accepted syntax, sources, options, and one clear error per malformed line."""

import bz2
import gzip
import io
import pathlib
import re

import numpy as np
import pytest
import scipy.sparse as sp

from svmx.datasets import load_svmlight_file, load_svmlight_files


def test_exact_values_and_types():
    X, y = load_svmlight_file(b"+1 1:0.5 3:-2\n-1.0 2:1e3\n1e0\n")
    assert sp.isspmatrix_csr(X) and X.dtype == np.float64 and y.dtype == np.float64
    assert X.toarray().tolist() == [[0.5, 0.0, -2.0], [0.0, 1000.0, 0.0], [0.0, 0.0, 0.0]]
    assert y.tolist() == [1.0, -1.0, 1.0]


def test_comments_blanks_crlf_tabs_and_qid():
    content = (
        b"# a full-line comment\r\n"
        b"\r\n"
        b"  2 qid:7 1:1\t3:3   # trailing comment 9:9\r\n"
        b"   \t \n"
        b"-3 2:2#no blank before the comment\n"
        b"4"
    )
    X, y = load_svmlight_file(content)
    assert y.tolist() == [2.0, -3.0, 4.0]
    assert X.toarray().tolist() == [[1.0, 0.0, 3.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0]]


def test_float32_values_are_rounded_once():
    X, _ = load_svmlight_file(b"1 1:0.1\n", dtype=np.float32)
    assert X.dtype == np.float32 and X[0, 0] == np.float32(0.1)


def test_zero_based_auto_true_and_false():
    X, _ = load_svmlight_file(b"1 0:1 2:3\n")  # index 0 present: zero-based
    assert X.toarray().tolist() == [[1.0, 0.0, 3.0]]
    X, _ = load_svmlight_file(b"1 1:1 2:3\n")  # no index 0: one-based
    assert X.toarray().tolist() == [[1.0, 3.0]]
    X, _ = load_svmlight_file(b"1 1:1 2:3\n", zero_based=True)
    assert X.toarray().tolist() == [[0.0, 1.0, 3.0]]
    with pytest.raises(ValueError, match=r"<bytes>, line 2: feature index 0 in a one-based"):
        load_svmlight_file(b"1 1:1\n1 0:1\n", zero_based=False)


def test_n_features_widens_and_rejects_too_small():
    X, _ = load_svmlight_file(b"1 2:1\n", n_features=5)
    assert X.shape == (1, 5)
    with pytest.raises(ValueError, match="n_features=1 is too small: the data uses 2 features"):
        load_svmlight_file(b"1 2:1\n", n_features=1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"zero_based": "yes"}, "zero_based must be"),
        ({"n_features": -1}, "n_features must be"),
        ({"dtype": np.int32}, "dtype must be float32 or float64"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        load_svmlight_file(b"1 1:1\n", **options)


def test_sources_path_pathlike_file_object_and_compressed(tmp_path):
    content = b"1 1:2\n-1 2:4\n"
    plain = tmp_path / "plain.txt"
    plain.write_bytes(content)
    (tmp_path / "data.gz").write_bytes(gzip.compress(content))
    (tmp_path / "data.bz2").write_bytes(bz2.compress(content))
    sources = [str(plain), plain, io.BytesIO(content), bytearray(content),
               tmp_path / "data.gz", str(tmp_path / "data.bz2")]
    for source in sources:
        X, y = load_svmlight_file(source)
        assert X.toarray().tolist() == [[2.0, 0.0], [0.0, 4.0]] and y.tolist() == [1.0, -1.0]


def test_text_file_object_and_other_types_are_refused():
    with pytest.raises(TypeError, match="binary mode"):
        load_svmlight_file(io.StringIO("1 1:1\n"))
    with pytest.raises(TypeError, match="f must be a path, a binary file object or bytes"):
        load_svmlight_file(42)


def test_missing_file_raises_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_svmlight_file(tmp_path / "absent")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"1 1:1\n1:2 3:4\n", "line 2: missing label (the line starts with the feature '1:2')"),
        (b"1 1:1\nabc 1:2\n", "line 2: could not read the label 'abc' as a number"),
        (b"1 1:1\n\n1 1:2 5\n", "line 3: malformed feature '5' (expected index:value)"),
        (b"1 x:2\n", "line 1: malformed feature index in 'x:2'"),
        (b"1 -1:2\n", "line 1: malformed feature index in '-1:2'"),
        (b"1 1:\n", "line 1: could not read the value of feature '1:'"),
        (b"1 1:2.5.5\n", "line 1: could not read the value of feature '1:2.5.5'"),
        (b"1 1: 2\n", "line 1: could not read the value of feature '1:'"),
        (b"1 7:1 5:1\n", "line 1: feature indices must be ascending (got 5 after 7)"),
        (b"1 5:1 5:1\n", "line 1: feature indices must be ascending (got 5 after 5)"),
        (b"1 qid:x 1:1\n", "line 1: malformed query id 'qid:x'"),
        (b"1 1:1\n1 2:\x00\n", "line 2: contains a NUL byte"),
        (b"1 1:1\n\xff\xfe\x89PNG 1:1\n", "line 2: could not read the label '\\xff\\xfe\\x89PNG'"),
        (b"1 99999999999999999999:1\n", "line 1: malformed feature index"),
    ],
)
def test_malformed_lines_name_the_line(content, message):
    with pytest.raises(ValueError, match="^" + re.escape(f"<bytes>, {message}")):
        load_svmlight_file(content)


def test_error_names_the_file(tmp_path):
    path = tmp_path / "heart_scale"
    path.write_bytes(b"+1 1:1\n" * 16 + b"+1 7:1 5:2\n")
    with pytest.raises(ValueError) as error:
        load_svmlight_file(str(path))
    assert str(error.value) == (
        f"{path}, line 17: feature indices must be ascending (got 5 after 7)"
    )


def test_empty_input_gives_empty_matrix():
    X, y = load_svmlight_file(b"")
    assert X.shape == (0, 0) and y.shape == (0,)
    X, y = load_svmlight_file(b"# only a comment\n", n_features=3)
    assert X.shape == (0, 3)


def test_load_files_share_width_and_base():
    X1, y1, X2, y2 = load_svmlight_files([b"1 1:1 4:4\n", b"2 0:5\n"])
    # index 0 in the second file makes both zero-based
    assert X1.shape == X2.shape == (1, 5)
    assert X1.toarray().tolist() == [[0.0, 1.0, 0.0, 0.0, 4.0]]
    assert X2.toarray().tolist() == [[5.0, 0.0, 0.0, 0.0, 0.0]]
    assert (y1.tolist(), y2.tolist()) == ([1.0], [2.0])
    with pytest.raises(TypeError, match="files must be a list"):
        load_svmlight_files("a9a")


def test_explicit_zero_values_are_kept_as_read():
    X, _ = load_svmlight_file(b"1 1:0 2:1\n")
    assert X.nnz == 2 and X.toarray().tolist() == [[0.0, 1.0]]


def test_pathlib_name_in_error(tmp_path):
    path = pathlib.Path(tmp_path) / "bad"
    path.write_bytes(b"1 1:x\n")
    with pytest.raises(ValueError, match="^" + re.escape(f"{path}, line 1:")):
        load_svmlight_file(path)


def test_finite_refuses_infinite_and_nan_numbers_by_line():
    from svmx.datasets import load_svmlight_file, load_svmlight_files

    text = b"1 1:1\n\n# comment\n-1 1:2 3:inf\nnan 2:1\n"
    X, y = load_svmlight_file(text)  # read as LIBSVM reads them by default
    assert np.isinf(X.data).sum() == 1 and np.isnan(y).sum() == 1
    with pytest.raises(ValueError, match=r"<bytes>, line 4: '3:inf' is not a finite number"):
        load_svmlight_file(text, finite=True)
    with pytest.raises(ValueError, match=r"line 2: 'nan' is not a finite number"):
        load_svmlight_files([b"1 1:1\n", b"1 1:2\nnan 1:1\n"], finite=True)
    with pytest.raises(ValueError, match=r"line 1: '1:1e400'"):
        load_svmlight_file(b"1 1:1e400\n", finite=True)
    assert load_svmlight_file(b"1 1:1e300\n", finite=True)[0].data[0] == 1e300


def test_finite_refuses_a_value_beyond_float32_when_reading_float32():
    text = b"1 1:1\n-1 2:1e39\n"
    with pytest.raises(ValueError, match=r"<bytes>, sample 2: 1e\+39 is beyond float32's range"):
        load_svmlight_file(text, dtype=np.float32, finite=True)
    # Without finite=True the value is infinite, as a float32 cast makes it (no warning).
    assert np.isinf(load_svmlight_file(text, dtype=np.float32)[0].toarray()[1, 1])
    assert load_svmlight_file(text, finite=True)[0].toarray()[1, 1] == 1e39


@pytest.mark.parametrize("text", [b"0x10 1:1\n", b"1 1:0x2\n", b"1 1:nan(1)\n", b"1 1:0X1p3\n"])
def test_hexadecimal_and_nan_payload_spellings_are_refused(text):
    """strtod reads them; scikit-learn's loader and LIBSVM's data files have none."""
    with pytest.raises(ValueError, match="line 1: could not read"):
        load_svmlight_file(text)


def test_numbers_are_read_in_the_c_locale_whatever_the_program_set(tmp_path):
    """A program that sets a decimal-comma LC_NUMERIC (de_DE) read '0.5' as 0 and refused
    heart_scale; the reader now uses the "C" locale."""
    import shutil
    import subprocess
    import sys

    localedef = shutil.which("localedef")
    if localedef is None:
        pytest.skip("localedef (glibc's) is not installed")
    made = subprocess.run([localedef, "-i", "de_DE", "-f", "UTF-8",
                           str(tmp_path / "de_DE.UTF-8")], capture_output=True)
    if made.returncode not in (0, 1) or not (tmp_path / "de_DE.UTF-8").exists():
        pytest.skip("the de_DE locale's source is not installed (Debian: apt-get install "
                    "locales)")
    script = (
        "import locale; locale.setlocale(locale.LC_ALL, 'de_DE.UTF-8')\n"
        "from svmx.datasets import load_svmlight_file\n"
        "X, y = load_svmlight_file(b'1.5 1:0.5 2:1e-3\\n')\n"
        "print(X.toarray().tolist(), y.tolist())\n"
        "try:\n"
        "    load_svmlight_file(b'1 1:0,5\\n')\n"
        "except ValueError:\n"
        "    print('refused')\n")
    import os

    import svmx

    # The svmx under test (an installed wheel, or a build in place), not a source tree in
    # the working directory.
    where = os.path.dirname(os.path.dirname(os.path.abspath(svmx.__file__)))
    path = os.pathsep.join([where, os.environ.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=tmp_path, env={**os.environ, "LOCPATH": str(tmp_path),
                                               "PYTHONPATH": path})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["[[0.5, 0.001]] [1.5]", "refused"]
