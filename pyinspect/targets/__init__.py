"""Targets: the .NET processes and runtimes pyinspect reads, and how each sees the world."""
