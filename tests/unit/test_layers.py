"""The package's layers stay one-way (faces -> session -> engines -> models): the
import-linter contract in pyproject.toml, checked on every test run."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]


def test_no_module_imports_a_layer_above_its_own(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    loggers = {logger: logger.disabled for logger in logging.root.manager.loggerDict.values()
               if isinstance(logger, logging.Logger)}
    try:
        exit_code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    finally:  # its dictConfig disables every logger that exists: later tests would hear nothing
        for logger, disabled in loggers.items():
            logger.disabled = disabled
    assert exit_code == 0, capsys.readouterr().out
