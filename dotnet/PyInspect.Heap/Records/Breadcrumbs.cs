namespace PyInspect.Heap;

/// <summary>
/// The step a dump read is in, written as one line "pyinspect-step: ..." on stderr when
/// PYINSPECT_HEAP_BREADCRUMBS=1, which only the dump reader's child process sets: a fault
/// inside the DAC ends that process, and its parent names the last step (and range) it
/// reached in the DUMP_DAMAGED answer. Silent otherwise (a live read shares its caller's stderr).
/// </summary>
public static class Breadcrumbs
{
    private static readonly bool On = Environment.GetEnvironmentVariable("PYINSPECT_HEAP_BREADCRUMBS") == "1";

    public static void Say(string step)
    {
        if (On)
            Console.Error.WriteLine("pyinspect-step: " + step);
    }
}
