"""``svmx predict``: LIBSVM's svm-predict."""

from __future__ import annotations

import argparse

import numpy as np

from svmx._cli._crossval import regression_figures
from svmx._cli._data import fit_width, read_data, widen_model
from svmx._cli._options import CommandParser, int_choice
from svmx.io import load_model

__all__ = ["make_parser", "run"]

DESCRIPTION = """\
Predict the samples of a LIBSVM data file with a LIBSVM model file (from svmx train or
LIBSVM's svm-train), write one prediction per line to output_file, and report the accuracy
(classification) or the mean squared error and squared correlation (regression) against the
file's labels, as svm-predict does."""


def make_parser(prog: str) -> argparse.ArgumentParser:
    parser = CommandParser(prog=prog, description=DESCRIPTION, add_help=False,
                           allow_abbrev=False,
                           usage="%(prog)s [options] test_file model_file output_file")
    parser.add_argument("-b", dest="probability", type=int_choice((0, 1)), default=0,
                        metavar="probability_estimates",
                        help="whether to predict probability estimates, 0 or 1 (default 0); "
                             "for one-class SVM only 0 is supported by svmx")
    parser.add_argument("-q", dest="quiet", action="store_true", help="quiet mode (no outputs)")
    parser.add_argument("--help", action="help", help="show this help message and exit")
    parser.add_argument("test_file", help="LIBSVM data file")
    parser.add_argument("model_file", help="LIBSVM model file")
    parser.add_argument("output_file", help="where to write the predictions")
    return parser


def _predictions(model, X: np.ndarray, probability: bool, info) -> tuple[np.ndarray, list[str]]:
    """Predicted values and the output file's lines."""
    classifier = hasattr(model, "classes_")
    if probability and classifier:
        if np.asarray(model.probA_).size == 0:
            raise ValueError("the model does not support probability estimates (train with -b 1)")
        proba = model.predict_proba(X)
        # svm-predict -b 1 picks the most probable class (first one on ties).
        predicted = model.classes_[np.argmax(proba, axis=1)]
        lines = ["labels " + " ".join(str(label) for label in model.classes_)]
        lines += [
            " ".join([f"{float(label):g}", *(f"{p:g}" for p in row)])
            for label, row in zip(predicted, proba, strict=True)
        ]
        return predicted.astype(np.float64), lines
    if probability and type(model).__name__ == "OneClassSVM":
        raise ValueError("-b 1 for one-class models is not supported by svmx; use -b 0")
    if probability and np.asarray(getattr(model, "probA_", ())).size:
        sigma = float(model.probA_[0])
        info("Prob. model for test data: target value = predicted value + z,\n"
             f"z: Laplace distribution e^(-|z|/sigma)/(2sigma),sigma={sigma:g}")
    elif probability:
        raise ValueError("the model does not support probability estimates (train with -b 1)")
    elif classifier and np.asarray(model.probA_).size:
        info("Model supports probability estimates, but disabled in prediction.")
    predicted = np.asarray(model.predict(X), dtype=np.float64)
    return predicted, [f"{value:.17g}" for value in predicted]


def run(args: argparse.Namespace) -> int:
    def info(message: str) -> None:
        if not args.quiet:
            print(message)

    model = load_model(args.model_file)
    precomputed = model.kernel == "precomputed"
    X, y = read_data(args.test_file, precomputed=precomputed)
    if precomputed:  # columns beyond the training samples carry nothing
        X = fit_width(X[:, : model.n_features_in_].tocsr(), model.n_features_in_)
    else:
        widen_model(model, X.shape[1])
        X = fit_width(X, model.n_features_in_)
    if X.shape[0] == 0:
        predicted, lines = np.empty(0), []
    else:
        predicted, lines = _predictions(model, X.toarray(), bool(args.probability), info)
    with open(args.output_file, "w", encoding="ascii", newline="\n") as handle:
        handle.write("".join(line + "\n" for line in lines))
    if y.size == 0:
        return 0
    if type(model).__name__ in ("SVR", "NuSVR"):
        mse, r2 = regression_figures(y, predicted)
        info(f"Mean squared error = {mse:g} (regression)")
        info(f"Squared correlation coefficient = {r2:g} (regression)")
    else:
        correct = int(np.count_nonzero(predicted == y))
        info(f"Accuracy = {100.0 * correct / y.size:g}% ({correct}/{y.size}) (classification)")
    return 0
