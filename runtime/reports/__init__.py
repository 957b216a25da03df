"""What a run hands back to a person: the reference check, the Perfetto trace, the PNG plot, the
progress line and atomically written output files."""
