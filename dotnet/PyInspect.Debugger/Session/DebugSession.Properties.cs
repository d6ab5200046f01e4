// An object's children: its fields, then the properties only a getter can give, run by
// func-eval on the stopped thread for the requested page only, each bounded and all of
// them within a per-request budget. A getter that throws shows its exception as the value.
using System.Diagnostics;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private static readonly TimeSpan GetterTimeout = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan GettersBudget = TimeSpan.FromSeconds(3);
    private uint _stopThreadId;

    /// <summary>Func-eval on the current process, reporting a thrown exception by type and message.</summary>
    private IDebuggeeCalls Calls => new FuncEval(RequireEngine(), exception =>
    {
        ExceptionDetails details = ExceptionDetails.Read(exception);
        return (details.TypeName, details.Message);
    });

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
            ICorDebugValue? value = Calls.Call(_stopThreadId, property.Getter, TypeNames.TypeArguments(type), [self], GetterTimeout);
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
