// setVariable on what a collection or an array shows as its children: the slot the item
// lives in, found afresh on each call (a value read before a write, or before a func-eval
// let the process run, shows what was there then: ICorDebug copies an array's contents
// when it reads it). What cannot be set in place says why.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public static class ElementWriter
{
    /// <summary>The storage of a collection's item named as `variables` named it.</summary>
    public static ICorDebugValue Locate(CollectionChildren source, string name)
    {
        if (source.Kind == "set")
            throw new DapException($"'{name}' cannot be set: an element of a HashSet is found by its hash, so changing it in place would lose it; remove it and add the new value instead");
        if (name == "Raw View")
            throw new DapException("'Raw View' cannot be set: it is the collection's own fields; set one of them there");
        return CollectionItems.ItemStorage(source, name)
            ?? throw new DapException($"no item '{name}' in this {source.Kind} to set (it may have changed since it was shown)");
    }

    /// <summary>An array's element by its shown index ("[1]", "[0, 2]"), from the array as it is now.</summary>
    public static ICorDebugValue? ArrayElement(ArrayChildren array, string name)
    {
        ICorDebugArrayValue current = Fresh(array.Array);
        int total = (int)array.Dimensions.Aggregate(1L, (acc, d) => acc * d);
        for (int position = 0; position < total; position++)
            if ($"[{ChildReader.IndexText(array.Dimensions, position)}]" == name)
                return current.GetElementAtPosition((uint)position, out var value) >= 0 ? value : null;
        return null;
    }

    /// <summary>The array read again (through a short-lived handle), not the copy taken when it was shown.</summary>
    private static ICorDebugArrayValue Fresh(ICorDebugArrayValue array)
    {
        if (ObjectHandles.HoldStrongly(array) is not { } handle) return array;
        try { return handle.Dereference(out var now) >= 0 && now is ICorDebugArrayValue fresh ? fresh : array; }
        finally { handle.Dispose(); }
    }
}
