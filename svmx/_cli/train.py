"""``svmx train``: LIBSVM's svm-train."""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from svmx._cli._crossval import fold_predictions, make_folds, report_lines
from svmx._cli._data import build_estimator, is_classifier, read_data
from svmx._cli._options import CommandParser, add_model_options, class_weights
from svmx.io import save_model

__all__ = ["make_parser", "run"]

DESCRIPTION = """\
Train a support vector machine on a LIBSVM data file and save the model in LIBSVM's format
(svm-train's options and defaults). With -v n, report n-fold cross-validation instead."""


def make_parser(prog: str) -> argparse.ArgumentParser:
    parser = CommandParser(prog=prog, description=DESCRIPTION, add_help=False,
                           allow_abbrev=False,
                           usage="%(prog)s [options] training_set_file [model_file]")
    add_model_options(parser)
    parser.add_argument("-v", dest="n_folds", type=int, default=None, metavar="n",
                        help="n-fold cross validation mode")
    parser.add_argument("-q", dest="quiet", action="store_true", help="quiet mode (no outputs)")
    parser.add_argument("--help", action="help", help="show this help message and exit")
    parser.add_argument("training_set_file", help="LIBSVM data file")
    parser.add_argument("model_file", nargs="?",
                        help="where to save the model (default: training_set_file's name "
                             "with .model appended, in the current directory)")
    return parser


def _warn(message: str) -> None:
    print(message, file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    precomputed = args.kernel_type == 4
    X, y = read_data(args.training_set_file, precomputed=precomputed)
    if X.shape[0] == 0:
        raise ValueError(f"{args.training_set_file}: no data")
    if precomputed and X.shape[1] != X.shape[0]:
        raise ValueError(
            f"{args.training_set_file}: with -t 4 each line needs one kernel value per training "
            f"sample ({X.shape[0]}); the largest index is {X.shape[1]}"
        )
    classes = np.unique(y).tolist() if is_classifier(args.svm_type) else []
    estimator = build_estimator(args, X.shape[1], class_weights(args.weights, classes, _warn),
                                verbose=not args.quiet)
    dense = X.toarray()
    if args.n_folds is not None:
        predicted = np.empty_like(y)
        for train, test in make_folds(y, args.n_folds, is_classifier(args.svm_type)):
            predicted[test] = fold_predictions(estimator, dense, y, train, test)
        for line in report_lines(y, predicted, regression=args.svm_type in (3, 4)):
            print(line)
        return 0
    estimator.fit(dense) if args.svm_type == 2 else estimator.fit(dense, y)
    model_file = args.model_file or os.path.basename(args.training_set_file) + ".model"
    # As svm-train, list the classes in order of first appearance: the first wins a tied vote.
    order = None
    if is_classifier(args.svm_type):
        _, first = np.unique(y, return_index=True)
        order = y[np.sort(first)].tolist()
    save_model(estimator, model_file, class_order=order)
    return 0
