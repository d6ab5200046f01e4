"""The notebook's Debugger.path_to_root on HeapGraphTruth paused under the adapter: the
stack roots of Main's `local` and HoldOnStack's `mine` name those locals, whether the
object is given by address or by the expression in its frame; pyinspect.open_heap on the
same process (no debugger) gives the same frame and no local."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.targets import read_truth, target_dll, wait_for_file

import pyinspect


@pytest.mark.timeout(180)
def test_debugger_path_to_root_names_the_local_a_heap_alone_does_not(tmp_path: Path) -> None:
    truth_file = tmp_path / "truth.json"
    with pyinspect.launch(str(target_dll("HeapGraphTruth")), [str(truth_file)]) as dbg:
        wait_for_file(truth_file, timeout=60)
        assert dbg.pause().state == "paused"
        truth = read_truth(truth_file)
        held = {"stackOnly": "local", "threadLocal": "mine"}
        roots = {}
        for key, local in held.items():
            paths = dbg.path_to_root(truth[key]["address"], progress=False)
            roots[key] = paths.paths[0].root
            assert (paths.reachable, roots[key].kind, roots[key].local) == (True, "stack", local), paths

        main = roots["stackOnly"]
        frames = dbg.stack(thread_id=main.thread, max_frames=50)
        frame = int(frames.index[frames["function"].str.contains("<Main>", regex=False)][0])
        by_name = dbg.path_to_root("local", frame_index=frame, thread_id=main.thread, progress=False)
        assert by_name.address == truth["stackOnly"]["address"] and by_name.paths[0].root == main

        with pyinspect.open_heap(dbg.state.pid or 0) as heap:
            for key in held:
                alone = heap.path_to_root(truth[key]["address"]).paths[0].root
                assert (alone.name, alone.thread, alone.local) == (roots[key].name, roots[key].thread, None)
