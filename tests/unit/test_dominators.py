"""The helper's Semi-NCA dominators against the definition, on random small graphs:
d dominates v when every path from the root to v passes through d."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pyinspect.heap.dominators import immediate_dominators


def _reachable(nodes: int, edges: list[tuple[int, int]], root: int, removed: int | None) -> set[int]:
    if root == removed:
        return set()
    seen, todo = {root}, [root]
    while todo:
        v = todo.pop()
        for a, b in edges:
            if a == v and b != removed and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def naive_idom(nodes: int, edges: list[tuple[int, int]], root: int) -> list[int]:
    reach = _reachable(nodes, edges, root, None)
    dominators = {v: {d for d in reach if v not in _reachable(nodes, edges, root, d)} for v in reach}
    idom = [-1] * nodes
    idom[root] = root
    for v in reach - {root}:
        strict = dominators[v] - {v}
        idom[v] = max(strict, key=lambda d: len(dominators[d]))
    return idom


graphs = st.integers(min_value=1, max_value=14).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n * 3),
    st.integers(0, n - 1),
))


@settings(max_examples=400, deadline=None)
@given(graphs)
def test_semi_nca_equals_the_definition(graph: tuple[int, list[tuple[int, int]], int]) -> None:
    nodes, edges, root = graph
    assert immediate_dominators(nodes, edges, root) == naive_idom(nodes, edges, root)


def test_a_long_chain_needs_no_recursion() -> None:
    nodes = 200_000
    edges = [(i, i + 1) for i in range(nodes - 1)] + [(nodes - 1, 0)]
    idom = immediate_dominators(nodes, edges, 0)
    assert idom[0] == 0 and idom[1:] == list(range(nodes - 1))
