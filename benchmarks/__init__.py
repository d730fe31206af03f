"""Benchmarks: ``python -m benchmarks`` runs every ``benchmarks/*_bench.py`` module's ``main()``."""
