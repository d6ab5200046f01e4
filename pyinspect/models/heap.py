"""Heap records read through ClrMD: frozen, with camelCase wire names.

Conventions: ``offset`` counts from the described object's address (the MethodTable
pointer is at 0, so a class's first field is at 8 on x64), also for the fields of
embedded structs; ``size`` of an object is ClrMD's ``ClrObject.Size`` (base size plus
components); addresses are hex strings ``0x...``.

Each mirrors a record of dotnet/PyInspect.Heap, parsed from its JSON: TypeStat =
TypeStatRecord, HeapField = FieldRecord, HeapObject = ObjectRecord.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from pyinspect.models.wire import WireModel

__all__ = ["HeapField", "HeapObject", "TypeStat"]


class TypeStat(WireModel):
    """Objects of one type on the heap: how many and their summed size."""

    type: str
    count: int
    total_size: int


class HeapField(WireModel):
    """A field, an embedded struct's field, or an array element ("[0]", "[1, 2]")."""

    name: str
    field_name: str | None = None
    """The real field name when `name` is an auto-property's (its backing field)."""
    type_name: str
    value: str
    offset: int
    size: int
    has_children: bool = False
    is_null: bool = False
    is_value_type: bool = False
    address: str | None = None
    is_circular_ref: bool = False
    fields: tuple[HeapField, ...] | None = None

    def to_inspection(self) -> dict[str, Any]:
        """The contract's field shape, children included when expanded."""
        data: dict[str, Any] = {
            "name": self.name,
            "typeName": self.type_name,
            "value": self.value,
            "offset": self.offset,
            "size": self.size,
            "hasChildren": self.has_children,
        }
        if self.field_name is not None:
            data["fieldName"] = self.field_name
        if self.address is not None:
            data["address"] = self.address
        if self.is_circular_ref:
            data["isCircularRef"] = True
        if self.fields is not None:
            data["fields"] = [f.to_inspection() for f in self.fields]
        return data


class HeapObject(WireModel):
    """One heap object with its fields (for arrays: its first elements)."""

    address: str
    type_name: str
    size: int
    value: str
    fields: tuple[HeapField, ...] = Field(default_factory=tuple)
    is_null: bool = False
    has_circular_ref: bool = False
    truncated: bool = False
    is_string: bool = False
    is_array: bool = False
    array_length: int | None = None
    rank: int | None = None
    dimensions: tuple[int, ...] | None = None
    element_type_name: str | None = None
    string_value: str | None = None

    @property
    def address_int(self) -> int:
        return int(self.address, 16)

    def field(self, name: str) -> HeapField:
        """A field by name (dotted for embedded structs: "Position.X")."""
        head, _, rest = name.partition(".")
        for candidate in self.fields:
            if candidate.name == head:
                found = candidate
                for part in rest.split(".") if rest else ():
                    found = next(f for f in found.fields or () if f.name == part)
                return found
        raise KeyError(name)

    def to_inspection(self) -> dict[str, Any]:
        """object_inspect's ``inspection`` shape (docs/contracts/inspection.md)."""
        return {
            "address": self.address,
            "typeName": self.type_name,
            "size": self.size,
            "fields": [f.to_inspection() for f in self.fields],
            "isNull": self.is_null,
            "hasCircularRef": self.has_circular_ref,
            "truncated": self.truncated,
        }
