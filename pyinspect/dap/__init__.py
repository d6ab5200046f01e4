"""The DAP client: framing (stream), correlation and events (channel), typed requests
(client), and starting an adapter process (adapter)."""

from __future__ import annotations

from pyinspect.dap.adapter import AdapterKind, start_adapter
from pyinspect.dap.channel import DapChannel
from pyinspect.dap.client import DapClient
from pyinspect.dap.stream import DapStream

__all__ = ["AdapterKind", "DapChannel", "DapClient", "DapStream", "start_adapter"]
