import sys
from pathlib import Path

# tests/support is importable as `support` from every test folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))
