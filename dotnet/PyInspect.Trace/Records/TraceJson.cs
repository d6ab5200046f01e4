using System.Text.Json;
using System.Text.Json.Serialization;

namespace PyInspect.Trace.Records;

/// <summary>The one JSON spelling of the recorder's lines: camelCase, nulls kept.</summary>
public static class TraceJson
{
    public static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        DictionaryKeyPolicy = null,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    /// <summary>One protocol line: {"event": kind, ...fields}.</summary>
    public static string Line(string kind, object? body = null)
    {
        var node = body is null ? new System.Text.Json.Nodes.JsonObject()
            : JsonSerializer.SerializeToNode(body, body.GetType(), Options)!.AsObject();
        node.Insert(0, "event", kind);
        return node.ToJsonString();
    }
}
