"""``svmx scale``: LIBSVM's svm-scale, with its range file format.

svm-scale maps each feature linearly from its [min, max] over the data, implicit zeros
included, to [lower, upper]; a constant feature is dropped. The range file it saves (``-s``)
and restores (``-r``) is::

    y                   <- only with -y
    y_lower y_upper
    y_min y_max
    x
    lower upper
    index min max       <- one line per non-constant feature
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from svmx._cli._options import CommandParser
from svmx.datasets import load_svmlight_file

__all__ = ["Ranges", "feature_ranges", "make_parser", "read_ranges", "run", "write_ranges"]

DESCRIPTION = """\
Scale each feature of a LIBSVM data file linearly to [lower, upper] (and optionally the
labels to [y_lower, y_upper]) and print the result, as LIBSVM's svm-scale does. Save the
scaling with -s and apply the same scaling to other data (e.g. a test set) with -r; the range
file is svm-scale's, so either tool reads the other's."""


@dataclass
class Ranges:
    """A scaling: target intervals and the per-feature (and label) ranges they map from."""

    lower: float
    upper: float
    feature_min: np.ndarray  # index 0 unused: features are 1-based
    feature_max: np.ndarray
    y_lower: float | None = None
    y_upper: float | None = None
    y_min: float = 0.0
    y_max: float = 0.0

    @property
    def scales_y(self) -> bool:
        return self.y_lower is not None


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


def _dense_min_max(X: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Per-column min and max counting implicit zeros, with a 1-based layout."""
    n_rows, n_columns = X.shape
    csc = X.tocsc()
    low = np.zeros(n_columns + 1)
    high = np.zeros(n_columns + 1)
    for column in range(n_columns):
        values = csc.data[csc.indptr[column]:csc.indptr[column + 1]]
        if values.size == 0:
            continue
        low[column + 1], high[column + 1] = values.min(), values.max()
        if values.size < n_rows:  # implicit zeros
            low[column + 1] = min(low[column + 1], 0.0)
            high[column + 1] = max(high[column + 1], 0.0)
    return low, high


def feature_ranges(X: sp.csr_matrix, y: np.ndarray, lower: float, upper: float,
                   y_limits: tuple[float, float] | None) -> Ranges:
    """The ranges svm-scale computes from data.

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [3.0, 2.0]]))
    >>> r = feature_ranges(X, np.array([1.0, 2.0]), -1.0, 1.0, None)
    >>> r.feature_min[1:].tolist(), r.feature_max[1:].tolist()
    ([1.0, 0.0], [3.0, 2.0])
    """
    low, high = _dense_min_max(X)
    ranges = Ranges(lower, upper, low, high)
    if y_limits is not None and y.size:
        ranges.y_lower, ranges.y_upper = y_limits
        ranges.y_min, ranges.y_max = float(y.min()), float(y.max())
    return ranges


def write_ranges(ranges: Ranges, path: str) -> None:
    """Save ``ranges`` in svm-scale's range file format (17 significant digits)."""
    lines = []
    if ranges.scales_y:
        lines += ["y", f"{ranges.y_lower:.17g} {ranges.y_upper:.17g}",
                  f"{ranges.y_min:.17g} {ranges.y_max:.17g}"]
    lines += ["x", f"{ranges.lower:.17g} {ranges.upper:.17g}"]
    for index in range(1, ranges.feature_min.size):
        low, high = ranges.feature_min[index], ranges.feature_max[index]
        if low != high:
            lines.append(f"{index} {low:.17g} {high:.17g}")
    with open(path, "w", encoding="ascii", newline="\n") as handle:
        handle.write("\n".join(lines) + "\n")


def read_ranges(path: str, n_features: int) -> tuple[Ranges, list[int]]:
    """Read svm-scale's range file.

    Returns the ranges and the features of the data (1 .. n_features) that the file does not
    list: svm-scale drops them.
    """
    with open(path, encoding="ascii", errors="replace") as handle:
        lines = [line.split() for line in handle]
    lines = [line for line in lines if line]

    def numbers(position: int, count: int) -> list[float]:
        if position >= len(lines) or len(lines[position]) != count:
            raise ValueError(f"{path}, line {position + 1}: expected {count} numbers")
        try:
            return [float(value) for value in lines[position]]
        except ValueError:
            raise ValueError(f"{path}, line {position + 1}: expected {count} numbers") from None

    position = 0
    y_part: list[float] = []
    if lines and lines[0] == ["y"]:
        y_part = numbers(1, 2) + numbers(2, 2)
        position = 3
    if position >= len(lines) or lines[position] != ["x"]:
        raise ValueError(f"{path}, line {position + 1}: expected the line 'x' (not a range file?)")
    lower, upper = numbers(position + 1, 2)
    entries = {}
    for offset in range(position + 2, len(lines)):
        index, low, high = numbers(offset, 3)
        if index != int(index) or index < 1:
            raise ValueError(f"{path}, line {offset + 1}: bad feature index {index:g}")
        entries[int(index)] = (low, high)
    width = max(n_features, max(entries, default=0))
    feature_min = np.zeros(width + 1)
    feature_max = np.zeros(width + 1)
    for index, (low, high) in entries.items():
        feature_min[index], feature_max[index] = low, high
    ranges = Ranges(lower, upper, feature_min, feature_max)
    if y_part:
        ranges.y_lower, ranges.y_upper, ranges.y_min, ranges.y_max = y_part
    return ranges, sorted(set(range(1, n_features + 1)) - set(entries))


def _scale(values: np.ndarray, low: np.ndarray, high: np.ndarray, lower: float,
           upper: float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = lower + (upper - lower) * (values - low) / (high - low)
    scaled = np.where(values == low, lower, scaled)
    return np.where(values == high, upper, scaled)


ROW_BLOCK = 1024


def scaled_lines(X: sp.csr_matrix, y: np.ndarray, ranges: Ranges) -> tuple[list[str], int]:
    """The output lines (in svm-scale's spelling) and their number of non-zero features.

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [3.0, 2.0]]))
    >>> ranges = feature_ranges(X, np.array([1.0, 2.0]), -1.0, 1.0, None)
    >>> scaled_lines(X, np.array([1.0, 2.0]), ranges)
    (['1 1:-1 2:-1 ', '2 1:1 2:1 '], 4)
    """
    width = ranges.feature_min.size - 1
    X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], width))
    low, high = ranges.feature_min[1:], ranges.feature_max[1:]
    kept = np.flatnonzero(low != high)
    labels = y
    if ranges.scales_y:
        labels = _scale(y, np.full(y.size, ranges.y_min), np.full(y.size, ranges.y_max),
                        ranges.y_lower, ranges.y_upper)
    lines, nonzeros = [], 0
    for start in range(0, X.shape[0], ROW_BLOCK):
        block = X[start:start + ROW_BLOCK].toarray()[:, kept]
        scaled = _scale(block, low[kept], high[kept], ranges.lower, ranges.upper)
        for offset, row in enumerate(scaled):
            nonzero = np.flatnonzero(row)
            nonzeros += nonzero.size
            features = "".join(f"{kept[i] + 1}:{row[i]:g} " for i in nonzero)
            lines.append(f"{labels[start + offset]:.17g} {features}")
    return lines, nonzeros


def run(args: argparse.Namespace) -> int:
    if args.save_filename and args.restore_filename:
        raise ValueError("cannot use -r and -s simultaneously")
    if not args.lower < args.upper:
        raise ValueError("inconsistent lower/upper specification")
    if args.y_limits is not None and not args.y_limits[0] < args.y_limits[1]:
        raise ValueError("inconsistent y_lower/y_upper specification")
    X, y = load_svmlight_file(args.data_filename, zero_based=False)
    if args.restore_filename:
        ranges, missing = read_ranges(args.restore_filename, X.shape[1])
        for index in missing:
            if X[:, index - 1].nnz:
                print_warning(f"WARNING: feature index {index} appeared in file "
                              f"{args.data_filename} was not seen in the scaling factor file "
                              f"{args.restore_filename}. The feature is scaled to 0.")
    else:
        ranges = feature_ranges(X, y, args.lower, args.upper,
                                tuple(args.y_limits) if args.y_limits else None)
    if args.save_filename:
        write_ranges(ranges, args.save_filename)
    lines, nonzeros = scaled_lines(X, y, ranges)
    sys.stdout.write("".join(line + "\n" for line in lines))
    if nonzeros > X.nnz:
        print_warning(f"WARNING: original #nonzeros {X.nnz}\n"
                      f"       > new      #nonzeros {nonzeros}\n"
                      "If feature values are non-negative and sparse, use -l 0 rather than the "
                      "default -l -1")
    return 0


def print_warning(message: str) -> None:
    print(message, file=sys.stderr)
