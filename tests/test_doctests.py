"""The examples in the package's docstrings run as written."""
import doctest
import importlib

import pytest

MODULES = ["courtlearn", "courtlearn.steps", "courtlearn.moves", "courtlearn.cards", "courtlearn.rules", "courtlearn.deal",
           "courtlearn.session", "courtlearn.explain", "courtlearn.bots", "courtlearn.render",
           "courtlearn.frames", "courtlearn.exercises", "courtlearn.scoring", "courtlearn.notation", "courtlearn.solver", "courtlearn.coach", "courtlearn.cardbits",
           "courtlearn.pureplay", "courtlearn.puzzles", "courtlearn.trick_solver", "courtlearn.dds",
           "courtlearn.widgets.core", "courtlearn.language"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
