"""svmx in scikit-learn's machinery when it is installed, and on its own base when it is not.

With scikit-learn: svmx's base derives from ``sklearn.base.BaseEstimator``, so metadata
routing (``set_fit_request``), the HTML repr, ``set_output`` and tags work as for
scikit-learn's own estimators. Without it (simulated in a subprocess whose import system
refuses ``sklearn``): ``import svmx``, fits, predictions and model selection work on the
built-in base and ``sklearn`` never enters ``sys.modules``.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import svmx
from svmx._sklearn_compat import SKLEARN_INSTALLED

sklearn = pytest.importorskip("sklearn")
from sklearn.base import BaseEstimator as SklearnBaseEstimator  # noqa: E402
from sklearn.base import is_classifier, is_regressor  # noqa: E402
from sklearn.datasets import load_iris  # noqa: E402
from sklearn.model_selection import GridSearchCV, KFold, cross_validate  # noqa: E402
from sklearn.utils import get_tags  # noqa: E402


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def test_the_base_is_scikit_learns():
    assert SKLEARN_INSTALLED
    for estimator in (svmx.SVC(), svmx.SVR(), svmx.preprocessing.StandardScaler(),
                      svmx.model_selection.GridSearch(svmx.SVC(), {})):
        assert isinstance(estimator, SklearnBaseEstimator)
    assert is_classifier(svmx.SVC()) and is_regressor(svmx.NuSVR())
    assert get_tags(svmx.OneClassSVM()).estimator_type == "outlier_detector"
    assert is_classifier(svmx.model_selection.GridSearch(svmx.SVC(), {"C": [1.0]}))


def test_html_repr():
    html = svmx.SVC(C=2.0)._repr_html_()
    assert "SVC" in html and "<" in html
    assert "GridSearch" in svmx.model_selection.GridSearch(svmx.SVC(), {"C": [1]})._repr_html_()


def test_sample_weight_is_routed_to_fit(iris):
    X, y = iris
    weights = np.linspace(0.05, 3.0, len(y))
    folds = list(KFold(3, shuffle=True, random_state=0).split(X))
    expected = [svmx.SVC().fit(X[tr], y[tr], sample_weight=weights[tr]).score(X[te], y[te])
                for tr, te in folds]
    with sklearn.config_context(enable_metadata_routing=True):
        model = svmx.SVC().set_fit_request(sample_weight=True).set_score_request(
            sample_weight=False)
        result = cross_validate(model, X, y, cv=folds, params={"sample_weight": weights})
        with pytest.raises(sklearn.exceptions.UnsetMetadataPassedError):
            cross_validate(svmx.SVC(), X, y, cv=folds, params={"sample_weight": weights})
    np.testing.assert_array_equal(result["test_score"], expected)
    unweighted = [svmx.SVC().fit(X[tr], y[tr]).score(X[te], y[te]) for tr, te in folds]
    assert expected != unweighted  # the weights reached the fits


def test_scikit_learns_grid_search_tunes_svmx(iris):
    X, y = iris
    grid = {"C": [0.1, 10.0], "gamma": [0.1, 1.0]}
    theirs = GridSearchCV(svmx.SVC(), grid, cv=3).fit(X, y)
    ours = svmx.model_selection.GridSearchCV(svmx.SVC(), grid, cv=3).fit(X, y)
    assert theirs.best_params_ == ours.best_params_
    np.testing.assert_array_equal(theirs.cv_results_["mean_test_score"],
                                  ours.cv_results_["mean_test_score"])
    nested = GridSearchCV(ours, {"estimator__C": [1.0, 5.0]}, cv=3).fit(X, y)
    assert nested.best_estimator_.estimator.C in (1.0, 5.0)


@pytest.mark.parametrize("transformer", ["StandardScaler", "MinMaxScaler", "SvmScaler"])
def test_set_output_pandas(transformer):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [0.0, 1.0, 3.0], "b": [2.0, 4.0, 5.0]}, index=[7, 8, 9])
    scaler = getattr(svmx.preprocessing, transformer)().set_output(transform="pandas")
    out = scaler.fit_transform(frame)
    assert isinstance(out, pd.DataFrame) and list(out.index) == [7, 8, 9]
    # Every transformer, SvmScaler too, names its columns after the frame's.
    assert list(out.columns) == ["a", "b"] == scaler.get_feature_names_out().tolist()
    np.testing.assert_allclose(out.to_numpy(), scaler.set_output(transform="default")
                               .transform(frame))
    with pytest.raises(ValueError, match="input_features"):
        scaler.get_feature_names_out(["a"])


WITHOUT_SKLEARN = textwrap.dedent("""
    import importlib.abc, sys

    class BlockSklearn(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "sklearn" or name.startswith("sklearn."):
                raise ImportError(f"No module named {name!r} (blocked)")
            return None

    sys.meta_path.insert(0, BlockSklearn())

    import pickle
    import numpy as np
    import svmx
    from svmx.model_selection import GridSearch, KFold, StratifiedKFold, cross_validate
    from svmx.preprocessing import StandardScaler, train_test_split

    assert not svmx._sklearn_compat.SKLEARN_INSTALLED
    assert svmx.SVC.__mro__[-2].__name__ == "_BuiltinBase", svmx.SVC.__mro__
    rng = np.random.RandomState(0)
    X = np.vstack([rng.randn(30, 2) - 2, rng.randn(30, 2) + 2])
    y = np.repeat([0, 1], 30)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0, stratify=y)
    model = svmx.SVC().fit(X_train, y_train)
    assert model.score(X_test, y_test) > 0.9
    result = cross_validate(svmx.SVC(), X, y, cv=StratifiedKFold(3, shuffle=True,
                            random_state=0), scoring=["accuracy", "balanced_accuracy"])
    assert sorted(result) == ["fit_time", "score_time", "test_accuracy",
                              "test_balanced_accuracy"], sorted(result)
    search = GridSearch(svmx.SVC(), {"C": [0.1, 1.0]}, cv=KFold(3)).fit(X, y)
    assert search.cv_results_["rank_test_score"].min() == 1
    assert search.get_params()["estimator__C"] == 1.0
    search.set_params(estimator__C=3.0)
    assert search.estimator.C == 3.0 and repr(search.estimator) == "SVC(C=3.0)"
    assert pickle.loads(pickle.dumps(model)).predict(X_test).tolist() == (
        model.predict(X_test).tolist())
    assert not hasattr(StandardScaler(), "set_output")
    try:
        cross_validate(svmx.SVC(), X, y, scoring="f1_macro")
    except ValueError as error:
        assert "install scikit-learn" in str(error)
    else:
        raise AssertionError("f1_macro needs scikit-learn")
    assert "sklearn" not in sys.modules
    print("ok")
""")


def test_everything_works_without_scikit_learn(tmp_path):
    # The svmx under test, not a source tree in the working directory.
    home = str(Path(svmx.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [home, *filter(None, [os.environ.get("PYTHONPATH")])])}
    result = subprocess.run([sys.executable, "-c", WITHOUT_SKLEARN], capture_output=True,
                            text=True, cwd=tmp_path, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
