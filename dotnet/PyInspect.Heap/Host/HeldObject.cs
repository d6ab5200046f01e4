namespace PyInspect.Heap;

/// <summary>An answer that stays in the dump reader's table (a walk, a graph): the parent gets its id.</summary>
public sealed record HeldObject(long Id);
