using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// One opened target (live process or core dump) and its single ClrRuntime, kept alive
/// for the target's lifetime. Every method is a coarse call returning a whole result
/// (JSON text or a walk object), because each crossing from Python costs far more than
/// a ClrMD read. Call it from one thread only.
/// </summary>
public sealed class HeapTarget : IDisposable
{
    private readonly DataTarget _dataTarget;
    private SuspendedThreads? _suspended;
    private SourceLines? _lines;
    private string? _linesFolder;
    private DacSources? _sources;
    private string? _dumpPath;
    private bool _disposed;

    private HeapTarget(DataTarget dataTarget, ClrRuntime runtime, string description)
    {
        _dataTarget = dataTarget;
        Runtime = runtime;
        Description = description;
    }

    /// <summary>The ClrMD runtime, for helpers (collection readers) built on this target.</summary>
    public ClrRuntime Runtime { get; }

    public string Description { get; }

    public int PointerSize => _dataTarget.DataReader.PointerSize;

    /// <summary>The target's memory, for the heap walk's block reads.</summary>
    internal IDataReader DataReader => _dataTarget.DataReader;

    /// <summary>
    /// Attach to a live process. suspend=false reads memory without stopping it (works
    /// beside a debugger holding it stopped); suspend=true freezes it until Dispose.
    /// dacPath is the DAC beside the target's own libcoreclr.so (pyinspect/targets/runtimes.py).
    /// </summary>
    public static HeapTarget Attach(int pid, bool suspend, string dacPath)
    {
        DataTarget dataTarget;
        try
        {
            dataTarget = DataTarget.AttachToProcess(pid, suspend);
        }
        catch (Exception exc) when (exc is ArgumentException or InvalidOperationException)
        {
            throw new HeapTargetException("PROCESS_NOT_FOUND", $"cannot attach to process {pid}: {exc.Message}", exc);
        }
        catch (Exception exc)
        {
            throw new HeapTargetException("PROCESS_NOT_FOUND", $"cannot attach to process {pid}: {exc.Message}", exc);
        }
        SuspendedThreads? suspended = suspend ? SuspendedThreads.Of(pid) : null;
        try
        {
            var target = Open(dataTarget, info => DacChoice.CreateRuntime(info, dacPath, $"process {pid}", "NOT_DOTNET_PROCESS"),
                $"process {pid}", "NOT_DOTNET_PROCESS");
            target._suspended = suspended;
            return target;
        }
        catch
        {
            suspended?.DetachAll();
            throw;
        }
    }

    /// <summary>Open a core dump (as written by the runtime's createdump) with the DAC of its
    /// runtime build, looked for in the places sourcesJson names (<see cref="DacSources"/>,
    /// <see cref="DacLookup"/>). ClrMD's own locator is given no server: nothing reaches the
    /// network but the lookup's bounded requests. readAhead: this dump's file as
    /// <see cref="ReadAhead"/> read it, or null to read it now.</summary>
    public static HeapTarget OpenDump(string path, string sourcesJson, DataTarget? readAhead = null)
    {
        DataTarget dataTarget;
        try
        {
            if (!File.Exists(path))
                throw new HeapTargetException("DUMP_ERROR", $"dump file not found: {path}");
            var parsed = DacSources.Parse(sourcesJson);
            dataTarget = readAhead ?? LoadDump(path);
            readAhead = null;
            return OpenDump(path, dataTarget, parsed);
        }
        finally
        {
            readAhead?.Dispose();
        }
    }

    /// <summary>A dump's file and the runtimes it holds, read before its DAC sources are known (the
    /// dump reader process is given the path as it starts): <see cref="OpenDump"/> goes on from
    /// there. Null when the file cannot be read: OpenDump reads it again and says why.</summary>
    public static DataTarget? ReadAhead(string path)
    {
        DataTarget? dataTarget = null;
        try
        {
            dataTarget = LoadDump(path);
            _ = dataTarget.ClrVersions;
            return dataTarget;
        }
        catch (Exception)
        {
            dataTarget?.Dispose();
            return null;
        }
    }

    private static DataTarget LoadDump(string path)
    {
        try
        {
            return DataTarget.LoadDump(path, new DataTargetOptions { FileLocator = NoFiles.Instance });
        }
        catch (Exception exc)
        {
            throw new HeapTargetException("DUMP_ERROR", $"not a readable core dump: {path}: {exc.Message}", exc);
        }
    }

    private static HeapTarget OpenDump(string path, DataTarget dataTarget, DacSources sources)
    {
        DacLookup? lookup = null;
        var target = Open(dataTarget, info =>
        {
            lookup = new DacLookup(info, DumpRuntime.Of(dataTarget, info), sources);
            return lookup.CreateRuntime($"dump {path}", "DUMP_ERROR");
        }, $"dump {path}", "DUMP_ERROR");
        target.DacAttempts = lookup?.Attempts ?? [];
        target._sources = sources;
        target._dumpPath = path;
        return target;
    }

    /// <summary>Where the DAC was looked for and found, as JSON [{place, path, outcome, seconds}].</summary>
    public string DacLookupJson => HeapJson.Serialize(DacAttempts);

    private IReadOnlyList<DacAttempt> DacAttempts { get; set; } = [];

    private static HeapTarget Open(DataTarget dataTarget, Func<ClrInfo, ClrRuntime> createRuntime,
        string description, string noRuntimeCode)
    {
        try
        {
            if (dataTarget.ClrVersions.Length == 0)
                throw new HeapTargetException(noRuntimeCode, $"{description} has no .NET (CoreCLR) runtime loaded");
            if (dataTarget.ClrVersions.Length > 1)
                throw new HeapTargetException(noRuntimeCode, $"{description} has {dataTarget.ClrVersions.Length} .NET runtimes loaded: reading more than one runtime in a process is not supported");
            var runtime = createRuntime(dataTarget.ClrVersions[0]);
            return new HeapTarget(dataTarget, runtime, description);
        }
        catch (HeapTargetException)
        {
            dataTarget.Dispose();
            throw;
        }
        catch (Exception exc)
        {
            dataTarget.Dispose();
            throw new HeapTargetException(noRuntimeCode, $"cannot read the .NET runtime of {description}: {exc.Message}", exc);
        }
    }

    /// <summary>ClrMD's heap and its segments, which it keeps until <see cref="Flush"/> and every
    /// question reads (the triage questions for their locks, exceptions and completeness): the
    /// dump reader builds them while it waits for its first request after the open.</summary>
    public void Prepare()
    {
        Breadcrumbs.Say("the heap's segments");
        _ = Runtime.Heap.Segments;
    }

    /// <summary>Drop ClrMD's cached memory and heap state: call after the target ran.</summary>
    public void Flush()
    {
        Runtime.FlushCachedData();
        _dataTarget.DataReader.FlushCachedData();
    }

    /// <summary>Start a heap statistics walk that the caller advances in batches.</summary>
    public HeapWalk StartStatsWalk() => new(Runtime.Heap, _dataTarget.DataReader);

    /// <summary>Start building a heap graph snapshot; the caller advances it in batches, then calls Finish.
    /// skip: steps to leave out, one a line (<see cref="ReadSteps"/>: a module's statics, a thread's stack).
    /// Its arrays go to files under workFolder (null: the temp folder) when the graph's estimate
    /// exceeds memoryLimit bytes (0: the machine's available memory).</summary>
    public HeapGraphBuilder StartGraph(string skip, string? workFolder = null, long memoryLimit = 0) =>
        new(Runtime, _dataTarget.DataReader, new ReadSteps(skip), workFolder, memoryLimit);

    /// <summary>
    /// One object as JSON (<see cref="ObjectRecord"/>): fields with offsets from the
    /// object's address, reference fields expanded to <paramref name="depth"/> levels.
    /// </summary>
    public string DescribeObject(ulong address, int depth, int maxElements)
    {
        if (depth < 1)
            throw new HeapTargetException("INVALID_PARAMETER", $"depth must be at least 1, got {depth}");
        var obj = ObjectDescriber.RequireObject(Runtime.Heap, address);
        var record = new ObjectDescriber(Runtime.Heap, PointerSize, Math.Max(0, maxElements)).Describe(obj, depth);
        return HeapJson.Serialize(record);
    }

    /// <summary>The text of a System.String object (up to maxLength characters).</summary>
    public string ReadString(ulong address, int maxLength)
    {
        var obj = ObjectDescriber.RequireObject(Runtime.Heap, address);
        if (!obj.Type!.IsString)
            throw new HeapTargetException("NOT_AN_OBJECT", $"object at {HeapJson.Hex(address)} is {obj.Type.Name}, not a string");
        return obj.AsString(maxLength) ?? "";
    }

    /// <summary>Array elements [start, start+count) as JSON FieldRecords (row-major order).</summary>
    public string ReadArrayElements(ulong address, int start, int count)
    {
        var obj = ObjectDescriber.RequireObject(Runtime.Heap, address);
        if (!obj.Type!.IsArray)
            throw new HeapTargetException("NOT_AN_OBJECT", $"object at {HeapJson.Hex(address)} is {obj.Type.Name}, not an array");
        var describer = new ObjectDescriber(Runtime.Heap, PointerSize, 0);
        return HeapJson.Serialize(describer.ArrayElements(obj, start, count));
    }

    /// <summary>collection_analyze for the collection object at address, as JSON (<see cref="CollectionRecord"/>).</summary>
    public string AnalyzeCollection(ulong address, int maxPreviewItems, int timeoutMs) =>
        HeapJson.Serialize(new CollectionReader(Runtime.Heap, PointerSize).Analyze(address, maxPreviewItems, timeoutMs));

    /// <summary>object_summarize for the object at address, as JSON (<see cref="SummaryRecord"/>).</summary>
    public string SummarizeObject(ulong address, int maxPreviewItems) =>
        HeapJson.Serialize(new ObjectSummarizer(Runtime.Heap, PointerSize).Summarize(address, maxPreviewItems));

    /// <summary>Static fields of every loaded type named typeName, as JSON FieldRecords.</summary>
    public string ReadStatics(string typeName) =>
        HeapJson.Serialize(new StaticsReader(Runtime, PointerSize).Read(typeName));

    /// <summary>Every managed thread with its stack, and whether every stack was read, as JSON
    /// (<see cref="ThreadsRecord"/>; clrstack -all). symbolFolder: a folder to look for PDBs in
    /// besides each module's own.
    /// skip: the steps to leave out (<see cref="ReadSteps"/>: a thread's stack).</summary>
    public string Threads(int maxFrames, string? symbolFolder, string skip)
    {
        var steps = new ReadSteps(skip);
        var (threads, unreadable) = ReadThreads(maxFrames, symbolFolder, steps);
        new LockReader(Runtime, threads).ReadWaits();  // sets each blocked thread's WaitingFor
        var completeness = new CompletenessRecord { UnreadableThreads = unreadable, Notes = steps.Notes() }.Settle();
        return HeapJson.Serialize(new ThreadsRecord { Threads = threads.Select(t => t.Record).ToList(), Completeness = completeness });
    }

    /// <summary>Locks held and waited for, and the deadlocks among them, as JSON (<see cref="LocksRecord"/>).</summary>
    public string Locks(string? symbolFolder)
    {
        _ = symbolFolder;  // the answer lists no frames: their files and lines are not read
        var ((threads, unreadable), survey) = HeapSurvey.Beside(() => ReadThreads(200, null, new ReadSteps(null), lines: false),
            Runtime.Heap, DataReader, wanted: null, thinLocks: true);
        var record = new LockReader(Runtime, threads).Read(survey.ThinLocked);
        record.Completeness = Completeness(survey, unreadable);
        return HeapJson.Serialize(record);
    }

    /// <summary>Exception objects, threads' current ones first, as JSON (<see cref="ExceptionsRecord"/>).</summary>
    public string Exceptions(int limit, string? symbolFolder)
    {
        var (describer, survey) = HeapSurvey.Beside(
            () => new ExceptionDescriber(new FrameDescriber(Lines(symbolFolder)), ThreadNames.Read(Runtime)),
            Runtime.Heap, DataReader, type => type.IsException, thinLocks: false);
        var record = new ExceptionReader(Runtime, describer).Read(Math.Max(0, limit), survey.Wanted);
        record.Completeness = Completeness(survey, []);
        return HeapJson.Serialize(record);
    }

    /// <summary>Async state machines as chains, stuck ones first, as JSON (<see cref="AsyncChainsRecord"/>).</summary>
    public string AsyncChains(int limit, string? symbolFolder)
    {
        var survey = HeapSurvey.Walk(Runtime.Heap, DataReader, AsyncReader.IsBoxType, thinLocks: false);
        var record = new AsyncReader(Runtime.Heap, Lines(symbolFolder)).Read(Math.Max(0, limit), survey.Wanted);
        record.Completeness = Completeness(survey, []);
        return HeapJson.Serialize(record);
    }

    /// <summary>Whether the answer's walk of the heap (<see cref="HeapSurvey"/>) saw it whole,
    /// and the threads whose stacks were unread.</summary>
    private static CompletenessRecord Completeness(HeapSurvey survey, List<uint> unreadableThreads) =>
        new CompletenessRecord { StoppedSegments = survey.Stops.ToList(), UnreadableThreads = unreadableThreads }.Settle();

    /// <summary>The thread pool's counts as JSON (<see cref="ThreadPoolRecord"/>).</summary>
    public string ThreadPool()
    {
        var pool = Runtime.ThreadPool;
        var record = new ThreadPoolRecord
        {
            PoolThreadsOnStacks = Runtime.Threads.Count(t => (t.State & ClrThreadState.TS_TPWorkerThread) != 0),
        };
        if (pool != null)
        {
            record.Initialized = true;
            record.Portable = pool.UsingPortableThreadPool;
            record.ActiveWorkerThreads = pool.ActiveWorkerThreads;
            record.IdleWorkerThreads = pool.IdleWorkerThreads;
            record.RetiredWorkerThreads = pool.RetiredWorkerThreads;
            record.MinThreads = pool.MinThreads;
            record.MaxThreads = pool.MaxThreads;
            record.CpuUtilization = pool.CpuUtilization;
        }
        new WorkQueueReader(Runtime).Read(record);
        return HeapJson.Serialize(record);
    }

    /// <summary>Every thread's stack; lines: false for the lock reader's (frames named only).</summary>
    private (List<ThreadSnapshot> Threads, List<uint> Unreadable) ReadThreads(int maxFrames, string? symbolFolder,
        ReadSteps steps, bool lines = true)
    {
        if (maxFrames < 1)
            throw new HeapTargetException("INVALID_PARAMETER", $"max frames must be at least 1, got {maxFrames}");
        var reader = new ThreadReader(Runtime, lines ? Lines(symbolFolder) : null, steps);
        return (reader.Read(maxFrames), reader.Unreadable);
    }

    private SourceLines Lines(string? symbolFolder)
    {
        if (_lines is null || _linesFolder != symbolFolder)
        {
            _lines?.Dispose();
            var pdbs = new PdbLookup(_sources, _dumpPath);
            _lines = new SourceLines(symbolFolder, path => ModuleNamed(path) is { } module
                ? pdbs.Find(module, symbolFolder) : (null, "the runtime lists no such module"));
            _linesFolder = symbolFolder;
        }
        _lines.BeginAnswer();
        return _lines;
    }

    private ClrModule? ModuleNamed(string name) =>
        Runtime.EnumerateModules().FirstOrDefault(module => module.Name == name);

    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        try
        {
            _lines?.Dispose();
            Runtime.Dispose();
            _dataTarget.Dispose();
        }
        finally
        {
            _suspended?.DetachAll();
        }
    }
}
