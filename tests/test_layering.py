"""Dependencies point inward: the core imports only the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tapete

SRC = Path(tapete.__file__).parent
CORE = {
    "tapete.cards",
    "tapete.errors",
    "tapete.game",
    "tapete.tricks",
    "tapete.chance",
    "tapete.games",
}
SERVICES = {
    "tapete.record",
    "tapete.match",
    "tapete.bots",
    "tapete.playthrough",
    "tapete.i18n",
    "tapete.present",
    "tapete.narrate",
}
LAYER = {**dict.fromkeys(CORE, 0), **dict.fromkeys(SERVICES, 1)}
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    """0 pure core, 1 pure services, 2 the I/O rooms (store, tui, web, rl, arena, bench, cli)."""
    for prefix, layer in LAYER.items():
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return 0 if module == "tapete" else 2


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


def test_inner_layers_import_only_stdlib_and_inner_layers() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        module = module_name(path)
        layer = layer_of(module)
        if layer == 2:
            continue
        for name in imports(path):
            top = name.split(".")[0]
            if top == "tapete":
                if layer_of(name) > layer:
                    problems.append(f"{module} (layer {layer}) imports {name}")
            elif top not in STDLIB:
                problems.append(f"{module} imports the third-party package {name}")
    assert problems == []


def test_the_core_does_no_io_and_uses_no_global_rng() -> None:
    banned = {"print", "open", "input"}
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        if layer_of(module_name(path)) != 0:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in banned
            ):
                problems.append(f"{path.name}:{node.lineno} calls {node.func.id}")
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                problems.append(f"{path.name}:{node.lineno} uses random.{node.attr}")
    assert problems == []


def test_import_tapete_loads_only_the_pure_core() -> None:
    code = (
        "import sys, tapete; tapete.load('pocha');"
        "print(sorted(m for m in sys.modules if m.startswith('tapete')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = eval(out.stdout)
    assert all(layer_of(m) == 0 for m in loaded), loaded
