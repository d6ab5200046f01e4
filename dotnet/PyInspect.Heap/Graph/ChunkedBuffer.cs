using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// An append-only buffer in fixed chunks of 1M elements: growing never copies (a List
/// doubling through tens of millions of elements copies and re-zeroes each time), and
/// <see cref="ToArray"/> copies once into an array of the exact length.
/// </summary>
internal sealed class ChunkedBuffer<T> where T : unmanaged
{
    private const int ChunkBits = 20;
    private const int ChunkSize = 1 << ChunkBits;
    private readonly List<T[]> _chunks = new();
    private T[] _current = Array.Empty<T>();
    private int _used = ChunkSize;

    /// <summary>Elements per chunk: chunk c starts at element c x ChunkLength.</summary>
    public const int ChunkLength = ChunkSize;

    public long Count { get; private set; }

    public int ChunkCount => _chunks.Count;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Add(T value)
    {
        if (_used == ChunkSize)
        {
            _current = GC.AllocateUninitializedArray<T>(ChunkSize);
            _chunks.Add(_current);
            _used = 0;
        }
        _current[_used++] = value;
        Count++;
    }

    /// <summary>Append values in order (chunk by chunk, no per-element call).</summary>
    public void AddRange(ReadOnlySpan<T> values)
    {
        while (!values.IsEmpty)
        {
            if (_used == ChunkSize)
            {
                _current = GC.AllocateUninitializedArray<T>(ChunkSize);
                _chunks.Add(_current);
                _used = 0;
            }
            int n = Math.Min(values.Length, ChunkSize - _used);
            values[..n].CopyTo(_current.AsSpan(_used));
            _used += n;
            Count += n;
            values = values[n..];
        }
    }

    /// <summary>The filled part of chunk c, for reading the buffer in order without an index per element.</summary>
    public ReadOnlySpan<T> Chunk(int c) => _chunks[c].AsSpan(0, (int)Math.Min(ChunkSize, Count - ((long)c << ChunkBits)));

    public T[] ToArray()
    {
        var result = GC.AllocateUninitializedArray<T>(checked((int)Count));
        long copied = 0;
        foreach (var chunk in _chunks)
        {
            int length = (int)Math.Min(ChunkSize, Count - copied);
            Array.Copy(chunk, 0, result, copied, length);
            copied += length;
        }
        return result;
    }

    /// <summary>Drop the chunks (after ToArray) so their memory can go.</summary>
    public void Clear()
    {
        _chunks.Clear();
        _current = Array.Empty<T>();
        _used = ChunkSize;
        Count = 0;
    }
}
