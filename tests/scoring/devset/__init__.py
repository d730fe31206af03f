"""The table dev set of issue 17: figures computed from tables, read with the question that asked.

``tables.jsonl`` is written by ``python -m tests.scoring.devset.generate`` (seeded, deterministic;
``tests/scoring/test_table_devset.py`` checks the committed file is what it writes) and measured
by ``python -m tests.scoring.devset`` (rates by form and operation). Every table here is written
for this set: its row names are those of annual reports, spreadsheets, SQL results and dashboards,
its numbers are drawn from a seeded generator or typed by hand, and no public table-QA data was
read or copied (TAT-QA, FaithBench, SummEdits, AggreFact and Schema-Guided Dialogue are held out).
"""
