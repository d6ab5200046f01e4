// Every stepper and breakpoint the process holds, as ICorDebug itself lists them (its app
// domain's EnumerateSteppers/EnumerateBreakpoints): a stop cancels all steppers in one
// place, and detach deactivates everything, including control points whose owner forgot them.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

[GeneratedComInterface]
[Guid("3d6f5f63-7538-11d3-8d5b-00104b35e7ef")]
public partial interface ICorDebugAppDomain : ICorDebugController
{
    [PreserveSig] int CanCommitChanges(uint count, nint snapshots, out nint error);
    [PreserveSig] int CommitChanges(uint count, nint snapshots, out nint error);
    [PreserveSig] int GetProcess(out nint process);
    [PreserveSig] int EnumerateAssemblies(out nint assemblies);
    [PreserveSig] int GetModuleFromMetaDataInterface(nint metadata, out nint module);
    [PreserveSig] int EnumerateBreakpoints(out nint breakpoints);
    [PreserveSig] int EnumerateSteppers(out nint steppers);
}

[GeneratedComInterface]
[Guid("CC7BCB03-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugBreakpointEnum : ICorDebugEnum
{
    [PreserveSig] unsafe int Next(uint count, nint* breakpoints, out uint fetched);
}

[GeneratedComInterface]
[Guid("CC7BCB04-8A68-11d2-983C-0000F808342D")]
public partial interface ICorDebugStepperEnum : ICorDebugEnum
{
    [PreserveSig] unsafe int Next(uint count, nint* steppers, out uint fetched);
}

public sealed partial class DebuggerEngine
{
    private ICorDebugAppDomain? _appDomain;

    private void RememberAppDomain(nint controller)
    {
        lock (_gate)
            if (_appDomain is null && controller != 0)
                _appDomain = Wrap<ICorDebugController>(controller) as ICorDebugAppDomain;
    }

    /// <summary>Deactivate every stepper ICorDebug holds (call while stopped): whatever stopped
    /// the process, no earlier step may complete later. Returns how many were active.</summary>
    public unsafe int CancelAllSteppers()
    {
        ICorDebugAppDomain? domain;
        lock (_gate) domain = _appDomain;
        if (domain is null || domain.EnumerateSteppers(out nint enumPtr) < 0 || enumPtr == 0) return 0;
        var steppers = Wrap<ICorDebugStepperEnum>(enumPtr);
        Marshal.Release(enumPtr);
        int cancelled = 0;
        nint item;
        while (steppers.Next(1, &item, out uint fetched) == 0 && fetched == 1)
        {
            var stepper = Wrap<ICorDebugStepper>(item);
            Marshal.Release(item);
            if (stepper.IsActive(out int active) >= 0 && active != 0) cancelled++;
            stepper.Deactivate();
        }
        return cancelled;
    }

    /// <summary>Deactivate every breakpoint ICorDebug holds: detach refuses to leave any behind.</summary>
    private unsafe void DeactivateAllBreakpoints()
    {
        ICorDebugAppDomain? domain;
        lock (_gate) domain = _appDomain;
        if (domain is null || domain.EnumerateBreakpoints(out nint enumPtr) < 0 || enumPtr == 0) return;
        var breakpoints = Wrap<ICorDebugBreakpointEnum>(enumPtr);
        Marshal.Release(enumPtr);
        nint item;
        while (breakpoints.Next(1, &item, out uint fetched) == 0 && fetched == 1)
        {
            Wrap<ICorDebugBreakpoint>(item).Activate(0);
            Marshal.Release(item);
        }
    }
}
