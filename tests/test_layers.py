"""The layout holds: imports go down the layers only, no module imports itself back, and
no module takes another module's underscored names (a module is split by concern, not by
length: there is no line cap).

Every ``import`` and ``from ... import`` of evalbars' own modules is read from the source,
at module level and inside functions alike (a deferred import is still a dependency).
"""
from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "evalbars"

LAYERS = {"core": 0, "io": 1, "stats": 1, "report": 2, "analyses": 3, "simulate": 4, "cli": 5}
"""Each subpackage's floor: a module may import its own subpackage and the floors below.
io and stats share a floor and import neither each other; ``evalbars/__init__.py`` (the
public API) and ``__main__.py`` stand above them all."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _target(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> set[str]:
    """The evalbars modules that ``module`` imports, anywhere in its source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # "from . import x" takes the module x when there is one, else a name of base
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                     for alias in node.names]
        else:
            continue
        found |= {t for t in map(_target, names) if t is not None and t != module}
    return found


GRAPH = {module: imports(module) for module in MODULES}


def floor(module: str) -> tuple[float, str]:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return (float("inf"), "api")
    return (LAYERS[parts[1]], parts[1])


def test_every_subpackage_has_a_floor():
    packages = {m.split(".")[1] for m in MODULES if m.count(".") >= 1} - {"__main__"}
    assert packages == set(LAYERS)


def test_imports_go_down_the_layers_only():
    upward = []
    for module, targets in GRAPH.items():
        level, package = floor(module)
        for target in targets:
            target_level, target_package = floor(target)
            if target_package != package and target_level >= level:
                upward.append(f"{module} -> {target}")
    assert upward == []


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return found


def test_no_import_circles():
    assert circles(GRAPH) == []


def test_the_checks_see_what_they_look_for():
    """A circle is found, and the reading of imports sees a deferred one."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert floor("evalbars.report.plots") < floor("evalbars.analyses.compare")
    assert "evalbars.report.notebook" in GRAPH["evalbars.analyses.results"]


def test_every_subpackage_says_what_lives_there_and_what_it_may_import():
    for package in LAYERS:
        doc = ast.get_docstring(ast.parse((SRC / package / "__init__.py").read_text()))
        assert doc and "May import" in doc, package


def private_imports(module: str) -> list[str]:
    """The underscored names ``module`` takes from another evalbars module. A private
    module (``io.logs._json``) may be imported whole; a name with an underscore is its
    module's own (scipy's ``_resampling.py`` exports ``bootstrap``, never ``_bootstrap``)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    taken = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            base = ".".join(base + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        if not base.startswith("evalbars"):
            continue
        taken += [f"{base}.{alias.name}" for alias in node.names
                  if alias.name.startswith("_") and not alias.name.startswith("__")
                  and f"{base}.{alias.name}" not in MODULES]
    return taken


def test_no_module_imports_another_modules_underscored_names():
    taken = {module: found for module in MODULES if (found := private_imports(module))}
    assert taken == {}


def test_docstrings_cite_published_sources_not_unshipped_texts():
    """The project's own planning texts are not shipped with the package: a docstring that
    cites them (or a path of a machine) points the reader nowhere."""
    unshipped = ("seed 000", "seed 002", "seed 004", "EXPECTED.md", "DESIGN.md",
                 "DEVELOPERS.md", "/work/", "shared/fixtures")
    found = [f"{path.relative_to(SRC)}: {word}" for path in MODULES.values()
             for word in unshipped if word in path.read_text(encoding="utf-8")]
    assert found == []
