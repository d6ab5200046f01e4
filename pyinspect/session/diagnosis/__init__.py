"""diagnose (issue 42): what is wrong with a process or a dump, named from the evidence the
triage and heap-graph readers already give. One rule per finding kind, thresholds settable,
findings ranked; the faces (CLI, MCP, notebook) call :func:`diagnose` and nothing else."""

from pyinspect.session.diagnosis.ranking import diagnose, parse_thresholds
from pyinspect.session.diagnosis.targets import (
    check_record_seconds,
    diagnose_dump,
    diagnose_process,
    record_window,
)

__all__ = ["check_record_seconds", "diagnose", "diagnose_dump", "diagnose_process", "parse_thresholds",
           "record_window"]
