using System.Text;
using Microsoft.Win32.SafeHandles;

namespace PyInspect.Heap;

/// <summary>
/// The step a dump read is in, written as one line "pyinspect-step: ..." on stderr when
/// PYINSPECT_HEAP_BREADCRUMBS=1, which only the dump reader's child process sets: a fault
/// inside the DAC ends that process, and its parent names the last step (and range) it
/// reached in the DUMP_DAMAGED answer. Silent otherwise (a live read shares its caller's stderr).
/// Each line is one unbuffered write to stderr's descriptor, as Console.Error's autoflush wrote
/// it, without the console's setup (its streams, encoding and terminal state: 1-1.5 ms of CPU in the
/// reader's first step, the heap's segments, which every one-shot command waits for).
/// </summary>
public static class Breadcrumbs
{
    private static readonly FileStream? Stderr = Environment.GetEnvironmentVariable("PYINSPECT_HEAP_BREADCRUMBS") == "1"
        ? new FileStream(new SafeFileHandle(2, ownsHandle: false), FileAccess.Write, bufferSize: 0)
        : null;

    public static void Say(string step)
    {
        if (Stderr is null) return;
        byte[] line = Encoding.UTF8.GetBytes("pyinspect-step: " + step + "\n");
        lock (Stderr)
        {
            try
            {
                Stderr.Write(line);
            }
            catch (IOException)
            {
                // stderr gone (its reader closed it): the steps are only for a parent that reads them, as the console's writes
            }
        }
    }
}
