"""Everything the processor emits: names (``names``), instruments and records."""
