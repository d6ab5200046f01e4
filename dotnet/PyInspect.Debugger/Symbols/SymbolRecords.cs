namespace PyInspect.Debugger.Symbols;

/// <summary>A breakpoint location: a method's IL offset for a source line.</summary>
public sealed record ResolvedLine(int MethodToken, int IlOffset, int Line, int Column, int EndLine, int EndColumn, string SourcePath);

/// <summary>Where an IL offset sits in the source.</summary>
public sealed record SourceSpan(string SourcePath, int Line, int Column, int EndLine, int EndColumn);

/// <summary>An IL range [Start, End) for ICorDebugStepper.StepRange.</summary>
public readonly record struct IlRange(int Start, int End);

/// <summary>A local variable in scope: its PDB name and its slot for GetLocalVariable.</summary>
public sealed record LocalInfo(string Name, int SlotIndex);

/// <summary>A declared field; DisplayName shows an auto-property's backing field by the property's name.</summary>
public sealed record FieldMeta(int Token, string Name, string DisplayName, bool IsStatic, bool IsLiteral);

/// <summary>A property and its getter (0 when it has none).</summary>
public sealed record PropertyMeta(string Name, int GetterToken, bool IsStatic);
