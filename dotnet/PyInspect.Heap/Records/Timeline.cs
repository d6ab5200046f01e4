namespace PyInspect.Heap;

/// <summary>
/// When the dump reader reached each step (wall clock, microseconds since the Unix epoch, and the
/// process's CPU milliseconds so far), written at its exit to the file PYINSPECT_READER_TIMES
/// names: where a one-shot command's reader spends its time, set beside the command's own start
/// (docs/triage.md, Speed). Unset, a mark costs one static read.
/// </summary>
public static class Timeline
{
    private static readonly string? File = Environment.GetEnvironmentVariable("PYINSPECT_READER_TIMES");
    private static readonly List<(long Ticks, double CpuMs, string Step, string? Detail)> Marks = [];

    public static void Mark(string step, string? detail = null)
    {
        if (File is null) return;
        lock (Marks)
            Marks.Add((DateTime.UtcNow.Ticks, Environment.CpuUsage.TotalTime.TotalMilliseconds, step, detail));
    }

    /// <summary>Append the marks to the file (once, as the reader ends).</summary>
    public static void Write()
    {
        if (File is null) return;
        lock (Marks)
            System.IO.File.AppendAllLines(File, Marks.Select(m =>
                $"{(m.Ticks - DateTime.UnixEpoch.Ticks) / 10} {m.CpuMs:F1} {m.Step}{(m.Detail is null ? "" : " " + m.Detail)}"));
    }
}
