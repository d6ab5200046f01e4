"""The one stateful owner of a debug session and what it is made of."""
