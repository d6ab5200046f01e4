// Values typed by a user for setVariable: C# literals with C#'s range checks.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Values;
using Xunit;

namespace PyInspect.Tests;

public sealed class PrimitiveTextTests
{
    [Theory]
    [InlineData("42", 42)]
    [InlineData("-1", -1)]
    [InlineData("0x1F", 31)]
    [InlineData("1_000", 1000)]
    [InlineData(" 7 ", 7)]
    public void An_int_literal_becomes_its_four_bytes(string text, int expected) =>
        Assert.Equal(BitConverter.GetBytes(expected), PrimitiveText.Parse(CorElementType.I4, text));

    [Fact]
    public void Long_double_float_bool_and_char_literals_keep_their_suffixes_and_quotes()
    {
        Assert.Equal(BitConverter.GetBytes(5_000_000_000L), PrimitiveText.Parse(CorElementType.I8, "5000000000L"));
        Assert.Equal(BitConverter.GetBytes(2.5), PrimitiveText.Parse(CorElementType.R8, "2.5d"));
        Assert.Equal(BitConverter.GetBytes(1.5f), PrimitiveText.Parse(CorElementType.R4, "1.5f"));
        Assert.Equal(new byte[] { 1 }, PrimitiveText.Parse(CorElementType.Boolean, "true"));
        Assert.Equal(BitConverter.GetBytes('c'), PrimitiveText.Parse(CorElementType.Char, "'c'"));
        Assert.Equal(new byte[] { 0xFF }, PrimitiveText.Parse(CorElementType.I1, "-1"));
    }

    [Theory]
    [InlineData(CorElementType.U1, "256", "256 is out of range for byte")]
    [InlineData(CorElementType.I4, "2147483648", "2147483648 is out of range for int")]
    [InlineData(CorElementType.U4, "-1", "-1 is out of range for uint")]
    [InlineData(CorElementType.I4, "abc", "'abc' is not a valid int")]
    [InlineData(CorElementType.Boolean, "yes", "'yes' is not a valid bool")]
    public void A_value_out_of_range_or_malformed_says_what_was_expected(int elementType, string text, string message)
    {
        var error = Assert.Throws<FormatException>(() => PrimitiveText.Parse(elementType, text));
        Assert.Equal(message, error.Message);
    }

    [Theory]
    [InlineData(CorElementType.U1, "103u", "uint")]
    [InlineData(CorElementType.I4, "7u", "uint")]
    [InlineData(CorElementType.I4, "7L", "long")]
    [InlineData(CorElementType.U4, "7L", "long")]
    [InlineData(CorElementType.I8, "7UL", "ulong")]
    [InlineData(CorElementType.I8, "5000000000u", "ulong")]
    public void A_suffixed_literal_converts_only_where_csharp_converts_its_type(int elementType, string text, string literal)
    {
        var error = Assert.Throws<FormatException>(() => PrimitiveText.Parse(elementType, text));
        Assert.Contains($"a {literal} literal has no implicit conversion", error.Message);
    }

    [Fact]
    public void A_suffixed_literal_goes_into_a_type_wide_enough()
    {
        Assert.Equal(BitConverter.GetBytes(103u), PrimitiveText.Parse(CorElementType.U4, "103u"));
        Assert.Equal(BitConverter.GetBytes(103L), PrimitiveText.Parse(CorElementType.I8, "103u"));
        Assert.Equal(BitConverter.GetBytes(103UL), PrimitiveText.Parse(CorElementType.U8, "103L"));
        Assert.Equal(BitConverter.GetBytes(103UL), PrimitiveText.Parse(CorElementType.U8, "103ul"));
    }
}
