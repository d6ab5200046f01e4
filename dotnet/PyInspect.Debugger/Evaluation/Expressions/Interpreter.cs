// Walks a Roslyn expression tree and evaluates it against the stopped frame. Values read
// from the debuggee stay there until an operator needs them here; getters and methods run
// in the debuggee (func-eval) only where the expression names them.
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation.Expressions;

public sealed partial class Interpreter(EvalContext context)
{
    private readonly Stack<object?> _bindings = new();

    public EvalContext Context => context;

    /// <summary>Parse and evaluate C# expression text.</summary>
    public static object? Evaluate(string text, EvalContext context) => Plain(Answer(text, context));

    /// <summary>Evaluate syntax parsed before (a breakpoint's condition, parsed when it was set).</summary>
    public static object? Evaluate(ExpressionSyntax syntax, EvalContext context) => Plain(Answer(syntax, context));

    /// <summary>An evaluation's answer as the client is shown it: a null an interpreted getter answered
    /// keeps the type the getter declares (NullOf), as func-eval's null does.</summary>
    public static object? Answer(string text, EvalContext context) => Answer(Parse(SpellException(text)), context);

    private static object? Answer(ExpressionSyntax syntax, EvalContext context) =>
        // One scope for the whole expression: `x is Order o && o.Id == 1` declares o in it.
        context.WithScope(new Dictionary<string, object?>(StringComparer.Ordinal), () => new Interpreter(context).Value(syntax));

    /// <summary>Inside an expression a null is a null, whatever declared it.</summary>
    private static object? Plain(object? value) => value is NullOf ? null : value;

    /// <summary>The text with `$exception` spelled as the name it is parsed as.</summary>
    public static string SpellException(string text) => text.Replace("$exception", ExceptionName, StringComparison.Ordinal);

    /// <summary>What `$exception` (not a C# name) is parsed as.</summary>
    private const string ExceptionName = "__pyinspect_exception";

    public static ExpressionSyntax Parse(string text)
    {
        ExpressionSyntax syntax = SyntaxFactory.ParseExpression(text);
        var error = syntax.GetDiagnostics().FirstOrDefault(d => d.Severity == DiagnosticSeverity.Error);
        if (error is not null)
            throw new EvalException($"cannot evaluate '{text}': unsupported syntax ({error.GetMessage(System.Globalization.CultureInfo.InvariantCulture)})");
        if (syntax.FullSpan.Length < text.Length && text[syntax.FullSpan.Length..].Trim().Length > 0)
            throw new EvalException($"cannot evaluate '{text}': unsupported syntax at '{text[syntax.FullSpan.Length..].Trim()}'");
        return syntax;
    }

    public object? Eval(ExpressionSyntax syntax) => Plain(Value(syntax));

    /// <summary>Eval, keeping a declared null's type where the node's value is the node's answer.</summary>
    private object? Value(ExpressionSyntax syntax) => syntax switch
    {
        ParenthesizedExpressionSyntax p => Value(p.Expression),
        LiteralExpressionSyntax literal => Literal(literal),
        InterpolatedStringExpressionSyntax interpolated => Interpolate(interpolated),
        IdentifierNameSyntax name => Name(name.Identifier.ValueText, syntax),
        GenericNameSyntax generic => Name(generic.Identifier.ValueText, syntax),
        ThisExpressionSyntax => new RemoteValue(This() ?? throw new EvalException("'this' is not available in a static method")),
        PredefinedTypeSyntax predefined => Types.Resolve(predefined.Keyword.ValueText, context) ?? throw Unsupported(syntax),
        AliasQualifiedNameSyntax alias => Eval(alias.Name),
        QualifiedNameSyntax qualified => Member(Eval(qualified.Left), qualified.Right.Identifier.ValueText, qualified.ToString()),
        MemberAccessExpressionSyntax access => MemberAccess(access),
        ConditionalAccessExpressionSyntax conditional => ConditionalAccess(conditional),
        MemberBindingExpressionSyntax binding => Member(Bound(), binding.Name.Identifier.ValueText, binding.ToString()),
        ElementBindingExpressionSyntax binding => Index(Bound(), binding.ArgumentList.Arguments, binding.ToString()),
        ElementAccessExpressionSyntax element => Index(Eval(element.Expression), element.ArgumentList.Arguments, element.Expression.ToString()),
        InvocationExpressionSyntax invocation => Invoke(invocation),
        AssignmentExpressionSyntax assignment => Assignment(assignment),
        ObjectCreationExpressionSyntax creation => Create(creation),
        AnonymousObjectCreationExpressionSyntax anonymous => new AnonymousValue([.. anonymous.Initializers.Select(i =>
            new KeyValuePair<string, object?>(i.NameEquals?.Name.Identifier.ValueText ?? InferredName(i.Expression), Stable(Eval(i.Expression))))]),
        PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.PreIncrementExpression or (int)SyntaxKind.PreDecrementExpression } step =>
            Increment(step.Operand, step.IsKind(SyntaxKind.PreIncrementExpression), true, step.ToString()),
        PostfixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.PostIncrementExpression or (int)SyntaxKind.PostDecrementExpression } step =>
            Increment(step.Operand, step.IsKind(SyntaxKind.PostIncrementExpression), false, step.ToString()),
        PrefixUnaryExpressionSyntax unary => Operators.Unary(unary.Kind(), EvalValues.Local(Eval(unary.Operand)), unary.ToString()),
        PostfixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.SuppressNullableWarningExpression } bang => Value(bang.Operand),
        BinaryExpressionSyntax binary => Binary(binary),
        IsPatternExpressionSyntax isPattern => Pattern(Eval(isPattern.Expression), isPattern.Pattern),
        ConditionalExpressionSyntax conditional => Operators.Truth(EvalValues.Local(Eval(conditional.Condition)), conditional.Condition.ToString())
            ? Value(conditional.WhenTrue) : Value(conditional.WhenFalse),
        CastExpressionSyntax cast => Cast(cast.Type, Eval(cast.Expression)),
        TypeOfExpressionSyntax typeOf => new TypeOfValue(TypeOfName(typeOf.Type)),
        DefaultExpressionSyntax @default => Operators.DefaultOf(TypeNameOf(@default.Type)),
        CheckedExpressionSyntax @checked => Eval(@checked.Expression),
        ImplicitArrayCreationExpressionSyntax array => LocalArray(array.Initializer.Expressions),
        ArrayCreationExpressionSyntax { Initializer: { } initializer } => LocalArray(initializer.Expressions),
        ArrayCreationExpressionSyntax { Type.RankSpecifiers: [{ Sizes: [var size] }] } sized => DefaultArray(sized.Type.ElementType, size),
        CollectionExpressionSyntax collection => LocalArray(collection.Elements.Select(e => e is ExpressionElementSyntax x ? x.Expression : throw Unsupported(e))),
        SizeOfExpressionSyntax size => Operators.SizeOf(TypeNameOf(size.Type))
            ?? context.ValueTypeSize(Types.Instantiate(size.Type, context).Instance, size.Type.ToString()),
        _ => throw Unsupported(syntax),
    };

    /// <summary>`new[] { 1, 2 }` and `[1, 2]`: a sequence computed here (for Contains, LINQ, indexing).</summary>
    private SequenceValue LocalArray(IEnumerable<ExpressionSyntax> elements)
    {
        var items = elements.Select(e => Stable(Eval(e))).ToList();
        return new SequenceValue(items, items.Select(EvalValues.Local).FirstOrDefault(i => i is not null) is { } first ? Display.RuntimeTypeName(first) : "object");
    }

    /// <summary>The member name C# infers in `new { order.Id }` (Id).</summary>
    private static string InferredName(ExpressionSyntax expression) => expression switch
    {
        IdentifierNameSyntax name => name.Identifier.ValueText,
        MemberAccessExpressionSyntax access => access.Name.Identifier.ValueText,
        ConditionalAccessExpressionSyntax conditional => InferredName(conditional.WhenNotNull),
        MemberBindingExpressionSyntax binding => binding.Name.Identifier.ValueText,
        _ => throw new EvalException($"'{expression}' needs a name in an anonymous object (Name = {expression})"),
    };

    /// <summary>`new int[3]`: default values of a primitive type, computed here like `new[] { ... }`.</summary>
    private SequenceValue DefaultArray(TypeSyntax element, ExpressionSyntax size)
    {
        string name = TypeNameOf(element);
        int length = EvalValues.Local(Eval(size)) is int n and >= 0 ? n : throw new EvalException($"'{size}' is not a valid array size");
        if (Operators.PrimitiveType(name) is null && name is not ("System.String" or "string" or "System.Object" or "object"))
            throw new EvalException($"cannot evaluate 'new {element}[{size}]': arrays made here hold numbers, bools, chars, strings or objects");
        object? zero = Operators.DefaultOf(name);
        return new SequenceValue(Enumerable.Repeat(zero, length).ToList(), zero is null ? element.ToString() : Display.LocalTypeName(zero));
    }

    /// <summary>Whether evaluating the syntax may run code in the debuggee (a call, a getter, an indexer).</summary>
    private static bool MayCall(ExpressionSyntax syntax) =>
        syntax.DescendantNodesAndSelf().Any(n => n is InvocationExpressionSyntax or MemberAccessExpressionSyntax
            or ElementAccessExpressionSyntax or ConditionalAccessExpressionSyntax or IdentifierNameSyntax);

    /// <summary>A value that survives func-evals run later in the expression: primitives read
    /// into the adapter, objects held by a handle.</summary>
    public object? Stable(object? value) =>
        value is RemoteValue remote && EvalValues.Local(remote) is var local && local is not RemoteValue ? local
            : value is RemoteValue held ? new RemoteValue(context.Pin(held.Value)) : value;

    private static EvalException Unsupported(SyntaxNode syntax) =>
        new($"cannot evaluate '{syntax}': unsupported syntax ({syntax.Kind()})");

    private object? Bound() => _bindings.Count > 0 ? _bindings.Peek() : throw new EvalException("'?.' without a target");

    private static object? Literal(LiteralExpressionSyntax literal) => literal.Kind() switch
    {
        SyntaxKind.NullLiteralExpression or SyntaxKind.DefaultLiteralExpression => null,
        SyntaxKind.TrueLiteralExpression => true,
        SyntaxKind.FalseLiteralExpression => false,
        _ => literal.Token.Value,
    };

    private string Interpolate(InterpolatedStringExpressionSyntax interpolated)
    {
        var text = new System.Text.StringBuilder();
        foreach (var content in interpolated.Contents)
        {
            if (content is InterpolatedStringTextSyntax literal) text.Append(literal.TextToken.ValueText);
            else if (content is InterpolationSyntax hole) text.Append(Hole(hole));
        }
        return text.ToString();
    }

    /// <summary>An interpolation hole as C# fills it: `{value,alignment:format}` (formats applied
    /// here to numbers, by the object's own ToString(format) in the debuggee otherwise).</summary>
    private string Hole(InterpolationSyntax hole)
    {
        object? value = EvalValues.Local(Eval(hole.Expression));
        string? format = hole.FormatClause?.FormatStringToken.ValueText;
        string text = format is null ? Invocation.AsText(value, this) : value switch
        {
            IFormattable formattable => formattable.ToString(format, System.Globalization.CultureInfo.InvariantCulture),
            RemoteValue remote => EvalValues.Local(Invocation.CallMethod(this, remote, "ToString", [format], $"{hole.Expression}.ToString(\"{format}\")")) as string ?? "",
            _ => Invocation.AsText(value, this),
        };
        if (hole.AlignmentClause is { } alignment)
        {
            int width = EvalValues.Local(Eval(alignment.Value)) is int w ? w : throw new EvalException($"'{alignment}': the alignment must be an int");
            text = width < 0 ? text.PadRight(-width) : text.PadLeft(width);
        }
        return text;
    }

    internal ICorDebugValue? This() => context.Variable("this") is { Kind: "this" } self ? self.Value : null;

    /// <summary>A simple name: lambda parameter, local, argument, member of `this`, static member, type, namespace.</summary>
    private object? Name(string name, ExpressionSyntax syntax)
    {
        if (context.TryLambdaVariable(name, out object? scoped)) return scoped;
        if (name == ExceptionName)
            return context.CurrentException?.Invoke() is { } exception ? new RemoteValue(exception)
                : throw new EvalException("'$exception' is not available: no exception is in flight on this thread");
        if (context.Variable(name) is { Kind: not "this" } variable)
            return variable.Value is null
                ? throw new EvalException($"'{name}' is not available here (0x{variable.ErrorCode:X8})")
                : new RemoteValue(variable.Value);
        if (This() is { } self && Members.TryInstance(this, new RemoteValue(self), name, out object? member)) return member;
        if (Types.EnclosingType(context) is { } enclosing && Members.TryStatic(this, enclosing, name, out object? staticMember))
            return staticMember;
        if (Types.Resolve(name, context) is { } type) return type;
        if (Types.IsNamespace(name, context)) return new NamespaceRef(name);
        throw new EvalException($"'{name}' is not a local, an argument or a field of this");
    }

    private object? MemberAccess(MemberAccessExpressionSyntax access)
    {
        if (BaseAccess.IsBase(access.Expression)) return BaseAccess.Member(this, access.Name.Identifier.ValueText, access.ToString());
        object? target = Value(access.Expression);  // a declared null keeps its type: `n.HasValue` of a Nullable an interpreted call made
        return Member(target, access.Name.Identifier.ValueText, access.Expression.ToString());
    }

    public object? Member(object? target, string name, string ownerText) => target switch
    {
        NamespaceRef ns => Types.Resolve($"{ns.Name}.{name}", context) is { } type ? type
            : Types.IsNamespace($"{ns.Name}.{name}", context) ? new NamespaceRef($"{ns.Name}.{name}")
            : throw new EvalException($"'{ns.Name}.{name}' is not a type or namespace of the loaded modules"),
        TypeRef type => Members.TryStatic(this, type, name, out object? value) ? value
            : Types.Resolve($"{type.FullName}.{name}", context) ?? throw new EvalException($"'{name}' is not a static member of '{type.FullName}'"),
        _ => Members.Instance(this, target, name, ownerText),
    };

    private object? ConditionalAccess(ConditionalAccessExpressionSyntax conditional)
    {
        object? target = Eval(conditional.Expression);
        if (EvalValues.IsNull(target)) return null;
        _bindings.Push(target);
        try { return Eval(conditional.WhenNotNull); }
        finally { _bindings.Pop(); }
    }

    private object? Index(object? target, SeparatedSyntaxList<ArgumentSyntax> arguments, string ownerText)
    {
        var indices = arguments.Select(a => EvalValues.Local(Eval(a.Expression))).ToList();
        return Indexers.Read(this, target, indices, ownerText);
    }

    private object? Binary(BinaryExpressionSyntax binary)
    {
        SyntaxKind kind = binary.Kind();
        switch (kind)
        {
            case SyntaxKind.LogicalAndExpression:
                return Operators.Truth(EvalValues.Local(Eval(binary.Left)), binary.Left.ToString()) && Operators.Truth(EvalValues.Local(Eval(binary.Right)), binary.Right.ToString());
            case SyntaxKind.LogicalOrExpression:
                return Operators.Truth(EvalValues.Local(Eval(binary.Left)), binary.Left.ToString()) || Operators.Truth(EvalValues.Local(Eval(binary.Right)), binary.Right.ToString());
            case SyntaxKind.CoalesceExpression:
                object? left = Eval(binary.Left);
                return EvalValues.IsNull(left) ? Eval(binary.Right) : left;
            case SyntaxKind.IsExpression:
                return Types.IsInstance(Eval(binary.Left), TypeNameOf((TypeSyntax)binary.Right), context);
            case SyntaxKind.AsExpression:
                object? value = Eval(binary.Left);
                return Types.IsInstance(value, TypeNameOf((TypeSyntax)binary.Right), context) ? value : null;
        }
        object? first = Eval(binary.Left);
        object? l = MayCall(binary.Right) ? Stable(first) : first, r = Eval(binary.Right);
        if (kind is SyntaxKind.EqualsExpression or SyntaxKind.NotEqualsExpression && Operators.ReferenceEquality(l, r) is { } same)
            return kind == SyntaxKind.EqualsExpression ? same : !same;
        return Operators.Binary(kind, EvalValues.Local(l), EvalValues.Local(r), binary.ToString());
    }

    private bool Pattern(object? value, PatternSyntax pattern) => pattern switch
    {
        ConstantPatternSyntax constant => constant.Expression is LiteralExpressionSyntax { RawKind: (int)SyntaxKind.NullLiteralExpression }
            ? EvalValues.IsNull(value)
            : Operators.Equal(EvalValues.Local(value), EvalValues.Local(Eval(constant.Expression))),
        UnaryPatternSyntax { RawKind: (int)SyntaxKind.NotPattern } not => !Pattern(value, not.Pattern),
        BinaryPatternSyntax { RawKind: (int)SyntaxKind.AndPattern } and => Pattern(value, and.Left) && Pattern(value, and.Right),
        BinaryPatternSyntax { RawKind: (int)SyntaxKind.OrPattern } or => Pattern(value, or.Left) || Pattern(value, or.Right),
        TypePatternSyntax type => Types.IsInstance(value, TypeNameOf(type.Type), context),
        DeclarationPatternSyntax declaration => Types.IsInstance(value, TypeNameOf(declaration.Type), context)
            && Declare(declaration.Designation, value),
        VarPatternSyntax var => Declare(var.Designation, value),
        RecursivePatternSyntax recursive => Recursive(value, recursive),
        RelationalPatternSyntax relational => Operators.Truth(Operators.Binary(RelationalKind(relational.OperatorToken.Kind()),
            EvalValues.Local(value), EvalValues.Local(Eval(relational.Expression)), pattern.ToString()), pattern.ToString()),
        ParenthesizedPatternSyntax parenthesized => Pattern(value, parenthesized.Pattern),
        _ => throw Unsupported(pattern),
    };

    /// <summary>`is T name`: the name holds the value for the rest of the expression.</summary>
    private bool Declare(VariableDesignationSyntax designation, object? value)
    {
        if (designation is SingleVariableDesignationSyntax single)
            context.Declare(single.Identifier.ValueText, Stable(value));
        return true;
    }

    /// <summary>`is Order { Total: > 100, Customer.Name: "Bob" } o`: type, then each member's own pattern.</summary>
    private bool Recursive(object? value, RecursivePatternSyntax pattern)
    {
        if (EvalValues.IsNull(value)) return false;
        if (pattern.Type is { } type && !Types.IsInstance(value, TypeNameOf(type), context)) return false;
        object? held = Stable(value);
        foreach (var sub in pattern.PropertyPatternClause?.Subpatterns ?? [])
        {
            ExpressionSyntax path = sub.ExpressionColon?.Expression ?? sub.NameColon?.Name
                ?? throw new EvalException($"'{sub}': a property pattern needs a member name");
            if (!Pattern(MemberPath(held, path), sub.Pattern)) return false;
        }
        if (pattern.PositionalPatternClause is not null) throw Unsupported(pattern.PositionalPatternClause);
        return pattern.Designation is null || Declare(pattern.Designation, held);
    }

    /// <summary>`Customer.Name` in a property pattern, read from the value being matched.</summary>
    private object? MemberPath(object? value, ExpressionSyntax path) => path switch
    {
        IdentifierNameSyntax name => Member(value, name.Identifier.ValueText, name.ToString()),
        MemberAccessExpressionSyntax access => Member(MemberPath(value, access.Expression), access.Name.Identifier.ValueText, access.ToString()),
        _ => throw Unsupported(path),
    };

    private static SyntaxKind RelationalKind(SyntaxKind token) => token switch
    {
        SyntaxKind.LessThanToken => SyntaxKind.LessThanExpression,
        SyntaxKind.LessThanEqualsToken => SyntaxKind.LessThanOrEqualExpression,
        SyntaxKind.GreaterThanToken => SyntaxKind.GreaterThanExpression,
        _ => SyntaxKind.GreaterThanOrEqualExpression,
    };

    private object? Cast(TypeSyntax type, object? value)
    {
        string name = TypeNameOf(type);
        if (Operators.PrimitiveType(name) is { } primitive)
            return Operators.Convert(EvalValues.Local(value), primitive, $"({type}){value}");
        if (EvalValues.Local(value) is var local && local is not RemoteValue && local is not null && Types.IsLocalType(local, name))
            return local;
        if (EvalValues.IsNull(value)) return null;
        if (EvalValues.Local(value) is EnumValue e && Types.Resolve(name, context) is { } enumType)
            return Members.EnumFromNumber(enumType, e.Number);
        if (EvalValues.Local(value) is long or int or short or byte or sbyte or ushort or uint or ulong && Types.Resolve(name, context) is { } target
            && Members.IsEnum(target))
            return Members.EnumFromNumber(target, System.Convert.ToInt64(EvalValues.Local(value)));
        if (!Types.IsInstance(value, name, context))
            throw new EvalException($"cannot cast {Display.RuntimeTypeName(value)} to {name} (InvalidCastException)");
        return value;
    }

    /// <summary>typeof(T)'s full name: the loaded type's own where it resolves (generic ones as spelled).</summary>
    private string TypeOfName(TypeSyntax type)
    {
        string name = TypeNameOf(type);
        return name.Contains('<') || name.EndsWith('?') || name.Contains('[') ? name : Types.Resolve(name, context)?.FullName ?? name;
    }

    /// <summary>The C# name a type syntax spells, with predefined keywords as their System names.</summary>
    public static string TypeNameOf(TypeSyntax type) => type switch
    {
        PredefinedTypeSyntax predefined => EvalValues.KeywordType(predefined.Keyword.ValueText) ?? predefined.ToString(),
        NullableTypeSyntax nullable => TypeNameOf(nullable.ElementType) + "?",
        _ => type.ToString().Replace(" ", "", StringComparison.Ordinal),
    };
}
