"""
Probability calibration and its cost
====================================

With ``probability=True``, :class:`~svmx.svm.SVC` fits Platt's sigmoid on decision values
from an internal 5-fold cross-validation, and ``predict_proba`` returns calibrated
probabilities. A reliability diagram checks them on held-out data: among the test points
given a probability near *p* of being positive, about a fraction *p* should be positive.
For comparison, a naive score: the decision values mapped linearly onto [0, 1], which
ranks the points the same way but is not a probability.

The internal cross-validation is not free: the example times both fits.
"""

import time

import matplotlib.pyplot as plt
import numpy as np

from svmx import SVC

# Two overlapping Gaussian classes in 10 dimensions.
rng = np.random.default_rng(0)
n_samples, n_features = 4000, 10
y = rng.integers(0, 2, n_samples)
X = rng.normal(size=(n_samples, n_features)) + y[:, None] * np.ones(n_features)
X_train, y_train, X_test, y_test = X[:2000], y[:2000], X[2000:], y[2000:]

start = time.perf_counter()
plain = SVC(kernel="rbf").fit(X_train, y_train)
plain_time = time.perf_counter() - start
start = time.perf_counter()
calibrated = SVC(kernel="rbf", probability=True, random_state=0).fit(X_train, y_train)
calibrated_time = time.perf_counter() - start
print(f"fit without probabilities: {plain_time:.3f} s")
print(f"fit with probability=True: {calibrated_time:.3f} s "
      f"({calibrated_time / plain_time:.1f} times as long)")
print("Platt's sigmoid: A =", calibrated.probA_[0].round(3), " B =",
      calibrated.probB_[0].round(3))

probability = calibrated.predict_proba(X_test)[:, 1]
decision = plain.decision_function(X_test)
naive = (decision - decision.min()) / (decision.max() - decision.min())

bins = np.linspace(0.0, 1.0, 11)
centres = (bins[:-1] + bins[1:]) / 2
fig, (ax, hist) = plt.subplots(2, 1, figsize=(6.5, 7.5), sharex=True,
                               gridspec_kw={"height_ratios": [3, 1]})
ax.plot([0, 1], [0, 1], "k:", label="perfectly calibrated")
for values, label in [(probability, "predict_proba (Platt, held-out fit)"),
                      (naive, "decision_function mapped linearly onto [0, 1]")]:
    which = np.clip(np.digitize(values, bins) - 1, 0, len(centres) - 1)
    filled = [b for b in range(len(centres)) if np.any(which == b)]
    observed = [y_test[which == b].mean() for b in filled]
    predicted = [values[which == b].mean() for b in filled]
    ax.plot(predicted, observed, "o-", label=label)
    hist.hist(values, bins=bins, histtype="step", linewidth=1.5, label=label)
ax.set_ylabel("observed fraction of positives")
ax.set_title("Reliability diagram on 2,000 held-out points")
ax.legend(loc="upper left")
hist.set_xlabel("predicted probability of the positive class")
hist.set_ylabel("test points")
fig.tight_layout()
plt.show()
