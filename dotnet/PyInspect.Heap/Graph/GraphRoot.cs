namespace PyInspect.Heap;

/// <summary>One root: an edge from the super-root to an object, with who holds it.
/// Kind is one of static, handle, pinned, stack, finalizer, other.</summary>
internal readonly record struct GraphRoot(int Object, string Kind, string Name, int Thread, bool Pinned);
