"""The event recorder: an EventPipe recording of a .NET process, run by the
PyInspect.Trace helper process (dotnet/PyInspect.Trace)."""

from pyinspect.tracing.recorder import Recorder, start_recording

__all__ = ["Recorder", "start_recording"]
