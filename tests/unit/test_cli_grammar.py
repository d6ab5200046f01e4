"""The command line's grammar: commands register only when an app is built (two apps share
nothing), every command takes --json, one option is declared once, and `pyinspect --help`
stays fast (the command line starts on every agent's shell call)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from pathlib import Path

import typer

from pyinspect.cli import build_app

CLI = Path(__file__).resolve().parents[2] / "pyinspect" / "cli"


def commands(app: typer.Typer) -> dict[str, set[str]]:
    """Group name ("" for the top) -> its command names."""
    found = {"": {str(c.name) for c in app.registered_commands}}
    for group in app.registered_groups:
        assert group.typer_instance is not None
        found[str(group.name)] = {str(c.name) for c in group.typer_instance.registered_commands}
    return found


def test_commands_register_when_an_app_is_built_and_two_apps_share_none() -> None:
    first, second = build_app(), build_app()
    assert commands(first) == commands(second)
    assert {"threads", "locks", "trace", "ps", "dap", "serve"} <= commands(first)[""]
    assert {"stats", "retained", "diff"} <= commands(first)["heap"]
    heaps = [g.typer_instance for app in (first, second) for g in app.registered_groups if g.name == "heap"]
    assert heaps[0] is not heaps[1]
    heap_only = build_app(("heap",))
    assert set(commands(heap_only)) == {"", "heap"} and commands(heap_only)[""] == set()


def test_a_command_line_builds_the_area_of_the_command_it_names() -> None:
    from pyinspect.cli import _AREA_OF, _AREAS, _areas_for

    for area in _AREAS:
        names = commands(build_app((area,)))
        named = names[""] | set(names) - {""}
        assert named and {_AREA_OF[name] for name in named} == {area}, area
    every = commands(build_app())
    assert set(_AREA_OF) == every[""] | set(every) - {""}
    assert _areas_for(["pyinspect", "--offline", "locks", "--dump", "d"]) == ("triage",)
    assert _areas_for(["pyinspect", "heap", "stats", "--help"]) == ("heap",)
    assert _areas_for(["pyinspect", "--help"]) == _areas_for(["pyinspect", "thread"]) == _AREAS


def test_no_cli_module_builds_a_typer_or_declares_a_shared_option_of_its_own() -> None:
    """typer.Typer(...) only inside functions; --pid, --dump, --json... only in grammar.py (and
    flags.py, the names read before typer loads)."""
    shared = {"--pid", "--dump", "--dac", "--symbols", "--json", "--limit"}
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            assert not (isinstance(node, ast.Assign | ast.AnnAssign) and "Typer(" in ast.unparse(node)), \
                f"{path.name}: a module-level Typer"
        if path.name not in ("grammar.py", "flags.py"):
            declared = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in shared}
            assert not declared, f"{path.name} declares {declared} itself: use pyinspect.cli.grammar"


def test_pyinspect_help_stays_fast() -> None:
    times = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pyinspect", "--help"], check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    assert min(times) < 0.3, f"pyinspect --help took {min(times):.2f} s at best of 5"


def test_a_one_shot_command_loads_no_graph_module_and_no_multiprocessing() -> None:
    """What a dump command's start loads (its area, the heap workspace, the reader's socket, the
    progress bar) leaves out the heap graph's modules, multiprocessing and rich: each was a few
    milliseconds of every one-shot command's CPU; and the answers' models, which load while the
    call runs (pyinspect.heap.reader's meanwhile), not before its request (docs/triage.md, Speed)."""
    loads = ("import sys; from pyinspect.cli import build_app; build_app(('triage',)); build_app(('heap',)); "
             "import pyinspect.session.heap_workspace, pyinspect.heap.dump_child, pyinspect.cli.progress; "
             "print(' '.join(sys.modules))")
    loaded = set(subprocess.run([sys.executable, "-c", loads], check=True, capture_output=True, text=True,
                                env={**os.environ, "TYPER_USE_RICH": "0"}).stdout.split())
    assert "pyinspect.session.heap_workspace" in loaded and "pyinspect.heap.reader" in loaded
    unwanted = {"pyinspect.heap.graph", "pyinspect.heap.snapshot", "pyinspect.models.heapgraph",
                "pyinspect.models.heap_answers", "multiprocessing", "pickle", "rich", "pyinspect.models.triage",
                "pyinspect.models.memory", "pyinspect.models.completeness"}
    assert not unwanted & loaded, f"loaded: {sorted(unwanted & loaded)}"


def test_a_dump_command_spawns_its_reader_before_anything_heavy_loads() -> None:
    """The reader is a one-shot command's critical path from its spawn on: `pyinspect locks
    --dump` reaches the reader's spawn (os.posix_spawn, stopped here) having loaded none of
    typing, pathlib, subprocess, socket, tempfile, shutil, enum, re or the errors beyond what the
    interpreter loads by itself; each was milliseconds before the spawn (docs/triage.md, Speed)."""
    bare = "import sys; print(' '.join(sys.modules))"
    spawning = ("import os, sys\n"
                "def spawn(*args, **kwargs):\n"
                "    print(' '.join(sys.modules))\n"
                "    sys.stdout.flush()\n"
                "    os._exit(0)\n"
                "os.posix_spawn = spawn\n"
                "sys.argv = ['pyinspect', 'locks', '--dump', 'missing.dmp']\n"
                "from pyinspect.cli import main\n"
                "main()\n")
    loaded = [set(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                                 env={**os.environ, "TYPER_USE_RICH": "0"}).stdout.split())
              for code in (bare, spawning)]
    assert "pyinspect.heap.reader_spawn" in loaded[1]
    heavy = {"typing", "pathlib", "subprocess", "socket", "tempfile", "shutil", "enum", "re", "pyinspect.errors",
             "typer", "pydantic"}
    assert not heavy & (loaded[1] - loaded[0]), f"loaded before the spawn: {sorted(heavy & (loaded[1] - loaded[0]))}"
