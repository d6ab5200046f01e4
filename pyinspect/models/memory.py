"""Memory-tool answers read from the heap: collection_analyze and object_summarize.

Wire names are the contracts' camelCase (docs/contracts/collection_analyze.md,
object_summarize.md); ``to_contract()`` gives each tool's ``summary`` object exactly,
explicit nulls included. Statistics are text in the element type's own format, computed
over every element with LINQ's semantics (Min is NaN if any element is; Max ignores NaN).

Each mirrors a record of dotnet/PyInspect.Heap, parsed from its JSON: CollectionAnalysis =
CollectionRecord, CollectionElement = ElementRecord, KeyValuePreview = PairRecord,
NumericStats = NumericStatsRecord, TypeCount = TypeCountRecord, ObjectSummary =
SummaryRecord, SummaryField = SummaryFieldRecord, InterestingField = InterestingFieldRecord.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from pyinspect.models.wire import WireModel

__all__ = [
    "CollectionAnalysis",
    "CollectionAnalyzeAnswer",
    "CollectionElement",
    "InterestingField",
    "KeyValuePreview",
    "NumericStats",
    "ObjectInspectAnswer",
    "ObjectInspection",
    "ObjectSummarizeAnswer",
    "ObjectSummary",
    "SummaryField",
    "TypeCount",
]


class _MemoryModel(WireModel):

    def wire(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, mode="json")


class NumericStats(_MemoryModel):
    min: str
    max: str
    average: str
    sum: str


class TypeCount(_MemoryModel):
    type_name: str
    count: int


class CollectionElement(_MemoryModel):
    index: int
    value: str
    type: str


class KeyValuePreview(_MemoryModel):
    key: str
    key_type: str
    value: str
    value_type: str


class CollectionAnalysis(_MemoryModel):
    """A collection read from the heap; elements numbered in its enumeration order."""

    address: str | None = None
    count: int
    element_type: str
    collection_type: str
    kind: str
    null_count: int
    numeric_stats: NumericStats | None = None
    type_distribution: tuple[TypeCount, ...] | None = None
    first_elements: tuple[CollectionElement, ...] | None = None
    last_elements: tuple[CollectionElement, ...] | None = None
    key_value_pairs: tuple[KeyValuePreview, ...] | None = None
    is_sampled: bool = False
    sampled_count: int | None = None

    def to_contract(self) -> dict[str, Any]:
        """The contract's ``summary``; ``sampledCount`` only when sampling happened."""
        data = self.wire()
        data.pop("address", None)
        if not self.is_sampled:
            data.pop("sampledCount", None)
        return data


class SummaryField(_MemoryModel):
    name: str
    type: str
    value: str
    collection_count: int | None = None
    collection_element_type: str | None = None
    collection_preview: tuple[str, ...] | None = None
    """The first max_preview_items elements as text (pairs as "key: value"), collections only."""


class InterestingField(_MemoryModel):
    name: str
    type: str
    value: str
    reason: str


class ObjectSummary(_MemoryModel):
    """object_summarize's summary of one object (base-class fields included)."""

    address: str | None = None
    type_name: str
    size: int
    is_null: bool = False
    total_field_count: int = 0
    inaccessible_field_count: int = 0
    fields: tuple[SummaryField, ...] = Field(default_factory=tuple)
    null_fields: tuple[str, ...] = Field(default_factory=tuple)
    interesting_fields: tuple[InterestingField, ...] = Field(default_factory=tuple)

    @classmethod
    def null(cls, type_name: str) -> ObjectSummary:
        """The contract's answer for a null reference."""
        return cls(type_name=type_name, size=0, is_null=True)

    def field(self, name: str) -> SummaryField:
        return next(f for f in self.fields if f.name == name)

    def to_contract(self) -> dict[str, Any]:
        """The contract's ``summary``; ``collectionPreview`` only on collection-typed fields."""
        data = self.wire()
        data.pop("address", None)
        for field in data["fields"]:
            if field.get("collectionPreview") is None:
                field.pop("collectionPreview", None)
        return data


class ObjectInspection(_MemoryModel):
    """object_inspect's ``inspection``: heap objects carry address, size and offsets;
    a struct value (no address) is listed from the adapter's children, ``isValueType``."""

    address: str | None
    type_name: str
    size: int | None
    fields: tuple[dict[str, Any], ...] = Field(default_factory=tuple)
    is_null: bool = False
    has_circular_ref: bool = False
    truncated: bool = False
    is_value_type: bool = False


class ObjectInspectAnswer(_MemoryModel):
    success: bool = True
    inspection: ObjectInspection

    def wire(self) -> dict[str, Any]:
        data = super().wire()
        if not self.inspection.is_value_type:
            data["inspection"].pop("isValueType")
        return data


class ObjectSummarizeAnswer(_MemoryModel):
    success: bool = True
    summary: ObjectSummary

    def wire(self) -> dict[str, Any]:
        return {"success": True, "summary": self.summary.to_contract()}


class CollectionAnalyzeAnswer(_MemoryModel):
    success: bool = True
    summary: CollectionAnalysis

    def wire(self) -> dict[str, Any]:
        return {"success": True, "summary": self.summary.to_contract()}
