"""LIBSVM model files: save a fitted svmx estimator, load one written by LIBSVM or svmx.

Examples
--------
>>> import os, tempfile
>>> from svmx import SVR
>>> from svmx.io import load_model, save_model
>>> model = SVR(kernel="linear").fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
>>> path = os.path.join(tempfile.mkdtemp(), "svr.model")
>>> save_model(model, path)
>>> bool((load_model(path).predict([[1.5]]) == model.predict([[1.5]])).all())
True
"""

from svmx.io._model_reader import load_model, read_model_file
from svmx.io._model_writer import format_model, save_model

__all__ = ["format_model", "load_model", "read_model_file", "save_model"]
