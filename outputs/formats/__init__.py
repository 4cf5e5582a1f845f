"""One module per output format, each with a ``FORMAT`` (outputs.format.OutputFormat) that outputs.registry names by
its file name. The README's "How to add an output format" says what a new one takes."""
