"""Small text helpers for inspection answers: short function names, variable paths,
hex and binary renderings of integers."""

from __future__ import annotations

import re

__all__ = ["format_number", "function_name", "split_path"]

_BITS = {"sbyte": 8, "byte": 8, "short": 16, "ushort": 16, "char": 16, "int": 32, "uint": 32,
         "long": 64, "ulong": 64, "nint": 64, "nuint": 64}
_PATH_PART = re.compile(r"\[[^\]]*\]|[^.\[\]]+")


def function_name(dap_name: str) -> str:
    """'Ns.Type.Method(int a)' -> 'Method' (the contract's `function`)."""
    head = dap_name.split("(", 1)[0].strip()
    if head.endswith(">") and "<" in head:  # generic method: keep its arguments
        base, _, generic = head.partition("<")
        return base.rsplit(".", 1)[-1] + "<" + generic
    return head.rsplit(".", 1)[-1] or dap_name


def split_path(path: str) -> list[str]:
    """'this._items[2].Name' -> ['this', '_items', '[2]', 'Name']."""
    return [part.strip() for part in _PATH_PART.findall(path) if part.strip()]


def format_number(text: str, type_name: str, fmt: str) -> str:
    """Integers in hex or binary (two's complement in the type's width); anything else as is."""
    if fmt == "default" or not re.fullmatch(r"-?\d+", text.strip()):
        return text
    value = int(text)
    short_type = type_name.rsplit(".", 1)[-1].lower()
    bits = _BITS.get(short_type, _BITS.get({"int32": "int", "int64": "long", "int16": "short",
                                             "uint32": "uint", "uint64": "ulong"}.get(short_type, ""), 64))
    if value < 0:
        value &= (1 << bits) - 1
    return hex(value) if fmt == "hex" else bin(value)
