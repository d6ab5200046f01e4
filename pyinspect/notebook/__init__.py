"""The notebook face: Debugger, Heap and their DataFrames and plots."""
