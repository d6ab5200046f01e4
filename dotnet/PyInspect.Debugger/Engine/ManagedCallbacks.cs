// The callback object ICorDebug calls on its own thread. It answers QueryInterface for
// both callback interfaces (the source generator does that because the class implements
// both) and hands every event to a sink, which must Continue unless it stops.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

[GeneratedComInterface]
[Guid("3d6f5f60-7538-11d3-8d5b-00104b35e7ef")]
public partial interface ICorDebugManagedCallback
{
    [PreserveSig] int Breakpoint(nint appDomain, nint thread, nint breakpoint);
    [PreserveSig] int StepComplete(nint appDomain, nint thread, nint stepper, int reason);
    [PreserveSig] int Break(nint appDomain, nint thread);
    [PreserveSig] int Exception(nint appDomain, nint thread, int unhandled);
    [PreserveSig] int EvalComplete(nint appDomain, nint thread, nint eval);
    [PreserveSig] int EvalException(nint appDomain, nint thread, nint eval);
    [PreserveSig] int CreateProcess(nint process);
    [PreserveSig] int ExitProcess(nint process);
    [PreserveSig] int CreateThread(nint appDomain, nint thread);
    [PreserveSig] int ExitThread(nint appDomain, nint thread);
    [PreserveSig] int LoadModule(nint appDomain, nint module);
    [PreserveSig] int UnloadModule(nint appDomain, nint module);
    [PreserveSig] int LoadClass(nint appDomain, nint c);
    [PreserveSig] int UnloadClass(nint appDomain, nint c);
    [PreserveSig] int DebuggerError(nint process, int errorHr, uint errorCode);
    [PreserveSig] int LogMessage(nint appDomain, nint thread, int level, nint logSwitchName, nint message);
    [PreserveSig] int LogSwitch(nint appDomain, nint thread, int level, uint reason, nint logSwitchName, nint parentName);
    [PreserveSig] int CreateAppDomain(nint process, nint appDomain);
    [PreserveSig] int ExitAppDomain(nint process, nint appDomain);
    [PreserveSig] int LoadAssembly(nint appDomain, nint assembly);
    [PreserveSig] int UnloadAssembly(nint appDomain, nint assembly);
    [PreserveSig] int ControlCTrap(nint process);
    [PreserveSig] int NameChange(nint appDomain, nint thread);
    [PreserveSig] int UpdateModuleSymbols(nint appDomain, nint module, nint symbolStream);
    [PreserveSig] int EditAndContinueRemap(nint appDomain, nint thread, nint function, int accurate);
    [PreserveSig] int BreakpointSetError(nint appDomain, nint thread, nint breakpoint, uint error);
}

[GeneratedComInterface]
[Guid("250E5EEA-DB5C-4C76-B6F3-8C46F12E3203")]
public partial interface ICorDebugManagedCallback2
{
    [PreserveSig] int FunctionRemapOpportunity(nint appDomain, nint thread, nint oldFunction, nint newFunction, uint oldIlOffset);
    [PreserveSig] int CreateConnection(nint process, uint connectionId, nint name);
    [PreserveSig] int ChangeConnection(nint process, uint connectionId);
    [PreserveSig] int DestroyConnection(nint process, uint connectionId);
    [PreserveSig] int Exception(nint appDomain, nint thread, nint frame, uint offset, int eventType, uint flags);
    [PreserveSig] int ExceptionUnwind(nint appDomain, nint thread, int eventType, uint flags);
    [PreserveSig] int FunctionRemapComplete(nint appDomain, nint thread, nint function);
    [PreserveSig] int MDANotification(nint controller, nint thread, nint mda);
}

/// <summary>What the engine does with a debug event (on ICorDebug's callback thread).</summary>
public interface IDebugEventSink
{
    /// <summary>Continue the process through the event's controller (app domain or process).</summary>
    void ContinueAfterEvent(nint controller);
    void OnThreadCreated(nint thread);
    void OnThreadExited(nint thread);
    /// <summary>Debugger.Break in the debuggee; the sink decides whether to stay stopped.</summary>
    void OnBreak(nint controller, nint thread);
    void OnBreakpoint(nint controller, nint thread, nint breakpoint);
    void OnStepComplete(nint controller, nint thread, nint stepper, CorDebugStepReason reason);
    /// <summary>A func-eval finished (threw: the callee threw; the result is the exception).</summary>
    void OnEvalFinished(nint controller, nint eval, bool threw);
    /// <summary>An exception event (ICorDebugManagedCallback2; eventType is CorDebugExceptionCallbackType).</summary>
    void OnException(nint controller, nint thread, nint frame, uint offset, int eventType);
    void OnLoadModule(nint controller, nint module);
    void OnProcessExited();
}

[GeneratedComClass]
public sealed partial class ManagedCallbacks(IDebugEventSink sink) : ICorDebugManagedCallback, ICorDebugManagedCallback2
{
    private int Resume(nint controller) { sink.ContinueAfterEvent(controller); return 0; }

    public int Breakpoint(nint appDomain, nint thread, nint breakpoint) { sink.OnBreakpoint(appDomain, thread, breakpoint); return 0; }
    public int StepComplete(nint appDomain, nint thread, nint stepper, int reason) { sink.OnStepComplete(appDomain, thread, stepper, (CorDebugStepReason)reason); return 0; }
    public int Break(nint appDomain, nint thread) { sink.OnBreak(appDomain, thread); return 0; }
    public int Exception(nint appDomain, nint thread, int unhandled) => Resume(appDomain);
    public int EvalComplete(nint appDomain, nint thread, nint eval) { sink.OnEvalFinished(appDomain, eval, threw: false); return 0; }
    public int EvalException(nint appDomain, nint thread, nint eval) { sink.OnEvalFinished(appDomain, eval, threw: true); return 0; }
    public int CreateProcess(nint process) => Resume(process);
    public int ExitProcess(nint process) { sink.OnProcessExited(); return 0; }
    public int CreateThread(nint appDomain, nint thread) { sink.OnThreadCreated(thread); return Resume(appDomain); }
    public int ExitThread(nint appDomain, nint thread) { sink.OnThreadExited(thread); return Resume(appDomain); }
    public int LoadModule(nint appDomain, nint module) { sink.OnLoadModule(appDomain, module); return 0; }
    public int UnloadModule(nint appDomain, nint module) => Resume(appDomain);
    public int LoadClass(nint appDomain, nint c) => Resume(appDomain);
    public int UnloadClass(nint appDomain, nint c) => Resume(appDomain);
    public int DebuggerError(nint process, int errorHr, uint errorCode) => Resume(process);
    public int LogMessage(nint appDomain, nint thread, int level, nint logSwitchName, nint message) => Resume(appDomain);
    public int LogSwitch(nint appDomain, nint thread, int level, uint reason, nint logSwitchName, nint parentName) => Resume(appDomain);
    public int CreateAppDomain(nint process, nint appDomain) => Resume(process);
    public int ExitAppDomain(nint process, nint appDomain) => Resume(process);
    public int LoadAssembly(nint appDomain, nint assembly) => Resume(appDomain);
    public int UnloadAssembly(nint appDomain, nint assembly) => Resume(appDomain);
    public int ControlCTrap(nint process) => Resume(process);
    public int NameChange(nint appDomain, nint thread) => Resume(appDomain);
    public int UpdateModuleSymbols(nint appDomain, nint module, nint symbolStream) => Resume(appDomain);
    public int EditAndContinueRemap(nint appDomain, nint thread, nint function, int accurate) => Resume(appDomain);
    public int BreakpointSetError(nint appDomain, nint thread, nint breakpoint, uint error) => Resume(appDomain);

    public int FunctionRemapOpportunity(nint appDomain, nint thread, nint oldFunction, nint newFunction, uint oldIlOffset) => Resume(appDomain);
    public int CreateConnection(nint process, uint connectionId, nint name) => Resume(process);
    public int ChangeConnection(nint process, uint connectionId) => Resume(process);
    public int DestroyConnection(nint process, uint connectionId) => Resume(process);
    public int Exception(nint appDomain, nint thread, nint frame, uint offset, int eventType, uint flags) { sink.OnException(appDomain, thread, frame, offset, eventType); return 0; }
    public int ExceptionUnwind(nint appDomain, nint thread, int eventType, uint flags) => Resume(appDomain);
    public int FunctionRemapComplete(nint appDomain, nint thread, nint function) => Resume(appDomain);
    public int MDANotification(nint controller, nint thread, nint mda) => Resume(controller);
}
