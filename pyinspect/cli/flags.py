"""The command line's shared flag names and what a command line asks for before it is parsed,
without the command line library: a command that reads a dump starts the dump's reader
process from these first thing, before typer and the models load (pyinspect.cli.main)."""

from __future__ import annotations

__all__ = ["DAC_FLAG", "DUMP_FLAG", "OFFLINE_FLAG", "dump_to_open"]

DUMP_FLAG = "--dump"
DAC_FLAG = "--dac"
OFFLINE_FLAG = "--offline"


def dump_to_open(argv: list[str]) -> tuple[str, str | None] | None:
    """The dump a command line reads (as given) and its --dac (its reader process can start
    and open the dump before the command line loads); None: no dump."""
    dump = None if "--help" in argv else _option_value(argv[2:], DUMP_FLAG)
    return (dump, _option_value(argv[2:], DAC_FLAG)) if dump is not None else None


def _option_value(args: list[str], flag: str) -> str | None:
    """What `flag VALUE` or `flag=VALUE` gives, before the command line is parsed."""
    for at, arg in enumerate(args):
        if arg == flag and at + 1 < len(args):
            return args[at + 1]
        if arg.startswith(flag + "="):
            return arg.removeprefix(flag + "=")
    return None
