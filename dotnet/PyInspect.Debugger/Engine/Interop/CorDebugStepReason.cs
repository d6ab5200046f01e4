namespace PyInspect.Debugger.Engine;

/// <summary>How a step ended (cordebug.idl's CorDebugStepReason): a step in that entered a
/// new method ends with Call, a step out (or off a method's end) with Return.</summary>
public enum CorDebugStepReason
{
    Normal = 0,
    Return = 1,
    Call = 2,
    ExceptionFilter = 3,
    ExceptionHandler = 4,
    Intercept = 5,
    Exit = 6,
}
