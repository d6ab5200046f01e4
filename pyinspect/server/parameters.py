"""Tool parameter types with the descriptions agents read in each tool's input schema
(the contracts' parameter tables). Ranges are checked in the tools, so that an
out-of-range value answers the contract's own code (DEPTH_EXCEEDED, UNKNOWN_FRAME...)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

__all__ = [
    "AdapterChoice",
    "Alongside",
    "Args",
    "BreakpointId",
    "ClearFilter",
    "Condition",
    "Cwd",
    "Depth",
    "Env",
    "ExceptionFilter",
    "ExceptionType",
    "Expand",
    "Expression",
    "File",
    "Format",
    "FrameIndex",
    "Function",
    "HitCount",
    "Line",
    "LogMessage",
    "MaxFrames",
    "PageCount",
    "PageStart",
    "Pid",
    "Preview",
    "Program",
    "Scope",
    "StartFrame",
    "StepMode",
    "StopAtEntry",
    "Terminate",
    "ThreadId",
    "TimeoutMs",
    "WaitForStop",
    "WaitMs",
]

# where in the paused process
ThreadId = Annotated[int | None, Field(description="Thread id from threads_list (default: the thread that stopped)")]
FrameIndex = Annotated[int, Field(description="Stack frame, 0 = top (see stacktrace_get)")]
StartFrame = Annotated[int, Field(description="First frame to return, 0 = top")]
MaxFrames = Annotated[int, Field(description="At most this many frames (1-1000)")]

# inspection
Scope = Annotated[Literal["locals", "arguments", "this", "all"], Field(description="Which variables of the frame")]
Expand = Annotated[str | None, Field(description="A path (this._repository, items[2].Name) whose children to list")]
PageStart = Annotated[int, Field(description="Position of the first item to return (0; or next_start of the "
                                            "previous page)")]
PageCount = Annotated[int, Field(description="At most this many items (1-500)")]
Expression = Annotated[str, Field(description="C# expression naming a value: a local, this.field, a path "
                                             "(items[2].Name), member access, indexers, operators")]
Format = Annotated[Literal["default", "hex", "binary"], Field(description="How integers are rendered")]

# memory
Depth = Annotated[int, Field(description="Levels of references to expand (1-10)")]
Preview = Annotated[int, Field(description="How many elements to preview (1-50): a collection's first and last, "
                                          "or the first of each collection-typed field")]
TimeoutMs = Annotated[int, Field(description="Time budget in ms; a walk cut short by it says isSampled")]

# session
Program = Annotated[str, Field(description="Path of the program: a .dll (run with dotnet) or an apphost")]
Args = Annotated[list[str] | None, Field(description="Command-line arguments of the program")]
Cwd = Annotated[str | None, Field(description="Working directory (default: the server's)")]
Env = Annotated[dict[str, str] | None, Field(description="Environment variables added for the program")]
StopAtEntry = Annotated[bool, Field(description="Pause before user code runs")]
AdapterChoice = Annotated[Literal["pyinspect", "netcoredbg"] | None,
                          Field(description="Debug adapter (default: the server's, normally pyinspect)")]
Pid = Annotated[int, Field(description="Process id of a running .NET process")]
Alongside = Annotated[bool, Field(description="true: a new debug session beside the current one, which keeps its "
                                              "debuggee as it is (reach it by its handle); its own handle is in "
                                              "the answer, and calls without a handle act on it from now on. "
                                              "Default: this debug session (its debuggee ended first)")]
Terminate = Annotated[bool | None, Field(description="Kill the process (default: only if it was launched)")]
WaitMs = Annotated[int, Field(description="Longest wait in milliseconds (0-600000)")]
WaitForStop = Annotated[bool, Field(description="Block until the next stop or exit")]
StepMode = Annotated[Literal["over", "into", "out"], Field(description="Step over the line, into its call, or out")]
File = Annotated[str | None, Field(description="Full path of the .cs source file (with line)")]
Line = Annotated[int | None, Field(description="1-based source line (with file)")]
Function = Annotated[str | None, Field(description="Instead of file and line: a method, Method, Type.Method or "
                                                   "Namespace.Type.Method (every overload, or those a parameter list "
                                                   "such as (int, string) picks), e.g. PricingService.ComputeTotalAsync")]
LogMessage = Annotated[str | None, Field(description="Make it a log point: print this text (with {expression} "
                                                     "parts evaluated) to process_output instead of stopping")]
ClearFilter = Annotated[bool, Field(description="true: remove this filter (the other one stays)")]
BreakpointId = Annotated[int, Field(description="Id from breakpoint_set or breakpoint_list")]
Condition = Annotated[str | None, Field(description="C# boolean expression; stop only when true")]
HitCount = Annotated[int | None, Field(description="Stop only from the Nth hit on (1 or more)")]
ExceptionFilter = Annotated[Literal["all", "user_unhandled"],
                            Field(description="all: every throw; user_unhandled: about to go unhandled")]
ExceptionType = Annotated[str | None, Field(description="Only this .NET exception type (System.FormatException)")]

# handles (pyinspect.server.handles): one parameter name on every tool that acts on state
HANDLE = "handle"
HANDLELESS = frozenset({"process_list"})
"""Tools that act on no state the server holds: no handle."""
HANDLE_ONLY = frozenset({"handle_close"})
"""Tools whose one parameter is the handle they act on: required."""
HANDLE_PARAMETER: dict[str, object] = {
    "type": "string", "maxLength": 100,
    "description": "The handle an opening tool answered (debug_launch, debug_attach, breakpoint_set, heap_attach, "
                   "dump_open, dump_create, trace_start; a debug session's handle also reads its paused heap). "
                   "Required in 2026-07-28 requests over HTTP (without it an opening tool opens a new one); on "
                   "stdio and in an MCP session optional: without it a call acts on your current debug session, "
                   "or your most recently opened heap"}
HANDLE_ANSWER: dict[str, object] = {
    "type": "string",
    "description": "The handle this call acted on (a new one from an opening tool called without one): every "
                   "answer in a 2026-07-28 request over HTTP, an opening tool's answer on every transport; pass it "
                   "as `handle` to later calls on the same thing"}
