// A second Program.cs in the same module: a breakpoint path naming only "Program.cs" is ambiguous.
namespace CompatSample.Nested;

public static class Helper
{
    public static int Run(int n)
    {
        int squared = n * n; // @bp nested_run
        return squared;
    }
}
