"""The seed inspection tools of contracts/inspection.md: threads_list, stacktrace_get,
variables_get, evaluate (read-only: memory reads only) and evaluate_with_calls (runs
debuggee code, destructive). All but evaluate_with_calls are read-only; all but threads_list
need a paused process."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from pyinspect.models.inspection import (
    EvaluateAnswer,
    StackTraceAnswer,
    ThreadsAnswer,
    VariablesAnswer,
)
from pyinspect.server.clients import ClientSessions
from pyinspect.server.errors import evaluate_error_answer
from pyinspect.server.parameters import (
    Expand,
    Expression,
    Format,
    FrameIndex,
    MaxFrames,
    PageCount,
    PageStart,
    Scope,
    StartFrame,
    ThreadId,
)
from pyinspect.server.tooling import add_tool

__all__ = ["register"]


def register(mcp: MCPServer, clients: ClientSessions) -> None:
    get_session = clients.session
    def threads_list() -> ThreadsAnswer:
        """List all managed threads: id, name, state, which one is current (the one that
        stopped) and, while paused, where each is executing. Use it for multi-threaded
        problems and to pick a thread_id for stacktrace_get / variables_get."""
        return get_session().stop_reader.threads()

    def stacktrace_get(thread_id: ThreadId = None, start_frame: StartFrame = 0, max_frames: MaxFrames = 20) -> StackTraceAnswer:
        """The call chain of a paused thread (default: the current one), top frame first, with
        file, line, module and the top frame's arguments; frames without source are
        is_external. Use it first after a stop to see how the code got here."""
        return get_session().stop_reader.stack_trace(thread_id, start_frame, max_frames)

    def variables_get(thread_id: ThreadId = None, frame_index: FrameIndex = 0, scope: Scope = "all",
                      expand: Expand = None, start: PageStart = 0, count: PageCount = 100) -> VariablesAnswer:
        """Locals, arguments and `this` of a frame (frame_index 0 = top) of a paused thread.
        expand="this._repository" (a dotted path, [i] for elements) lists that value's
        children instead, each with `parent`. Paged: at most `count` items from `start`;
        `total` says how many there are and truncated=true that more follow at next_start
        (for a whole collection at once, collection_analyze is better). Values longer than
        2000 characters are cut and say value_truncated. Use after stacktrace_get."""
        return get_session().stop_reader.variables(thread_id, frame_index, scope, expand, start, count)

    def evaluate(expression: Expression, thread_id: ThreadId = None, frame_index: FrameIndex = 0,
                 format: Format = "default") -> EvaluateAnswer:
        """Evaluate a C# expression in a frame of a paused thread, read-only: fields,
        auto-properties, elements, Count/Length, operators, LINQ with lambdas, all read from
        memory; no debuggee code runs and nothing is assigned. An expression that needs a
        method or computed getter answers EVALUATION_NEEDS_CALL naming the call: run it with
        evaluate_with_calls. format hex/binary renders integers.
        Errors: {"error": true, "message", "type", "code"}."""
        return get_session().stop_reader.evaluate(expression, thread_id, frame_index, format)

    def evaluate_with_calls(expression: Expression, thread_id: ThreadId = None, frame_index: FrameIndex = 0,
                            format: Format = "default") -> EvaluateAnswer:
        """Evaluate a C# expression that may run code in the paused debuggee (func-eval):
        methods, computed getters, constructors, assignments. It can change the program
        (e.g. list.RemoveAt(0), File.WriteAllText), so use evaluate first and this only when
        evaluate answers EVALUATION_NEEDS_CALL and running the call is acceptable. Reads
        cached before it are dropped. An `out var` value is usable later in the same
        expression: `d.TryGetValue(k, out var v) ? v : null`, `new { ok = d.TryGetValue(k, out var v), v }`.
        Errors: {"error": true, "message", "type", "code"}."""
        return get_session().stop_reader.evaluate(expression, thread_id, frame_index, format, allow_calls=True)

    for tool, output, title in ((threads_list, ThreadsAnswer, "List Threads"),
                                (stacktrace_get, StackTraceAnswer, "Get Stack Trace"),
                                (variables_get, VariablesAnswer, "Get Variables")):
        add_tool(mcp, tool, output, read_only=True, title=title)
    add_tool(mcp, evaluate, EvaluateAnswer, read_only=True, error_shape=evaluate_error_answer,
             title="Evaluate Expression")
    add_tool(mcp, evaluate_with_calls, EvaluateAnswer, read_only=False, destructive=True,
             error_shape=evaluate_error_answer, title="Evaluate Expression, Running Debuggee Code")
