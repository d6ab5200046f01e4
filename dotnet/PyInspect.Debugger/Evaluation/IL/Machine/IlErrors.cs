// The exceptions the runtime itself throws for what interpreted code does wrong, with the
// messages the runtime gives them (what func-eval of the same code answers).
namespace PyInspect.Debugger.Evaluation.IL.Machine;

public static class IlErrors
{
    public static IlThrown NullReference() => new("System.NullReferenceException", "Object reference not set to an instance of an object.");
    public static IlThrown IndexOutOfRange() => new("System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
    public static IlThrown DivideByZero() => new("System.DivideByZeroException", "Attempted to divide by zero.");
    public static IlThrown Overflow() => new("System.OverflowException", "Arithmetic operation resulted in an overflow.");
    public static IlThrown InvalidCast(string from, string to) =>
        new("System.InvalidCastException", $"Unable to cast object of type '{from}' to type '{to}'.");
}
