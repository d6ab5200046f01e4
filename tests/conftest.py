import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyinspect.targets.runtime_files import remove_own_runtime_files, remove_runtime_files_of_ended

# tests/support is importable as `support` from every test folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Every model the C# helpers' JSON is read into refuses a field it does not declare
# (pyinspect.models.wire), here and in the pyinspect processes the tests start.
os.environ["PYINSPECT_WIRE_STRICT"] = "1"

# Programs the tests make crash (a dump reader faulted on purpose) leave no core file behind.
resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))


@pytest.fixture(scope="session", autouse=True)
def no_runtime_files_left() -> Iterator[None]:
    """The suite leaves nothing on the host: the debugger pipes and diagnostics sockets that the
    runtimes of programs it ran (and killed) left in the temp folder go at the end of the run, and
    so do this process's own (its runtime is the heap helper's, ending with the run)."""
    started = time.time() - 1
    yield
    remove_runtime_files_of_ended(since=started)
    remove_own_runtime_files()
