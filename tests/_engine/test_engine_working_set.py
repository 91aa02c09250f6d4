"""SMO's working set selection in vector lanes picks LIBSVM's pair, to the bit, on every path.

Both selections: `Solver`'s (C-SVC, one-class, epsilon-SVR) and `SolverNU`'s.

``svmx/_engine/smo_scan.pxd`` runs LIBSVM's WSS3 loops over 8, 4 or 2 variables at once.
Here a plain transcription of LIBSVM's loops (one variable at a time, ``>=`` and ``<=``
keeping the last index that reaches the extreme) is the reference, on states built to
have ties (few distinct gradient values, both signs of zero), every status, both labels,
non-positive curvatures (tau) and every length from 0 to past several vector widths. The
engine's answer must be identical in i, j and the bits of Gmax and Gmax2: on this
machine's path in this process, and on each narrower path in a child process
(``SVMX_ISA``).
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import svmx_child_env

from svmx._config import isa_info
from svmx._engine.solver import select_working_pair, select_working_pair_nu

LOWER, UPPER = 0, 1
TAU = 1e-12
LEVELS = ("sse2", "avx2", "avx512")


def libsvm_working_pair(y, status, G, QD, Q):
    """LIBSVM's select_working_set, one variable at a time (the reference)."""
    Gmax, Gmax_idx = -np.inf, -1
    for t in range(y.size):
        if y[t] == 1:
            if status[t] != UPPER and -G[t] >= Gmax:
                Gmax, Gmax_idx = -G[t], t
        elif status[t] != LOWER and G[t] >= Gmax:
            Gmax, Gmax_idx = G[t], t
    i = Gmax_idx
    Gmax2, Gmin_idx, obj_diff_min = -np.inf, -1, np.inf
    for t in range(y.size):
        if y[t] == 1:
            if status[t] == LOWER:
                continue
            grad_diff = Gmax + G[t]
            if G[t] >= Gmax2:
                Gmax2 = G[t]
            sign = -1.0
        else:
            if status[t] == UPPER:
                continue
            grad_diff = Gmax - G[t]
            if -G[t] >= Gmax2:
                Gmax2 = -G[t]
            sign = 1.0
        if grad_diff > 0:
            product = (2.0 * float(y[i])) * float(Q[i, t])
            quad_coef = (QD[i] + QD[t]) + sign * product
            if quad_coef <= 0:
                quad_coef = TAU
            obj_diff = -(grad_diff * grad_diff) / quad_coef
            if obj_diff <= obj_diff_min:
                Gmin_idx, obj_diff_min = t, obj_diff
    return i, Gmin_idx, float(Gmax), float(Gmax2)


def libsvm_working_pair_nu(y, status, G, QD, Q):
    """LIBSVM's Solver_NU::select_working_set, one variable at a time (the reference)."""
    Gmaxp, Gmaxp_idx, Gmaxn, Gmaxn_idx = -np.inf, -1, -np.inf, -1
    for t in range(y.size):
        if y[t] == 1:
            if status[t] != UPPER and -G[t] >= Gmaxp:
                Gmaxp, Gmaxp_idx = -G[t], t
        elif status[t] != LOWER and G[t] >= Gmaxn:
            Gmaxn, Gmaxn_idx = G[t], t
    ip, in_ = Gmaxp_idx, Gmaxn_idx
    Gmaxp2, Gmaxn2, Gmin_idx, obj_diff_min = -np.inf, -np.inf, -1, np.inf
    for t in range(y.size):
        if y[t] == 1:
            if status[t] == LOWER:
                continue
            grad_diff = Gmaxp + G[t]
            if G[t] >= Gmaxp2:
                Gmaxp2 = G[t]
            group = ip
        else:
            if status[t] == UPPER:
                continue
            grad_diff = Gmaxn - G[t]
            if -G[t] >= Gmaxn2:
                Gmaxn2 = -G[t]
            group = in_
        if grad_diff > 0:
            quad_coef = (QD[group] + QD[t]) - 2.0 * float(Q[group, t])
            if quad_coef <= 0:
                quad_coef = TAU
            obj_diff = -(grad_diff * grad_diff) / quad_coef
            if obj_diff <= obj_diff_min:
                Gmin_idx, obj_diff_min = t, obj_diff
    gap = max(Gmaxp + Gmaxp2, Gmaxn + Gmaxn2)
    if Gmin_idx == -1:
        return -1, -1, float(gap)
    return (ip if y[Gmin_idx] == 1 else in_), Gmin_idx, float(gap)


def states(seed=0, per_length=12, max_length=41):
    """Solver states with many ties: (y, status, G, QD, Q) for each length."""
    rng = np.random.default_rng(seed)
    for n in range(max_length + 1):
        for _ in range(per_length):
            y = rng.choice(np.array([1, -1], dtype=np.int8), size=n)
            status = rng.integers(0, 3, size=n).astype(np.int8)
            G = rng.choice(np.array([-1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0]), size=n)
            QD = rng.choice(np.array([0.0, 0.5, 1.0, 2.0]), size=n)
            Q = rng.choice(np.array([-1.0, -0.25, 0.0, 0.5, 1.0], dtype=np.float32),
                           size=(n, n))
            yield y, status, G, QD, np.ascontiguousarray(Q)


def answer_bits(answer):
    """i, j and the bits of the values (Gmax and Gmax2, or the nu solver's gap)."""
    return [int(answer[0]), int(answer[1])] + [np.float64(v).tobytes().hex()
                                               for v in answer[2:]]


def engine_answers():
    """Both selections on every state, by the engine's path of this process."""
    return [answer_bits(select(*state)) for state in states()
            for select in (select_working_pair, select_working_pair_nu)]


def reference_answers():
    return [answer_bits(select(*state)) for state in states()
            for select in (libsvm_working_pair, libsvm_working_pair_nu)]


def test_the_states_reach_every_case():
    """The states are worth testing: some have no i, some an i but no j, most a pair."""
    for select in (libsvm_working_pair, libsvm_working_pair_nu):
        answers = [select(*state) for state in states()]
        assert any(i == -1 for i, _, *_ in answers)
        assert any(j == -1 for _, j, *_ in answers)
        assert sum(j != -1 for _, j, *_ in answers) > 300


def test_the_machine_path_picks_libsvm_pair():
    assert engine_answers() == reference_answers()


CHILD = """
import json
import sys
sys.path[:0] = [{tests!r}, {tests_root!r}]
from test_engine_working_set import engine_answers
print(json.dumps(engine_answers()))
"""


@pytest.mark.parametrize("level", LEVELS)
def test_every_path_picks_libsvm_pair(level, tmp_path):
    info = isa_info()
    if not info["multi_isa"] or LEVELS.index(level) > LEVELS.index(info["machine"]):
        pytest.skip(f"this build or CPU does not run the {level} path")
    env = svmx_child_env()
    env["SVMX_ISA"] = level
    here = Path(__file__).resolve().parent
    code = CHILD.format(tests=str(here), tests_root=str(here.parent))
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout) == reference_answers()


def test_mismatched_lengths_are_refused_naming_the_arrays():
    y = np.ones(3, dtype=np.int8)
    for select in (select_working_pair, select_working_pair_nu):
        with pytest.raises(ValueError, match="y, status, G and QD"):
            select(y, np.zeros(2, np.int8), np.zeros(3), np.ones(3),
                   np.zeros((3, 3), np.float32))
