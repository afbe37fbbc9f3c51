"""The notebook widgets: the card table (an anywidget) and the ipywidgets app around it.

Importing this module imports anywidget and ipywidgets; ``import courtlearn``
alone does not.
"""
from .table import CardTable
from .app import PlayApp, play

__all__ = ["CardTable", "PlayApp", "play"]
