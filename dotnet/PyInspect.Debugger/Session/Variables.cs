// What a variablesReference shows: a frame's arguments and locals (with `$exception` at an
// exception stop), an array's or collection's elements, an object's children: its fields,
// then the properties only a getter can give, run by func-eval on the stopped thread for
// the requested page only, each bounded and all of them within a per-request budget. A
// getter that throws shows its exception as the value.
using System.Diagnostics;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

/// <summary>A scope's variablesReference: the frame's id, resolved (and refreshed) when read.</summary>
public sealed record FrameScope(int FrameId);

public sealed class Variables(Debuggee debuggee, ExceptionStops exceptions)
{
    private static readonly TimeSpan GetterTimeout = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan GettersBudget = TimeSpan.FromSeconds(3);

    /// <summary>One page of a reference's children; `filter` is DAP's "named" / "indexed" or null.</summary>
    public IReadOnlyList<VariableView> Read(object source, string? filter, int start, int? count, bool hex)
    {
        ChildSource children = source is FrameScope scope ? new ListChildren(ScopeVariables(scope, hex)) : (ChildSource)source;
        return Filtered(children, filter, start, count, hex);
    }

    /// <summary>A frame's arguments and locals; at an exception stop, the leaf frame's list
    /// starts with `$exception`, the exception object itself.</summary>
    private List<VariableView> ScopeVariables(FrameScope scope, bool hex)
    {
        FrameInfo frame = debuggee.Frame(scope.FrameId);
        List<VariableView> views = FrameVariables.Read(frame, hex);
        if (debuggee.Thread(frame.ThreadId) is { } thread && IsLeaf(frame) && exceptions.IsAtException(frame.ThreadId)
            && thread.GetCurrentException(out var exception) >= 0)
            views.Insert(0, VariableReader.Describe("$exception", "$exception", exception, hex) with { Kind = "exception" });
        return views;
    }

    private bool IsLeaf(FrameInfo frame) =>
        debuggee.TopFrame(frame.ThreadId) is { } top
        && top.MethodToken == frame.MethodToken && top.IlOffset == frame.IlOffset && top.ModulePath == frame.ModulePath;

    /// <summary>DAP's `filter`: VS Code asks a variable with both counts twice, once for its
    /// named and once for its indexed children; each must answer only its own kind, or every
    /// element shows twice. Elements of arrays and collections are indexed, the rest named.</summary>
    private IReadOnlyList<VariableView> Filtered(ChildSource children, string? filter, int start, int? count, bool hex)
    {
        switch (children, filter)
        {
            case (ArrayChildren, "named"):
            case (ObjectChildren or ListChildren or MadeChildren, "indexed"):
                return [];
            case (CollectionChildren collection, "named"):
                return start > 0 ? [] : ChildReader.Read(collection, collection.Count, 1, hex);  // its Raw View
            case (CollectionChildren collection, "indexed"):
                int take = Math.Min(count is > 0 ? count.Value : VariableReader.DefaultPageSize, collection.Count - start);
                return take <= 0 ? [] : ChildReader.Read(collection, start, take, hex);
            case (ObjectChildren members, _):
                return ObjectMembers(members, start, count, hex);
            default:
                return ChildReader.Read(children, start, count, hex);
        }
    }

    private List<VariableView> ObjectMembers(ObjectChildren source, int start, int? count, bool hex)
    {
        int fieldCount = ChildReader.Count(source);
        List<GetterProperty> properties = PropertyGetters.Find(source.Type);
        bool statics = StaticMembers.Fields(source.Type).Count > 0;
        int total = fieldCount + properties.Count + (statics ? 1 : 0);
        int first = Math.Clamp(start, 0, total);
        int take = Math.Min(count is > 0 ? count.Value : VariableReader.DefaultPageSize, total - first);
        var views = new List<VariableView>(take);
        if (first < fieldCount) views.AddRange(ChildReader.Read(source, first, Math.Min(take, fieldCount - first), hex));
        IEnumerable<GetterProperty> page = properties.Skip(Math.Max(first - fieldCount, 0)).Take(take - views.Count);
        var budget = Stopwatch.StartNew();
        foreach (GetterProperty property in page)
        {
            string evaluateName = $"{source.EvaluateName}.{property.Name}";
            views.Add(budget.Elapsed < GettersBudget
                ? ReadProperty(source.Type, source.Receiver, property, evaluateName, hex)
                : Unevaluated(property.Name, evaluateName, "the time budget for getters in this request was spent"));
        }
        if (statics && first + take == total) views.Add(StaticMembers.Node(source.Type, hex));
        return views;
    }

    private VariableView ReadProperty(ICorDebugType type, ICorDebugValue self, GetterProperty property, string evaluateName, bool hex)
    {
        try
        {
            ICorDebugValue? value = debuggee.Calls.Call(debuggee.StopThreadId, property.Getter, TypeNames.TypeArguments(type), [self], GetterTimeout);
            return value is null
                ? Unevaluated(property.Name, evaluateName, "the getter returned nothing")
                : VariableReader.Describe(property.Name, evaluateName, value, hex) with { Kind = "property" };
        }
        catch (DebuggeeThrewException thrown)
        {
            return new VariableView(property.Name, $"threw {thrown.Message}", thrown.ExceptionType, evaluateName, null, null,
                Kind: "property");
        }
        catch (Exception failed) when (failed is EvalTimeoutException or EngineException)
        {
            return Unevaluated(property.Name, evaluateName, failed.Message);
        }
    }

    private static VariableView Unevaluated(string name, string evaluateName, string why) =>
        new(name, $"<{why}>", "?", evaluateName, null, null, Kind: "property");
}
