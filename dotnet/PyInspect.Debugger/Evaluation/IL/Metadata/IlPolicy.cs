// What the interpreter will not run: code that leaves managed code (internal calls, P/Invoke,
// runtime-implemented methods), takes locks, starts or touches threads, or does I/O.
using System.Reflection;

namespace PyInspect.Debugger.Evaluation.IL.Metadata;

public static class IlPolicy
{
    public static void RefuseIfForbidden(IlMethod method)
    {
        try
        {
            Check(method);
        }
        catch (IlRefusal refusal)
        {
            refusal.OfTheCall = true;
            throw;
        }
    }

    private static void Check(IlMethod method)
    {
        string type = method.DeclaringType.Name;
        string Name() => method.DisplayName;  // built only for a refusal: every interpreted call passes here
        if (type is "System.Threading.Monitor" or "System.Threading.Lock" or "System.Threading.SpinLock" || type.StartsWith("System.Threading.ReaderWriterLock", StringComparison.Ordinal))
            throw new IlRefusal($"takes a lock ({Name()})");
        if (type is "System.Threading.Interlocked") throw new IlRefusal($"changes memory atomically ({Name()})");
        if (type is "System.Threading.Thread" or "System.Threading.ThreadPool" || type.StartsWith("System.Threading.Tasks.", StringComparison.Ordinal))
            throw new IlRefusal($"uses threads or tasks ({Name()})");
        if (type.StartsWith("System.IO.", StringComparison.Ordinal) || type is "System.Console")
            throw new IlRefusal($"does I/O ({Name()})");
        if (type is "System.Diagnostics.Debugger" or "System.Environment" or "System.GC") throw new IlRefusal($"calls into the runtime ({Name()})");
        if ((method.ImplAttributes & (MethodImplAttributes.InternalCall | MethodImplAttributes.Runtime)) != 0
            || (method.Attributes & MethodAttributes.PinvokeImpl) != 0)
            throw new IlRefusal($"calls native code ({Name()})");
        if ((method.Attributes & MethodAttributes.Abstract) != 0) throw new IlRefusal($"calls the abstract method {Name()}");
    }
}
