"""The ``svmx`` command line next to LIBSVM's ``svm-train`` / ``svm-predict`` on sparse data.

Every step runs as its own child process, as a user would run it: ``svm-train`` and
``svmx train`` with the same flags and ``-q``, then ``svm-predict`` and ``svmx predict`` (not
quiet, so both print their accuracy) on a test file with the model each trainer wrote. Per
child, the wall time and the peak resident set size of that child alone: ``ru_maxrss`` as GNU
``time`` reports it (not this process's ``os.wait4``: a child spawned from a big parent
inherits the parent's high-water mark across exec), else ``VmHWM`` sampled. The Python
interpreter's own share is measured the same way: a child ``python -c "import svmx"`` (the
baseline) and ``python -c pass``.

The targets (the sparse-CLI issue): svmx time / LIBSVM time <= 1.5, and
svmx RSS / (LIBSVM RSS + baseline RSS) <= 1.5. Times are the best of ``--repeat`` runs, RSS
the largest. The accuracies of both predictors are printed next to each other, along with
``svm-predict`` run on svmx's model file (the two tools read each other's files).

Data sets:

* ``reuters``: ``reuters_lasvm`` / ``reuters_lasvm.t`` from the shared data (7,770 x 8,315,
  binary); skipped with a message when the shared data is absent.
* ``wide``: a synthetic text-like set generated deterministically into a temporary folder:
  60,000 features, 6,000 training and 2,000 test rows, 50-100 non-zeros per row (Zipf-like
  word frequencies, 7% of a row's words from its class's topic words, tf-idf-like values,
  rows of unit length), 30 classes. Linear accuracy is near 88%; with svm-train's default
  gamma = 1/60,000 the RBF kernel is nearly constant, so both tools' RBF models are
  degenerate (every row a support vector): a timing case, not a useful classifier.

Usage (from the project root)::

    python benchmarks/bench_cli.py                      # both data sets, 3 flag sets, best of 3
    python benchmarks/bench_cli.py --datasets wide --flags linear --repeat 1
    python benchmarks/bench_cli.py --quick              # small subsets, a smoke test

The report goes to stdout and ``benchmarks/results/cli.md``; progress goes to stderr.
"""

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from run import _load, log, publish_report, versions  # noqa: E402

PROJECT_ROOT = BENCH_DIR.parent
DEFAULT_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
DEFAULT_OUTPUT = BENCH_DIR / "results" / "cli.md"
TARGET = 1.5

# Named flag sets, passed unchanged to both trainers (-q is added to both).
FLAG_SETS = {
    "linear": ["-t", "0"],
    "rbf": [],
    "rbf-c4": ["-c", "4"],
}
DATASETS = ["reuters", "wide"]
# The synthetic set: (train rows, test rows, features, classes, min / max non-zeros per row).
WIDE_FULL = (6000, 2000, 60_000, 30, 50, 100)
WIDE_QUICK = (300, 100, 60_000, 5, 20, 40)
QUICK_REUTERS_ROWS = (400, 200)
# Percent of a row's words drawn from its class's topic words (the rest: the whole vocabulary).
TOPIC_SHARE_PERCENT = 7
ISA_FLAGS = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "neon", "asimd"]
ACCURACY = re.compile(r"Accuracy = ([0-9.eE+-]+)% \((\d+)/(\d+)\)")


# ----------------------------------------------------------------------------------------------
# The machine
# ----------------------------------------------------------------------------------------------


def cpu_model():
    """The CPU's model name from /proc/cpuinfo (or platform.processor())."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def cpu_isa():
    """The vector instruction sets the CPU reports (from the /proc/cpuinfo flags)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown"
    flags = set()
    for line in text.splitlines():
        if line.startswith(("flags", "Features")):
            flags.update(line.split(":", 1)[1].split())
            break
    found = [flag for flag in ISA_FLAGS if flag in flags]
    return " ".join(found) if found else "none of " + "/".join(ISA_FLAGS)


def machine_line():
    """``CPU model, n cores, ISA, architecture`` for the report."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return (
        f"{cpu_model()}, {os.cpu_count()} logical CPUs ({usable} usable), ISA: {cpu_isa()}, "
        f"{platform.machine()}, {platform.system()} {platform.release()}"
    )


# ----------------------------------------------------------------------------------------------
# Child processes
# ----------------------------------------------------------------------------------------------


class ChildResult:
    """Wall seconds, CPU seconds (user + system, every thread), peak RSS (MB, 10**6 bytes),
    exit code and output of one child process."""

    def __init__(self, seconds, cpu_seconds, rss_mb, returncode, stdout, stderr):
        self.seconds = seconds
        self.cpu_seconds = cpu_seconds
        self.rss_mb = rss_mb
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


# GNU time reports its child's ru_maxrss (%M, KiB). Through it, because a child spawned
# directly by this process inherits this process's high-water mark: Linux keeps the larger of
# the old and the new memory's peak across exec, and Python spawns with vfork/CLONE_VM, so the
# "old memory" is this process's (150 MB with numpy and scikit-learn loaded). GNU time itself
# is about 1 MB. Without it, /proc/<pid>/status VmHWM is sampled instead (see PeakSampler).
GNU_TIME = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").is_file() else None)
SAMPLE_SECONDS = 0.002


def _gnu_time_works():
    if GNU_TIME is None:
        return False
    with tempfile.NamedTemporaryFile() as report:
        completed = subprocess.run([GNU_TIME, "-f", "%M", "-o", report.name, "true"],
                                   capture_output=True, check=False)
        return completed.returncode == 0 and report.read().strip().isdigit()


USE_GNU_TIME = _gnu_time_works()
RSS_METHOD = (
    f"`ru_maxrss` of each child as GNU time ({GNU_TIME}, about 1 MB itself) reports it"
    if USE_GNU_TIME
    else f"`VmHWM` of each child's /proc/<pid>/status, sampled every {SAMPLE_SECONDS * 1e3:g} ms "
    "(GNU time not found; a peak in the last milliseconds of a child can be missed)"
)


class PeakSampler(threading.Thread):
    """Reads a running child's ``VmHWM`` (its own peak RSS, KiB) until it exits."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.status = Path(f"/proc/{pid}/status")
        self.peak_kib = 0
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            try:
                for line in self.status.read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        self.peak_kib = max(self.peak_kib, int(line.split()[1]))
            except (OSError, ValueError):
                pass
            self.done.wait(SAMPLE_SECONDS)


def run_child(argv, env=None, cwd=None):
    """Run ``argv`` to completion: its wall time and its own peak RSS."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r") as report:
        command = [GNU_TIME, "-f", "%M", "-o", report.name, *map(str, argv)] if USE_GNU_TIME \
            else list(map(str, argv))
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=cwd)
        sampler = None
        if not USE_GNU_TIME:
            sampler = PeakSampler(process.pid)
            sampler.start()
        # CPU times are not inherited across exec, and include GNU time's waited-for child.
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        returncode = process.returncode = os.waitstatus_to_exitcode(status)
        if sampler is not None:
            sampler.done.set()
            sampler.join()
            peak_kib = sampler.peak_kib
        else:
            # GNU time writes "Command exited with non-zero status n" before %M on failure.
            lines = report.read().split()
            peak_kib = int(lines[-1]) if lines and lines[-1].isdigit() else 0
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    cpu_seconds = usage.ru_utime + usage.ru_stime
    return ChildResult(seconds, cpu_seconds, peak_kib * 1024 / 1e6, returncode, stdout, stderr)


def measure(argv, repeat, env=None, cwd=None):
    """Best time and largest RSS of ``repeat`` runs; raises with the output on failure."""
    results = []
    for _ in range(repeat):
        result = run_child(argv, env=env, cwd=cwd)
        if result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(map(str, argv))} exited with {result.returncode}: "
                f"{(result.stderr or result.stdout)[-800:]}"
            )
        results.append(result)
    best = min(results, key=lambda result: result.seconds)
    best.rss_mb = max(result.rss_mb for result in results)
    best.cpu_seconds = min(result.cpu_seconds for result in results)
    return best


def svmx_environment():
    """The environment of the svmx children: they import the svmx this interpreter imports
    (an installed wheel, or the working tree's in-place build), else the working tree."""
    try:
        import svmx

        package_root = Path(svmx.__file__).resolve().parents[1]
    except ImportError:
        package_root = PROJECT_ROOT
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(package_root)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    # `-m svmx` and `-c` would put the working directory first (Python 3.11+ honours this):
    # the project root's sources would shadow an installed build.
    env["PYTHONSAFEPATH"] = "1"
    return env


def svmx_command(*arguments):
    """``python -m svmx ...`` with this interpreter."""
    return [sys.executable, "-m", "svmx", *map(str, arguments)]


def baselines(repeat):
    """The interpreter's own time and RSS: ``python -c pass`` and ``python -c "import svmx"``."""
    env = svmx_environment()
    return {
        "python -c pass": measure([sys.executable, "-c", "pass"], repeat, env=env),
        'python -c "import svmx"': measure([sys.executable, "-c", "import svmx"], repeat, env=env),
    }


# ----------------------------------------------------------------------------------------------
# Data sets
# ----------------------------------------------------------------------------------------------


class DataFiles:
    """A training file and a test file in LIBSVM format, with a description for the table."""

    def __init__(self, name, train, test, shape, notes):
        self.name = name
        self.train = train
        self.test = test
        self.shape = shape
        self.notes = notes


def file_shape(path):
    """(rows, largest feature index, non-zeros, distinct labels) of a LIBSVM file."""
    rows = nonzeros = width = 0
    labels = set()
    with open(path, "rb") as handle:
        for line in handle:
            tokens = line.split()
            if not tokens:
                continue
            rows += 1
            labels.add(tokens[0])
            features = [token for token in tokens[1:] if b":" in token]
            nonzeros += len(features)
            if features:
                width = max(width, int(features[-1].split(b":", 1)[0]))
    return rows, width, nonzeros, len(labels)


def _describe(path):
    rows, width, nonzeros, n_labels = file_shape(path)
    return (
        f"{rows:,} x {width:,}, {nonzeros / max(rows, 1):.0f} nnz/row, {n_labels} classes",
        rows,
    )


def _head(source, target, n_rows):
    """The first ``n_rows`` lines of ``source`` written to ``target``."""
    with open(source, "rb") as reader, open(target, "wb") as writer:
        for index, line in enumerate(reader):
            if index == n_rows:
                break
            writer.write(line)
    return target


def reuters_files(data_dir, work_dir, quick):
    """The shared Reuters files (their first rows with --quick); None when absent."""
    train, test = data_dir / "reuters_lasvm", data_dir / "reuters_lasvm.t"
    if not train.is_file():
        return None, (
            f"reuters skipped: {train} not found (the shared data is on the team's machines)"
        )
    notes = "shared reuters_lasvm"
    if not test.is_file():
        test = train
        notes += "; no reuters_lasvm.t, predicting the training file"
    else:
        notes += " / reuters_lasvm.t"
    if quick:
        n_train, n_test = QUICK_REUTERS_ROWS
        train = _head(train, work_dir / "reuters_quick", n_train)
        test = _head(test, work_dir / "reuters_quick.t", n_test)
        notes += f" (--quick: first {n_train:,} / {n_test:,} rows)"
    shape, _ = _describe(train)
    test_rows = file_shape(test)[0]
    return DataFiles("reuters", train, test, f"{shape}; test {test_rows:,}", notes), None


def _text_rows(rng, labels, n_features, topics, word_probability, nnz_range):
    """CSR parts (indptr, indices, values) of text-like rows, unit length each."""
    low, high = nnz_range
    indptr, indices, values = [0], [], []
    for label in labels.tolist():
        size = int(rng.integers(low, high + 1))
        n_topic = size * TOPIC_SHARE_PERCENT // 100
        words = np.concatenate([
            rng.choice(topics[label], size=n_topic),
            rng.choice(n_features, size=size - n_topic, p=word_probability),
        ])
        words, counts = np.unique(words, return_counts=True)
        # tf-idf: (1 + log count) times log(1 / (n_features * frequency) + 2).
        weights = (1.0 + np.log(counts)) * np.log(
            1.0 / (n_features * word_probability[words]) + 2.0
        )
        weights /= np.sqrt(np.sum(weights * weights))
        indices.append(words)
        values.append(weights)
        indptr.append(indptr[-1] + words.size)
    return np.asarray(indptr), np.concatenate(indices), np.concatenate(values)


def write_libsvm(path, labels, indptr, indices, values):
    """A LIBSVM text file (1-based indices, values as %.6g)."""
    with open(path, "w", encoding="ascii") as handle:
        for row, label in enumerate(labels.tolist()):
            start, end = indptr[row], indptr[row + 1]
            pairs = zip((indices[start:end] + 1).tolist(), values[start:end].tolist(), strict=True)
            handle.write(f"{label}" + "".join(f" {i}:{v:.6g}" for i, v in pairs) + "\n")


def make_wide(work_dir, quick, seed=0):
    """The synthetic wide sparse set, generated deterministically (see the module docstring)."""
    n_train, n_test, n_features, n_classes, low, high = WIDE_QUICK if quick else WIDE_FULL
    rng = np.random.default_rng(seed)
    # Zipf-like word frequencies over a random permutation of the feature ids.
    rank = np.empty(n_features)
    rank[rng.permutation(n_features)] = np.arange(1, n_features + 1)
    word_probability = 1.0 / (rank + 10.0) ** 1.1
    word_probability /= word_probability.sum()
    # Each class has 300 topic words, mostly among the rarer ones.
    topics = [rng.choice(n_features, size=300, replace=False) for _ in range(n_classes)]
    paths = {}
    for part, n_rows in (("train", n_train), ("test", n_test)):
        labels = rng.integers(0, n_classes, size=n_rows)
        indptr, indices, values = _text_rows(
            rng, labels, n_features, topics, word_probability, (low, high)
        )
        if part == "train":  # the last feature appears, so both tools see n_features columns
            first = slice(indptr[0], indptr[1])
            if n_features - 1 not in indices[first]:
                indices[indptr[1] - 1] = n_features - 1
        paths[part] = work_dir / f"wide_{part}"
        write_libsvm(paths[part], labels + 1, indptr, indices, values)
    shape, _ = _describe(paths["train"])
    notes = (
        f"synthetic, seed {seed}: {low}-{high} words per row, {TOPIC_SHARE_PERCENT}% of them "
        "from the row's class's 300 topic words, the rest Zipf-like over the vocabulary; "
        "tf-idf-like values, unit-length rows"
    )
    return DataFiles("wide", paths["train"], paths["test"], f"{shape}; test {n_test:,}", notes)


# ----------------------------------------------------------------------------------------------
# Benchmark
# ----------------------------------------------------------------------------------------------


def accuracy(stdout):
    """The ``Accuracy = ...`` of a predictor's output as (percent, correct, total), or None."""
    match = ACCURACY.search(stdout)
    if match is None:
        return None
    return float(match.group(1)), int(match.group(2)), int(match.group(3))


def total_sv(model_path):
    """The ``total_sv`` line of a LIBSVM model file."""
    with open(model_path, encoding="ascii") as handle:
        for line in handle:
            if line.startswith("total_sv"):
                return int(line.split()[1])
            if line.startswith("SV"):
                break
    return None


def same_predictions(path_a, path_b):
    """How many lines of two prediction files agree as numbers, and how many there are."""
    a = np.loadtxt(path_a, ndmin=1)
    b = np.loadtxt(path_b, ndmin=1)
    if a.shape != b.shape:
        return 0, max(a.size, b.size)
    return int(np.sum(a == b)), int(a.size)


def bench_flags(data, label, flags, args, tools, work):
    """Train and predict rows for one data set and one flag set."""
    env = svmx_environment()
    stem = work / f"{data.name}.{label}"
    models = {"libsvm": f"{stem}.libsvm.model", "svmx": f"{stem}.svmx.model"}
    outputs = {"libsvm": f"{stem}.libsvm.out", "svmx": f"{stem}.svmx.out",
               "cross": f"{stem}.cross.out"}
    log(f"  {data.name} [{label}]: svm-train {' '.join(flags)}")
    libsvm_train = measure([tools["svm-train"], "-q", *flags, data.train, models["libsvm"]],
                           args.repeat)
    log(f"  {data.name} [{label}]: svmx train ({libsvm_train.seconds:.2f} s for svm-train)")
    svmx_train = measure(svmx_command("train", "-q", *flags, data.train, models["svmx"]),
                         args.repeat, env=env)
    log(f"  {data.name} [{label}]: svm-predict / svmx predict "
        f"({svmx_train.seconds:.2f} s for svmx train)")
    libsvm_predict = measure(
        [tools["svm-predict"], data.test, models["libsvm"], outputs["libsvm"]], args.repeat
    )
    svmx_predict = measure(
        svmx_command("predict", data.test, models["svmx"], outputs["svmx"]), args.repeat, env=env
    )
    cross = run_child([tools["svm-predict"], data.test, models["svmx"], outputs["cross"]])
    agree, total = same_predictions(outputs["libsvm"], outputs["svmx"])
    common = {"dataset": data.name, "shape": data.shape, "flags": label,
              "flag_text": " ".join(flags) or "(defaults)"}
    return [
        {**common, "step": "train", "libsvm": libsvm_train, "svmx": svmx_train,
         "libsvm_detail": f"{total_sv(models['libsvm'])} SV",
         "svmx_detail": f"{total_sv(models['svmx'])} SV", "agree": ""},
        {**common, "step": "predict", "libsvm": libsvm_predict, "svmx": svmx_predict,
         "libsvm_detail": _accuracy_text(accuracy(libsvm_predict.stdout)),
         "svmx_detail": _accuracy_text(accuracy(svmx_predict.stdout)),
         "cross_detail": _accuracy_text(accuracy(cross.stdout)),
         "agree": f"{agree:,}/{total:,}"},
    ]


def _accuracy_text(value):
    if value is None:
        return "n/a"
    percent, correct, total = value
    return f"{percent:g}% ({correct}/{total})"


# ----------------------------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------------------------

TABLE_COLUMNS = [
    "dataset", "flags", "step", "LIBSVM s", "svmx s", "time ratio", "ratio less import",
    f"time <= {TARGET:g}x", "CPU s LIBSVM / svmx",
    "LIBSVM MB", "svmx MB", "LIBSVM + baseline MB", "RSS ratio", f"RSS <= {TARGET:g}x",
    "LIBSVM result", "svmx result", "svm-predict on svmx model", "same predictions",
]


def _verdict(ratio):
    return "yes" if ratio <= TARGET else "NO"


def table_lines(rows, baseline_mb, import_seconds):
    """The main Markdown table: one line per (data set, flag set, step)."""
    lines = [
        "| " + " | ".join(TABLE_COLUMNS) + " |",
        "|---|---|---|" + "---:|" * 4 + "---|" + "---:|" * 5 + "---|" * 5,
    ]
    for row in rows:
        head = f"| {row['dataset']} | {row['flags']} | {row['step']} |"
        if "error" in row:
            padding = " |" * (len(TABLE_COLUMNS) - 4)
            lines.append(head + f" failed: {row['error'][:200]} |" + padding)
            continue
        libsvm, svmx = row["libsvm"], row["svmx"]
        time_ratio = svmx.seconds / libsvm.seconds
        budget = libsvm.rss_mb + baseline_mb
        rss_ratio = svmx.rss_mb / budget
        cells = [
            f"{libsvm.seconds:.3f}", f"{svmx.seconds:.3f}", f"{time_ratio:.2f}",
            f"{max(svmx.seconds - import_seconds, 0.0) / libsvm.seconds:.2f}",
            _verdict(time_ratio), f"{libsvm.cpu_seconds:.2f} / {svmx.cpu_seconds:.2f}",
            f"{libsvm.rss_mb:.1f}", f"{svmx.rss_mb:.1f}", f"{budget:.1f}",
            f"{rss_ratio:.2f}", _verdict(rss_ratio), row["libsvm_detail"], row["svmx_detail"],
            row.get("cross_detail", ""), row["agree"],
        ]
        lines.append(head + " " + " | ".join(cells) + " |")
    return lines


def baseline_lines(measured):
    """The interpreter baselines as a small table."""
    lines = ["| child | wall s | CPU s | peak RSS MB |", "|---|---:|---:|---:|"]
    for name, result in measured.items():
        lines.append(
            f"| `{name}` | {result.seconds:.3f} | {result.cpu_seconds:.3f} | {result.rss_mb:.1f} |"
        )
    return lines


def render_report(rows, measured, datasets, notes, args):
    """The whole Markdown report."""
    baseline_mb = measured['python -c "import svmx"'].rss_mb
    load_after = _load()
    lines = [
        "# svmx command line vs svm-train / svm-predict on sparse data",
        "",
        f"Machine: {machine_line()}.",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {versions()}; "
        f"1-minute load average {args.load_before:.2f} before, {load_after:.2f} after.",
        "",
        f"Each step is a separate child process; wall time is the best of {args.repeat} "
        f"run(s), peak RSS ({RSS_METHOD}) the largest. Trainers run with `-q` "
        f"and the same flags; predictors without `-q`, on the test file. Targets: "
        f"time ratio = svmx s / LIBSVM s <= {TARGET:g}; RSS ratio = svmx MB / (LIBSVM MB + "
        f"baseline MB) <= {TARGET:g}, baseline = peak RSS of `python -c \"import svmx\"` "
        f"({baseline_mb:.1f} MB). Train results are the model files' total_sv; predict "
        "results the accuracy each predictor prints. \"Ratio less import\" (information, not "
        "a target) subtracts the wall time of `python -c \"import svmx\"` from svmx's. "
        "CPU s is user + system time over all threads: svm-train and svm-predict run one "
        f"thread, svmx one per core ({os.cpu_count()} here).",
        "",
        "## Python interpreter baseline",
        "",
        *baseline_lines(measured),
        "",
        "## Data sets",
        "",
        *[f"- {data.name}: {data.shape} ({data.notes})" for data in datasets],
        "",
        "## Results",
        "",
        *table_lines(rows, baseline_mb, measured['python -c "import svmx"'].seconds),
    ]
    checked = [row for row in rows if "error" not in row]
    if checked:
        met = all(
            row["svmx"].seconds / row["libsvm"].seconds <= TARGET
            and row["svmx"].rss_mb / (row["libsvm"].rss_mb + baseline_mb) <= TARGET
            for row in checked
        )
        lines += ["", f"All targets met: {'yes' if met else 'NO'}."]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------------------------


def _names(text, known, option):
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown {option} {', '.join(unknown)}; choose from {', '.join(known)}"
        )
    return names


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=lambda text: _names(text, DATASETS, "data set"),
                        default=DATASETS, help=f"comma-separated (default: {','.join(DATASETS)})")
    parser.add_argument("--flags", type=lambda text: _names(text, list(FLAG_SETS), "flag set"),
                        help="comma-separated flag sets: "
                             + ", ".join(f"{name} = {' '.join(v) or '(defaults)'}"
                                         for name, v in FLAG_SETS.items())
                             + " (default: all; with --quick: linear)")
    parser.add_argument("--repeat", type=int, help="runs per step, best time kept "
                        "(default 3; 1 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="small subsets (reuters' first rows, a small wide set): a smoke test")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--work-dir", type=Path,
                        help="where the generated data, models and predictions go "
                             "(default: a temporary folder, removed at the end)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown report")
    args = parser.parse_args(argv)
    if args.repeat is None:
        args.repeat = 1 if args.quick else 3
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.flags is None:
        args.flags = ["linear"] if args.quick else list(FLAG_SETS)
    return args


def find_tools():
    """Paths of svm-train and svm-predict, or exit with a message."""
    tools = {name: shutil.which(name) for name in ("svm-train", "svm-predict")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        sys.exit(f"bench_cli: {' and '.join(missing)} not found on PATH (Debian: libsvm-tools)")
    return tools


def run(args, work):
    """Every requested data set and flag set: the rows, the data sets and the notes."""
    tools = find_tools()
    rows, datasets, notes = [], [], []
    for name in args.datasets:
        log(f"{name}: preparing the files")
        if name == "reuters":
            data, skipped = reuters_files(args.data_dir, work, args.quick)
        else:
            data, skipped = make_wide(work, args.quick), None
        if data is None:
            log(skipped)
            notes.append(skipped)
            continue
        datasets.append(data)
        for label in args.flags:
            try:
                rows += bench_flags(data, label, FLAG_SETS[label], args, tools, work)
            except (RuntimeError, OSError, ValueError) as error:
                log(f"  {name} [{label}] FAILED: {error}")
                rows.append({"dataset": name, "flags": label, "step": "train+predict",
                             "error": str(error).replace("\n", " ")})
    return rows, datasets, notes


def main(argv=None):
    args = parse_args(argv)
    args.load_before = _load()
    log("measuring the interpreter baselines")
    measured = baselines(args.repeat)
    if args.work_dir is not None:
        args.work_dir.mkdir(parents=True, exist_ok=True)
        rows, datasets, notes = run(args, args.work_dir)
    else:
        with tempfile.TemporaryDirectory(prefix="svmx-bench-cli-") as folder:
            rows, datasets, notes = run(args, Path(folder))
    publish_report(render_report(rows, measured, datasets, notes, args), args.output)


if __name__ == "__main__":
    main()
