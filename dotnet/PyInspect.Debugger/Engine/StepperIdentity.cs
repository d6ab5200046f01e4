// Which stepper a step-complete callback is about. ICorDebug queues callbacks: a step that
// completes on the same instruction as a breakpoint arrives after that breakpoint's stop,
// and would end the next run at once. Comparing the callback's stepper with the one the
// session armed (by COM identity, the IUnknown pointer) tells such stale ones apart.
using System.Runtime.InteropServices;

namespace PyInspect.Debugger.Engine;

public readonly record struct StepperIdentity(nint Unknown)
{
    /// <summary>The identity of a stepper pointer handed to a callback.</summary>
    public static StepperIdentity Of(nint stepper)
    {
        if (stepper == 0) return default;
        Guid iid = new("00000000-0000-0000-C000-000000000046");
        if (Marshal.QueryInterface(stepper, in iid, out nint unknown) < 0) return default;
        Marshal.Release(unknown);  // the callback's own reference keeps it alive; only the value is compared
        return new StepperIdentity(unknown);
    }

    /// <summary>Is this the stepper object `stepper` wraps?</summary>
    public bool Is(ICorDebugStepper? stepper)
    {
        if (stepper is null || Unknown == 0) return false;
        if (!ComWrappers.TryGetComInstance(stepper, out nint unknown)) return false;
        Marshal.Release(unknown);
        return unknown == Unknown;
    }
}
