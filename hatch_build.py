"""The build hook of the compiled build: ``TAPETE_COMPILE=1 pip install .``.

Without ``TAPETE_COMPILE=1`` nothing happens and the wheel is pure Python, built with no compiler
and no mypy. With it, mypyc compiles the engine's core (the modules of ``COMPILED``, the same
source that runs uncompiled) into extension modules that the wheel carries next to the sources;
Python imports an extension module before a source file of the same name. The wheel is then
tagged for this Python and platform.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = [
    "src/tapete/cards.py",
    "src/tapete/tricks.py",
    "src/tapete/chance.py",
    "src/tapete/games/pocha.py",
    "src/tapete/games/tute.py",
    "src/tapete/games/truco.py",
    "src/tapete/games/poch.py",
    "src/tapete/games/pottle.py",
    "src/tapete/bots/search.py",
    "src/tapete/bots/solver.py",
    "src/tapete/bots/pocha.py",
    "src/tapete/bots/tute.py",
    "src/tapete/bots/truco.py",
    "src/tapete/bots/poch.py",
    "src/tapete/bots/pottle.py",
]
"""The modules mypyc compiles (``tapete.bench.CORE_MODULES`` checks that they were): the engine's
core, and the search bots with their playouts."""


def wanted() -> bool:
    return os.environ.get("TAPETE_COMPILE", "") not in ("", "0")


class CompileHook(BuildHookInterface[Any]):
    PLUGIN_NAME = "tapete-compile"

    def dependencies(self) -> list[str]:
        return ["mypy>=1.10", "setuptools>=70"] if wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not wanted() or self.target_name != "wheel" or version == "editable":
            return
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]

        root = Path(self.root)
        os.chdir(root / "src")  # module names follow the package layout from here
        modules = [str(Path(m).relative_to("src")) for m in COMPILED]
        extensions = mypycify(
            modules,
            opt_level="3",
            group_name="tapete_core",
            target_dir=str(root / "build" / "mypyc"),
        )
        dist = Distribution({"name": "tapete", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.build_lib = str(root / "build" / "mypyc-lib")
        command.build_temp = str(root / "build" / "mypyc-temp")
        command.ensure_finalized()
        command.run()
        os.chdir(root)
        for built in command.get_outputs():
            path = Path(built)
            relative = path.relative_to(root / "build" / "mypyc-lib")
            build_data["force_include"][str(path)] = str(relative)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        print(f"tapete: compiled {len(modules)} modules with mypyc", file=sys.stderr)
