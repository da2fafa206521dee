#!/usr/bin/env python3
"""Unit tests of corpuslib's output comparison (python3 corpus/test_corpuslib.py)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpuslib  # noqa: E402

SELF_CHECKED = {"check": "pass", "ignore": ""}
STDOUT = {"check": "stdout", "ignore": ""}


class Comparable(unittest.TestCase):
    def test_self_checked_program_compares_verdicts_not_timings_on_the_same_line(self):
        a = "verify: PASS host time: 0.216 (s)\nPASS. Average kernel time: 46.75 (us)\n"
        b = "verify: PASS host time: 0.209 (s)\nPASS. Average kernel time: 53.84 (us)\n"
        self.assertEqual(corpuslib.comparable(SELF_CHECKED, a),
                         corpuslib.comparable(SELF_CHECKED, b))

    def test_self_checked_program_differs_when_a_verdict_differs(self):
        self.assertNotEqual(corpuslib.comparable(SELF_CHECKED, "PASS\nPASS\n"),
                            corpuslib.comparable(SELF_CHECKED, "PASS\nFAIL\n"))

    def test_file_name_of_the_transformed_unit_reads_as_the_original(self):
        self.assertEqual(corpuslib.comparable(STDOUT, "ECL-MIS v1.3 (main.sa.cu)"),
                         corpuslib.comparable(STDOUT, "ECL-MIS v1.3 (main.cu)"))

    def test_rates_and_timing_statistics_are_ignored(self):
        for line in ("Lookups/s:   13,581,892", "Standard Deviation: 63.2558",
                     "%error (3*stdDev)/Average: 859.165%"):
            self.assertEqual(corpuslib.comparable(STDOUT, line), "", line)

    def test_results_are_compared(self):
        self.assertNotEqual(corpuslib.comparable(STDOUT, "checksum: 358389"),
                            corpuslib.comparable(STDOUT, "checksum: 358390"))


if __name__ == "__main__":
    unittest.main()
