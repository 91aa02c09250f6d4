"""``svmx train``: LIBSVM's svm-train."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import numpy as np

from svmx._cli._crossval import fold_predictions, make_folds, report_lines
from svmx._cli._data import (
    build_estimator,
    is_classifier,
    libsvm_class_order,
    name_support_by_serial,
    read_data,
    read_training_gram,
)
from svmx._cli._options import CommandParser, add_model_options, class_weights
from svmx._glibc_rand import GlibcRand
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
    serials = None
    if args.kernel_type == 4:  # the Gram matrix by the lines' serial numbers, as svm-train
        X, y, serials = read_training_gram(args.training_set_file)
    else:
        X, y = read_data(args.training_set_file)
    if X.shape[0] == 0:
        raise ValueError(f"{args.training_set_file}: no data")
    classifier = is_classifier(args.svm_type)
    classes = np.unique(y).tolist() if classifier else []
    # svm-train reads -wi for the classifiers only (silently ignored otherwise).
    weights = class_weights(args.weights if classifier else [], classes, _warn)
    # svm-train's rand(), never seeded: the folds of -v and of -b 1's cross-validations.
    rand = GlibcRand()
    # X stays CSR throughout: the engine trains on sparse rows, as svm-train does.
    if args.n_folds is not None:
        predicted = np.empty_like(y)
        for train, test in make_folds(y, args.n_folds, classifier, rand, _warn):
            estimator = build_estimator(args, X.shape[1], weights, verbose=not args.quiet,
                                        random_state=rand)
            predicted[test] = fold_predictions(estimator, X, y, train, test,
                                               rand if args.probability else None)
        for line in report_lines(y, predicted, regression=args.svm_type in (3, 4)):
            print(line)
        return 0
    estimator = build_estimator(args, X.shape[1], weights, verbose=not args.quiet,
                                random_state=rand)
    model_file = args.model_file or os.path.basename(args.training_set_file) + ".model"
    if not classifier:
        targets = None if args.svm_type == 2 else y
        if args.probability:
            estimator._fit_with_libsvm_probability(X, targets, rand)
            if args.svm_type == 2 and not hasattr(estimator, "prob_density_marks_"):
                _warn("WARNING: number of positive or negative decision values <5; too few "
                      "to do a probability estimation.")
        else:
            estimator.fit(X) if targets is None else estimator.fit(X, targets)
        _save(estimator, model_file, serials)
        return 0
    # svm-train's class order decides each pair's orientation (and so the solver's
    # path and output) and the model file's order (the first class wins a tied vote).
    order = libsvm_class_order(y)
    estimator._fit_in_class_order(X, y, order)
    _save(estimator, model_file, serials, class_order=order)
    return 0


def _save(estimator: Any, model_file: str, serials: Any, class_order: Any = None) -> None:
    if serials is not None:  # a precomputed kernel's support vectors go by serial number
        name_support_by_serial(estimator, serials)
    save_model(estimator, model_file, class_order=class_order)
