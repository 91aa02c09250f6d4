"""``svmx scale``: LIBSVM's svm-scale, with its range file format.

The arithmetic and the range file are :class:`svmx.preprocessing.SvmScaler`'s (one
implementation, in ``svmx/preprocessing/_svm_scale.py``); this module reads the data file,
reports what svm-scale reports and prints the scaled rows in svm-scale's spelling
(labels ``%.17g``, features ``index:%g``, zeros omitted).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import scipy.sparse as sp

from svmx._cli._options import CommandParser
from svmx.datasets import load_svmlight_file
from svmx.preprocessing import SvmScaler
from svmx.preprocessing._svm_scale import RangeFile, feature_min_max, read_range_file

__all__ = ["make_parser", "run", "scaled_lines"]

DESCRIPTION = """\
Scale each feature of a LIBSVM data file linearly to [lower, upper] (and optionally the
labels to [y_lower, y_upper]) and print the result, as LIBSVM's svm-scale does. Save the
scaling with -s and apply the same scaling to other data (e.g. a test set) with -r; the range
file is svm-scale's, so either tool reads the other's."""


def make_parser(prog: str) -> argparse.ArgumentParser:
    parser = CommandParser(prog=prog, description=DESCRIPTION, add_help=False,
                           allow_abbrev=False, usage="%(prog)s [options] data_filename")
    parser.add_argument("-l", dest="lower", type=float, default=-1.0, metavar="lower",
                        help="x scaling lower limit (default -1)")
    parser.add_argument("-u", dest="upper", type=float, default=1.0, metavar="upper",
                        help="x scaling upper limit (default +1)")
    parser.add_argument("-y", dest="y_limits", type=float, nargs=2, default=None,
                        metavar=("y_lower", "y_upper"), help="y scaling limits (default: no "
                                                              "y scaling)")
    parser.add_argument("-s", dest="save_filename", metavar="save_filename",
                        help="save scaling parameters to save_filename")
    parser.add_argument("-r", dest="restore_filename", metavar="restore_filename",
                        help="restore scaling parameters from restore_filename")
    parser.add_argument("--help", action="help", help="show this help message and exit")
    parser.add_argument("data_filename", help="LIBSVM data file")
    return parser


ROW_BLOCK = 1024


def scaled_lines(X: sp.csr_matrix, y: np.ndarray, scaler: SvmScaler) -> tuple[list[str], int]:
    """The output lines (in svm-scale's spelling) and their number of non-zero features.

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [3.0, 2.0]]))
    >>> scaled_lines(X, np.array([1.0, 2.0]), SvmScaler().fit(X))
    (['1 1:-1 2:-1 ', '2 1:1 2:1 '], 4)
    """
    labels = scaler.transform_y(y) if scaler.y_range is not None else y
    lines, nonzeros = [], 0
    for start in range(0, X.shape[0], ROW_BLOCK):
        block = scaler.transform(X[start:start + ROW_BLOCK])
        nonzeros += block.nnz
        for offset in range(block.shape[0]):
            low, high = block.indptr[offset], block.indptr[offset + 1]
            features = "".join(f"{index + 1}:{value:g} " for index, value
                               in zip(block.indices[low:high].tolist(),
                                      block.data[low:high].tolist(), strict=True))
            lines.append(f"{labels[start + offset]:.17g} {features}")
    return lines, nonzeros


def _restore(args: argparse.Namespace, X: sp.csr_matrix) -> SvmScaler:
    """The scaler of the range file; warns, as svm-scale does, about each feature that
    varies in the data but is not in the file (it is scaled to 0)."""
    ranges = read_range_file(args.restore_filename)
    low, high = feature_min_max(X)
    for index in range(1, X.shape[1] + 1):
        if index not in ranges.features and low[index - 1] != high[index - 1]:
            print_warning(f"WARNING: feature index {index} appeared in file "
                          f"{args.data_filename} was not seen in the scaling factor file "
                          f"{args.restore_filename}. The feature is scaled to 0.")
    return SvmScaler.from_range_file(ranges, X.shape[1])


def run(args: argparse.Namespace) -> int:
    if args.save_filename and args.restore_filename:
        raise ValueError("cannot use -r and -s simultaneously")
    if not args.lower < args.upper:
        raise ValueError("inconsistent lower/upper specification")
    if args.y_limits is not None and not args.y_limits[0] < args.y_limits[1]:
        raise ValueError("inconsistent y_lower/y_upper specification")
    X, y = load_svmlight_file(args.data_filename, zero_based=False, finite=True)
    if X.shape[1] == 0:  # no feature at all: one implicit-zero (dropped) column prints the same
        X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], 1))
    if args.restore_filename:
        scaler = _restore(args, X)
    elif X.shape[0] == 0:  # nothing to learn from: the (feature-less) ranges of svm-scale
        scaler = SvmScaler.from_range_file(RangeFile(args.lower, args.upper), 1)
    else:
        y_range = tuple(args.y_limits) if args.y_limits else None
        scaler = SvmScaler(args.lower, args.upper, y_range).fit(X, y)
    if args.save_filename:
        scaler.save_range(args.save_filename)
    width = max(X.shape[1], scaler.n_features_in_)
    X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], width))
    lines, nonzeros = scaled_lines(X, y, scaler)
    sys.stdout.write("".join(line + "\n" for line in lines))
    if nonzeros > X.nnz:
        print_warning(f"WARNING: original #nonzeros {X.nnz}\n"
                      f"       > new      #nonzeros {nonzeros}\n"
                      "If feature values are non-negative and sparse, use -l 0 rather than the "
                      "default -l -1")
    return 0


def print_warning(message: str) -> None:
    print(message, file=sys.stderr)
