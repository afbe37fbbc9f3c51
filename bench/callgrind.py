"""Instructions a command executes, counted by Valgrind's callgrind (the instruction
benches: engine_instructions.py, class_instructions.py). Needs ``valgrind``."""
from __future__ import annotations

import re
import subprocess


def instructions(argv: list[str], env=None, cwd=None) -> int:
    """Callgrind's total instruction count ("Collected") of running ``argv``."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          *argv], capture_output=True, text=True, check=True, env=env, cwd=cwd)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise RuntimeError(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))
