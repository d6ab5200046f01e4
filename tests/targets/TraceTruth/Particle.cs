namespace TraceTruth;

/// <summary>The program's own type: 4 longs, 56 bytes per object on 64-bit.</summary>
public sealed class Particle
{
    public long X, Y, Z, Mass;
}
