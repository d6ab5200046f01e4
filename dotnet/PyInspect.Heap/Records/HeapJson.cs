using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace PyInspect.Heap;

/// <summary>One JSON shape for every answer: camelCase, nulls omitted, text kept as is.</summary>
internal static class HeapJson
{
    private static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        TypeInfoResolver = JsonTypeInfoResolver.Combine(OneShotJson.Default, new DefaultJsonTypeInfoResolver()),
    };

    public static string Serialize<T>(T value) => JsonSerializer.Serialize(value, Options);

    public static string Hex(ulong address) => "0x" + address.ToString("X16");
}

/// <summary>The one-shot commands' answers (threads, locks, async, exceptions, heap stats), their
/// shape generated at build time: a one-shot reader serializes each once, and building its
/// metadata by reflection on the first answer cost more than writing it. Metadata only: the
/// answers are written by the same converters, under the options above, as every other record.</summary>
[JsonSourceGenerationOptions(GenerationMode = JsonSourceGenerationMode.Metadata)]
[JsonSerializable(typeof(ThreadsRecord))]
[JsonSerializable(typeof(LocksRecord))]
[JsonSerializable(typeof(AsyncChainsRecord))]
[JsonSerializable(typeof(ExceptionsRecord))]
[JsonSerializable(typeof(CompletenessRecord))]
[JsonSerializable(typeof(List<TypeStatRecord>))]
internal sealed partial class OneShotJson : JsonSerializerContext;
