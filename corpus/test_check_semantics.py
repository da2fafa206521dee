#!/usr/bin/env python3
"""Unit tests of corpus/check-semantics (run by corpus/ci-check)."""

import importlib.machinery
import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader("check_semantics",
                                               os.path.join(HERE, "check-semantics"))
_spec = importlib.util.spec_from_loader("check_semantics", _loader)
cs = importlib.util.module_from_spec(_spec)
_loader.exec_module(cs)

CLOCK_RE = cs.clock_call_re(cs.clock_names())


def report(reads, changed=True, functions=({"name": "main", "line": 1, "end_line": 20},)):
    return {"changed": changed, "clock_reads": list(reads), "functions": list(functions)}


def read(line, done, pending, end=None):
    return {"function": "main", "line": line, "end_line": end or line,
            "done_in_original": done, "pending_at_read": pending}


class ClockNames(unittest.TestCase):
    def test_table_rows_marked_timer_are_clocks(self):
        names = cs.clock_names()
        self.assertIn("gettimeofday", names)
        self.assertIn("std::chrono::steady_clock::now", names)
        self.assertNotIn("cudaMemcpy", names)

    def test_calls_are_found_with_or_without_namespace(self):
        for text in ("t = std::chrono::steady_clock::now();", "auto t = steady_clock::now ();",
                     "gettimeofday(&tv, 0);", "srand(time(NULL));"):
            self.assertTrue(CLOCK_RE.search(text), text)

    def test_other_functions_with_a_clock_in_their_name_are_not_clocks(self):
        for text in ("double t = get_time();", "x = timer.time();", "p->clock();",
                     "runtime(3);"):
            self.assertFalse(CLOCK_RE.search(text), text)

    def test_comments_and_strings_are_not_code(self):
        text = 'a(); // gettimeofday(&t, 0)\nprintf("clock()");\n/* time(0)\n */ b();'
        lines = cs.code_lines(text)
        self.assertEqual(len(lines), text.count("\n") + 1)
        self.assertFalse(any(CLOCK_RE.search(line) for line in lines))


class ClockReads(unittest.TestCase):
    def test_a_read_while_finished_work_is_pending_is_a_violation(self):
        v, _ = cs.check_clock_reads(report([read(5, [3, 4], [4])]), "", None, CLOCK_RE)
        self.assertEqual(len(v), 1)
        self.assertIn("op lines 4", v[0])

    def test_a_read_after_its_waits_is_fine(self):
        v, u = cs.check_clock_reads(report([read(5, [3, 4], [2])]), "", None, CLOCK_RE)
        self.assertEqual((v, u), ([], []))

    def test_a_clock_call_the_report_does_not_list_is_not_covered(self):
        src = "int main() {\n  a();\n  double t = clock();\n}\n"
        _, u = cs.check_clock_reads(report([]), src, None, CLOCK_RE)
        self.assertEqual(len(u), 1)
        self.assertIn("line 3", u[0])

    def test_a_call_inside_a_listed_multi_line_read_is_covered(self):
        src = "int main() {\n  double t =\n      clock();\n}\n"
        _, u = cs.check_clock_reads(report([read(2, [], [], end=3)]), src, None, CLOCK_RE)
        self.assertEqual(u, [])

    def test_a_call_the_preprocessor_drops_is_not_a_read(self):
        src = "int main() {\n#ifdef T\n  clock();\n#endif\n}\n"
        _, u = cs.check_clock_reads(report([]), src, {1, 5}, CLOCK_RE)
        self.assertEqual(u, [])

    def test_a_call_outside_analysed_functions_is_not_checked(self):
        src = "double f() { return clock(); }\n"
        _, u = cs.check_clock_reads(report([], functions=[]), src, None, CLOCK_RE)
        self.assertEqual(u, [])


class InactiveWaits(unittest.TestCase):
    ORIG = ["a();", "#ifdef DEBUG", "  print();", "#endif", "b();"]
    WAIT = "  sa_wait(); // streamalloc: this branch is not compiled in the analysed build"
    OTHER = "  sa_sync(); // streamalloc: h is read below"

    def test_a_wait_inside_the_inactive_group_is_fine(self):
        new = self.ORIG[:2] + [self.WAIT] + self.ORIG[2:]
        v, checked = cs.check_inactive_waits(self.ORIG, new, {1, 6})
        self.assertEqual((v, checked), ([], 1))

    def test_a_wait_for_an_inactive_group_in_active_code_is_a_violation(self):
        new = self.ORIG[:1] + [self.WAIT] + self.ORIG[1:]
        v, _ = cs.check_inactive_waits(self.ORIG, new, {1, 2, 6})
        self.assertEqual(len(v), 1)
        self.assertIn("output line 2", v[0])

    def test_an_inserted_wait_that_is_compiled_out_is_a_violation(self):
        new = self.ORIG[:3] + [self.OTHER] + self.ORIG[3:]
        v, _ = cs.check_inactive_waits(self.ORIG, new, {1, 6})
        self.assertEqual(len(v), 1)
        self.assertIn("compiled out", v[0])

    def test_comment_lines_the_tool_inserted_are_not_checked(self):
        new = self.ORIG[:3] + ["// streamalloc: streams for the work below"] + self.ORIG[3:]
        v, checked = cs.check_inactive_waits(self.ORIG, new, {1, 6})
        self.assertEqual((v, checked), ([], 0))


if __name__ == "__main__":
    unittest.main()
