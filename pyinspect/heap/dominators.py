"""The helper's dominator core on a plain graph, so it can be checked on any graph."""

from __future__ import annotations

import json
from collections.abc import Iterable

from pyinspect.errors import InvalidParameterError
from pyinspect.heap import dotnet_bridge

__all__ = ["immediate_dominators"]


def immediate_dominators(nodes: int, edges: Iterable[tuple[int, int]], root: int) -> list[int]:
    """idom[v] for nodes 0..nodes-1 by the helper's Semi-NCA (the one heap graphs use):
    the root's is itself, an unreachable node's is -1."""
    if not 0 <= root < nodes:
        raise InvalidParameterError(f"root {root} outside 0..{nodes - 1}", root=root)
    graph = json.dumps({"nodes": nodes, "root": root, "edges": [list(e) for e in edges]})
    text = dotnet_bridge.call(lambda: str(dotnet_bridge.helper().DominatorTree.ComputeJson(graph)))
    return [int(v) for v in json.loads(text)]
