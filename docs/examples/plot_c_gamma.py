"""
The effect of C and gamma
=========================

An RBF :class:`~svmx.svm.SVC` on a noisy two-class problem, for three values of ``C`` (the
price of a margin violation) and three of ``gamma`` (the inverse width of the kernel).
Small ``gamma`` gives smooth boundaries; large ``gamma`` lets the boundary wrap single
training points. Small ``C`` tolerates many violations (many support vectors,
a smooth boundary); large ``C`` fits the training data harder. The best pair is in between
and depends on the data: that is what a grid search finds (see the grid-search example).

Each panel reports the training accuracy and the accuracy on a held-out set drawn from
the same distribution: the bottom row fits the training set perfectly and generalises
worse than the middle of the grid, and small ``C`` with an extreme ``gamma`` predicts one
class everywhere.
"""

import matplotlib.pyplot as plt
import numpy as np

from svmx import SVC


def noisy_circles(n_samples, seed):
    """Points in the square, labelled by a circle, with 10% of the labels flipped."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.5, 1.5, size=(n_samples, 2))
    y = (np.hypot(X[:, 0], X[:, 1]) < 1.0).astype(int)
    flip = rng.random(n_samples) < 0.1
    return X, np.where(flip, 1 - y, y)


X, y = noisy_circles(300, seed=0)
X_test, y_test = noisy_circles(2000, seed=1)

grid_x, grid_y = np.meshgrid(np.linspace(-1.5, 1.5, 150), np.linspace(-1.5, 1.5, 150))
grid = np.column_stack([grid_x.ravel(), grid_y.ravel()])

C_values = [0.1, 10.0, 1000.0]
gamma_values = [0.1, 2.0, 50.0]
fig, axes = plt.subplots(3, 3, figsize=(10, 10), sharex=True, sharey=True)
for row, gamma in enumerate(gamma_values):
    for column, C in enumerate(C_values):
        model = SVC(C=C, gamma=gamma).fit(X, y)
        ax = axes[row, column]
        values = model.decision_function(grid).reshape(grid_x.shape)
        ax.contourf(grid_x, grid_y, values > 0, cmap="RdBu", alpha=0.4)
        ax.contour(grid_x, grid_y, values, levels=[0], colors="k", linewidths=1)
        ax.scatter(X[:, 0], X[:, 1], c=np.where(y == 1, "tab:blue", "tab:red"), edgecolors="k",
                   linewidths=0.4, s=14)
        ax.set_title(
            f"C={C:g}, gamma={gamma:g}\ntrain {model.score(X, y):.2f}, "
            f"test {model.score(X_test, y_test):.2f}, {model.n_support_.sum()} SVs",
            fontsize=9,
        )
        ax.set_xticks(())
        ax.set_yticks(())
fig.suptitle("RBF SVC: C grows to the right, gamma downwards")
fig.tight_layout()
plt.show()
