"""A whole heap graph saved to a file: stats, retained sizes, retention paths and a per-type
snapshot computed later, without the target (the layout is written by the helper's GraphFile).

The arrays are memory-mapped with numpy, so opening a 10M-object file reads only its header.
Paths from a file name every object and root but not the fields between them: field names
need the target's type information, which the file does not hold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pyinspect.errors import InvalidParameterError
from pyinspect.heap.graph import parse_address
from pyinspect.heap.snapshot import Snapshot, summary_completeness
from pyinspect.models.completeness import Completeness
from pyinspect.models.heapgraph import (
    GraphSummary,
    GraphTypeStat,
    PathRoot,
    PathStep,
    RetainedObject,
    RetentionPath,
    RetentionPaths,
)

__all__ = ["GraphFile", "is_graph_file", "load_snapshot"]

_MAGIC = b"PYIGRAPH"
_FORMAT = "pyinspect-heap-graph/1"
_KIND_RANK = {"static": 0, "stack": 1, "handle": 2, "pinned": 3, "finalizer": 4}
IntArray = npt.NDArray[np.int64]


def is_graph_file(path: str | Path) -> bool:
    """True when the file starts with the graph file's magic (else: a per-type snapshot)."""
    with open(path, "rb") as handle:
        return handle.read(len(_MAGIC)) == _MAGIC


def load_snapshot(path: str | Path) -> Snapshot:
    """The per-type snapshot in a file of either kind: a whole graph or a per-type snapshot."""
    try:
        whole = is_graph_file(path)
    except OSError as exc:
        raise InvalidParameterError(f"cannot read snapshot {path}: {exc}", path=str(path)) from exc
    return GraphFile.load(path).snapshot() if whole else Snapshot.load(path)


@dataclass(frozen=True)
class _Arrays:
    addresses: npt.NDArray[np.uint64]
    sizes: IntArray
    retained: IntArray
    type_of: npt.NDArray[np.int32]
    offsets: npt.NDArray[np.int32]
    targets: npt.NDArray[np.int32]
    idom: npt.NDArray[np.int32]
    generations: npt.NDArray[np.uint8]


class GraphFile:
    """One saved graph: the same questions as a live HeapGraph, answered from the file."""

    def __init__(self, path: Path, header: dict[str, Any], arrays: _Arrays) -> None:
        self.path = path
        self.description = str(header["description"])
        self._header = header
        self._a = arrays
        self._types: list[str] = [str(t) for t in header["types"]]
        self._preds: tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]] | None = None

    @classmethod
    def load(cls, path: str | Path) -> GraphFile:
        source = Path(path)
        try:
            with open(source, "rb") as handle:
                if handle.read(len(_MAGIC)) != _MAGIC:
                    raise ValueError("no PYIGRAPH magic")
                length = int.from_bytes(handle.read(8), "little")
                header = json.loads(handle.read(length))
            if header.get("format") != _FORMAT:
                raise ValueError(f"format is {header.get('format')!r}, expected {_FORMAT}")
            n, edges = int(header["objects"]), int(header["edges"])
            arrays = _map(source, 16 + length, n, edges)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InvalidParameterError(f"not a pyinspect heap graph file: {source}: {exc}", path=str(source)) from exc
        return cls(source, header, arrays)

    @property
    def object_count(self) -> int:
        return len(self._a.addresses)

    def _live(self) -> npt.NDArray[np.bool_]:
        return self._a.idom[: self.object_count] >= 0

    def summary(self) -> GraphSummary:
        live = self._live()
        sizes = self._a.sizes
        live_bytes, all_bytes = int(np.dot(sizes, live)), int(sizes.sum())
        live_objects = int(np.count_nonzero(live))
        h = self._header
        return GraphSummary(
            objects=self.object_count, edges=int(self._a.offsets[self.object_count]), roots=len(h["roots"]),
            live_objects=live_objects, live_bytes=live_bytes,
            dead_objects=self.object_count - live_objects, dead_bytes=all_bytes - live_bytes,
            unreadable_objects=int(h["unreadableObjects"]), unresolved_references=int(h["unresolvedReferences"]),
            types=len(self._types), skipped_threads=int(h["skippedThreads"]),
        )

    def stats(self, which: str = "all") -> list[GraphTypeStat]:
        """Count and size per type over all, live or dead objects; largest total first."""
        if which not in ("all", "live", "dead"):
            raise InvalidParameterError(f"which must be all, live or dead, got {which!r}", which=which)
        live = self._live()
        # bincount is several times faster on intp indices and float64 weights than on
        # int32 and bool, so both are converted once
        t, sizes, k = self._a.type_of.astype(np.intp), self._a.sizes, len(self._types)
        live_sizes = np.where(live, sizes, 0)
        live_count = np.bincount(t, weights=live.astype(np.float64), minlength=k).astype(np.int64)
        live_size = np.bincount(t, weights=live_sizes, minlength=k).astype(np.int64)
        all_count = np.bincount(t, minlength=k)
        all_size = np.bincount(t, weights=sizes, minlength=k).astype(np.int64)
        count, total = {"all": (all_count, all_size), "live": (live_count, live_size),
                        "dead": (all_count - live_count, all_size - live_size)}[which]
        retained = self._header["typeRetained"]
        merged: dict[str, list[int]] = {}  # types of one name (several modules) counted once
        for i in range(k):
            row = merged.setdefault(self._types[i], [0, 0, 0, 0, 0])
            for j, value in enumerate((count[i], total[i], retained[i], live_count[i], live_size[i])):
                row[j] += int(value)
        rows = [GraphTypeStat(type=name, count=c, total_size=s, retained_size=r, live_count=lc, live_size=ls)
                for name, (c, s, r, lc, ls) in merged.items() if c > 0]
        rows.sort(key=lambda r: (-r.total_size, r.type))
        return rows

    def snapshot(self) -> Snapshot:
        """The live heap per type, as a live graph's snapshot() gives it (diff() takes both)."""
        summary = self.summary()
        saved = self._header.get("completeness")  # files written before it was kept: the summary's counts
        completeness = Completeness.model_validate(saved) if saved else summary_completeness(summary)
        return Snapshot(self.description, tuple(self.stats("live")), summary, completeness)

    def retained(self, addresses: list[int | str]) -> list[RetainedObject]:
        """The given objects with their size, retained size and immediate dominator."""
        return [self._retained_row(self._require(a)) for a in addresses]

    def _retained_row(self, v: int) -> RetainedObject:
        a, n = self._a, self.object_count
        d = int(a.idom[v])
        dominator = None if d < 0 else "root" if d == n else _hex(int(a.addresses[d]))
        return RetainedObject(address=_hex(int(a.addresses[v])), type=self._types[int(a.type_of[v])],
                              size=int(a.sizes[v]), retained_size=int(a.retained[v]), live=d >= 0,
                              generation=int(a.generations[v]), dominator=dominator)

    def _require(self, address: int | str) -> int:
        where = parse_address(address)
        v = int(np.searchsorted(self._a.addresses, np.uint64(where)))
        if v >= self.object_count or int(self._a.addresses[v]) != where:
            raise InvalidParameterError(f"no object starts at {where:#x} in {self.path}", address=hex(where))
        return v

    def paths(self, address: int | str, max_paths: int = 5) -> RetentionPaths:
        """Shortest paths from roots, by one backward breadth-first search over the file's edges."""
        if max_paths < 1:
            raise InvalidParameterError(f"max_paths must be at least 1, got {max_paths}", max_paths=max_paths)
        target = self._require(address)
        nxt, order = self._search(target)
        roots_by_object: dict[int, list[dict[str, Any]]] = {}
        for root in self._header["roots"]:
            roots_by_object.setdefault(int(root["object"]), []).append(root)
        found: list[RetentionPath] = []
        for v in order:
            for root in sorted(roots_by_object.get(v, []), key=lambda r: _KIND_RANK.get(r["kind"], 5)):
                if len(found) < max_paths:
                    found.append(RetentionPath(root=_root(root), steps=self._steps(v, nxt)))
        h = self._header
        complete = bool(found) or (h["unreadableObjects"] == 0 and h["skippedThreads"] == 0)
        reason = None if complete else "the snapshot missed references (unreadable objects or unwalked stacks)"
        return RetentionPaths(address=_hex(int(self._a.addresses[target])), type=self._types[int(self._a.type_of[target])],
                              complete=complete, reachable=bool(found), stopped_reason=reason, paths=tuple(found))

    def _search(self, target: int) -> tuple[npt.NDArray[np.int64], list[int]]:
        """Backward BFS level by level; nxt[v] is one step closer to target. Root objects by distance."""
        offsets, sources = self._predecessors()
        n = self.object_count
        is_root = np.zeros(n, dtype=bool)
        is_root[[int(r["object"]) for r in self._header["roots"]]] = True
        nxt = np.full(n, -1, dtype=np.int64)
        nxt[target] = target
        frontier = np.array([target], dtype=np.int64)
        order: list[int] = []
        while frontier.size:
            order.extend(int(v) for v in frontier[is_root[frontier]])
            starts, ends = offsets[frontier], offsets[frontier + 1]
            counts = ends - starts
            if not counts.sum():
                break
            owners = np.repeat(frontier, counts)
            edge_index = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
            preds = sources[edge_index].astype(np.int64)
            keep = (preds < n)
            preds, owners = preds[keep], owners[keep]
            keep = nxt[preds] < 0
            preds, owners = preds[keep], owners[keep]
            preds, first = np.unique(preds, return_index=True)
            nxt[preds] = owners[first]
            frontier = preds
        return nxt, order

    def _predecessors(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """The reverse graph in CSR form over n + 1 nodes, built on first use."""
        if self._preds is None:
            a = self._a
            nodes = self.object_count + 1
            counts = a.offsets[1:].astype(np.int64) - a.offsets[:-1]
            sources = np.repeat(np.arange(nodes, dtype=np.int32), counts)
            by_target = np.argsort(a.targets, kind="stable")
            rev = np.zeros(nodes + 1, dtype=np.int64)
            rev[1:] = np.cumsum(np.bincount(a.targets, minlength=nodes))
            self._preds = (rev, sources[by_target])
        return self._preds

    def _steps(self, start: int, nxt: npt.NDArray[np.int64]) -> tuple[PathStep, ...]:
        steps, v = [self._step(start)], start
        while int(nxt[v]) != v:
            v = int(nxt[v])
            steps.append(self._step(v))
        return tuple(steps)

    def _step(self, v: int) -> PathStep:
        return PathStep(address=_hex(int(self._a.addresses[v])), type=self._types[int(self._a.type_of[v])])


def _map(source: Path, header_end: int, n: int, edges: int) -> _Arrays:
    """Memory-map the arrays that follow the header (each on an 8-byte boundary), checking the file's length."""
    layout: list[tuple[str, type[np.generic], int]] = [
        ("addresses", np.uint64, n), ("sizes", np.int64, n), ("retained", np.int64, n + 1),
        ("type_of", np.int32, n), ("offsets", np.int32, n + 2), ("targets", np.int32, edges),
        ("idom", np.int32, n + 1), ("generations", np.uint8, n),
    ]
    size = source.stat().st_size
    at, mapped = header_end, {}
    for name, dtype, count in layout:
        at += -at % 8
        end = at + count * np.dtype(dtype).itemsize
        if end > size:
            raise ValueError(f"the file ends before its {name} array ({size} < {end} bytes)")
        mapped[name] = np.memmap(source, dtype=dtype, mode="r", offset=at, shape=(count,)) if count else np.zeros(0, dtype)
        at = end
    if at != size:
        raise ValueError(f"{size - at} bytes after the last array")
    return _Arrays(**mapped)


def _root(root: dict[str, Any]) -> PathRoot:
    return PathRoot(kind=root["kind"], name=root["name"], thread=root["thread"] if root["kind"] == "stack" else None)


def _hex(address: int) -> str:
    return f"0x{address:016X}"
