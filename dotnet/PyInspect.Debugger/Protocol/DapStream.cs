using System.Text;
using System.Text.Json.Nodes;

namespace PyInspect.Debugger.Protocol;

/// <summary>Content-Length framing of DAP messages over a pair of byte streams.
/// Reading happens on one thread; writing is serialized by a lock so events from the
/// ICorDebug callback thread never interleave with responses.</summary>
public sealed class DapStream(Stream input, Stream output)
{
    private const int MaxMessageBytes = 64 * 1024 * 1024;
    private readonly object _writeLock = new();
    private bool _closed;

    /// <summary>The next message's body as text, or null when the input has ended.</summary>
    public string? ReadMessage()
    {
        int length = -1;
        while (true)
        {
            string? header = ReadHeaderLine();
            if (header is null) return null;
            if (header.Length == 0)
            {
                if (length >= 0) break;
                continue; // stray blank line before a header block
            }
            int colon = header.IndexOf(':');
            if (colon > 0 && header[..colon].Trim().Equals("Content-Length", StringComparison.OrdinalIgnoreCase)
                && int.TryParse(header[(colon + 1)..].Trim(), out int parsed) && parsed is >= 0 and <= MaxMessageBytes)
                length = parsed;
        }
        byte[] body = new byte[length];
        int read = 0;
        while (read < length)
        {
            int n = input.Read(body, read, length - read);
            if (n == 0) return null;
            read += n;
        }
        return Encoding.UTF8.GetString(body);
    }

    /// <summary>One frame in one write: a process ending meanwhile never leaves half a frame.
    /// After <see cref="Close"/>, frames are dropped.</summary>
    public void WriteMessage(JsonNode message)
    {
        byte[] body = Encoding.UTF8.GetBytes(message.ToJsonString());
        byte[] header = Encoding.ASCII.GetBytes($"Content-Length: {body.Length}\r\n\r\n");
        byte[] frame = [.. header, .. body];
        lock (_writeLock)
        {
            if (_closed) return;
            output.Write(frame);
            output.Flush();
        }
    }

    /// <summary>Waits for a frame being written, then lets no more through (the adapter is exiting).</summary>
    public void Close()
    {
        lock (_writeLock) _closed = true;
    }

    private string? ReadHeaderLine()
    {
        var line = new StringBuilder();
        while (true)
        {
            int b = input.ReadByte();
            if (b < 0) return line.Length == 0 ? null : line.ToString();
            if (b == '\n') return line.ToString().TrimEnd('\r');
            line.Append((char)b);
        }
    }
}
