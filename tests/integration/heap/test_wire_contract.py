"""The wire contract: every record the C# helpers serialize for Python against the model
that reads it (pyinspect.models.helper_records), names read from the built helpers
through reflection (the serializer's own view of each record), not from the source."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pyinspect.heap import dotnet_bridge
from pyinspect.models.helper_records import HELPER_RECORDS, PLAIN_RECORDS, PYTHON_ONLY_FIELDS
from pyinspect.models.wire import WireModel
from pyinspect.targets.dotnet_paths import dotnet_tool

# The helper assembly, and the static field holding the JSON options it serializes with.
_SERIALIZERS = {"PyInspect.Heap": ("PyInspect.Heap.HeapJson", "Options"),
                "PyInspect.Trace": ("PyInspect.Trace.Records.TraceJson", "Options")}


class Helpers:
    """The built helper assemblies, loaded for reflection, and their serializer options."""

    def __init__(self) -> None:
        dotnet_bridge.helper()  # CoreCLR and PyInspect.Heap, as the heap reader loads them
        import clr

        clr.AddReference("System.Text.Json")
        from System.Reflection import Assembly, BindingFlags
        from System.Text.Json import JsonSerializerOptions
        from System.Text.Json.Serialization.Metadata import DefaultJsonTypeInfoResolver

        flags = BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic
        self.assemblies: dict[str, Any] = {}
        self.options: dict[str, Any] = {}
        for name, (holder, field) in _SERIALIZERS.items():
            assembly = Assembly.LoadFrom(str(dotnet_tool(name)))
            self.assemblies[name] = assembly
            used = assembly.GetType(holder).GetField(field, flags).GetValue(None)
            self.options[name] = JsonSerializerOptions(used)  # a copy: the helper's own stay as they are
            self.options[name].TypeInfoResolver = used.TypeInfoResolver or DefaultJsonTypeInfoResolver()

    def type(self, full_name: str) -> Any:
        for assembly in self.assemblies.values():
            found = assembly.GetType(full_name)
            if found is not None:
                return found
        raise AssertionError(f"C# record {full_name} (in helper_records) is not in the built helpers")

    def wire_names(self, record: Any) -> dict[str, Any]:
        """The record's property names as its helper's serializer writes them, with their types."""
        info = self.options[record.Assembly.GetName().Name].GetTypeInfo(record)
        return {str(p.Name): p.PropertyType for p in info.Properties}

    def record_types(self) -> set[str]:
        """Every data type the helpers write for Python: classes named *Record, and every
        non-static class of the trace recorder's Records namespace."""
        found: set[str] = set()
        for assembly in self.assemblies.values():
            for t in assembly.GetExportedTypes():
                static = t.IsAbstract and t.IsSealed
                if t.IsClass and not static and (str(t.Name).endswith("Record")
                                                 or t.Namespace == "PyInspect.Trace.Records"):
                    found.add(str(t.FullName))
        return found

    def own_types_in(self, declared: Any) -> Iterator[str]:
        """The helpers' own types a property holds (through lists, arrays, nullables, dictionaries)."""
        pending = [declared]
        while pending:
            t = pending.pop()
            if t.IsArray:
                pending.append(t.GetElementType())
            elif t.IsGenericType:
                pending.extend(t.GetGenericArguments())
            elif any(t.Assembly.Equals(a) for a in self.assemblies.values()):
                yield str(t.FullName)


@pytest.fixture(scope="module")
def helpers() -> Helpers:
    return Helpers()


def model_wire_names(model: type[WireModel]) -> set[str]:
    """The names the model reads: each field's alias, else the model's alias generator's."""
    generate = model.model_config.get("alias_generator")
    assert callable(generate), f"{model.__name__} has no alias generator"
    return {field.alias or generate(name) for name, field in model.model_fields.items()}


def field_differences(helpers: Helpers) -> list[str]:
    problems = []
    for record_name, model in HELPER_RECORDS.items():
        cs_names = set(helpers.wire_names(helpers.type(record_name)))
        py_names = model_wire_names(model)
        allowed = {name for (m, name) in PYTHON_ONLY_FIELDS if m is model}
        where = f"C# {record_name} <-> {model.__module__}.{model.__name__}"
        problems += [f"{where}: field {n!r} is on the C# record only" for n in sorted(cs_names - py_names)]
        problems += [f"{where}: field {n!r} is on the Python model only"
                     for n in sorted(py_names - cs_names - allowed)]
        problems += [f"{where}: PYTHON_ONLY_FIELDS names {n!r}, which the C# record has"
                     for n in sorted(allowed & cs_names)]
    return problems


def test_every_record_field_is_on_both_sides(helpers: Helpers) -> None:
    problems = field_differences(helpers)
    assert not problems, "the C# records and the Python models differ:\n" + "\n".join(problems)


def test_every_record_crossing_to_python_is_mapped(helpers: Helpers) -> None:
    for name in PLAIN_RECORDS:
        helpers.type(name)  # a plain record named there still exists
    known = set(HELPER_RECORDS) | set(PLAIN_RECORDS)
    reachable = {inner for name in HELPER_RECORDS
                 for declared in helpers.wire_names(helpers.type(name)).values()
                 for inner in helpers.own_types_in(declared)}
    missing = sorted((helpers.record_types() | reachable) - known)
    assert not missing, ("C# records serialized for Python with no model in "
                         "pyinspect.models.helper_records.HELPER_RECORDS: " + ", ".join(missing))


def test_models_refuse_unknown_fields_under_the_suite() -> None:
    """The suite runs with PYINSPECT_WIRE_STRICT=1 (tests/conftest.py): a field the helper adds
    that no model declares fails validation instead of being dropped."""
    from pydantic import ValidationError

    from pyinspect.models.triage import ThreadRef

    with pytest.raises(ValidationError, match="extra"):
        ThreadRef.model_validate({"osThreadId": 1, "managedThreadId": 1, "renamedField": 2})
    assert all(m.model_config.get("extra") == "forbid" for m in HELPER_RECORDS.values())
