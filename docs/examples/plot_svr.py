"""
Support vector regression
=========================

:class:`~svmx.svm.SVR` fits a function that may miss each target by up to ``epsilon`` at no
cost; only points on or outside that tube become support vectors. Left: RBF, linear and
polynomial kernels on a noisy sine. Right: the RBF fit with three tube widths, and
:class:`~svmx.svm.NuSVR`, which takes a fraction ``nu`` instead and finds the width itself.
"""

import matplotlib.pyplot as plt
import numpy as np

from svmx import SVR, NuSVR

rng = np.random.default_rng(0)
x = np.sort(rng.uniform(0.0, 6.0, 120)).reshape(-1, 1)
t = np.sin(x).ravel() + rng.normal(scale=0.15, size=len(x))
line = np.linspace(0.0, 6.0, 400).reshape(-1, 1)

fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
left.scatter(x, t, s=12, c="0.5", label="data")
for model, label in [
    (SVR(kernel="rbf", C=10.0, gamma=0.5, epsilon=0.1), "RBF"),
    (SVR(kernel="linear", C=10.0, epsilon=0.1), "linear"),
    (SVR(kernel="poly", degree=3, gamma=0.3, coef0=1.0, C=10.0, epsilon=0.1), "poly, degree 3"),
]:
    model.fit(x, t)
    left.plot(line, model.predict(line), linewidth=2,
              label=f"{label}: {len(model.support_)} SVs, R² {model.score(x, t):.2f}")
left.set_title("epsilon-SVR (epsilon = 0.1) with three kernels")
left.legend(loc="lower left", fontsize=9)

right.scatter(x, t, s=12, c="0.5")
for epsilon, colour in [(0.05, "C0"), (0.2, "C1"), (0.5, "C2")]:
    model = SVR(kernel="rbf", C=10.0, gamma=0.5, epsilon=epsilon).fit(x, t)
    fitted = model.predict(line)
    right.plot(line, fitted, colour, linewidth=2,
               label=f"SVR, epsilon={epsilon}: {len(model.support_)} SVs")
    right.fill_between(line.ravel(), fitted - epsilon, fitted + epsilon, color=colour,
                       alpha=0.12)
nu_model = NuSVR(kernel="rbf", C=10.0, gamma=0.5, nu=0.3).fit(x, t)
right.plot(line, nu_model.predict(line), "k--", linewidth=1.5,
           label=f"NuSVR, nu=0.3: {len(nu_model.support_)} SVs "
                 f"({len(nu_model.support_) / len(t):.0%} of the points)")
right.set_title("RBF: a wider tube, fewer support vectors")
right.legend(loc="lower left", fontsize=9)
for ax in (left, right):
    ax.set_xlabel("x")
left.set_ylabel("target")
fig.tight_layout()
plt.show()
