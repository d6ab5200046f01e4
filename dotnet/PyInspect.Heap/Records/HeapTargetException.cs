namespace PyInspect.Heap;

/// <summary>
/// Every failure the helper reports: a code from pyinspect's closed set
/// (PROCESS_NOT_FOUND, NOT_DOTNET_PROCESS, DUMP_ERROR, NOT_AN_OBJECT, HEAP_READ_ERROR,
/// INVALID_PARAMETER) so the Python side translates it without parsing messages.
/// </summary>
public sealed class HeapTargetException : Exception
{
    public HeapTargetException(string code, string message, Exception? inner = null)
        : base(message, inner)
    {
        Code = code;
    }

    public string Code { get; }
}
