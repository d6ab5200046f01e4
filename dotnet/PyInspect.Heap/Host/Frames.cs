using System.Buffers.Binary;
using System.Net.Sockets;

namespace PyInspect.Heap;

/// <summary>
/// Messages on the dump reader's socket, framed as the parent's end (pyinspect.heap.frames)
/// frames them, which is multiprocessing.connection's framing: a 4-byte big-endian length,
/// or -1 and an 8-byte length for a message of 2 GiB or more, then the bytes.
/// </summary>
public sealed class Frames
{
    private readonly NetworkStream _stream;

    public Frames(NetworkStream stream)
    {
        _stream = stream;
    }

    /// <summary>The next message, or null when the parent closed its end.</summary>
    public byte[]? Read()
    {
        Span<byte> header = stackalloc byte[8];
        if (!Fill(header[..4]))
            return null;
        long length = BinaryPrimitives.ReadInt32BigEndian(header);
        if (length == -1)
        {
            if (!Fill(header))
                return null;
            length = (long)BinaryPrimitives.ReadUInt64BigEndian(header);
        }
        var message = new byte[length];
        return Fill(message) ? message : null;
    }

    public void Write(ReadOnlySpan<byte> tag, ReadOnlySpan<byte> body)
    {
        long length = tag.Length + body.Length;
        Span<byte> header = stackalloc byte[12];
        int used;
        if (length > int.MaxValue)
        {
            BinaryPrimitives.WriteInt32BigEndian(header, -1);
            BinaryPrimitives.WriteUInt64BigEndian(header[4..], (ulong)length);
            used = 12;
        }
        else
        {
            BinaryPrimitives.WriteInt32BigEndian(header, (int)length);
            used = 4;
        }
        _stream.Write(header[..used]);
        _stream.Write(tag);
        _stream.Write(body);
        _stream.Flush();
    }

    private bool Fill(Span<byte> buffer)
    {
        try
        {
            _stream.ReadExactly(buffer);
            return true;
        }
        catch (Exception exc) when (exc is EndOfStreamException or IOException or SocketException)
        {
            return false;
        }
    }
}
