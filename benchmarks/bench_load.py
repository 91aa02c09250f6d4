"""Loading LIBSVM text files: svmx.datasets.load_svmlight_file next to scikit-learn's.

Both loaders read the same file from the page cache (each file is read once before timing) into
a CSR matrix and a float64 label vector. The time shown is the best of ``--repeat`` runs; a ratio
is ``svmx time / scikit-learn time``, so a value below 1.0 means svmx is faster.

Usage::

    python benchmarks/bench_load.py
    python benchmarks/bench_load.py --datasets a9a ijcnn1 --repeat 5
"""

import argparse
import sys
import time
from pathlib import Path

from sklearn.datasets import load_svmlight_file as sklearn_load

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DATA_DIR = BENCH_DIR.parent.parent / "shared" / "data"
DEFAULT_DATASETS = ["a9a", "ijcnn1", "w8a", "mnist_5k.libsvm", "reuters_lasvm"]

# Benchmark the working tree's in-place build, not whatever svmx happens to be installed.
sys.path.insert(0, str(BENCH_DIR.parent))

from svmx.datasets import load_svmlight_file as svmx_load  # noqa: E402


def best_time(load, path: Path, repeat: int) -> float:
    """The smallest wall-clock time of ``repeat`` calls of ``load(path)``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        load(str(path))
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--datasets", nargs="+", default=DEFAULT_DATASETS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'dataset':<18} {'MB':>6} {'svmx s':>8} {'sklearn s':>10} {'ratio':>6}")
    for name in args.datasets:
        path = args.data_dir / name
        if not path.is_file():
            print(f"{name:<18} missing, skipped", file=sys.stderr)
            continue
        path.read_bytes()  # warm the page cache so both loaders read from memory
        svmx_seconds = best_time(svmx_load, path, args.repeat)
        sklearn_seconds = best_time(sklearn_load, path, args.repeat)
        size_mb = path.stat().st_size / 1e6
        print(
            f"{name:<18} {size_mb:>6.1f} {svmx_seconds:>8.3f} {sklearn_seconds:>10.3f} "
            f"{svmx_seconds / sklearn_seconds:>6.2f}"
        )


if __name__ == "__main__":
    main()
