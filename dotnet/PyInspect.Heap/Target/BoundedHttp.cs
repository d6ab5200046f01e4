namespace PyInspect.Heap;

/// <summary>HTTP GETs whose every wait is bounded: a machine without a network answers in
/// seconds, saying which URL did not answer within how long.</summary>
public static class BoundedHttp
{
    /// <summary>GET url: the body as text, or written to a file; each wait (the answer, then
    /// every read of the body) bounded by the timeout.</summary>
    public static string Get(HttpClient http, string url, string? into, TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            using var response = http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, cancel.Token).GetAwaiter().GetResult();
            if (!response.IsSuccessStatusCode)
                throw new FeedException($"{url}: HTTP {(int)response.StatusCode} {response.ReasonPhrase}");
            using var body = response.Content.ReadAsStream(cancel.Token);
            using var sink = into is null ? new MemoryStream() : (Stream)File.Create(into);
            var buffer = new byte[1 << 16];
            int read;
            do
            {
                cancel.CancelAfter(timeout);
                read = body.ReadAsync(buffer, cancel.Token).AsTask().GetAwaiter().GetResult();
                sink.Write(buffer, 0, read);
            } while (read > 0);
            return sink is MemoryStream text ? System.Text.Encoding.UTF8.GetString(text.ToArray()) : "";
        }
        catch (OperationCanceledException)
        {
            throw new FeedException($"{url}: no answer within {timeout.TotalSeconds:0.#} s", unreachable: true);
        }
        catch (HttpRequestException exc)
        {
            throw new FeedException($"{url}: {exc.Message}", unreachable: exc.StatusCode is null);
        }
    }

}
