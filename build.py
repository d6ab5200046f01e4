#!/usr/bin/env python3
"""Set up and test pyinspect with two commands.

    python3 build.py demo     set up as below, then tour pyinspect on examples/DemoShop:
                              a breakpoint, the stack, a collection read from memory,
                              the heap's top types, a leak found by a snapshot diff and its
                              path to the root (examples/tour.py; each answer checked)
    python3 build.py          create .venv, install pyinspect with its dev extras,
                              build every C# project (dotnet/, tests/targets/, tests/dotnet/,
                              examples/)
    python3 build.py test     run the whole test suite: the C# unit tests (tests/dotnet/)
                              alongside pytest on two workers (extra args go to pytest);
                              either failing fails it
    python3 build.py dotnet   rebuild only the C# projects (and the older-runtime debuggees)
    python3 build.py node     reinstall only the outside clients under tests/node/
    python3 build.py --help   this text

Install option (before the command; for machines without a Python package index):

    --wheelhouse DIR          install Python packages from the wheels in DIR only (its
                              constraints.txt, if any, pins their versions). Default:
                              $PYINSPECT_WHEELHOUSE, else ../shared/wheelhouse beside this
                              checkout when that folder exists, else the package index.

A missing component (python 3.11+, the .NET SDK, a package, a build output) stops the run
with a clear message; nothing is skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
DEFAULT_WHEELHOUSE = ROOT.parent / "shared" / "wheelhouse"
DOTNET_OUT = ROOT / "pyinspect" / "_dotnet"
TARGETS_OUT = ROOT / "tests" / "targets" / "_build"
EXAMPLES_OUT = ROOT / "examples" / "_build"
NODE_CLIENTS = ROOT / "tests" / "node"
CSHARP_TESTS = ROOT / "tests" / "dotnet" / "PyInspect.Tests"
CSHARP_TESTS_DLL = ROOT / "tests" / "dotnet" / "_build" / "PyInspect.Tests" / "PyInspect.Tests.dll"


class SetupError(Exception):
    """A missing component: printed as one clear line, exit status 1."""


def run(cmd: list[str], **kwargs: object) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    result = subprocess.run(cmd, cwd=ROOT, check=False, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        raise SetupError(f"command failed with exit code {result.returncode}: {' '.join(cmd)}")


def check_python() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - build.py runs on whatever python3 the machine has
        raise SetupError(f"pyinspect needs Python 3.11 or newer, this is {sys.version.split()[0]}")


def create_venv() -> None:
    if not VENV_PYTHON.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)


def wheelhouse(given: str | None) -> Path | None:
    """Where Python packages come from: --wheelhouse, $PYINSPECT_WHEELHOUSE, the folder beside
    the checkout, or None for the package index."""
    chosen = given or os.environ.get("PYINSPECT_WHEELHOUSE")
    if chosen:
        folder = Path(chosen).expanduser().resolve()
        if not folder.is_dir():
            raise SetupError(f"the wheelhouse {folder} is not a folder")
        return folder
    return DEFAULT_WHEELHOUSE if DEFAULT_WHEELHOUSE.is_dir() else None


def install_python_packages(wheels: Path | None) -> None:
    if wheels is not None:
        constraints = wheels / "constraints.txt"
        offline = ["--no-index", "--find-links", str(wheels)]
        pin = ["-c", str(constraints)] if constraints.exists() else []
        run([str(VENV_PYTHON), "-m", "pip", "install", "-q", *offline, "uv"])
        uv = str(VENV / "bin" / "uv")
        run([uv, "pip", "install", "-q", "--python", str(VENV_PYTHON), "--offline", "--compile-bytecode",
             "--find-links", str(wheels), *pin, "-e", ".[dev]"])
    else:
        run([str(VENV_PYTHON), "-m", "pip", "install", "-q", "-e", ".[dev]"])
    # Bytecode written now (uv: --compile-bytecode; pip does it by default; pyinspect itself is
    # an editable install): where PYTHONDONTWRITEBYTECODE is set, every command would otherwise
    # compile pydantic, typer and pyinspect from source on each start (measured: +0.4 s CPU).
    run([str(VENV_PYTHON), "-m", "compileall", "-q", "pyinspect"], stdout=subprocess.DEVNULL)


def find_dotnet() -> str:
    dotnet = shutil.which("dotnet")
    if dotnet is None:
        raise SetupError("the .NET SDK (dotnet) is not on PATH; install .NET SDK 10 first")
    return dotnet


DOTNET_TEMP = ROOT / "obj" / "dotnet-temp"


def dotnet_env() -> dict[str, str]:
    """The environment every dotnet command here runs in: quiet, no telemetry, and a temp folder
    of its own inside the checkout (the dotnet command line makes two empty folders in the temp
    folder per run and never removes them; MSBuild's and NuGet's scratch files go there too).
    Nothing here is debugged, so no debugger needs to find these runtimes' files in /tmp."""
    DOTNET_TEMP.mkdir(parents=True, exist_ok=True)
    for folder in DOTNET_TEMP.iterdir():  # the empty ones earlier runs left
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return {**os.environ, "DOTNET_CLI_TELEMETRY_OPTOUT": "1", "DOTNET_NOLOGO": "1", "TMPDIR": str(DOTNET_TEMP)}


def build_dotnet() -> None:
    dotnet = find_dotnet()
    env = dotnet_env()
    run([dotnet, "build", "build.proj", "-nologo", "-v", "q", "-clp:ErrorsOnly"], env=env)
    expected = [p.parent.name for p in sorted((ROOT / "dotnet").glob("*/*.csproj"))]
    missing = [name for name in expected if not (DOTNET_OUT / name / f"{name}.dll").exists()]
    targets = [p.parent.name for p in sorted((ROOT / "tests" / "targets").glob("*/*.csproj"))]
    missing += [name for name in targets if not (TARGETS_OUT / name / f"{name}.dll").exists()]
    examples = [p.parent.name for p in sorted((ROOT / "examples").glob("*/*.csproj"))]
    missing += [name for name in examples if not (EXAMPLES_OUT / name / f"{name}.dll").exists()]
    if not CSHARP_TESTS_DLL.exists():
        missing.append(CSHARP_TESTS.name)
    if missing:
        raise SetupError(f"build finished but these outputs are missing: {', '.join(missing)}")
    publish_heap_helper_ready_to_run(dotnet, env)
    publish_older_runtime_debuggees(dotnet, env)


HEAP_HELPER = ROOT / "dotnet" / "PyInspect.Heap" / "PyInspect.Heap.csproj"


def publish_heap_helper_ready_to_run(dotnet: str, env: dict[str, str]) -> None:
    """The heap helper and ClrMD compiled ahead of time (ReadyToRun, as dotnet-dump ships):
    a one-shot `pyinspect threads --dump` otherwise spends most of its .NET time in the JIT.
    The publish overwrites the built IL assemblies in pyinspect/_dotnet/PyInspect.Heap/; the
    crossgen2 package it needs restores from NuGet like the runtime packs."""
    out = DOTNET_OUT / "PyInspect.Heap"
    scratch = ROOT / "dotnet" / "PyInspect.Heap" / "obj" / "ready-to-run"
    run([dotnet, "publish", str(HEAP_HELPER), "-nologo", "-v", "q", "-clp:ErrorsOnly", "-c", "Release",
         "-r", "linux-x64", "--self-contained", "false", "-p:PublishReadyToRun=true", f"-p:OutDir={scratch}/",
         "-o", str(out)], env=env)
    if not is_ready_to_run(out / "PyInspect.Heap.dll") or not is_ready_to_run(out / "Microsoft.Diagnostics.Runtime.dll"):
        raise SetupError(f"the ReadyToRun publish left IL-only assemblies in {out}")
    compile_python_runtime_ready_to_run(dotnet)


def compile_python_runtime_ready_to_run(dotnet: str) -> None:
    """pythonnet's Python.Runtime.dll in .venv, compiled ahead of time in place by the crossgen2
    that the publish above restored: it was a third of the methods a one-shot command JITs.
    A reinstalled pythonnet brings back its IL-only file, which still works (JIT compiled)."""
    installed = sorted(VENV.glob("lib/python3*/site-packages/pythonnet/runtime/Python.Runtime.dll"))
    if not installed:
        raise SetupError(f"pythonnet's Python.Runtime.dll is not in {VENV}")
    dll = installed[-1]
    if is_ready_to_run(dll):
        return
    packages = Path(os.environ.get("NUGET_PACKAGES") or Path.home() / ".nuget" / "packages")
    framework = sorted((Path(dotnet).resolve().parent / "shared" / "Microsoft.NETCore.App").glob("10.*"))
    crossgen = sorted(packages.glob("microsoft.netcore.app.crossgen2.linux-x64/10.*/tools/crossgen2"))
    if not crossgen or not framework:
        raise SetupError(f"no crossgen2 under {packages} or no .NET 10 runtime beside {dotnet}")
    compiled = dll.with_suffix(".r2r.dll")
    run([str(crossgen[-1]), str(dll), "-o", str(compiled), "-r", f"{framework[-1]}/*.dll",
         "--targetos:linux", "--targetarch:x64", "-O"])
    compiled.replace(dll)


def is_ready_to_run(dll: Path) -> bool:
    """A ReadyToRun image has a managed native header (the CLI header's ManagedNativeHeader
    directory, at offset 64 of the COR20 header, is non-empty)."""
    import struct

    data = dll.read_bytes()
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    optional = pe + 24
    magic = struct.unpack_from("<H", data, optional)[0]
    directories = optional + (96 if magic == 0x10B else 112)
    cli_rva = struct.unpack_from("<I", data, directories + 14 * 8)[0]
    sections = optional + struct.unpack_from("<H", data, pe + 20)[0]
    for index in range(struct.unpack_from("<H", data, pe + 6)[0]):
        _name, size, rva, _raw_size, raw = struct.unpack_from("<8sIIII", data, sections + 40 * index)
        if rva <= cli_rva < rva + size:
            header = raw + cli_rva - rva
            return struct.unpack_from("<I", data, header + 64 + 4)[0] > 0
    return False


# Debuggees published self-contained for the older runtimes pyinspect supports (their
# runtime packs restore from NuGet; no shared runtime of theirs needs to be installed):
# tests/targets/_build/<Project>-<framework>/ holds the apphost, the app and its runtime,
# libmscordbi.so, libmscordaccore.so and createdump included.
OLDER_RUNTIME_DEBUGGEES = [(project, framework) for project in ("MemoryTruth", "TraceTruth", "HangShape", "GetterTruth", "Ailments")
                           for framework in ("net8.0", "net9.0")]


def publish_older_runtime_debuggees(dotnet: str, env: dict[str, str]) -> None:
    """Both publishes run at once: each is mostly restore and file copying."""
    running = []
    for project, framework in OLDER_RUNTIME_DEBUGGEES:
        out = TARGETS_OUT / f"{project}-{framework}"
        cmd = [dotnet, "publish", f"tests/targets/{project}/{project}.csproj", "-nologo", "-v", "q",
               "-clp:ErrorsOnly", "-c", "Debug", "-r", "linux-x64", "--self-contained",
               f"-p:DebuggeeFramework={framework}", "-o", str(out)]
        print("+", " ".join(cmd), flush=True)
        running.append((cmd, subprocess.Popen(cmd, cwd=ROOT, env=env)))
    failed = [" ".join(cmd) for cmd, proc in running if proc.wait() != 0]
    if failed:
        raise SetupError(f"publish failed: {'; '.join(failed)}")
    missing = [f"{p}-{f}" for p, f in OLDER_RUNTIME_DEBUGGEES
               if not (TARGETS_OUT / f"{p}-{f}" / "libmscordaccore.so").exists()]
    if missing:
        raise SetupError(f"publish finished but these debuggees are incomplete: {', '.join(missing)}")


NODE_MAJOR = 20  # the DAP schema generator and the MCP SDK client need it


def start_node_clients() -> subprocess.Popen[bytes]:
    """Clients we did not write (VS Code's DebugClient, the TypeScript MCP SDK), pinned by
    tests/node/package-lock.json: the tests drive the adapter and server through them.
    npm ci is mostly download and unpacking, so it runs while dotnet compiles."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        raise SetupError(f"node and npm are not on PATH; the outside-client tests need Node.js {NODE_MAJOR}+")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    if int(version.lstrip("v").split(".")[0] or 0) < NODE_MAJOR:
        raise SetupError(f"the outside-client tests need Node.js {NODE_MAJOR}+, this is {version}")
    cmd = [npm, "ci", "--silent", "--no-audit", "--no-fund", "--prefix", str(NODE_CLIENTS)]
    print("+", " ".join(cmd), flush=True)
    return subprocess.Popen(cmd, cwd=ROOT)


def finish_node_clients(npm: subprocess.Popen[bytes]) -> None:
    if npm.wait() != 0:
        raise SetupError(f"npm ci failed with exit code {npm.returncode} (tests/node)")


SOS_TOOLS = ROOT / "tests" / ".tools"
DOTNET_DUMP_VERSION = "10.0.750501"


def install_sos() -> None:
    """Microsoft's dotnet-dump (SOS), pinned: the triage tests compare pyinspect's threads and
    locks with SOS's on the same dump, record by record (it restores from NuGet)."""
    if (SOS_TOOLS / "dotnet-dump").exists():
        return
    run([find_dotnet(), "tool", "install", "--tool-path", str(SOS_TOOLS), "dotnet-dump",
         "--version", DOTNET_DUMP_VERSION], env=dotnet_env())


def setup(wheels: Path | None) -> None:
    check_python()
    create_venv()
    install_python_packages(wheels)
    npm = start_node_clients()
    try:
        build_dotnet()
    finally:
        finish_node_clients(npm)
    install_sos()
    print("pyinspect is set up; try: .venv/bin/python examples/tour.py, or python3 build.py test", flush=True)


def demo(wheels: Path | None) -> int:
    """The first command a newcomer runs: everything set up, then the tour's answers."""
    setup(wheels)
    cmd = [str(VENV_PYTHON), str(ROOT / "examples" / "tour.py")]
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT, check=False).returncode


# Two pytest workers (pytest-xdist): most of a test's time is a debuggee or adapter starting
# or waiting, so two at once fill a 2-core machine. Whole files go to one worker (loadfile):
# a module's shared debuggee (its module-scoped fixture) starts once, as without workers.
PYTEST_WORKERS = ["-n", "2", "--dist", "loadfile"]


def test(pytest_args: list[str]) -> int:
    """Both suites run even when one fails, so one run shows every failure. The C# unit
    tests run while pytest does (their output is printed after pytest's): most of their
    time is dotnet test starting."""
    if not VENV_PYTHON.exists():
        raise SetupError("no .venv: run `python3 build.py` first")
    with tempfile.TemporaryFile() as csharp_output:
        csharp = start_csharp_tests(csharp_output)
        cmd = [str(VENV_PYTHON), "-m", "pytest", *PYTEST_WORKERS, *pytest_args]
        print("+", " ".join(cmd), flush=True)
        python = subprocess.run(cmd, cwd=ROOT, check=False).returncode
        csharp_status = csharp.wait()
        csharp_output.seek(0)
        sys.stdout.buffer.write(csharp_output.read())
        sys.stdout.flush()
    if csharp_status != 0:
        print("build.py: the C# unit tests failed (see above)", file=sys.stderr, flush=True)
    return python if python != 0 else csharp_status


def start_csharp_tests(output: IO[bytes]) -> subprocess.Popen[bytes]:
    """The xunit project as built by `python3 build.py` (or `python3 build.py dotnet`)."""
    if not CSHARP_TESTS_DLL.exists():
        raise SetupError(f"{CSHARP_TESTS_DLL} is missing: run `python3 build.py dotnet` first")
    cmd = [find_dotnet(), "test", str(CSHARP_TESTS), "--no-build", "-nologo", "-v", "q"]
    print("+", " ".join(cmd), "(output after pytest's)", flush=True)
    return subprocess.Popen(cmd, cwd=ROOT, env=dotnet_env(), stdout=output, stderr=subprocess.STDOUT)


def main(argv: list[str]) -> int:
    if argv[:1] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    try:
        given = None
        if argv[:1] == ["--wheelhouse"]:
            if len(argv) < 2:
                raise SetupError("--wheelhouse needs a folder")
            given, argv = argv[1], argv[2:]
        if not argv:
            setup(wheelhouse(given))
            return 0
        if argv[0] == "test":
            return test(argv[1:])
        if argv[0] == "demo":
            return demo(wheelhouse(given))
        if argv[0] == "dotnet":
            build_dotnet()
            return 0
        if argv[0] == "node":
            finish_node_clients(start_node_clients())
            return 0
        print(__doc__)
        return 2
    except SetupError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
