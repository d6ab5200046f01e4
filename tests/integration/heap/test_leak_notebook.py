"""examples/leak_hunt.ipynb runs end to end (nbclient, a real kernel, LeakStory running):
it finds the leaked type first in the diff, the static that holds it, the method that
allocates it (from a recording taken while exercising), and draws its five plots (top
types, diff growth, top retainers, generations, top allocations)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.targets import target_dll

ROOT = Path(__file__).resolve().parents[3]
NOTEBOOK = ROOT / "examples" / "leak_hunt.ipynb"


@pytest.mark.timeout(300)
def test_the_leak_notebook_finds_the_leak_and_draws_its_plots(monkeypatch: pytest.MonkeyPatch) -> None:
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("LEAKSTORY_DLL", str(target_dll("LeakStory")))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=240, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    code = [c for c in notebook.cells if c.cell_type == "code"]
    images = [i for i, c in enumerate(code) for o in c.outputs if "image/png" in o.get("data", {})]
    assert len(images) == 5, f"plots drawn in code cells {images}"
    assert sorted(set(images)) == [1, 2, 4, 5, 6], images
    found = next(o for o in code[3].outputs if o.output_type == "execute_result")["data"]["text/plain"]
    assert found == "('LeakStory.LeakedSession', 'LeakStory.SessionCache.Sessions')", found
    assert "static root LeakStory.SessionCache.Sessions" in "".join(
        o.get("text", "") for o in code[3].outputs if o.output_type == "stream")
    allocating = next(o for o in code[6].outputs if o.output_type == "execute_result")["data"]["text/plain"]
    assert allocating == "('LeakStory.LeakedSession', 'LeakStory.SessionCache.Remember')", allocating
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
