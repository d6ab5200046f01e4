// A property in a breakpoint condition (`o.IsBig`) answered at a hit without an ICorDebug
// frame (making one costs a stack refresh, most of a getter condition's time): the receiver's
// ICorDebug value made from its address (ICorDebugProcess5.GetObject), the getter the property
// resolves to on the object's exact type learned once per method table (the evaluator's
// lookup order, virtual dispatch as func-eval does it), then run by the IL interpreter in a
// frameless context. What it does not answer (a field, a generic type, a getter the
// interpreter refuses) is a miss, and the hit takes the evaluator's path, which interprets
// and falls back to func-eval as before; what the getter throws is answered as there.
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation.IL;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Evaluation;

internal static class BoundGetter
{
    /// <summary>Per debuggee (the interpreter's resolver is one per module list), by method table and name:
    /// the getter to run on objects of that type, or null where the bound form does not run one.</summary>
    private static readonly ConditionalWeakTable<ModuleCatalog, ConcurrentDictionary<(ulong MethodTable, string Name), IlMethod?>> Getters = new();

    /// <summary>The property's value on the object at `address` (of that method table), false on any miss.</summary>
    public static bool TryRead(HitSite site, ulong address, ulong methodTable, string name, out object? value)
    {
        value = null;
        var learned = Getters.GetValue(site.Modules, _ => new());
        if (learned.TryGetValue((methodTable, name), out IlMethod? getter) && getter is null) return false;
        long started = HitProfile.Start();
        ICorDebugObjectValue? self = site.ObjectAt(address);
        HitProfile.Add("bound getter: object from its address (GetObject)", started);
        if (self is null) return false;
        using EvalContext context = site.Frameless();
        if (getter is null)
        {
            started = HitProfile.Start();
            getter = learned.GetOrAdd((methodTable, name), Resolve(context, self, name));
            HitProfile.Add("bound getter: learned for a method table", started);
            if (getter is null) return false;
        }
        started = HitProfile.Start();
        try
        {
            if (!IlCalls.TryRunOn(context, getter, self, out object? result)) return false;
            value = Interpreter.Local(result);
            return value is not MadeValue;  // what the interpreter made is the evaluator's to show
        }
        finally
        {
            HitProfile.Add("bound getter: IL run (frameless)", started);
        }
    }

    /// <summary>The getter `name` runs on this object's type, found as the evaluator finds a member (the runtime
    /// type first, then its bases; a field of that name wins at its level); null where it is not one to bind.</summary>
    private static IlMethod? Resolve(EvalContext context, ICorDebugObjectValue self, string name)
    {
        if (self.GetType(out int elementType) < 0 || elementType != CorElementType.Class || self is ICorDebugBoxValue
            || self is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            return null;
        foreach (var (_, cls, md, token) in Members.Levels(type))
        {
            // Generic types: members read per instantiation, some answered from fields (Members.FieldBackedMembers).
            if (md.GetTypeName(token).Contains('`', StringComparison.Ordinal)) return null;
            if (md.Fields(token).Any(f => f.Name == name || ModuleMetadata.FieldDisplayName(f.Name) == name)) return null;
            if (md.Properties(token).FirstOrDefault(p => p.Name == name && p.IndexCount == 0) is not { } property) continue;
            if (property.IsStatic || property.GetterToken == 0 || cls.GetModule(out var module) < 0
                || module.GetFunctionFromToken(property.GetterToken, out var function) < 0)
                return null;
            return IlCalls.GetterOn(context, function, self);
        }
        return null;
    }
}
