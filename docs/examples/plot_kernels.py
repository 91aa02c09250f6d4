"""
Decision regions of the four kernels
====================================

The same two-class problem, two interleaved half-moons, fitted with each built-in kernel
of :class:`~svmx.svm.SVC`. The linear kernel can only cut the plane with a straight line; the
polynomial kernel of degree 3 bends it; the RBF kernel follows the moons; the sigmoid
kernel, which is not positive semi-definite for every parameter (so the problem it gives
may not be convex), fits this data worst. Support vectors are circled, and each panel
reports the training accuracy and the number of support vectors.
"""

import matplotlib.pyplot as plt
import numpy as np

from svmx import SVC
from svmx.preprocessing import StandardScaler


def half_moons(n_samples, noise, seed):
    """Two interleaved half circles with Gaussian noise, labelled 0 and 1."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0.0, np.pi, n_samples)
    label = rng.integers(0, 2, n_samples)
    x = np.where(label == 0, np.cos(angle), 1.0 - np.cos(angle))
    y = np.where(label == 0, np.sin(angle), 0.5 - np.sin(angle))
    points = np.column_stack([x, y]) + rng.normal(scale=noise, size=(n_samples, 2))
    return points, label


X, y = half_moons(200, noise=0.15, seed=0)
X = StandardScaler().fit_transform(X)

grid_x, grid_y = np.meshgrid(np.linspace(-2.5, 2.5, 200), np.linspace(-2.5, 2.5, 200))
grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])

kernels = {
    "linear": SVC(kernel="linear", C=1.0),
    "poly (degree 3)": SVC(kernel="poly", degree=3, coef0=1.0, C=1.0),
    "rbf": SVC(kernel="rbf", gamma=1.0, C=1.0),
    "sigmoid": SVC(kernel="sigmoid", gamma=0.5, coef0=0.0, C=1.0),
}

fig, axes = plt.subplots(1, 4, figsize=(14, 3.8), sharex=True, sharey=True)
for ax, (name, model) in zip(axes, kernels.items(), strict=True):
    model.fit(X, y)
    values = model.decision_function(grid).reshape(grid_x.shape)
    ax.contourf(grid_x, grid_y, values, levels=20, cmap="RdBu", alpha=0.6)
    ax.contour(grid_x, grid_y, values, levels=[-1, 0, 1], colors="k",
               linestyles=["--", "-", "--"], linewidths=1)
    ax.scatter(X[:, 0], X[:, 1], c=y, cmap="RdBu", edgecolors="k", s=18)
    sv = model.support_vectors_
    ax.scatter(sv[:, 0], sv[:, 1], s=70, facecolors="none", edgecolors="k", linewidths=0.8)
    ax.set_title(f"{name}\naccuracy {model.score(X, y):.2f}, {len(sv)} SVs")
    ax.set_xticks(())
    ax.set_yticks(())
fig.suptitle("The decision function's zero level (solid) and the margins at -1 and +1 (dashed)")
fig.tight_layout()
plt.show()
