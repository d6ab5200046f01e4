// The engine's run state without a process: what an event's decision does when a pause,
// a resume, an exit or a detach came in meanwhile, and the continues ICorDebug is owed.
using PyInspect.Debugger.Engine;
using Xunit;

namespace PyInspect.Tests;

public sealed class EngineRunStateTests
{
    [Fact]
    public void An_event_stops_the_process_until_its_decision_continues_it()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        Assert.True(run.EventArrived());
        Assert.True(run.IsStopped);
        Assert.Equal(DecisionOutcome.Continue, run.DecisionMade(stop: false));
        Assert.False(run.IsStopped);
    }

    [Fact]
    public void A_decision_to_stop_keeps_the_process_stopped()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.EventArrived();
        Assert.Equal(DecisionOutcome.Stop, run.DecisionMade(stop: true));
        Assert.True(run.IsStopped);
        Assert.Equal(0, run.Resuming());
        Assert.False(run.IsStopped);
    }

    [Fact]
    public void A_pause_during_a_decision_to_continue_is_reported_instead()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.EventArrived();
        run.PauseWhileStopped();  // the pause request found the process stopped by the event
        Assert.Equal(DecisionOutcome.ReportPause, run.DecisionMade(stop: false));
        Assert.True(run.IsStopped);
    }

    [Fact]
    public void A_pause_while_stopped_with_no_event_pending_is_forgotten()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.Paused();
        run.PauseWhileStopped();
        run.Resuming();
        run.EventArrived();
        Assert.Equal(DecisionOutcome.Continue, run.DecisionMade(stop: false));
    }

    [Fact]
    public void A_pause_that_raced_an_event_continues_only_the_event()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.EventArrived();
        run.Paused();  // Stop() went through: ICorDebug nests the two stops
        Assert.Equal(DecisionOutcome.ContinueEventOnly, run.DecisionMade(stop: false));
        Assert.True(run.IsStopped);
        Assert.Equal(0, run.Resuming());
    }

    [Fact]
    public void Two_stops_reported_for_one_halt_owe_ICorDebug_a_second_continue()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.EventArrived();
        run.Paused();
        Assert.Equal(DecisionOutcome.Stop, run.DecisionMade(stop: true));
        Assert.Equal(1, run.Resuming());
        Assert.Equal(0, run.Resuming());
    }

    [Fact]
    public void A_decision_after_a_resume_or_an_exit_does_nothing()
    {
        var resumed = new EngineRunState(holdAtLaunch: false);
        resumed.EventArrived();
        resumed.Resuming();
        Assert.Equal(DecisionOutcome.None, resumed.DecisionMade(stop: false));

        var exited = new EngineRunState(holdAtLaunch: false);
        exited.EventArrived();
        exited.Exited();
        Assert.Equal(DecisionOutcome.None, exited.DecisionMade(stop: false));
        Assert.True(exited.HasExited);
        Assert.False(exited.IsStopped);
    }

    [Fact]
    public void A_passive_engine_continues_events_without_deciding_them()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.BecomePassive();
        Assert.False(run.EventArrived());
        Assert.False(run.IsStopped);
    }

    [Fact]
    public void The_launch_hold_is_taken_once_and_stops_the_process()
    {
        var launched = new EngineRunState(holdAtLaunch: true);
        Assert.True(launched.TakeLaunchHold());
        Assert.True(launched.IsStopped);
        Assert.False(launched.TakeLaunchHold());
        Assert.False(new EngineRunState(holdAtLaunch: false).TakeLaunchHold());
    }

    [Fact]
    public void A_brief_stop_synchronises_without_counting_as_stopped()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.StoppedBriefly();
        Assert.True(run.IsSynchronized);
        Assert.False(run.IsStopped);
        run.BriefStopEnded();
        Assert.False(run.IsSynchronized);
    }

    [Fact]
    public void Detaching_leaves_the_state_running_and_detached()
    {
        var run = new EngineRunState(holdAtLaunch: false);
        run.Stopped();
        run.Detached();
        Assert.True(run.IsDetached);
        Assert.False(run.IsStopped);
    }
}
