using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

public sealed partial class HeapTarget
{
    /// <summary>Objects of the heap, and threads, a warm-up reads: enough to run every path of a
    /// command's code once, little enough to take milliseconds on any heap.</summary>
    private const int WarmObjects = 4096, WarmThreads = 4;

    /// <summary>
    /// Run a one-shot command's code (command: threads, locks, async, exceptions, heap stats) once
    /// over a bounded part of the dump, its answer thrown away: the dump reader does it after
    /// answering the open, while its parent still loads, so that the command's first call finds
    /// its methods compiled (about a thousand generic ones ReadyToRun leaves to the JIT), its PDBs
    /// open and the DAC's first reads cached. The first threads' stacks, the first objects of the
    /// heap, the smallest segment walked: never a whole heap. It stops between its steps once
    /// asked says the command's request came (the request never waits for more than one step).
    /// Nothing it reads is kept as an answer (the heap's completeness is not). A failure is left
    /// to the command to meet and say.
    /// </summary>
    public void Warm(string command, Func<bool> asked)
    {
        Breadcrumbs.Warming = true;
        try
        {
            foreach (Action step in WarmSteps(command))
            {
                if (asked())
                    break;
                step();
            }
        }
        catch (Exception exc) when (exc is not OutOfMemoryException)
        {
            // the command reads the same and says why
        }
        finally
        {
            Breadcrumbs.Warming = false;
            Breadcrumbs.Say("waiting for the first request");
        }
    }

    private IEnumerable<Action> WarmSteps(string command)
    {
        List<ThreadSnapshot> threads = [];
        switch (command)
        {
            case "threads" or "locks":
                yield return () => threads = ReadThreads(200, null, new ReadSteps(null), WarmThreads).Threads;
                yield return () => _ = HeapJson.Serialize(new LockReader(Runtime, threads, WarmObjects).Read());
                yield return () => _ = HeapJson.Serialize(new ThreadsRecord { Threads = threads.Select(t => t.Record).ToList() });
                if (command == "locks")
                    yield return () => _ = HeapJson.Serialize(WarmCompleteness());
                break;
            case "exceptions":
                yield return () => _ = HeapJson.Serialize(new ExceptionReader(Runtime,
                    new ExceptionDescriber(new FrameDescriber(Lines(null)), ThreadNames.Read(Runtime)), WarmObjects).Read(100));
                yield return () => _ = HeapJson.Serialize(WarmCompleteness());
                break;
            case "async":
                yield return () => _ = HeapJson.Serialize(new AsyncReader(Runtime.Heap, Lines(null), WarmObjects).Read(100));
                yield return () => _ = HeapJson.Serialize(WarmCompleteness());
                break;
            case "heap stats":
                yield return () =>
                {
                    var walk = SmallestSegmentWalk();
                    _ = walk.ResultJson();
                    _ = walk.CompletenessJson();
                };
                break;
        }
    }

    /// <summary>A completeness as <see cref="HeapCompleteness"/> takes it, from the smallest segment only.</summary>
    private CompletenessRecord WarmCompleteness() =>
        new CompletenessRecord { StoppedSegments = SmallestSegmentWalk().Stops.ToList(), UnreadableThreads = [] }.Settle();

    /// <summary>The heap statistics walk over the heap's smallest segment that holds objects, walked.</summary>
    private HeapWalk SmallestSegmentWalk()
    {
        ClrSegment[] smallest = [.. Runtime.Heap.Segments.Where(s => s.ObjectRange.Length > 0)
            .OrderBy(s => s.ObjectRange.Length).Take(1)];
        var walk = new HeapWalk(Runtime.Heap, _dataTarget.DataReader, smallest);
        while (!walk.Step(int.MaxValue)) { }
        return walk;
    }
}
