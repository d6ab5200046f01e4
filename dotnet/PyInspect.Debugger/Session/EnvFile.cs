// launch's `envFile`, as VS Code's C# extension reads it: KEY=VALUE lines, `#` comments and
// blank lines skipped, a value in single or double quotes unquoted (`\n` in double quotes is a
// newline). The launch's `env` wins over the file for a name in both.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public static class EnvFile
{
    /// <summary>The variables of the launch's envFile (none without one), or a DapException
    /// naming the file when it cannot be read.</summary>
    public static Dictionary<string, string> Read(JsonNode? argument)
    {
        var variables = new Dictionary<string, string>(StringComparer.Ordinal);
        if (argument is not JsonValue value || !value.TryGetValue(out string? path) || string.IsNullOrWhiteSpace(path))
            return variables;
        string[] lines;
        try { lines = File.ReadAllLines(path); }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException)
        {
            throw new DapException($"cannot read envFile {path}: {exc.Message}");
        }
        foreach (string raw in lines)
        {
            string line = raw.Trim();
            int equals = line.IndexOf('=');
            if (line.Length == 0 || line.StartsWith('#') || equals <= 0) continue;
            variables[line[..equals].Trim()] = Unquote(line[(equals + 1)..].Trim());
        }
        return variables;
    }

    private static string Unquote(string value)
    {
        if (value.Length >= 2 && value[0] == '"' && value[^1] == '"') return value[1..^1].Replace("\\n", "\n");
        if (value.Length >= 2 && value[0] == '\'' && value[^1] == '\'') return value[1..^1];
        return value;
    }
}
