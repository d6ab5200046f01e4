"""What the helper builds on the dominator tree, against the definitions on small graphs:
retained sizes (an object's size and that of every object it dominates), per-type retained
sizes (instances with no instance of the same type above them in the tree) with the tree
cut into shares for 1 to 4 cores, and the predecessor lists (the sources of each node's
edges in, ascending). Object n is the super-root; its edges are the roots."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_dominators import naive_idom

from pyinspect.heap import dotnet_bridge

Graph = tuple[int, list[tuple[int, int]], list[int], list[int]]


def tree_sums(objects: int, edges: list[tuple[int, int]], types: list[int], sizes: list[int]) -> dict[str, Any]:
    graph = json.dumps({"objects": objects, "edges": [list(e) for e in edges], "types": types, "sizes": sizes,
                        "typeCount": max(types, default=0) + 1})
    answer: dict[str, Any] = json.loads(str(dotnet_bridge.helper().TreeSumsCheck.TreeSums(graph)))
    return answer


def chain(idom: list[int], v: int) -> list[int]:
    """v's proper dominators, nearest first, the super-root last."""
    above = []
    while idom[v] != v:
        v = idom[v]
        above.append(v)
    return above


def expected_sums(objects: int, idom: list[int], types: list[int], sizes: list[int]) -> tuple[list[int], list[int]]:
    reached = [v for v in range(objects) if idom[v] >= 0]
    retained = [0] * (objects + 1)
    for v in reached:
        for d in [v, *chain(idom, v)]:
            retained[d] += sizes[v]
    by_type = [0] * (max(types, default=0) + 1)
    for v in reached:
        if all(d == objects or types[d] != types[v] for d in chain(idom, v)):
            by_type[types[v]] += retained[v]
    return retained, by_type


def assert_sums(graph: Graph, idom: list[int]) -> None:
    objects, edges, types, sizes = graph
    answer = tree_sums(*graph)
    assert answer["idom"] == idom
    retained, by_type = expected_sums(objects, idom, types, sizes)
    assert answer["retained"] == retained
    assert answer["byType"] == [by_type] * 4
    assert answer["predecessors"] == [sorted(a for a, b in edges if b == v) for v in range(objects + 1)]


graphs = st.integers(min_value=1, max_value=13).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n), st.integers(0, n - 1)), max_size=n * 3),
    st.lists(st.integers(0, 2), min_size=n, max_size=n),
    st.lists(st.integers(1, 1000), min_size=n, max_size=n),
))


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_sums_equal_the_definitions_on_random_graphs(graph: Graph) -> None:
    objects, edges = graph[0], graph[1]
    assert_sums(graph, naive_idom(objects + 1, edges, objects))


def test_a_long_chain_past_the_deepest_share() -> None:
    """200,000 objects in a line: the path the shares follow stops 65,536 deep, the rest is one core's."""
    objects = 200_000
    edges = [(objects, 0)] + [(i, i + 1) for i in range(objects - 1)]
    types = [i % 3 for i in range(objects)]
    sizes = [1 + i % 7 for i in range(objects)]
    answer = tree_sums(objects, edges, types, sizes)
    below = [0] * (objects + 1)
    for i in range(objects - 1, -1, -1):
        below[i] = below[i + 1] + sizes[i]
    assert answer["retained"] == below[:objects] + [below[0]]
    assert answer["byType"] == [below[:3]] * 4  # each type's first instance holds everything after it


def test_many_roots_and_a_node_with_65535_edges_in() -> None:
    """3,000 roots over shallow trees with some edges across (the shares cut between roots and
    below them), and 70,000 objects pointing at object 0 (its block's list starts in 4 bytes)."""
    rng = random.Random(41)
    objects = 73_000
    edges = [(objects, v) for v in range(3000)] + [((v - 3000) // 8, v) for v in range(3000, objects)]
    edges += [(rng.randrange(objects), rng.randrange(objects)) for _ in range(2000)] + [(v, 0) for v in range(1, 70_001)]
    types = [rng.randrange(4) for _ in range(objects)]
    sizes = [rng.randrange(1, 5000) for _ in range(objects)]
    answer = tree_sums(objects, edges, types, sizes)
    retained, by_type = expected_sums(objects, answer["idom"], types, sizes)
    assert answer["retained"] == retained
    assert answer["byType"] == [by_type] * 4
    sources: list[list[int]] = [[] for _ in range(objects + 1)]
    for a, b in edges:
        sources[b].append(a)
    assert answer["predecessors"] == [sorted(s) for s in sources]
    assert len(answer["predecessors"][0]) > 70_000 and all(v >= 0 for v in answer["idom"])
