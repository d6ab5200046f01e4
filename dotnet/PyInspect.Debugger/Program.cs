// pyinspect's DAP debug adapter: `dotnet PyInspect.Debugger.dll [--interpreter=vscode]
// [--log FILE]`. DAP on stdin/stdout; nothing else may reach stdout, so Console.Out is
// pointed at stderr before anything runs.
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Session;

Stream stdout = Console.OpenStandardOutput();
Stream stdin = Console.OpenStandardInput();
Console.SetOut(Console.Error);

TextWriter? log = null;
for (int i = 0; i < args.Length; i++)
{
    string arg = args[i];
    if (arg == "--log" && i + 1 < args.Length)
        log = new StreamWriter(args[++i], append: true) { AutoFlush = true };
    else if (arg.StartsWith("--log=", StringComparison.Ordinal))
        log = new StreamWriter(arg["--log=".Length..], append: true) { AutoFlush = true };
    else if (arg.StartsWith("--interpreter", StringComparison.Ordinal))
        continue; // netcoredbg's flag: we only speak the vscode (DAP) interpreter
    else
    {
        Console.Error.WriteLine($"unknown argument: {arg}");
        return 2;
    }
}

var server = new DapServer(stdin, stdout, log);
return server.Run(new DebugSession(server));
