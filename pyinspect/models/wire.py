"""The one base of every model the C# helpers write for Python: frozen, camelCase on the wire.

A field the helper sends that the model does not declare is dropped in production (an older
pyinspect keeps reading a newer helper's answers) and refused where PYINSPECT_WIRE_STRICT=1
(the test suite sets it), so a field added or renamed on one side only fails a test instead
of vanishing in silence. tests/integration/heap/test_wire_contract.py walks both sides.
"""

from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

__all__ = ["STRICT_ENV", "WireModel"]

STRICT_ENV = "PYINSPECT_WIRE_STRICT"
_EXTRA: Literal["forbid", "ignore"] = "forbid" if os.environ.get(STRICT_ENV) == "1" else "ignore"


class WireModel(BaseModel):
    model_config = ConfigDict(frozen=True, alias_generator=to_camel, populate_by_name=True, defer_build=True,
                              extra=_EXTRA)
