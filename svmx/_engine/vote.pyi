"""Type stubs for svmx._engine.vote (LIBSVM's one-vs-one vote)."""

import numpy as np
from numpy.typing import ArrayLike, NDArray

def ovo_vote(values: ArrayLike, n_classes: int) -> NDArray[np.intp]: ...
