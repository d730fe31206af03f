"""Offline HTML report of scored turns: score distribution plot and worst turns with marked atoms."""
