// Async and iterator methods run inside a compiler-generated state machine's MoveNext:
// their locals live in its fields (`<value>5__2`, in scope where the PDB says), their
// parameters in fields named like them, the declaring object in `<>4__this`, the display
// class holding locals a lambda captured in `<>8__N` (opened up by ClosureFrames, so such
// a local is named after an await as before it). A frame of
// such a MoveNext shows those as the method's own `this`, arguments and locals, under the
// method's own name (`Program.Steps()`), as the code was written.
using System.Text.RegularExpressions;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Frames;

public static partial class StateMachineFrames
{
    [GeneratedRegex(@"^(?<outer>.+)\.<(?<method>.+)>d(?:__\d+)?\.MoveNext$")]
    private static partial Regex MoveNextName();

    [GeneratedRegex(@"^<(?<name>[^>]+)>5__(?<slot>\d+)$")]
    private static partial Regex HoistedLocal();

    /// <summary>A hoisted display class: the closure of locals a lambda captured.</summary>
    [GeneratedRegex(@"^<>8__(?<slot>\d+)$")]
    private static partial Regex HoistedClosure();

    /// <summary>"Ns.Type.<Steps>d__10.MoveNext" as the method it implements: "Ns.Type.Steps" (an
    /// async lambda's "Ns.Type.<>c.<<Main>$>b__0_4>d.MoveNext" as "Ns.Type.<>c.<<Main>$>b__0_4",
    /// which ClosureFrames names in turn); others unchanged.</summary>
    public static string DisplayName(string methodName) =>
        MoveNextName().Match(methodName) is { Success: true } m ? $"{m.Groups["outer"].Value}.{m.Groups["method"].Value}" : methodName;

    /// <summary>The machine's `&lt;&gt;1__state`: the await it waits at (0 or more), -1 running, -2 done; null if unreadable.</summary>
    public static int? State(ICorDebugValue machine) =>
        ValuePath.Member(machine, "<>1__state") is { } state && ValueText.RawBytes(state) is { Length: >= 4 } raw
            ? BitConverter.ToInt32(raw) : null;

    /// <summary>The Task an async method's builder hands out (`&lt;&gt;t__builder.m_task`, or
    /// `.m_builder.m_task` for a method returning Task).</summary>
    public static ICorDebugValue? MethodTask(ICorDebugValue machine)
    {
        if (ValuePath.Dereference(machine) is null || ValuePath.Member(machine, "<>t__builder") is not { } builder) return null;
        ICorDebugValue? task = ValuePath.Member(builder, "m_task")
            ?? (ValuePath.Member(builder, "m_builder") is { } inner ? ValuePath.Member(inner, "m_task") : null);
        return task is not null && ValuePath.Dereference(task) is not null ? task : null;
    }

    /// <summary>Whether the frame runs a state machine's MoveNext (asked at every variables read
    /// and evaluator lookup, so remembered per method).</summary>
    public static bool IsMoveNext(FrameInfo frame) =>
        MoveNextMethods.GetOrAdd((frame.ModulePath, frame.MethodToken), key =>
            File.Exists(key.Module) && MoveNextName().IsMatch(ModuleMetadata.Open(key.Module).GetMethodDisplayName(key.Token)));

    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(string Module, int Token), bool> MoveNextMethods = new();

    /// <summary>The variables of a state machine's MoveNext frame as the source names them; null for other frames.</summary>
    public static List<FrameVariable>? Variables(FrameInfo frame)
    {
        if (!IsMoveNext(frame) || frame.Frame.GetArgument(0, out var machine) < 0) return null;
        if (ValuePath.Dereference(machine) is not ICorDebugObjectValue obj || obj is not ICorDebugValue2 typed
            || typed.GetExactType(out var type) < 0)
            return null;
        var scopes = frame.Module?.Symbols?.HoistedLocalScopes(frame.MethodToken);
        var self = new List<FrameVariable>();
        var arguments = new List<FrameVariable>();
        var locals = new Dictionary<string, FrameVariable>(StringComparer.Ordinal);
        foreach (var (cls, field) in VariableReader.InstanceFields(type))
        {
            FrameVariable Read(string name, string kind) => FrameVariable.Read(name, kind, obj.GetFieldValue(cls, field.Token, out var value), value);
            if (field.Name == "<>4__this") self.Add(Read("this", "this"));
            else if (!field.Name.StartsWith('<')) arguments.Add(Read(field.Name, "argument"));
            else if (HoistedLocal().Match(field.Name) is { Success: true } hoisted && InScope(scopes, hoisted, frame.IlOffset))
                locals[hoisted.Groups["name"].Value] = Read(hoisted.Groups["name"].Value, "local");
            else if (HoistedClosure().Match(field.Name) is { Success: true } closure && InScope(scopes, closure, frame.IlOffset))
                locals[ClosureFrames.DisplayClassLocal + closure.Groups["slot"].Value] = Read(ClosureFrames.DisplayClassLocal + closure.Groups["slot"].Value, "local");
        }
        return [.. self, .. arguments, .. locals.Values];
    }

    /// <summary>Slot N-1's scope holds the IP (no scope information: always in scope).</summary>
    private static bool InScope(IReadOnlyList<(int Start, int End)>? scopes, Match hoisted, uint ip)
    {
        int slot = int.Parse(hoisted.Groups["slot"].Value, System.Globalization.CultureInfo.InvariantCulture) - 1;
        if (scopes is null || slot < 0 || slot >= scopes.Count) return true;
        var (start, end) = scopes[slot];
        return (start == 0 && end == 0) || (ip >= start && ip < end);
    }
}
