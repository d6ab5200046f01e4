// A property in a breakpoint condition (`o.IsBig`) answered at a hit without an ICorDebug
// frame (making one costs a stack refresh, most of a getter condition's time): the getter the
// property resolves to on the object's exact type learned once per method table (from the
// object's ICorDebug value made from its address, ICorDebugProcess5.GetObject; the
// evaluator's lookup order, virtual dispatch as func-eval does it), then run by the IL
// interpreter in a frameless context on the object known by its address. What it does not answer (a field, a generic type, a getter the
// interpreter refuses) is a miss, and the hit takes the evaluator's path, which interprets
// and falls back to func-eval as before; what the getter throws is answered as there.
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
using PyInspect.Debugger.Evaluation.Getters;
using PyInspect.Debugger.Evaluation.IL.Machine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.Conditions;

internal static class BoundGetter
{
    /// <summary>Per debuggee (the interpreter's resolver is one per module list), by method table and name:
    /// the getter to run on objects of that type, or null where the bound form does not run one (the process too:
    /// method tables are its addresses).</summary>
    private static readonly ConditionalWeakTable<ModuleCatalog, ConcurrentDictionary<(int Process, ulong MethodTable, string Name), IlMethod?>> Getters = new();

    /// <summary>The property's value on the object at `address` (of that method table), false on any miss.</summary>
    public static bool TryRead(HitSite site, ulong address, ulong methodTable, string name, out object? value)
    {
        value = null;
        var learned = Getters.GetValue(site.Modules, _ => new());
        if (learned.TryGetValue((site.ProcessId, methodTable, name), out IlMethod? getter) && getter is null) return false;
        using EvalContext context = site.Frameless();
        if (getter is null)
        {
            long learning = HitProfile.Start();
            if (site.ObjectAt(address) is not { } self) return false;
            getter = learned.GetOrAdd((site.ProcessId, methodTable, name), Resolve(context, self, name));
            HitProfile.Add("bound getter: learned for a method table", learning);
            if (getter is null) return false;
        }
        // A class instance of the learned type: its ICorDebug value is made (GetObject) only if the run needs more
        // than fields read from memory (IlFieldMemory).
        var receiver = new DebuggeeObject(address, () => MadeAt(site, address));
        long started = HitProfile.Start();
        try
        {
            if (!IlCalls.TryRunOn(context, getter, receiver, out object? result)) return false;
            value = EvalValues.Local(result);
            return value is not MadeValue;  // what the interpreter made is the evaluator's to show
        }
        finally
        {
            HitProfile.Add("bound getter: IL run (frameless)", started);
        }
    }

    private static ICorDebugValue MadeAt(HitSite site, ulong address)
    {
        long started = HitProfile.Start();
        try
        {
            return site.ObjectAt(address) ?? throw new IlRefusal($"cannot make the object at 0x{address:X} from its address");
        }
        finally
        {
            HitProfile.Add("bound getter: object from its address (GetObject)", started);
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
