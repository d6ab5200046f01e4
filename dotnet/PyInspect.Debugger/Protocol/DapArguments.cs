// Reading a request's arguments the same way for every request.
using System.Text.Json.Nodes;

namespace PyInspect.Debugger.Protocol;

public static class DapArguments
{
    /// <summary>A true/false argument (`noDebug`, `justMyCode`, ...): `absent` when not given,
    /// refused when it is anything but a boolean.</summary>
    public static bool Flag(JsonObject arguments, string name, bool absent) => arguments[name] switch
    {
        null => absent,
        JsonValue value when value.TryGetValue(out bool flag) => flag,
        var other => throw new DapException($"'{name}' must be true or false, not {other.ToJsonString()}"),
    };
}
