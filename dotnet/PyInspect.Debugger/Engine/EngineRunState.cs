// Whether the debuggee runs, as the engine knows it: stopped by an event or a pause,
// briefly stopped to read it, exited, detached, passive while detaching; the events still
// being decided and a pause that arrives meanwhile. One lock, named transitions, no
// ICorDebug: the engine performs what a transition answers (continue, report a pause),
// so the rules are unit-tested without a process (tests/dotnet: EngineRunStateTests).
namespace PyInspect.Debugger.Engine;

/// <summary>What the engine does with an event once its listener has decided.</summary>
public enum DecisionOutcome
{
    /// <summary>The listener stopped: the process stays stopped and the stop is reported.</summary>
    Stop,
    /// <summary>Continue the event: the process runs again.</summary>
    Continue,
    /// <summary>A pause raced the event: continue the event only (undoing its own stop); the
    /// pause's stop keeps the process stopped, as already reported.</summary>
    ContinueEventOnly,
    /// <summary>A pause came in while the event was decided: stay stopped and report the pause.</summary>
    ReportPause,
    /// <summary>Nothing to do: the process exited, or a request resumed it meanwhile.</summary>
    None,
}

public sealed class EngineRunState
{
    private readonly object _lock = new();
    private bool _stopped;
    private bool _briefStop;
    private bool _exited;
    private bool _detached;
    private bool _passive;            // detaching or terminating: events are continued at once, never decided
    private bool _awaitingLaunchHold; // a launched process's first break is our startup hook's
    private int _pendingDecisions;    // events stopped while their listener decides
    private bool _pauseRequested;     // a pause came in during a decision
    // A pause's own Stop() that raced a callback already stopping the process: ICorDebug
    // nests the two stops, so the event's decision must not mark the process running, and a
    // later Continue owes ICorDebug one more.
    private bool _pauseHold;
    private int _owedContinues;

    public EngineRunState(bool holdAtLaunch) => _awaitingLaunchHold = holdAtLaunch;

    public bool IsStopped { get { lock (_lock) return _stopped; } }
    /// <summary>Stopped, or briefly stopped to be read: the process's state can be read.</summary>
    public bool IsSynchronized { get { lock (_lock) return _stopped || _briefStop; } }
    public bool HasExited { get { lock (_lock) return _exited; } }
    public bool IsDetached { get { lock (_lock) return _detached; } }

    /// <summary>The first break of a launched process is the startup hook's: it stops the
    /// process for the launch and is no event. True once, for that break.</summary>
    public bool TakeLaunchHold()
    {
        lock (_lock)
        {
            if (!_awaitingLaunchHold) return false;
            _awaitingLaunchHold = false;
            _stopped = true;
            return true;
        }
    }

    /// <summary>A pause request found the process running and stopped it.</summary>
    public void Paused() { lock (_lock) { _stopped = true; _pauseHold = true; } }

    /// <summary>A pause request found the process already stopped: if that is an event being
    /// decided, the pause is remembered so a decision to continue reports it instead.</summary>
    public void PauseWhileStopped() { lock (_lock) if (_pendingDecisions > 0) _pauseRequested = true; }

    /// <summary>A request resumes the process; answers how many extra continues ICorDebug is owed.</summary>
    public int Resuming()
    {
        lock (_lock)
        {
            int owed = _owedContinues;
            _owedContinues = 0;
            _pauseHold = false;
            _stopped = false;
            return owed;
        }
    }

    public void StoppedBriefly() { lock (_lock) _briefStop = true; }
    public void BriefStopEnded() { lock (_lock) _briefStop = false; }

    /// <summary>Detaching or releasing: from now on events are continued at once.</summary>
    public void BecomePassive() { lock (_lock) _passive = true; }
    public void Stopped() { lock (_lock) _stopped = true; }
    public void Running() { lock (_lock) _stopped = false; }
    public void Detached() { lock (_lock) { _detached = true; _stopped = false; } }
    public void Exited() { lock (_lock) { _exited = true; _stopped = false; } }

    /// <summary>An event stopped the process. True: its listener decides it (the process
    /// counts as stopped until then); false: the engine is passive, continue it at once.</summary>
    public bool EventArrived()
    {
        lock (_lock)
        {
            if (_passive) return false;
            _stopped = true;
            _pendingDecisions++;
            return true;
        }
    }

    /// <summary>The listener decided an event (stop or not); answers what the engine does.</summary>
    public DecisionOutcome DecisionMade(bool stop)
    {
        lock (_lock)
        {
            _pendingDecisions--;
            bool pauseInstead = _pauseRequested && !stop;
            if (stop || pauseInstead) _pauseRequested = false;
            bool pausedMeanwhile = _pauseHold && _stopped && !_exited;
            if (pausedMeanwhile)
            {
                if (!stop) return DecisionOutcome.ContinueEventOnly;
                _owedContinues++;  // both stops reported: a continue undoes both
            }
            if (stop) return DecisionOutcome.Stop;
            if (_exited || !_stopped) return DecisionOutcome.None;  // !_stopped: a request resumed it meanwhile
            if (pauseInstead) return DecisionOutcome.ReportPause;
            _stopped = false;
            return DecisionOutcome.Continue;
        }
    }
}
