using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Each managed thread's name, read from its System.Threading.Thread object (`_name`) and
/// keyed by `_managedThreadId`. The runtime holds every started thread's object through a
/// handle, so the handle table finds them without walking the heap.
/// </summary>
public static class ThreadNames
{
    public static Dictionary<int, string> Read(ClrRuntime runtime)
    {
        var names = new Dictionary<int, string>();
        foreach (var handle in runtime.EnumerateHandles())
        {
            var obj = handle.Object;
            if (!obj.IsValid || obj.Type?.Name != "System.Threading.Thread") continue;
            if (!obj.TryReadField("_managedThreadId", out int id)) continue;
            if (obj.TryReadStringField("_name", null, out string? name) && name != null)
                names[id] = name;
        }
        return names;
    }
}
