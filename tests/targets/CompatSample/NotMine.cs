// Breakpoints in code the user marked as not theirs (CompatSample `notmine`): under just my
// code a breakpoint inside a [DebuggerStepThrough] or [DebuggerNonUserCode] method or type
// does not stop; without it, it does.
using System.Diagnostics;

namespace CompatSample;

public static class NotMine
{
    public static int Run() => StepThroughMethod(1) + NonUserMethod(2) + NonUserType.Work(3); // @bp notmine_run

    [DebuggerStepThrough]
    private static int StepThroughMethod(int n)
    {
        int doubled = n * 2; // @bp notmine_step_through
        return doubled;
    }

    [DebuggerNonUserCode]
    private static int NonUserMethod(int n)
    { // @bp notmine_non_user_entry
        int tripled = n * 3; // @bp notmine_non_user
        return tripled;
    }

    [DebuggerStepThrough]
    private static class NonUserType
    {
        public static int Work(int n)
        {
            int squared = n * n; // @bp notmine_type
            return squared;
        }
    }
}
