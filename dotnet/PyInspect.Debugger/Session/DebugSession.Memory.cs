// readMemory: bytes of the stopped debuggee at a memoryReference (the object addresses
// variables and evaluate hand out), so a client's memory view can show an object's bytes.
using System.Globalization;
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    /// <summary>The most one readMemory answers (DAP clients page through larger ranges).</summary>
    private const int MaxReadBytes = 1 << 20;

    private JsonNode ReadMemory(JsonObject arguments)
    {
        DebuggerEngine engine = RequireStopped();
        string reference = arguments["memoryReference"]?.GetValue<string>() ?? throw new DapException("readMemory needs 'memoryReference'");
        long offset = arguments["offset"]?.GetValue<long>() ?? 0;
        int count = RequiredInt(arguments, "count");
        if (count < 0 || count > MaxReadBytes) throw new DapException($"'count' must be between 0 and {MaxReadBytes}");
        ulong baseAddress = ParseAddress(reference);
        ulong address = offset >= 0 ? baseAddress + (ulong)offset : baseAddress - (ulong)(-offset);
        var buffer = new byte[count];
        int read = count == 0 ? 0 : engine.ReadMemory(address, buffer);
        var answer = new JsonObject { ["address"] = $"0x{address:x}" };
        if (read < count) answer["unreadableBytes"] = count - read;
        answer["data"] = Convert.ToBase64String(buffer, 0, read);
        return answer;
    }

    private static ulong ParseAddress(string reference)
    {
        string digits = reference.StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? reference[2..] : reference;
        return ulong.TryParse(digits, NumberStyles.HexNumber, CultureInfo.InvariantCulture, out ulong address) && address != 0
            ? address : throw new DapException($"'{reference}' is not a memory reference (a hex address such as 0x7f12a0001000)");
    }
}
