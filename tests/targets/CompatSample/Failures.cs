// Exceptions (CompatSample `filters`, `async_crash`): three exceptions thrown and caught, for
// exception-filter conditions; an exception that leaves async Main after an await.
namespace CompatSample;

public static class Failures
{
    public static void ThrowThree()
    {
        foreach (Exception error in (Exception[])[new NullReferenceException("null"), new ArgumentNullException("arg"),
                     new InvalidOperationException("invalid")])
        {
            try { Throw(error); }
            catch (Exception caught) { Console.WriteLine($"caught {caught.GetType().Name}"); }
        }
    }

    private static void Throw(Exception error) => throw error; // @bp filters_throw

    public static async Task FailLater()
    {
        await Task.Delay(1);
        throw new InvalidOperationException("left async Main"); // @bp async_crash_throw
    }
}
