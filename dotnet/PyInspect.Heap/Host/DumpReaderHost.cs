using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// The dump reader process (pyinspect/heap/dump_child.py starts it as
/// <c>dotnet PyInspect.Heap.dll FD [DUMP]</c>): it opens one dump and answers the named calls
/// its parent sends over the socket FD, until the parent closes or goes. Given the dump's
/// path, it reads the file while the parent still loads and prepares the DAC sources. A fault inside the DAC
/// on a damaged dump ends this process only; the parent answers DUMP_DAMAGED. A native
/// process, so a one-shot command pays neither a second Python nor pythonnet's start.
///
/// Requests are JSON arrays: ["open", path, sourcesJson], ["run", on, member, args|null,
/// released ids], ["close"]. Answers: "s" and a string's UTF-8 bytes, or "v" and JSON
/// {"value": v} | {"ref": id} | {"error": {"code", "message", "context"}}.
/// </summary>
public static class DumpReaderHost
{
    private static readonly string[] KnownCodes =
        ["PROCESS_NOT_FOUND", "NOT_DOTNET_PROCESS", "DUMP_ERROR", "NOT_AN_OBJECT", "HEAP_READ_ERROR",
         "INVALID_PARAMETER", "NOT_COLLECTION"];

    public static int Main(string[] args)
    {
        Timeline.Mark("start");
        if (args.Length is < 1 or > 2 || !int.TryParse(args[0], out int fd))
        {
            Console.Error.WriteLine("usage: PyInspect.Heap FD [DUMP] (the dump reader's socket, from pyinspect; the dump it will open)");
            return 2;
        }
        // This process only reads: no code emitted at run time (System.Text.Json's property
        // accessors, reflection's invoke stubs), each of which the JIT compiled fully optimised.
        AppContext.SetSwitch("System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeSupported", false);
        EndWithParent();
        using var socket = new Socket(new SafeSocketHandle(fd, ownsHandle: true));
        var frames = new Frames(new NetworkStream(socket, ownsSocket: false));
        using var calls = new NamedCalls();
        if (args.Length == 2)
            calls.ReadAhead(args[1]);
        Timeline.Mark("read ahead");
        while (frames.Read() is { } request)
        {
            using JsonDocument document = JsonDocument.Parse(request);
            JsonElement message = document.RootElement;
            string kind = message[0].GetString() ?? "";
            Timeline.Mark("request", kind);
            Reply(frames, () => Serve(calls, kind, message));
            Timeline.Mark("answered", kind);
            if (kind == "close")
                break;
            if (kind == "open")
            {
                calls.Prepare();  // while the parent prepares its first question
                Timeline.Mark("prepared");
            }
        }
        Console.Error.Flush();
        Timeline.Write();
        Exit(0);  // a reader holds nothing the system does not release: neither the target's dispose nor the runtime's shutdown is waited for
        return 0;
    }

    private static object? Serve(NamedCalls calls, string kind, JsonElement message)
    {
        switch (kind)
        {
            case "open":
                calls.OpenDump(message[1].GetString()!, message[2].GetString()!);
                return null;
            case "run":
                foreach (JsonElement released in message[4].EnumerateArray())
                    calls.Release(released.GetInt64());
                return calls.Run(message[1], message[2].GetString()!, message[3]);
            default:
                return null;  // close: answered at once, the process ends next (the system releases the dump's file and mappings, as when the parent goes)
        }
    }

    private static void Reply(Frames frames, Func<object?> serve)
    {
        object? value;
        try
        {
            value = serve();
        }
        catch (Exception exc)
        {
            frames.Write("v"u8, Error(exc));
            return;
        }
        if (value is string text)
        {
            frames.Write("s"u8, Encoding.UTF8.GetBytes(text));
            return;
        }
        var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            if (value is HeldObject held)
                json.WriteNumber("ref", held.Id);
            else
            {
                json.WritePropertyName("value");
                WriteValue(json, value);
            }
            json.WriteEndObject();
        }
        frames.Write("v"u8, buffer.ToArray());
    }

    private static void WriteValue(Utf8JsonWriter json, object? value)
    {
        switch (value)
        {
            case null: json.WriteNullValue(); break;
            case bool flag: json.WriteBooleanValue(flag); break;
            case ulong large: json.WriteNumberValue(large); break;
            case double or float: json.WriteNumberValue(Convert.ToDouble(value)); break;
            default: json.WriteNumberValue(Convert.ToInt64(value)); break;
        }
    }

    /// <summary>A failure as the parent raises it: the helper's code when it is one of pyinspect's
    /// heap codes, else HEAP_READ_ERROR, with the exception's message.</summary>
    private static byte[] Error(Exception exc)
    {
        string code = exc is HeapTargetException coded && KnownCodes.Contains(coded.Code) ? coded.Code
            : exc is ReleasedObjectException ? "INVALID_PARAMETER" : "HEAP_READ_ERROR";
        var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteStartObject("error");
            json.WriteString("code", code);
            json.WriteString("message", exc.Message);
            json.WriteStartObject("context");
            if (exc is ReleasedObjectException released)
                json.WriteNumber("ref", released.Id);
            json.WriteEndObject();
            json.WriteEndObject();
            json.WriteEndObject();
        }
        return buffer.ToArray();
    }

    /// <summary>Killed when the parent ends (a CLI stopped with Ctrl-C, a killed server), even
    /// while the DAC loops on damaged data and would never read the closed socket.</summary>
    private static void EndWithParent()
    {
        const int PrSetPdeathsig = 1, SigKill = 9;
        _ = prctl(PrSetPdeathsig, SigKill, 0, 0, 0);
        if (getppid() == 1)
            Exit(0);  // the parent ended before the request took effect
    }

    private static void Exit(int status)
    {
        _exit(status);
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int prctl(int option, ulong arg2, ulong arg3, ulong arg4, ulong arg5);

    [DllImport("libc")]
    private static extern int getppid();

    [DllImport("libc")]
    private static extern void _exit(int status);
}
