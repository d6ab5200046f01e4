"""Rules the faces share: memory questions, the heap workspace, process reports."""
