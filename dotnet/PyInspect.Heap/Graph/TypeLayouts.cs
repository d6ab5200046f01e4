using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>MethodTable to <see cref="TypeLayout"/>, shared by the walk's threads: each
/// MethodTable is resolved through ClrMD once (under a lock: ClrMD's type factory is
/// asked from one thread at a time), null for a value that is not a MethodTable.</summary>
internal sealed class TypeLayouts
{
    private readonly ClrHeap _heap;
    private readonly IDataReader _reader;
    private readonly Dictionary<ulong, TypeLayout?> _byMethodTable = new();
    private readonly object _gate = new();

    public TypeLayouts(ClrHeap heap, IDataReader reader)
    {
        _heap = heap;
        _reader = reader;
    }

    /// <summary>The layout of the MethodTable mt read at object address obj.</summary>
    public TypeLayout? Get(ulong mt, ulong obj)
    {
        lock (_gate)
        {
            if (!_byMethodTable.TryGetValue(mt, out var layout))
            {
                var type = mt == 0 ? null : _heap.GetObjectType(obj);
                layout = type is null || type.MethodTable != mt ? null : TypeLayout.Read(type, mt, _reader);
                _byMethodTable[mt] = layout;
            }
            return layout;
        }
    }
}
