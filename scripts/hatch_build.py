"""Hatchling build hook: compile the .po catalogs into the wheel (courtlearn's .mo files are
never kept in the repository; a source checkout compiles them in memory, see
courtlearn/language.py)."""
from __future__ import annotations

import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileCatalogs(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        sys.path.insert(0, str(root / "scripts"))
        try:
            import messages
        finally:
            sys.path.pop(0)
        out = Path(self.directory) / "courtlearn-mo"
        for mo in messages.compile_to(out):
            build_data["force_include"][str(mo)] = f"courtlearn/locale/{mo.relative_to(out)}"
