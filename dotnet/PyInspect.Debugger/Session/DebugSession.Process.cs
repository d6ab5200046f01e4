// The process as a whole: launch / attach / configurationDone / disconnect / terminate (the
// DebuggeeLifecycle's), modules, and readMemory: bytes of the stopped debuggee at a
// memoryReference (the object addresses variables and evaluate hand out), so a client's
// memory view can show an object's bytes.
using System.Globalization;
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private JsonNode? Launch(JsonObject arguments)
    {
        if (_debuggee.Engine is not null) throw new DapException("already debugging a process");
        string program = arguments["program"]?.GetValue<string>() ?? throw new DapException("launch needs 'program'");
        string cwd = LaunchPaths.WorkingDirectory(arguments["cwd"]?.GetValue<string>());
        var request = new LaunchRequest(
            LaunchPaths.Program(program, cwd),
            arguments["args"]?.AsArray().Select(a => a!.GetValue<string>()).ToList() ?? [],
            cwd,
            LaunchEnvironment(arguments));
        bool stopAtEntry = arguments["stopAtEntry"]?.GetValue<bool>() ?? false;
        _stepFilter.Configure(arguments);
        _breakpoints.Map = SourceFileMap.From(arguments["sourceFileMap"]);
        _breakpoints.JustMyCode = _stepFilter.JustMyCode;
        if (DapArguments.Flag(arguments, "noDebug", absent: false)) _lifecycle.RunWithoutDebugging(request);
        else _lifecycle.Launch(request, stopAtEntry);
        return null;
    }

    /// <summary>envFile's variables, then env's (env wins for a name in both).</summary>
    private static Dictionary<string, string> LaunchEnvironment(JsonObject arguments)
    {
        var variables = EnvFile.Read(arguments["envFile"]);
        if (arguments["env"] is JsonObject env)
            foreach (var (name, value) in env)
                variables[name] = value?.ToString() ?? "";
        return variables;
    }

    private JsonNode? Attach(JsonObject arguments)
    {
        if (_debuggee.Engine is not null) throw new DapException("already debugging a process");
        int processId = ProcessIdArgument(arguments);
        _stepFilter.Configure(arguments);
        _breakpoints.Map = SourceFileMap.From(arguments["sourceFileMap"]);
        _breakpoints.JustMyCode = _stepFilter.JustMyCode;
        // One brief stop while attaching: the threads that already run, and their names.
        _lifecycle.Attach(processId, _threads.RememberNames);
        return null;
    }

    /// <summary>A number, or a string holding one: VS Code's `${command:pickProcess}` sends a string.</summary>
    private static int ProcessIdArgument(JsonObject arguments)
    {
        JsonNode given = arguments["processId"] ?? throw new DapException("attach needs 'processId'");
        if (given is JsonValue value && value.TryGetValue(out int number)) return number;
        if (given is JsonValue text && text.TryGetValue(out string? digits)
            && int.TryParse(digits.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out int parsed))
            return parsed;
        throw new DapException($"'processId' must be a process id (a number, or a string of digits), not {given.ToJsonString()}");
    }

    /// <summary>After launch: the debuggee is held before Main; breakpoints are bound; let it run.</summary>
    private JsonNode? ConfigurationDone()
    {
        _lifecycle.ConfigurationDone();
        return null;
    }

    /// <summary>Detach (the default after attach) or terminate (after launch). The process is
    /// never left stopped: the engine's detach resumes it whatever fails.</summary>
    private JsonNode? Disconnect(JsonObject arguments)
    {
        _lifecycle.Disconnect(arguments["terminateDebuggee"]?.GetValue<bool>());
        return null;
    }

    /// <summary>Answered at once: SIGTERM now, SIGKILL after a short grace; `exited` and
    /// `terminated` follow when the process has gone.</summary>
    private JsonNode? Terminate()
    {
        _lifecycle.Terminate();
        return null;
    }

    /// <summary>modules: what the debuggee has loaded, in load order, pageable.</summary>
    private JsonNode Modules(JsonObject arguments)
    {
        RequireEngine();
        int start = arguments["startModule"]?.GetValue<int>() ?? 0;
        int count = arguments["moduleCount"]?.GetValue<int>() ?? 0;
        if (start < 0 || count < 0) throw new DapException("'startModule' and 'moduleCount' must not be negative");
        var all = _debuggee.Modules.All();
        var page = all.Skip(start).Take(count == 0 ? int.MaxValue : count);
        return new JsonObject { ["modules"] = new JsonArray([.. page.Select(ModuleJson)]), ["totalModules"] = all.Count };
    }

    private static JsonObject ModuleJson(LoadedModule module) => new()
    {
        ["id"] = module.Path, ["name"] = module.FileName, ["path"] = module.Path,
        ["symbolStatus"] = module.Symbols is null ? "Symbols not found." : "Symbols loaded.",
        ["isUserCode"] = module.Symbols is not null,
    };

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
