"""
Novelty detection with a one-class SVM
======================================

:class:`~svmx.svm.OneClassSVM` learns, from clean training data only, a region that holds most
of it. New points are then classified as regular (+1, inside) or novel (-1, outside). The
training data here are two Gaussian clusters; the test data are new points from the same
clusters and points drawn uniformly over the square, most of them novel.

``nu`` sets roughly the fraction of training points left outside the region (in theory
an upper bound on the points strictly outside; the support vectors lie on the boundary,
and numerically some of them fall outside it). ``gamma`` sets how tightly the region
follows the data. With a large ``gamma`` (right) the region wraps the training points,
nearly half of them become support vectors on its boundary, the observed fraction
outside exceeds ``nu`` and new regular points are flagged as novel.
"""

import matplotlib.pyplot as plt
import numpy as np

from svmx import OneClassSVM

rng = np.random.default_rng(0)
centres = np.array([[-2.0, -2.0], [2.0, 2.0]])
X_train = np.concatenate([rng.normal(scale=0.6, size=(100, 2)) + c for c in centres])
X_regular = np.concatenate([rng.normal(scale=0.6, size=(20, 2)) + c for c in centres])
X_novel = rng.uniform(-5.0, 5.0, size=(40, 2))

grid_x, grid_y = np.meshgrid(np.linspace(-5.0, 5.0, 250), np.linspace(-5.0, 5.0, 250))
grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])

settings = [(0.05, 0.5), (0.2, 0.5), (0.05, 5.0)]
fig, axes = plt.subplots(1, 3, figsize=(15, 5), sharex=True, sharey=True)
for ax, (nu, gamma) in zip(axes, settings, strict=True):
    detector = OneClassSVM(nu=nu, gamma=gamma).fit(X_train)
    values = detector.decision_function(grid).reshape(grid_x.shape)
    ax.contourf(grid_x, grid_y, values, levels=np.linspace(values.min(), 0, 8), cmap="Blues_r")
    ax.contourf(grid_x, grid_y, values, levels=[0, values.max()], colors="palevioletred",
                alpha=0.5)
    ax.contour(grid_x, grid_y, values, levels=[0], colors="darkred", linewidths=2)
    ax.scatter(X_train[:, 0], X_train[:, 1], c="white", edgecolors="k", s=18,
               label="training")
    ax.scatter(X_regular[:, 0], X_regular[:, 1], c="blueviolet", edgecolors="k", s=30,
               label="new, regular")
    ax.scatter(X_novel[:, 0], X_novel[:, 1], c="gold", edgecolors="k", s=30,
               label="new, uniform")
    outside_train = np.mean(detector.predict(X_train) == -1)
    regular_missed = np.sum(detector.predict(X_regular) == -1)
    novel_inside = np.sum(detector.predict(X_novel) == 1)
    ax.set_title(
        f"nu={nu}, gamma={gamma}\n{outside_train:.0%} of training outside, "
        f"{regular_missed}/40 regular flagged,\n{novel_inside}/40 uniform points inside",
        fontsize=10,
    )
    print(f"nu={nu}, gamma={gamma}: {outside_train:.1%} of the training points outside, "
          f"{len(detector.support_)} support vectors")
axes[0].legend(loc="lower right", fontsize=9)
fig.tight_layout()
plt.show()
