import os
import sys
from pathlib import Path

# tests/support is importable as `support` from every test folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Every model the C# helpers' JSON is read into refuses a field it does not declare
# (pyinspect.models.wire), here and in the pyinspect processes the tests start.
os.environ["PYINSPECT_WIRE_STRICT"] = "1"
