using System.Text.Json.Nodes;

namespace PyInspect.Debugger.Protocol;

/// <summary>What the protocol layer asks of a debug session: one request at a time, in
/// arrival order. Return the response body (or null); throw <see cref="DapException"/>
/// for an error response.</summary>
public interface IDapHandler
{
    JsonNode? Handle(string command, JsonObject arguments);
}

/// <summary>Where a session sends DAP events; safe to call from any thread.</summary>
public interface IEventSink
{
    void SendEvent(string eventName, JsonNode? body);
}

/// <summary>A request that failed in a way the client should read: becomes a response
/// with success=false and this message.</summary>
public sealed class DapException(string message) : Exception(message);
