using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Every root of the snapshot with its owner: statics (type.field, read from each type
/// with static fields), strong and pinned handles, stack slots (thread, its name, and frame), and the
/// finalizer queue (objects ready for finalization). Weak and dependent handles are not
/// roots; dependent handles are edges of the graph instead. A frame holding one object
/// in several slots counts as one root.
/// </summary>
internal sealed class RootCollector
{
    private readonly ClrRuntime _runtime;
    private readonly AddressIndex _index;
    private readonly List<GraphRoot> _roots = new();
    private readonly ReadSteps _steps;

    /// <summary>OS ids of threads whose stacks could not be walked (their roots are missing).</summary>
    public List<int> SkippedThreads { get; } = new();

    public RootCollector(ClrRuntime runtime, AddressIndex index, ReadSteps steps)
    {
        _runtime = runtime;
        _index = index;
        _steps = steps;
    }

    public List<GraphRoot> Collect()
    {
        AddStatics();
        AddHandles();
        AddStacks();
        if (_steps.Enter("finalizer roots"))
            foreach (var root in _runtime.Heap.EnumerateFinalizerRoots())
                Add(root.Object.Address, "finalizer", "finalizer queue", 0, false);
        return _roots.Distinct().ToList();
    }

    private void Add(ulong address, string kind, string name, int thread, bool pinned)
    {
        if (address == 0)
            return;
        int index = _index.FindContaining(address);
        if (index >= 0)
            _roots.Add(new GraphRoot(index, kind, name, thread, pinned));
    }

    private void AddStatics()
    {
        var domain = _runtime.AppDomains.FirstOrDefault() ?? _runtime.SharedDomain;
        if (domain is null)
            return;
        foreach (var module in _runtime.EnumerateModules())
        {
            if (!_steps.Enter($"static roots of module {module.Name}"))
                continue;
            foreach (var type in module.EnumerateTypesWithStaticFields())
                foreach (var field in type.StaticFields)
                {
                    if (!field.IsObjectReference || !field.IsInitialized(domain))
                        continue;
                    Add(field.ReadObject(domain).Address, "static", $"{type.Name}.{field.Name}", 0, false);
                }
        }
    }

    private void AddHandles()
    {
        if (!_steps.Enter("handle roots"))
            return;
        foreach (var handle in _runtime.EnumerateHandles())
        {
            if (!handle.IsStrong || handle.HandleKind == ClrHandleKind.Dependent)
                continue;
            bool pinned = handle.HandleKind is ClrHandleKind.Pinned or ClrHandleKind.AsyncPinned;
            string kind = pinned ? "pinned" : handle.HandleKind == ClrHandleKind.Strong ? "handle" : "other";
            Add(handle.Object.Address, kind, $"{handle.HandleKind} handle {HeapJson.Hex(handle.Address)}", 0, pinned);
        }
    }

    private void AddStacks()
    {
        var names = ThreadNames.Read(_runtime);
        foreach (var thread in _runtime.Threads)
        {
            IEnumerable<ClrStackRoot> roots;
            if (!StackRoots.AreSafe(thread))
            {
                SkippedThreads.Add((int)thread.OSThreadId);
                continue;
            }
            if (!_steps.Enter($"stack roots of OS thread {thread.OSThreadId}"))
            {
                SkippedThreads.Add((int)thread.OSThreadId);
                continue;
            }
            try
            {
                roots = thread.EnumerateStackRoots().ToList();
            }
            catch (Exception)
            {
                SkippedThreads.Add((int)thread.OSThreadId); // its roots are unknown: answers say so
                continue;
            }
            foreach (var root in roots)
            {
                var frame = root.StackFrame;
                string where = frame?.Method?.Signature ?? frame?.FrameName ?? "?";
                string name = names.TryGetValue(thread.ManagedThreadId, out var threadName) ? $" '{threadName}'" : "";
                Add(root.Object.Address, "stack", $"thread {thread.ManagedThreadId}{name}: {where}", (int)thread.OSThreadId, root.IsPinned);
            }
        }
    }
}
