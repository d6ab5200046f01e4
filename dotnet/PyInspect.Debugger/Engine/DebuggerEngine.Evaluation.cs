// Func-eval on the engine's side: while an evaluation runs the process is let go until
// the evaluation's completion callback, with other stops passed over meanwhile.
namespace PyInspect.Debugger.Engine;

public sealed partial class DebuggerEngine
{
    private EvalWait? _evalWait;  // set while a func-eval runs: other stops are passed over
    private int _evalGeneration;
    /// <summary>Counts finished func-evals: values and frames read before one are stale after it.</summary>
    public int EvalGeneration => Volatile.Read(ref _evalGeneration);

    private sealed class EvalWait
    {
        public readonly ManualResetEventSlim Done = new(false);
        public bool Threw;
    }

    /// <summary>
    /// Let the stopped process run until the queued evaluation finishes; on timeout abort it
    /// (rudely if a polite abort is ignored). Answers whether the evaluated code threw.
    /// </summary>
    internal bool RunEval(ICorDebugEval eval, TimeSpan timeout)
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (!IsStopped) throw new EngineException("the process must be stopped to evaluate");
            var wait = new EvalWait();
            lock (_gate) _evalWait = wait;
            try
            {
                _run.Running();
                EngineException.ThrowIfFailed(process.Continue(0), "ICorDebugProcess.Continue (func-eval)");
                if (wait.Done.Wait(timeout)) return EndedOrThrew(wait);
                eval.Abort();
                if (!wait.Done.Wait(TimeSpan.FromSeconds(2)) && eval is ICorDebugEval2 rude)
                {
                    rude.RudeAbort();
                    wait.Done.Wait(TimeSpan.FromSeconds(2));
                }
                if (!wait.Done.IsSet && !HasExited)
                {
                    process.Stop(uint.MaxValue);
                    _run.Stopped();
                }
                throw new EvalTimeoutException(timeout);
            }
            finally
            {
                lock (_gate) _evalWait = null;
                Interlocked.Increment(ref _evalGeneration);
            }
        }
    }

    private bool EndedOrThrew(EvalWait wait) =>
        HasExited ? throw new EngineException("the debuggee exited during the evaluation") : wait.Threw;

    void IDebugEventSink.OnEvalFinished(nint controller, nint eval, bool threw)
    {
        EvalWait? wait;
        lock (_gate) wait = _evalWait;
        if (wait is null)
        {
            Wrap<ICorDebugController>(controller).Continue(0);  // an abandoned evaluation
            return;
        }
        _run.Stopped();
        wait.Threw = threw;
        wait.Done.Set();
    }

}
