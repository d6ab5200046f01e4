// The adapter's layers reference only the layers below them: Protocol knows no debugger,
// value navigation and evaluation never reach up into the session or the protocol (their
// errors are their own, translated at the request boundary). Read from the sources, so a
// new `using` or a fully qualified name that breaks the rule fails here.
using System.Text.RegularExpressions;
using Xunit;

namespace PyInspect.Tests;

public sealed class LayeringTests
{
    private static readonly string Adapter = Path.Combine(Repository.Root, "dotnet", "PyInspect.Debugger");

    /// <summary>Each folder (= namespace) and the adapter namespaces it may use besides its own.</summary>
    public static TheoryData<string, string[]> Layers => new()
    {
        { "Protocol", [] },
        { "Engine", [] },
        { "Symbols", [] },
        { "Values", ["Engine", "Symbols"] },
        { "Frames", ["Engine", "Symbols", "Values"] },
        { "Evaluation", ["Engine", "Symbols", "Values", "Frames"] },
    };  // Session, the top, may use every other

    [Theory]
    [MemberData(nameof(Layers))]
    public void A_layer_uses_only_the_layers_below_it(string layer, string[] allowed)
    {
        var all = new[] { "Protocol", "Engine", "Symbols", "Values", "Frames", "Evaluation", "Session" };
        var forbidden = all.Where(n => n != layer && !allowed.Contains(n)).ToArray();
        var reference = new Regex($@"PyInspect\.Debugger\.(?<ns>{string.Join('|', forbidden)})\b|(?<![\w.])(?<ns>{string.Join('|', forbidden)})\.[A-Z]");
        var found = new List<string>();
        foreach (string file in Directory.GetFiles(Path.Combine(Adapter, layer), "*.cs"))
        {
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                string code = lines[i].Split("//")[0];
                if (reference.Match(code) is { Success: true } m)
                    found.Add($"{Path.GetFileName(file)}:{i + 1}: {m.Value}");
            }
        }
        Assert.Empty(found);
    }

    [Fact]
    public void Only_the_session_and_the_protocol_speak_of_dap_errors()
    {
        var found = new List<string>();
        foreach (string layer in new[] { "Engine", "Symbols", "Values", "Frames", "Evaluation" })
            foreach (string file in Directory.GetFiles(Path.Combine(Adapter, layer), "*.cs"))
                if (File.ReadAllText(file).Contains("DapException")) found.Add($"{layer}/{Path.GetFileName(file)}");
        Assert.Empty(found);
    }
}
