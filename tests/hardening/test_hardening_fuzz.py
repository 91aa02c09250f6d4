"""Property-based fuzzing of the file readers: any input parses or raises ValueError.

``fuzz/fuzz_loaders.py`` runs the same check for hundreds of thousands of mutated inputs;
these tests keep a short version of it in the suite.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmx import SVC
from svmx.datasets import load_svmlight_file
from svmx.io import format_model, load_model

FUZZ_SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

NUMBERS = st.sampled_from(
    ["0", "1", "-1", "+1", "0.5", "1e3", "-2.5e-3", "nan", "inf", "-inf", "1e999",
     "2147483647", "2147483648", "99999999999999999999", "", "x", "1.2.3", "0x10"]
)
SEPARATORS = st.sampled_from([" ", "  ", "\t", ":", "::", "\n", "\r\n", " # c\n", "\0"])


@st.composite
def svmlight_like(draw) -> bytes:
    """Text assembled from the format's pieces, often well-formed, often slightly not."""
    lines = []
    for _ in range(draw(st.integers(0, 5))):
        parts = [draw(NUMBERS)]
        for _ in range(draw(st.integers(0, 4))):
            index = draw(st.sampled_from(["qid", "0", "1", "2", "3", "10", "-1", "a", ""]))
            parts.append(f"{index}{draw(st.sampled_from([':', ' ', '']))}{draw(NUMBERS)}")
        lines.append(draw(SEPARATORS).join(parts) if draw(st.booleans()) else " ".join(parts))
    text = "\n".join(lines).encode("utf-8", "surrogatepass")
    cut = draw(st.integers(0, len(text)))
    return text[:cut] if draw(st.booleans()) else text


@FUZZ_SETTINGS
@given(st.one_of(st.binary(max_size=300), svmlight_like()))
def test_load_svmlight_file_parses_or_raises_value_error(data):
    try:
        X, y = load_svmlight_file(data)
    except ValueError:
        return
    assert X.shape[0] == y.shape[0]
    assert X.nnz == X.indices.size


def _saved_models() -> list[str]:
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(12, 3)), 3)
    labels = np.arange(12) % 3
    return [
        format_model(SVC(kernel="linear").fit(X, labels)),
        format_model(SVC(probability=True, random_state=0).fit(X, labels % 2)),
        format_model(SVC(kernel="precomputed").fit(X @ X.T, labels % 2)),
    ]


MODELS = _saved_models()


@st.composite
def mutated_model(draw) -> bytes:
    """A saved model file with lines dropped, duplicated or edited, or cut short."""
    lines = draw(st.sampled_from(MODELS)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "repeat", "token", "replace", "truncate"]))
        if action == "drop":
            del lines[at]
        elif action == "repeat":
            lines.insert(at, lines[at])
        elif action == "token":
            tokens = lines[at].split(" ")
            where = draw(st.integers(0, len(tokens)))
            tokens.insert(where, draw(NUMBERS) + draw(st.sampled_from(["", ":1", ":nan"])))
            lines[at] = " ".join(tokens)
        elif action == "replace":
            tokens = lines[at].split(" ")
            tokens[draw(st.integers(0, len(tokens) - 1))] = draw(NUMBERS)
            lines[at] = " ".join(tokens)
        else:
            del lines[at:]
        if not lines:
            lines = [""]
    return "\n".join(lines).encode()


@FUZZ_SETTINGS
@given(st.one_of(mutated_model(), st.binary(max_size=300)))
def test_load_model_parses_or_raises_value_error(data):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "fuzzed.model")
        with open(path, "wb") as handle:
            handle.write(data)
        try:
            model = load_model(path)
        except ValueError:
            return
    if model.n_features_in_ <= 10_000:
        try:
            model.predict(np.zeros((1, max(model.n_features_in_, 1))))
        except ValueError:
            pass
