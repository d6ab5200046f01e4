// A path through the stopped process's values that cannot be followed (a null on the way,
// no such local or field, an index out of range): the message is meant for the user.
namespace PyInspect.Debugger.Values;

public sealed class ValuePathException(string message) : Exception(message);
