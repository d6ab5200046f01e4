// The exception filters (setExceptionBreakpoints), the exception events that stop on them,
// and the exception each thread is stopped at (exceptionInfo, `$exception`). Filters: "all" stops where any exception is first thrown (caught or not), "user-unhandled"
// where one is about to go unhandled, or leaves user code for a catcher that is not user
// code (no source; under just-my-code also [DebuggerNonUserCode], [DebuggerStepThrough]
// and [DebuggerHidden] code). An exception about to kill the process always stops, with
// any filters or none, as netcoredbg and vsdbg stop: the user sees where it died (for one
// leaving async Main, where it left the user's code, not in the compiler's `<Main>`). A filter's condition (DAP filterOptions) names the
// exception types to stop on, separated by commas or spaces; a leading "!" negates the list.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Session;

public sealed class ExceptionStops(Debuggee debuggee, StepFilter stepFilter)
{
    private const int FirstChance = 1, CatchHandlerFound = 3, Unhandled = 4;
    private readonly object _exceptionGate = new();
    private readonly Dictionary<string, ExceptionTypeFilter> _exceptionFilters = [];
    private readonly Dictionary<uint, (string BreakMode, ExceptionDetails Details)> _currentExceptions = [];

    public static JsonArray ExceptionFilterCapabilities() =>
    [
        new JsonObject
        {
            ["filter"] = "all", ["label"] = "All Exceptions", ["default"] = false,
            ["description"] = "Stop where any exception is thrown, even one the code catches.",
            ["supportsCondition"] = true,
            ["conditionDescription"] = "Exception types separated by commas or spaces; a leading ! means all but these (e.g. !System.OperationCanceledException System.TimeoutException)",
        },
        new JsonObject
        {
            ["filter"] = "user-unhandled", ["label"] = "User-Unhandled Exceptions", ["default"] = true,
            ["description"] = "Stop where an exception is about to go unhandled.",
            ["supportsCondition"] = true,
            ["conditionDescription"] = "Exception types separated by commas or spaces; a leading ! means all but these",
        },
    ];

    /// <summary>The filters chosen, by id, replacing the previous set.</summary>
    public void SetFilters(IReadOnlyDictionary<string, ExceptionTypeFilter> chosen)
    {
        lock (_exceptionGate)
        {
            _exceptionFilters.Clear();
            foreach (var (id, filter) in chosen) _exceptionFilters[id] = filter;
        }
    }

    public static string KnownFilter(string? id) => id is "all" or "user-unhandled"
        ? id : throw new DapException($"unknown exception filter '{id}': use 'all' or 'user-unhandled'");

    /// <summary>An exception event: the stop a filter asks for, or null to run on.</summary>
    public StopEvent? Thrown(uint threadId, int eventType, ExceptionHandlerSite? handler)
    {
        // Caught only by the catch-all of an async method's state machine: unhandled as far as
        // the user's code goes (the task carries it on); stop at the throw, as it happens.
        bool asyncUnhandled = eventType == CatchHandlerFound && IsAsyncCatchAll(handler);
        // Caught by async Main's own catch-all: its task's awaiter in the compiler's `<Main>`
        // rethrows it and the process dies, so this is the unhandled stop, made here while the
        // thread is still in the user's code.
        bool leavesMain = asyncUnhandled && IsUserEntry(handler!);
        if (debuggee.Thread(threadId) is not { } thread) return null;
        bool wantsUserUnhandled;
        lock (_exceptionGate) wantsUserUnhandled = _exceptionFilters.ContainsKey("user-unhandled");
        bool leavesUserCode = wantsUserUnhandled && eventType == CatchHandlerFound && !asyncUnhandled
            && LeavesUserCode(threadId, thread, handler);
        string? filterId = eventType switch
        {
            FirstChance => "all", Unhandled => "user-unhandled",
            _ => asyncUnhandled || leavesUserCode ? "user-unhandled" : null,
        };
        if (filterId is null) return null;
        bool unhandled = eventType == Unhandled || leavesMain;
        ExceptionTypeFilter? filter;
        lock (_exceptionGate)
        {
            // An exception about to kill the process stops whatever the filters say.
            filter = unhandled ? ExceptionTypeFilter.Any : _exceptionFilters.GetValueOrDefault(filterId);
        }
        if (filter is null || thread.GetCurrentException(out var exception) < 0) return null;
        if (!FirstUnhandledStop(exception, eventType, leavesMain)) return null;
        if (!unhandled && filterId == "user-unhandled" && eventType == CatchHandlerFound && !FirstUserUnhandledStop(exception)) return null;
        string stack = ExceptionDetails.FormatFrames(debuggee.Walk(threadId, thread, 200));
        ExceptionDetails details = ExceptionDetails.Read(exception, stack);
        if (!filter.Matches(details.TypeName)) return null;
        bool userUnhandled = asyncUnhandled || leavesUserCode;
        string breakMode = unhandled ? "unhandled" : userUnhandled ? "userUnhandled" : "always";
        lock (_exceptionGate) _currentExceptions[threadId] = (breakMode, details);
        string what = unhandled ? "Unhandled exception"
            : asyncUnhandled ? "Exception not handled in user code (the async method's task carries it)"
            : leavesUserCode ? "Exception not handled in user code (code without source catches it)" : "Exception thrown";
        return new StopEvent("exception", threadId, Description: $"{what}: {details.TypeName}: {details.Message}",
            Text: details.TypeName);
    }

    private ulong _leftMain;

    /// <summary>One unhandled stop per exception: the one that left async Main stopped where it
    /// left the user's code, so the runtime's unhandled event for it (in `<Main>`, without
    /// source) is not a second one.</summary>
    private bool FirstUnhandledStop(ICorDebugValue exception, int eventType, bool leavesMain)
    {
        if (!leavesMain && eventType != Unhandled) return true;
        if (exception is not ICorDebugReferenceValue reference || reference.GetValue(out ulong address) < 0) return true;
        if (leavesMain) Interlocked.Exchange(ref _leftMain, address);
        return leavesMain || Interlocked.Read(ref _leftMain) != address;
    }

    /// <summary>The handler is in the user's Main (its async state machine's MoveNext).</summary>
    private bool IsUserEntry(ExceptionHandlerSite handler) =>
        debuggee.Modules.Find(handler.ModulePath) is { Symbols: { } symbols, Metadata: { } metadata }
        && UserEntry.Find(metadata, symbols)?.MethodToken == handler.MethodToken;

    /// <summary>Just-my-code's user-unhandled: the exception passes through user code (a frame
    /// with source between the throw and the handler) and is caught by code without source, as
    /// a web framework catches whatever an endpoint throws and answers 500.</summary>
    private bool LeavesUserCode(uint threadId, ICorDebugThread thread, ExceptionHandlerSite? handler)
    {
        if (handler is null || IsUserCode(handler.ModulePath, handler.MethodToken)) return false;
        List<FrameInfo> frames = debuggee.Walk(threadId, thread, 400);
        int catching = frames.FindIndex(f => f.ModulePath == handler.ModulePath && f.MethodToken == handler.MethodToken);
        return catching > 0 && frames.Take(catching).Any(f => f.Source is not null && IsUserCode(f.ModulePath, f.MethodToken));
    }

    private bool IsUserCode(string modulePath, int methodToken) =>
        debuggee.Modules.Find(modulePath)?.Symbols is not null && stepFilter.IsUserCode(modulePath, methodToken);

    private ulong _lastUserUnhandled;

    /// <summary>One user-unhandled stop per exception: the same object rethrown further up
    /// (an awaiting caller's GetResult, a middleware's rethrow) is not a new one.</summary>
    private bool FirstUserUnhandledStop(ICorDebugValue exception)
    {
        if (exception is not ICorDebugReferenceValue reference || reference.GetValue(out ulong address) < 0) return true;
        return Interlocked.Exchange(ref _lastUserUnhandled, address) != address;
    }

    private bool IsAsyncCatchAll(ExceptionHandlerSite? handler) =>
        handler is not null && debuggee.Modules.Find(handler.ModulePath)?.Symbols is { } symbols
        && symbols.AsyncCatchHandlerOffset(handler.MethodToken) == (int)handler.Offset;

    /// <summary>The exception the thread is stopped at: how it broke, and what it is.</summary>
    public (string BreakMode, ExceptionDetails Details) Current(uint threadId)
    {
        lock (_exceptionGate)
            return _currentExceptions.TryGetValue(threadId, out var current) ? current
                : throw new DapException($"thread {threadId} is not stopped at an exception");
    }

    public bool IsAtException(uint threadId)
    {
        lock (_exceptionGate) return _currentExceptions.ContainsKey(threadId);
    }

    /// <summary>A resume leaves every exception stop behind.</summary>
    public void Forget()
    {
        lock (_exceptionGate) _currentExceptions.Clear();
    }
}

/// <summary>Which exception types a filter stops on, read as VS Code's C# extension, vsdbg
/// and netcoredbg read a filter's condition: type names separated by commas or spaces; a
/// leading "!" negates the whole list ("!A, B": every type but A and B). A "!" before a later
/// item excludes that one type, as before.</summary>
public sealed class ExceptionTypeFilter
{
    public static readonly ExceptionTypeFilter Any = new([], []);
    private static readonly char[] Separators = [',', ' ', '\t'];
    private readonly HashSet<string> _include;
    private readonly HashSet<string> _exclude;

    private ExceptionTypeFilter(HashSet<string> include, HashSet<string> exclude) => (_include, _exclude) = (include, exclude);

    public static ExceptionTypeFilter Parse(string? condition)
    {
        string text = (condition ?? "").Trim();
        bool negated = text.StartsWith('!');
        if (negated) text = text[1..];
        var include = new HashSet<string>(StringComparer.Ordinal);
        var exclude = new HashSet<string>(StringComparer.Ordinal);
        foreach (string part in text.Split(Separators, StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            if (part.StartsWith('!')) exclude.Add(part[1..].Trim());
            else (negated ? exclude : include).Add(part);
        }
        exclude.Remove("");
        return new ExceptionTypeFilter(include, exclude);
    }

    public bool Matches(string typeName) =>
        !_exclude.Contains(typeName) && (_include.Count == 0 || _include.Contains(typeName));
}
