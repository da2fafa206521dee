#!/usr/bin/env python3
"""Unit tests of corpus/check-semantics (run by corpus/ci-check)."""

import argparse
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import unittest
import unittest.mock

HERE = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader("check_semantics",
                                               os.path.join(HERE, "check-semantics"))
_spec = importlib.util.spec_from_loader("check_semantics", _loader)
cs = importlib.util.module_from_spec(_spec)
_loader.exec_module(cs)

CLOCK_RE = cs.clock_call_re(cs.clock_names())
sys.path.insert(0, HERE)
import corpuslib  # noqa: E402


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


class MarkedLines(unittest.TestCase):
    def test_lines_are_filed_under_their_file_relative_to_the_folder(self):
        pp = ['# 1 "main.cu"', "int x;", '# 1 "inc/k.h" 1', "a();", "", "b();",
              '# 3 "main.cu" 2', "c();", '# 7 "/w/p-cuda.sa/inc/../k.h"', "d();",
              '# 2 "../p-cuda/inc/o.h"', "e();"]
        self.assertEqual(cs.marked_lines(pp, "/w/p-cuda.sa"),
                         {"main.cu": {1, 3}, "inc/k.h": {1, 3}, "k.h": {7},
                          "../p-cuda/inc/o.h": {2}})


# Stands in for `nvcc -E`: the C preprocessor of a C compiler, with the -I and -D flags.
FAKE_NVCC = r"""#!/bin/sh
unit= out= flags=
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    -I*|-D*) flags="$flags $1"; shift ;;
    -*) shift ;;
    *) unit="$1"; shift ;;
  esac
done
exec "$FAKE_CC" -E -x c $flags "$unit" -o "$out"
"""

HEADER = ["void run() {", "  a();", "#ifdef DEBUG", "  b();", "#endif",
          "  double t = clock();", "}"]
INACTIVE = "  w(); // streamalloc: this branch is not compiled in the analysed build"
CLOCK_WAIT = "  s(); // streamalloc: the original had finished these ops when it read the clock"


class IncludedFiles(unittest.TestCase):
    """A program whose unit includes inc/k.h (with -Iinc), rewritten by the tool."""
    CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")

    def setUp(self):
        if not self.CC:
            self.skipTest("no C compiler to preprocess with")
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.nvcc = os.path.join(t, "nvcc")
        with open(self.nvcc, "w") as f:
            f.write(FAKE_NVCC)
        os.chmod(self.nvcc, 0o755)
        self.prog = {"name": "p", "dir": "p-cuda", "tus": ["main.cu"], "flags": ["-Iinc"]}
        self.pdir = os.path.join(t, "src", "p-cuda")
        main = '#include "k.h"\nint main() { run(); }\n'
        self.write(self.pdir, "main.cu", main)
        self.write(self.pdir, "inc/k.h", "\n".join(HEADER) + "\n")
        self.write(corpuslib.variant_dir(self.pdir), "main.cu", main)
        patch = unittest.mock.patch.dict(os.environ, FAKE_CC=self.CC)
        patch.start()
        self.addCleanup(patch.stop)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, folder, name, text):
        os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)

    def check(self, header, reads):
        """check_program's results for inc/k.h, the variant's header lines given."""
        self.write(corpuslib.variant_dir(self.pdir), "inc/k.h", "\n".join(header) + "\n")
        reports = os.path.join(self.tmp.name, "reports")
        self.write(reports, "p/program.json", json.dumps({"files": [{
            "file": "main.cu", "changed": False, "included_files": [
                {"file": "inc/k.h", "changed": True}],
            "functions": [{"name": "run", "file": "inc/k.h", "line": 1, "end_line": 7}],
            "clock_reads": [dict(r, file="inc/k.h") for r in reads]}]}))
        a = argparse.Namespace(src=os.path.join(self.tmp.name, "src"), reports=reports,
                               nvcc=self.nvcc)
        results = {r["unit"]: r for r in cs.check_program((self.prog, a, CLOCK_RE))}
        self.assertEqual(sorted(results), ["p/inc/k.h", "p/main.cu"])
        self.assertEqual(results["p/inc/k.h"]["skipped"], "")
        return results["p/inc/k.h"]

    def test_inserted_lines_of_a_header_are_checked_against_the_units_that_include_it(self):
        header = HEADER[:3] + [INACTIVE] + HEADER[3:5] + [CLOCK_WAIT] + HEADER[5:]
        r = self.check(header, [read(6, [2], [])])
        self.assertEqual((r["violations"], r["uncovered"], r["inserted"], r["clock_reads"]),
                         ([], [], 2, 1))

    def test_a_wait_for_an_inactive_group_compiled_in_a_header_is_a_violation(self):
        header = HEADER[:2] + [INACTIVE] + HEADER[2:]
        r = self.check(header, [read(6, [2], [])])
        self.assertEqual(len(r["violations"]), 1)
        self.assertIn("output line 3", r["violations"][0])

    def test_a_clock_read_of_a_header_with_finished_work_pending_is_a_violation(self):
        r = self.check(HEADER[:5] + [CLOCK_WAIT] + HEADER[5:], [read(6, [2], [2])])
        self.assertEqual(len(r["violations"]), 1)
        self.assertIn("line 6: clock read", r["violations"][0])

    def test_a_clock_call_of_a_changed_header_the_report_does_not_list_is_not_covered(self):
        r = self.check(HEADER[:5] + [CLOCK_WAIT] + HEADER[5:], [])
        self.assertEqual(len(r["uncovered"]), 1)
        self.assertIn("line 6", r["uncovered"][0])


if __name__ == "__main__":
    unittest.main()
