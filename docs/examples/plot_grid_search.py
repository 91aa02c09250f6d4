"""
Grid search heat map
====================

The practical workflow on generated data: scale the features with
:class:`svmx.preprocessing.SvmScaler` (fitted on the training rows only), search ``C`` and
``gamma`` of an RBF :class:`~svmx.svm.SVC` over LIBSVM's exponential grid
(:func:`svmx.model_selection.libsvm_grid`) by 5-fold cross-validation with
:class:`svmx.model_selection.GridSearch`, refit on the whole training set with the best
pair, and test once on held-out data.

The heat map shows the mean cross-validation accuracy of every pair. Small ``C`` with
small ``gamma`` underfits (the dark corner, no better than predicting one class),
and the edge of that corner is a diagonal: a larger ``C`` compensates a smaller ``gamma``.
The two interact, which is why they are searched together, on a log scale. Around the best
pair the accuracy is nearly flat, so the exact winner depends on the folds.
"""

import matplotlib.pyplot as plt
import numpy as np

from svmx import SVC
from svmx.model_selection import GridSearch, StratifiedKFold, libsvm_grid
from svmx.preprocessing import SvmScaler, train_test_split

# Two features on very different scales (the second is in thousands), two classes
# separated by a wavy boundary, and 5% of the labels flipped.
rng = np.random.default_rng(0)
n_samples = 600
signal = rng.uniform(0.0, 2.0, size=(n_samples, 2))
y = (signal[:, 1] > 1.0 + 0.6 * np.sin(3.0 * signal[:, 0])).astype(int)
y = np.where(rng.random(n_samples) < 0.05, 1 - y, y)
X = np.column_stack([signal[:, 0], 1000.0 * signal[:, 1]])

X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0,
                                                    stratify=y)
unscaled = SVC(gamma="auto").fit(X_train, y_train).score(X_test, y_test)
scaler = SvmScaler(lower=-1.0, upper=1.0).fit(X_train)
X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
default = SVC(gamma="auto").fit(X_train, y_train).score(X_test, y_test)
print(f"test accuracy with C=1, gamma=1/n_features: unscaled {unscaled:.3f}, "
      f"scaled {default:.3f}")

grid = libsvm_grid()  # C = 2^-5 .. 2^15, gamma = 2^3 .. 2^-15, both by factors of 4
search = GridSearch(SVC(kernel="rbf"), grid,
                    cv=StratifiedKFold(5, shuffle=True, random_state=0))
search.fit(X_train, y_train)
print(f"{len(search.cv_results_['params'])} candidates x 5 folds")
print("best:", search.best_params_, f"cross-validation accuracy {search.best_score_:.3f}")
print(f"test accuracy of the refitted best model: {search.score(X_test, y_test):.3f}")

# One cell per candidate: cv_results_["params"][k] scored cv_results_["mean_test_score"][k].
C_values, gamma_values = grid["C"], grid["gamma"]
scores = np.full((len(C_values), len(gamma_values)), np.nan)
for params, score in zip(search.cv_results_["params"], search.cv_results_["mean_test_score"],
                         strict=True):
    scores[C_values.index(params["C"]), gamma_values.index(params["gamma"])] = score
fig, ax = plt.subplots(figsize=(7.5, 6))
image = ax.imshow(scores.T, origin="lower", cmap="viridis", vmin=0.5, vmax=1.0, aspect="auto")
ax.set_xticks(range(len(C_values)), [f"{np.log2(C):g}" for C in C_values])
ax.set_yticks(range(len(gamma_values)), [f"{np.log2(g):g}" for g in gamma_values])
ax.set_xlabel("log2 C")
ax.set_ylabel("log2 gamma")
best_C = C_values.index(search.best_params_["C"])
best_gamma = gamma_values.index(search.best_params_["gamma"])
ax.scatter([best_C], [best_gamma], marker="*", s=250, c="red", label="best")
ax.legend(loc="upper right")
fig.colorbar(image, label="mean 5-fold cross-validation accuracy")
ax.set_title("Cross-validation accuracy of an RBF SVC over LIBSVM's grid")
fig.tight_layout()
plt.show()
