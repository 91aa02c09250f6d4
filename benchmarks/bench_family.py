"""Issue 3's family rows: svmx's NuSVC, OneClassSVM, SVR and NuSVR next to their peers.

For each case this one process fits and predicts with svmx, scikit-learn (``sklearn.svm``),
LIBSVM (``libsvm-official``: ``-s 1`` nu-SVC, ``-s 2`` one-class, ``-s 3`` epsilon-SVR, ``-s 4``
nu-SVR) and scikit-learn-intelex where ``sklearnex.svm`` has the class, on the same CSR data with
RBF kernel, gamma=1/n_features, tol=1e-3 and cache 200 MB. LIBSVM gets ``svm_node`` arrays built
before the clock starts and predicts with one C ``svm_predict`` call per row, as in
``benchmarks/run.py``, whose adapters, timing and report helpers this script reuses. Each library
is warmed up on a tiny problem per estimator class first.

Cases (``--cases`` takes case names, estimator classes or data set names, comma-separated):

* NuSVC(nu=0.5) on dna.scale -> dna.scale.t; NuSVC(nu=0.1) on pendigits -> pendigits.t
  (features / 100);
* OneClassSVM(nu=0.5) on heart_scale and mushrooms, tested on the training data;
* SVR(C=1, epsilon=0.1) and NuSVR(nu=0.5, C=1) on abalone_scale, cpusmall_scale and
  housing_scale, every 5th row held out.

Quality is test accuracy (NuSVC), agreement of the +1/-1 predictions with scikit-learn's
(OneClassSVM) or test MSE (SVR, NuSVR). Ratios are svmx time / peer time (<= 1.00: svmx faster).

Usage (from the project root)::

    python benchmarks/bench_family.py --repeat 3
    python benchmarks/bench_family.py --cases NuSVR,OneClassSVM/heart_scale

The report goes to stdout and ``benchmarks/results/bench_family.md``; progress to stderr.
"""

import argparse
import gc
import sys
from datetime import datetime, timezone
from pathlib import Path

from _family import CASES, KINDS, load_case_data, make_family_peers, quality, quality_text
from _peers import CACHE_SIZE, PEER_NAMES, TOL
from run import (
    BENCH_DIR,
    DEFAULT_DATA_DIR,
    _load,
    _names,
    _ratio,
    log,
    make_svmx_importable,
    notes_section,
    publish_report,
    thread_settings,
    timed_fit,
    timed_predict,
    versions,
    warm_up,
)

DEFAULT_OUTPUT = BENCH_DIR / "results" / "bench_family.md"
TABLE_COLUMNS = [
    "case",
    "params",
    "n_train x n_features",
    "library",
    "fit s",
    "fit svmx/peer",
    "predict s",
    "predict svmx/peer",
    "quality",
    "n_SV",
]


class FamilyPeerSet:
    """Adapters per estimator class, created and warmed up on first use."""

    def __init__(self, names, libsvm_threads=None):
        self.names = names
        self.libsvm_threads = libsvm_threads
        self.by_kind = {}
        self.skipped = []

    def for_case(self, case):
        """The warmed-up adapters for ``case``'s estimator class, set to its parameters."""
        if case.kind not in self.by_kind:
            peers, skipped = make_family_peers(case.kind, self.names, self.libsvm_threads)
            for peer in peers:
                peer.params = case.params
            # run.warm_up fits each adapter once on tiny_dataset(task): +-1 labels or targets.
            peers, failures = warm_up(peers, case.task)
            self.skipped += [f"{case.kind}: {line}" for line in skipped + failures]
            self.by_kind[case.kind] = peers
        for peer in self.by_kind[case.kind]:
            peer.params = case.params
        return self.by_kind[case.kind]

    def notes(self):
        """Notes the adapters collected (scikit-learn-intelex fallbacks, LIBSVM's predict)."""
        lines = [
            f"{peer.label}: {note}"
            for peers in self.by_kind.values()
            for peer in peers
            for note in peer.notes
        ]
        return sorted(set(lines))


def bench_peer(peer, case, data, repeat):
    """Fit and predict one library on one case; a failure becomes a row note."""
    gamma = 1.0 / data.n_features
    row = {"case": case, "shape": data.shape_label, "library": peer.label}
    try:
        peer.prepare(data)
        log(f"  {case.name}: {peer.label} fit ...")
        row["fit"], _ = timed_fit(peer, gamma, repeat)
        row["predict"], row["predictions"] = timed_predict(peer, repeat)
        row["n_sv"] = peer.n_support()
        log(
            f"  {case.name}: {peer.label} fit {row['fit']:.3f} s, "
            f"predict {row['predict']:.3f} s, n_SV {row['n_sv']}"
        )
    except Exception as error:  # noqa: BLE001 - one broken library must not stop the suite
        row["error"] = f"{type(error).__name__}: {error}"
        log(f"  {case.name}: {peer.label} FAILED: {row['error']}")
    finally:
        peer.release()
        gc.collect()
    return row


def score_rows(case, data, rows):
    """Set each row's quality; OneClassSVM rows are compared with scikit-learn's predictions."""
    reference = next(
        (row["predictions"] for row in rows if row["library"] == "sklearn" and "error" not in row),
        None,
    )
    for row in rows:
        if "error" not in row:
            row["quality"] = quality(case, row.pop("predictions"), data.y_test, reference)


def table_row(row, reference):
    """One Markdown table line; ``reference`` is the case's svmx row (or None)."""
    case = row["case"]
    head = f"| {case.name} | {case.params_text} | {row['shape']} | {row['library']} |"
    if "error" in row:
        return head + f" failed: {row['error'][:120]} |" + " |" * (len(TABLE_COLUMNS) - 5)
    cells = [
        f"{row['fit']:.3f}",
        _ratio(reference and reference["fit"], row["fit"]),
        f"{row['predict']:.3f}",
        _ratio(reference and reference["predict"], row["predict"]),
        quality_text(case, row["quality"]),
        str(row["n_sv"]),
    ]
    return head + " " + " | ".join(cells) + " |"


def results_table(rows):
    """The Markdown table, one line per (case, library)."""
    lines = [
        "| " + " | ".join(TABLE_COLUMNS) + " |",
        "|" + "---|" * 4 + "---:|" * (len(TABLE_COLUMNS) - 4),
    ]
    for row in rows:
        reference = next(
            (
                other
                for other in rows
                if other["case"] == row["case"]
                and other["library"] == "svmx"
                and "error" not in other
            ),
            None,
        )
        lines.append(table_row(row, reference))
    return lines


def header(args):
    """Title and how to read the table."""
    return [
        "# svmx family benchmark (issue 3): NuSVC, OneClassSVM, SVR, NuSVR",
        "",
        "**Ratios are svmx time / peer time: <= 1.00 means svmx is faster.** The reference is "
        "the default svmx estimator. BLAS/OpenMP threads at library defaults"
        + (f" (libsvm: OpenMP {args.libsvm_threads})" if args.libsvm_threads else "")
        + f": {thread_settings()}.",
        "",
        f"CSR input for every library; RBF kernel, gamma=1/n_features, tol={TOL:g}, "
        f"cache {CACHE_SIZE:g} MB; best of {args.repeat} run(s) for fit and predict. Quality: "
        "test accuracy (NuSVC), share of +1/-1 predictions equal to scikit-learn's "
        "(OneClassSVM, on the training data), test MSE (SVR, NuSVR).",
        "",
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {versions()}; 1-minute load average "
        f"{args.load_before:.2f} before the run, {_load():.2f} after (the machine is shared: "
        "other work slows every library, OpenMP ones most).",
        "",
    ]


def case_names(text):
    """Cases selected by ``--cases``: case names, estimator classes or data set names."""
    tokens = _names(
        text,
        [case.name for case in CASES] + KINDS + sorted({case.dataset for case in CASES}),
        "case",
    )
    return [case for case in CASES if {case.name, case.kind, case.dataset} & set(tokens)]


def parse_args(argv=None):
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases",
        type=case_names,
        default=CASES,
        help="comma-separated case names (" + ",".join(case.name for case in CASES) + "), "
        f"estimator classes ({','.join(KINDS)}) or data sets (default: all)",
    )
    parser.add_argument(
        "--peers",
        type=lambda text: _names(text, PEER_NAMES, "library"),
        default=PEER_NAMES,
        help=f"comma-separated libraries (default: {','.join(PEER_NAMES)})",
    )
    parser.add_argument("--repeat", type=int, default=1, help="timed runs per step; best kept")
    parser.add_argument(
        "--libsvm-threads",
        type=int,
        help="limit libsvm-official's OpenMP threads while it runs (default: not limited)",
    )
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="Markdown report")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if "svmx" in args.peers:  # svmx first: its rows are the reference of the ratios
        args.peers = ["svmx"] + [name for name in args.peers if name != "svmx"]
    return args


def run(args):
    """Benchmark every selected case; returns the rows and the notes."""
    peer_set, rows, notes, loaded = FamilyPeerSet(args.peers, args.libsvm_threads), [], [], {}
    for case in args.cases:
        log(f"{case.name}: loading")
        try:
            data = load_case_data(case, args.data_dir)
        except FileNotFoundError as error:
            notes.append(f"{case.name} skipped: {error}")
            log(f"{case.name}: skipped ({error})")
            continue
        loaded.setdefault(case.dataset, f"{case.dataset}: {'; '.join(data.notes)}")
        case_rows = [bench_peer(peer, case, data, args.repeat) for peer in peer_set.for_case(case)]
        score_rows(case, data, case_rows)
        rows += case_rows
        del data
        gc.collect()
    notes += list(loaded.values())
    notes += [f"not run: {line}" for line in peer_set.skipped] + peer_set.notes()
    return rows, notes


def main(argv=None):
    """Run the cases, print the report and write it to ``--output``."""
    args = parse_args(argv)
    if not args.data_dir.is_dir():
        sys.exit(f"data directory {args.data_dir} not found: the data is on the team's machines")
    make_svmx_importable()
    args.load_before = _load()
    rows, notes = run(args)
    publish_report(
        "\n".join(header(args) + results_table(rows) + notes_section(notes)) + "\n", args.output
    )


if __name__ == "__main__":
    main()
