// A log point's message: literal text and {expression} holes ({{ and }} stand for braces),
// split and parsed once when the breakpoint is set; formatted at each hit with each hole's
// value as evaluate shows it (a string as its text; a hole that fails shows <error: why>).
using System.Text;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Conditions;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation;

public sealed class LogMessage
{
    /// <summary>Text, or a hole: its parsed expression, or the error parsing it gave.</summary>
    private sealed record Part(string Text, HitExpression? Hole = null, string? Error = null);

    private readonly List<Part> _parts = [];

    public LogMessage(string message)
    {
        var text = new StringBuilder();
        for (int i = 0; i < message.Length; i++)
        {
            char c = message[i];
            if ((c == '{' || c == '}') && i + 1 < message.Length && message[i + 1] == c)
            {
                text.Append(c);
                i++;
                continue;
            }
            int close = c == '{' ? message.IndexOf('}', i + 1) : -1;
            if (close < 0)
            {
                text.Append(c);
                continue;
            }
            _parts.Add(new Part(text.ToString()));
            text.Clear();
            string expression = message[(i + 1)..close];
            try { _parts.Add(new Part("", HitExpression.Parse(expression))); }
            catch (EvalException error) { _parts.Add(new Part("", Error: error.Message)); }
            i = close;
        }
        _parts.Add(new Part(text.ToString()));
    }

    /// <summary>The message at a hit, each hole evaluated by `evaluate`.</summary>
    public string Format(Func<HitExpression, object?> evaluate)
    {
        var text = new StringBuilder();
        foreach (Part part in _parts)
        {
            text.Append(part.Text);
            if (part.Error is not null) text.Append($"<error: {part.Error}>");
            if (part.Hole is not { } hole) continue;
            try
            {
                object? value = evaluate(hole);
                text.Append(value is string s ? s : ExpressionEvaluator.Describe(hole.Text, hole.Text, value, false).Value);
            }
            catch (Exception error) when (error is EvalException or ValuePathException)
            {
                text.Append($"<error: {error.Message}>");
            }
            catch (Exception error)
            {
                text.Append($"<error: {error.GetType().Name}: {error.Message}>");
            }
        }
        return text.ToString();
    }
}
