// The adapter's layers reference only the layers below them: Protocol knows no debugger,
// value navigation and evaluation never reach up into the session or the protocol (their
// errors are their own, translated at the request boundary). Read from the sources, so a
// new `using` or a fully qualified name that breaks the rule fails here. The heap helper is
// one namespace, so its folders are checked by the types they name: one public type per
// file, the file named after it, and a folder names only its own types and those below it.
// The evaluator's rooms (Evaluation/*, one namespace each) are ordered the same way.
using System.Text.RegularExpressions;
using Xunit;

namespace PyInspect.Tests;

public sealed class LayeringTests
{
    private static readonly string Adapter = Path.Combine(Repository.Root, "dotnet", "PyInspect.Debugger");
    private static readonly string Heap = Path.Combine(Repository.Root, "dotnet", "PyInspect.Heap");
    private static readonly string Recorder = Path.Combine(Repository.Root, "dotnet", "PyInspect.Trace");

    /// <summary>The C# sources under dir, sub-folders included, build output (obj/, bin/) not.</summary>
    private static IEnumerable<string> Sources(string dir) =>
        Directory.GetFiles(dir, "*.cs", SearchOption.AllDirectories)
            .Where(f => !Path.GetRelativePath(dir, f).Split(Path.DirectorySeparatorChar)
                .Any(part => part is "obj" or "bin"))
            .Order(StringComparer.Ordinal);

    /// <summary>Each folder (= namespace) and the adapter namespaces it may use besides its own.</summary>
    public static TheoryData<string, string[]> Layers => new()
    {
        { "Protocol", [] },
        { "Engine", [] },
        { "Symbols", [] },
        { "Values", ["Engine", "Symbols"] },
        { "Frames", ["Engine", "Symbols", "Values"] },
        { "Evaluation", ["Engine", "Symbols", "Values", "Frames"] },
    };  // Session, the top, may use every other

    [Theory]
    [MemberData(nameof(Layers))]
    public void A_layer_uses_only_the_layers_below_it(string layer, string[] allowed)
    {
        var all = new[] { "Protocol", "Engine", "Symbols", "Values", "Frames", "Evaluation", "Session" };
        var forbidden = all.Where(n => n != layer && !allowed.Contains(n)).ToArray();
        var reference = new Regex($@"PyInspect\.Debugger\.(?<ns>{string.Join('|', forbidden)})\b|(?<![\w.])(?<ns>{string.Join('|', forbidden)})\.[A-Z]");
        var found = new List<string>();
        foreach (string file in Sources(Path.Combine(Adapter, layer)))
        {
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                string code = lines[i].Split("//")[0];
                if (reference.Match(code) is { Success: true } m)
                    found.Add($"{Path.GetRelativePath(Adapter, file)}:{i + 1}: {m.Value}");
            }
        }
        Assert.Empty(found);
    }

    [Fact]
    public void Only_the_session_and_the_protocol_speak_of_dap_errors()
    {
        var found = new List<string>();
        foreach (string layer in new[] { "Engine", "Symbols", "Values", "Frames", "Evaluation" })
            foreach (string file in Sources(Path.Combine(Adapter, layer)))
                if (File.ReadAllText(file).Contains("DapException")) found.Add(Path.GetRelativePath(Adapter, file));
        Assert.Empty(found);
    }

    /// <summary>The evaluator's rooms (folder = namespace PyInspect.Debugger.Evaluation.*), bottom first, and
    /// the rooms each may use besides its own. The folder's root (ExpressionEvaluator, LogMessage: the
    /// session's way in) may use every room; no room names the root's types.</summary>
    private static readonly Dictionary<string, string[]> EvaluationRooms = new()
    {
        ["Core"] = [],                                                    // context, values, display, refusal
        ["IL.Metadata"] = [],                                             // tokens, signatures, IL bodies, policy
        ["IL.Machine"] = ["Core", "IL.Metadata"],                         // the stack machine and its values
        ["Getters"] = ["Core", "IL.Metadata", "IL.Machine"],              // the evaluator's door to the machine
        // Expressions, calls and LINQ are one layer: a call's lambda is an expression again.
        ["Expressions"] = ["Core", "Getters", "Calls", "Linq"],
        ["Calls"] = ["Core", "Getters", "Expressions", "Linq"],
        ["Linq"] = ["Core", "Getters", "Expressions", "Calls"],
        ["Conditions"] = ["Core", "IL.Metadata", "IL.Machine", "Getters", "Expressions"],  // the hit path
    };

    public static TheoryData<string> EvaluationRoomNames => new(EvaluationRooms.Keys);

    private static string Evaluation => Path.Combine(Adapter, "Evaluation");

    /// <summary>The C# files of one room: its folder, not the folders of other rooms inside it.</summary>
    private static IEnumerable<string> RoomSources(string room) =>
        Sources(Path.Combine(Evaluation, room.Replace('.', Path.DirectorySeparatorChar)))
            .Where(f => Path.GetDirectoryName(Path.GetRelativePath(Evaluation, f))!.Replace(Path.DirectorySeparatorChar, '.') == room);

    [Fact]
    public void Every_evaluator_file_is_in_a_room_named_by_its_namespace()
    {
        var found = new List<string>();
        foreach (string file in Sources(Evaluation))
        {
            string room = Path.GetDirectoryName(Path.GetRelativePath(Evaluation, file))!.Replace(Path.DirectorySeparatorChar, '.');
            if (room.Length > 0 && !EvaluationRooms.ContainsKey(room))
                found.Add($"{Path.GetRelativePath(Adapter, file)}: {room} is not a room ({string.Join(", ", EvaluationRooms.Keys)})");
            string ns = room.Length == 0 ? "PyInspect.Debugger.Evaluation" : $"PyInspect.Debugger.Evaluation.{room}";
            if (!Regex.IsMatch(File.ReadAllText(file), $@"^namespace {Regex.Escape(ns)};", RegexOptions.Multiline))
                found.Add($"{Path.GetRelativePath(Adapter, file)}: namespace is not {ns}");
        }
        Assert.True(found.Count == 0, string.Join('\n', found));
    }

    [Theory]
    [MemberData(nameof(EvaluationRoomNames))]
    public void An_evaluator_room_uses_only_the_rooms_it_sits_on(string room)
    {
        var forbidden = EvaluationRooms.Keys.Where(r => r != room && !EvaluationRooms[room].Contains(r)).ToArray();
        // The root's types are seen from every room without a using, so they are looked for by name.
        string[] rootTypes = [.. Directory.GetFiles(Evaluation, "*.cs").Select(f => Path.GetFileNameWithoutExtension(f))];
        string rooms = string.Join('|', forbidden.Select(Regex.Escape));
        // A using or a qualified name (PyInspect.Debugger.Evaluation.Calls, Evaluation.Calls.X, Calls.X, IL.Machine.X).
        var reference = new Regex(
            $@"PyInspect\.Debugger\.Evaluation\.(?<room>{rooms})\b|(?<![\w.])(?:Evaluation\.|IL\.)?(?<room>{rooms})\.[A-Z]|(?<![\w.])(?<room>{string.Join('|', rootTypes)})\b");
        var found = new List<string>();
        foreach (string file in RoomSources(room))
        {
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
                foreach (Match m in reference.Matches(lines[i].Split("//")[0]))
                    found.Add($"{Path.GetRelativePath(Adapter, file)}:{i + 1}: {m.Value} ({(forbidden.Contains(m.Groups["room"].Value) ? m.Groups["room"].Value : "the root")})");
        }
        Assert.NotEmpty(RoomSources(room));
        Assert.True(found.Count == 0, $"{room} may use only {string.Join(", ", EvaluationRooms[room].DefaultIfEmpty("itself"))}:\n{string.Join('\n', found)}");
    }

    /// <summary>Each heap helper folder and the folders it may name types of besides its own.</summary>
    private static readonly Dictionary<string, string[]> HeapFolders = new()
    {
        ["Records"] = [],                                                 // answers, their JSON, the error
        ["Objects"] = ["Records"],                                        // values and objects read
        ["Collections"] = ["Records", "Objects"],                         // collection_analyze, object_summarize
        ["Graph"] = ["Records", "Objects"],                               // the snapshot graph
        ["Triage"] = ["Records", "Objects"],                              // threads, stacks, locks, async, exceptions
        ["Target"] = ["Records", "Objects", "Collections", "Graph", "Triage"],  // the opened target, its coarse calls
        ["Host"] = ["Records", "Objects", "Collections", "Graph", "Triage", "Target"],  // the dump reader process
    };

    public static TheoryData<string> HeapFolderNames => new(HeapFolders.Keys);

    /// <summary>Type name (= file name) to the top folder of the heap helper it lives in.</summary>
    private static Dictionary<string, string> HeapTypes() =>
        Sources(Heap).ToDictionary(
            f => Path.GetFileNameWithoutExtension(f),
            f => Path.GetRelativePath(Heap, f).Split(Path.DirectorySeparatorChar)[0]);

    [Fact]
    public void Every_heap_file_is_one_type_in_a_layer_folder()
    {
        var found = new List<string>();
        foreach (string file in Sources(Heap))
        {
            string relative = Path.GetRelativePath(Heap, file);
            string name = Path.GetFileNameWithoutExtension(file);
            if (!HeapFolders.ContainsKey(relative.Split(Path.DirectorySeparatorChar)[0]))
                found.Add($"{relative}: not in a layer folder ({string.Join(", ", HeapFolders.Keys)})");
            if (!Regex.IsMatch(File.ReadAllText(file), $@"\b(class|struct|record|interface|enum)\s+{Regex.Escape(name)}\b"))
                found.Add($"{relative}: declares no type {name}");
        }
        Assert.Empty(found);
    }

    [Theory]
    [MemberData(nameof(HeapFolderNames))]
    public void A_heap_folder_names_only_types_of_the_folders_below_it(string folder)
    {
        var types = HeapTypes();
        var forbidden = types.Where(t => t.Value != folder && !HeapFolders[folder].Contains(t.Value))
            .Select(t => Regex.Escape(t.Key)).ToArray();
        if (forbidden.Length == 0) return;
        // A whole-word name, bare or as PyInspect.Heap.Name; not a member (x.Name) and not a
        // property declared with that name (`NumericStatsRecord? NumericStats { get; set; }`).
        var reference = new Regex($@"(?<!\w)(?<!(?<!PyInspect\.Heap)\.)(?:{string.Join('|', forbidden)})\b(?!\s*\{{\s*(?:get|set|init)\b)");
        var found = new List<string>();
        foreach (string file in Sources(Path.Combine(Heap, folder)))
        {
            string text = Regex.Replace(File.ReadAllText(file), @"/\*.*?\*/", m => new string('\n', m.Value.Count(c => c == '\n')), RegexOptions.Singleline);
            string[] lines = text.Split('\n');
            for (int i = 0; i < lines.Length; i++)
            {
                string code = lines[i].Split("//")[0];
                foreach (Match m in reference.Matches(code))
                    found.Add($"{Path.GetRelativePath(Heap, file)}:{i + 1}: {m.Value} ({types[m.Value]}/)");
            }
        }
        Assert.Empty(found);
    }

    /// <summary>The recorder's folders (= namespaces PyInspect.Trace.*) and those each may use;
    /// Program and RecorderOptions, at the top, may use every one.</summary>
    public static TheoryData<string, string[]> RecorderLayers => new()
    {
        { "Records", [] },                   // the answer's records and their JSON
        { "Analysis", ["Records"] },         // a .nettrace file read into records
        { "Recording", ["Records"] },        // the EventPipe session and its file
    };

    [Theory]
    [MemberData(nameof(RecorderLayers))]
    public void A_recorder_folder_uses_only_the_folders_below_it(string layer, string[] allowed)
    {
        var forbidden = new[] { "Records", "Analysis", "Recording" }.Where(n => n != layer && !allowed.Contains(n));
        var reference = new Regex($@"PyInspect\.Trace\.(?:{string.Join('|', forbidden)})\b");
        var found = new List<string>();
        foreach (string file in Sources(Path.Combine(Recorder, layer)))
        {
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
                if (reference.Match(lines[i].Split("//")[0]) is { Success: true } m)
                    found.Add($"{Path.GetRelativePath(Recorder, file)}:{i + 1}: {m.Value}");
        }
        Assert.NotEmpty(Sources(Path.Combine(Recorder, layer)));
        Assert.Empty(found);
    }
}
