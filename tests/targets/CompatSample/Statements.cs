// Multi-line statements (CompatSample `lines`): a breakpoint on any line of one binds to that
// statement; a line between statements binds to the next one; a lambda's line binds to the
// lambda.
using System.Text;

namespace CompatSample;

public sealed class Point
{
    public int X { get; set; }
    public int Y { get; set; }
    public string? Name { get; set; }
}

public static class Statements
{
    public static int Run()
    {
        int[] numbers = [1, 2, 3, 4, 5, 6]; // @bp lines_first
        string chain = new StringBuilder() // @bp chain_start
            .Append("a") // @bp chain_append
            .Append(numbers.Length)
            .ToString(); // @bp chain_end

        int sum = Add( // @bp args_start
            numbers[0], // @bp args_first
            numbers[1],
            numbers[2]); // @bp args_end
        // @bp between
        var point = new Point // @bp init_start
        {
            X = 1, // @bp init_x
            Y = 2,
            Name = "p", // @bp init_name
        };
        var evens = (from n in numbers // @bp query_start
                     where n % 2 == 0 // @bp query_where
                     select n * 10) // @bp query_select
                    .ToList(); // @bp query_end
        Func<int, int> twice = x => // @bp lambda_start
        {
            // @bp lambda_between
            return x * 2; // @bp lambda_return
        };
        Console.WriteLine($"lines {chain} {sum} {point.X + point.Y} {evens.Count} {twice(2)}"); // @bp lines_last
        return sum;
    }

    private static int Add(int a, int b, int c) => a + b + c;
}
