// How a program is started, by its kind: a framework-dependent .dll runs under the dotnet
// host (which picks an installed runtime as the app's runtimeconfig asks), an apphost
// (self-contained or framework-dependent) runs directly, and the .dll of a self-contained
// app runs through its apphost, since the dotnet host cannot run it. What the runtimeconfig
// says decides, not the file name alone.
using System.Text.Json;

namespace PyInspect.Debugger.Engine;

/// <summary>The command that starts a program: the executable and the arguments before the user's.</summary>
public sealed record LaunchPlan(string Executable, IReadOnlyList<string> Prefix, string Kind)
{
    private const string HookSwitch = "System.StartupHookProvider.IsSupported";

    /// <summary>The plan for a program path, or an EngineException saying why it cannot be debugged.</summary>
    public static LaunchPlan For(string program, Func<string> dotnetHost)
    {
        bool isDll = program.EndsWith(".dll", StringComparison.OrdinalIgnoreCase);
        string stem = isDll ? program[..^4] : program;
        JsonElement? config = ReadRuntimeConfig(stem + ".runtimeconfig.json");
        RefuseDisabledHooks(program, config);
        bool selfContained = config is { } c && c.TryGetProperty("runtimeOptions", out var options)
            && options.TryGetProperty("includedFrameworks", out _);
        if (!isDll)
            return new LaunchPlan(program, [], selfContained ? "self-contained apphost" : "framework-dependent apphost");
        if (!selfContained)
            return new LaunchPlan(dotnetHost(), [program], "framework-dependent dll");
        if (File.Exists(stem))
            return new LaunchPlan(stem, [], "self-contained apphost");
        throw new EngineException($"{program} is a self-contained app's dll and its apphost {stem} is missing: the dotnet host cannot run a self-contained app");
    }

    private static JsonElement? ReadRuntimeConfig(string path)
    {
        if (!File.Exists(path)) return null;
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(path), new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
            return document.RootElement.Clone();
        }
        catch (JsonException exc)
        {
            throw new EngineException($"unreadable {path}: {exc.Message}");
        }
    }

    /// <summary>A program built with startup hooks off never runs our hook: it would run
    /// past every breakpoint before the debugger attached, so say so instead.</summary>
    private static void RefuseDisabledHooks(string program, JsonElement? config)
    {
        if (config is not { } c || !c.TryGetProperty("runtimeOptions", out var options)
            || !options.TryGetProperty("configProperties", out var properties)
            || !properties.TryGetProperty(HookSwitch, out var value))
            return;
        if (value.ValueKind == JsonValueKind.False || (value.ValueKind == JsonValueKind.String && value.GetString() == "false"))
            throw new EngineException($"{program} disables startup hooks ({HookSwitch}=false in its runtimeconfig.json, from <StartupHookSupport>false</StartupHookSupport>): "
                + "launch cannot hold it before Main; start it yourself and use attach, or build it with startup hooks enabled");
    }
}
