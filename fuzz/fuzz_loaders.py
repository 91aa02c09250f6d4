"""Mutation fuzzing of the two file readers: ``load_svmlight_file`` and ``load_model``.

Inputs are random mutations (bit flips, inserted tokens, deleted or duplicated spans,
swapped lines, truncation, splices) of slices of the real data files in ../shared/data and
of model files saved by svmx. Everything runs in this process. A reader may only return
or raise ``ValueError``; after a successful ``load_model`` the model must predict a row of
zeros (or raise ``ValueError``). Warnings count as failures, as in the test suite. Each
failing input is saved with its traceback. The address space is limited (``--memory-limit-gb``)
so that a runaway allocation shows up as a MemoryError.

Usage::

    python fuzz/fuzz_loaders.py --n 100000 --seed 0 --out fuzz/failures
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import svmx  # noqa: E402
from svmx.datasets import load_svmlight_file  # noqa: E402
from svmx.io import load_model, save_model  # noqa: E402

DATA_DIR = HERE.parent.parent / "shared" / "data"
# A mutated feature index can make a model millions of features wide; predicting with it
# only costs time.
PREDICT_MAX_FEATURES = 100_000
TOKENS = [
    b"\0", b":", b"-", b"+", b" ", b"\t", b"\n", b"\r\n", b"#", b"e", b"E", b".", b"0", b"1",
    b"-1", b"nan", b"inf", b"-inf", b"1e308", b"1e999", b"2147483647", b"2147483648",
    b"-2147483649", b"9" * 25, b"qid:", b"SV", b"total_sv ", b"nr_class ", b"nr_sv ",
    b"label ", b"rho ", b"probA ", b"probB ", b"gamma ", b"degree ", b"kernel_type ",
    b"svm_type ", b"precomputed", b"polynomial", b"c_svc", b"nu_svr", b"one_class", b"0:",
    b"\xff", b"\x80", "é".encode(),
]


def seed_inputs(rng: random.Random) -> list[bytes]:
    """Slices of the shared data files and svmx model files of every formulation."""
    seeds = [b"1 1:0.5 3:2 # c\n-1 2:1.5\n", b"0 0:1\n1 qid:3 1:2\n"]
    if DATA_DIR.is_dir():
        for path in sorted(DATA_DIR.iterdir()):
            if path.suffix == ".md" or not path.is_file():
                continue
            with open(path, "rb") as handle:
                head = handle.read(200_000).split(b"\n")[:-1]
            for _ in range(3):
                start = rng.randrange(max(len(head) - 5, 1))
                seeds.append(b"\n".join(head[start:start + rng.randint(1, 20)]) + b"\n")
    seeds += model_seeds()
    return seeds


def model_seeds() -> list[bytes]:
    generator = np.random.default_rng(0)
    X = np.round(generator.normal(size=(30, 4)), 3)
    y3 = np.arange(30) % 3
    models = [
        svmx.SVC(probability=True, random_state=0).fit(X, y3 % 2),
        svmx.SVC(kernel="poly", degree=2).fit(X, y3),
        svmx.NuSVC(nu=0.3).fit(X, y3),
        svmx.SVC(kernel="sigmoid", gamma=0.1).fit(X, y3),
        svmx.OneClassSVM(kernel="linear").fit(X),
        svmx.SVR().fit(X, X[:, 0]),
        svmx.NuSVR(kernel="linear").fit(X, X[:, 1]),
        svmx.SVC(kernel="precomputed").fit(X @ X.T, y3 % 2),
    ]
    seeds = []
    with tempfile.TemporaryDirectory() as directory:
        for number, model in enumerate(models):
            path = os.path.join(directory, f"{number}.model")
            save_model(model, path)
            seeds.append(Path(path).read_bytes())
    return seeds


def mutate(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    """Apply one to four random mutations."""
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        at = rng.randrange(len(buffer) + 1)
        if kind == 0 and buffer:  # flip a bit
            at = min(at, len(buffer) - 1)
            buffer[at] ^= 1 << rng.randrange(8)
        elif kind == 1:  # insert a token
            buffer[at:at] = rng.choice(TOKENS)
        elif kind == 2:  # delete a span
            del buffer[at:at + rng.randint(1, 16)]
        elif kind == 3:  # duplicate a span
            buffer[at:at] = buffer[at:at + rng.randint(1, 32)]
        elif kind == 4:  # truncate
            del buffer[at:]
        elif kind == 5:  # random bytes
            buffer[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 6:  # swap two lines
            lines = bytes(buffer).split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                buffer = bytearray(b"\n".join(lines))
        else:  # splice with another seed
            other = rng.choice(seeds)
            cut = rng.randrange(len(other) + 1)
            buffer = buffer[:at] + bytearray(other[cut:])
    return bytes(buffer)


def check_svmlight(data: bytes) -> None:
    try:
        load_svmlight_file(data)
    except ValueError:
        pass


def check_model(data: bytes, path: str) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
    try:
        model = load_model(path)
    except ValueError:
        return
    if model.n_features_in_ > PREDICT_MAX_FEATURES:
        return
    try:
        model.predict(np.zeros((1, max(model.n_features_in_, 1))))
    except ValueError:
        pass


def run(n_inputs: int, seed: int, out: Path, report_every: int) -> int:
    rng = random.Random(seed)
    seeds = seed_inputs(rng)
    out.mkdir(parents=True, exist_ok=True)
    failures: Counter = Counter()
    saved = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "fuzz.model")
        for number in range(1, n_inputs + 1):
            data = mutate(rng.choice(seeds), seeds, rng)
            for name, check in (("svmlight", check_svmlight),
                                ("model", lambda d: check_model(d, path))):
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("error")
                        check(data)
                except Exception as error:  # noqa: BLE001 - any other exception is a finding
                    where = traceback.extract_tb(error.__traceback__)[-1]
                    key = (name, type(error).__name__, where.filename, where.lineno)
                    failures[key] += 1
                    if failures[key] <= 3:
                        digest = hashlib.sha1(data).hexdigest()[:12]
                        stem = out / f"{name}-{type(error).__name__}-{digest}"
                        stem.with_suffix(".input").write_bytes(data)
                        stem.with_suffix(".txt").write_text(traceback.format_exc())
                        saved += 1
            if report_every and number % report_every == 0:
                print(f"{number} inputs, {sum(failures.values())} failures, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"done: {n_inputs} inputs (each through both readers) in {elapsed:.0f} s; "
          f"{sum(failures.values())} failures of {len(failures)} kinds; {saved} saved to {out}")
    for (name, kind, filename, line), count in failures.most_common():
        print(f"  {count:6d}  {name}: {kind} at {filename}:{line}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="number of inputs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "failures",
                        help="where failing inputs and tracebacks are saved")
    parser.add_argument("--report-every", type=int, default=10_000)
    parser.add_argument("--memory-limit-gb", type=float, default=8.0,
                        help="address-space limit, so a runaway allocation fails with "
                             "MemoryError (reported) instead of exhausting the machine")
    args = parser.parse_args(argv)
    if args.memory_limit_gb > 0 and sys.platform.startswith("linux"):
        import resource

        limit = int(args.memory_limit_gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return run(args.n, args.seed, args.out, args.report_every)


if __name__ == "__main__":
    sys.exit(main())
