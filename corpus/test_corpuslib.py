#!/usr/bin/env python3
"""Unit tests of corpuslib (output comparison, identical-source check, corpus-wide
figures), and of how corpus/run treats programs the tool left unchanged, with a stand-in
for nvcc so that no GPU is needed (python3 corpus/test_corpuslib.py)."""
import csv
import json
import os
import stat
import subprocess
import sys
import tempfile
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


class ScaledArgs(unittest.TestCase):
    def test_last_integer_is_scaled_by_default(self):
        self.assertEqual(corpuslib.scaled_args("512 512 512 100", 0.01), "512 512 512 1")

    def test_first_integer_is_scaled_when_asked(self):
        self.assertEqual(corpuslib.scaled_args("512 512 512 1", 0.25, first=True),
                         "128 512 512 1")

    def test_first_form_declines_a_single_scalable_argument(self):
        self.assertIsNone(corpuslib.scaled_args("3 10", 0.25, first=True))

    def test_small_integers_and_flags_are_left_alone(self):
        self.assertEqual(corpuslib.scaled_args("-n 4 --size 4096 -r 20", 0.25, first=True),
                         "-n 4 --size 1024 -r 20")


class SourceChange(unittest.TestCase):
    PROG = {"tus": ["main.cu", "kernels.cu", "util.cpp"]}

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        for name, text in (("main.cu", "int main() {}\n"),
                           ("kernels.cu", "__global__ void k() {}\n"),
                           ("util.cpp", "int f() { return 1; }\n")):
            self.write(name, text)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def copy_unchanged(self, tu):
        with open(os.path.join(self.dir, tu)) as f:
            self.write(corpuslib.transformed_name(tu), f.read())

    def test_every_unit_identical_is_unchanged(self):
        self.copy_unchanged("main.cu")
        self.copy_unchanged("kernels.cu")
        self.assertEqual(corpuslib.source_change(self.PROG, self.dir), corpuslib.UNCHANGED)

    def test_one_rewritten_unit_makes_the_program_changed(self):
        self.copy_unchanged("main.cu")
        self.write("kernels.sa.cu", "__global__ void k() {}\n// rewritten\n")
        self.assertEqual(corpuslib.source_change(self.PROG, self.dir), corpuslib.CHANGED)

    def test_a_missing_transformed_unit_is_no_source_even_after_a_changed_one(self):
        self.write("main.sa.cu", "int main() { return 0; }\n")
        self.assertEqual(corpuslib.source_change(self.PROG, self.dir), corpuslib.NO_SOURCE)

    def test_units_that_are_not_cuda_are_not_looked_at(self):
        self.copy_unchanged("main.cu")
        self.copy_unchanged("kernels.cu")
        self.write("util.cpp", "int f() { return 2; }\n")  # never transformed: no util.sa.cpp
        self.assertEqual(corpuslib.source_change(self.PROG, self.dir), corpuslib.UNCHANGED)

    def test_a_missing_original_is_not_proven_identical(self):
        self.copy_unchanged("main.cu")
        self.copy_unchanged("kernels.cu")
        os.remove(os.path.join(self.dir, "main.cu"))
        self.assertEqual(corpuslib.source_change(self.PROG, self.dir), corpuslib.CHANGED)


def row(source, speedup, spread=None, aa=None):
    return {"source": source, "speedup": speedup, "original_spread": spread, "aa": aa}


class HostBlockedBound(unittest.TestCase):
    def test_bound_is_run_time_over_run_time_less_blocked_time(self):
        self.assertAlmostEqual(corpuslib.host_blocked_bound(2.0, {"wait_s": "0.5"}), 2.0 / 1.5)

    def test_no_trace_or_blocked_time_not_below_run_time_gives_no_bound(self):
        self.assertIsNone(corpuslib.host_blocked_bound(2.0, None))
        self.assertIsNone(corpuslib.host_blocked_bound(2.0, {}))
        self.assertIsNone(corpuslib.host_blocked_bound(1.0, {"wait_s": "1.2"}))

    def test_sentence_compares_geomeans_over_the_same_programs(self):
        rows = [{"name": "a", "source": corpuslib.CHANGED, "speedup": 1.1, "original_s": 2.0},
                {"name": "b", "source": corpuslib.UNCHANGED, "speedup": 1.0, "original_s": 1.0},
                {"name": "c", "source": corpuslib.CHANGED, "speedup": None, "original_s": 1.0}]
        traces = {"a": {"original": {"wait_s": "1.0"}}, "b": {"original": {"wait_s": "0.0"}},
                  "c": {"original": {"wait_s": "0.5"}}}
        text = corpuslib.bound_sentence(rows, traces)
        self.assertIn("over the 1 changed programs the tool's geomean is 1.100x against a "
                      "bound of 2.000x", text)
        self.assertIn("over the 2 measured programs", text)


class SpeedupSummary(unittest.TestCase):
    def test_unchanged_programs_count_as_one_in_all_and_not_in_changed(self):
        s = corpuslib.speedup_summary([row("changed", 1.21), row("changed", 0.90),
                                       row("unchanged", 1.0), row("unchanged", 1.0)])
        self.assertAlmostEqual(s["geomean_changed"], (1.21 * 0.90) ** 0.5)
        self.assertAlmostEqual(s["geomean_all"], (1.21 * 0.90) ** 0.25)
        self.assertEqual((s["n_changed"], s["n_all"], s["n_unchanged"], s["slower"]),
                         (2, 4, 2, 1))

    def test_programs_without_a_speedup_are_left_out_of_both_geomeans(self):
        s = corpuslib.speedup_summary([row("changed", 1.1), row("changed", None),
                                       row("no-source", None), row("unchanged", None)])
        self.assertEqual((s["n_changed"], s["n_all"], s["n_unchanged"]), (1, 1, 1))

    def test_noise_is_the_median_spread_of_the_originals_that_ran_twice(self):
        s = corpuslib.speedup_summary([row("changed", 1.0, 0.02), row("changed", 1.0, 0.30),
                                       row("changed", 1.0, 0.05), row("unchanged", 1.0)])
        self.assertAlmostEqual(s["median_spread"], 0.05)
        self.assertEqual(s["n_spread"], 3)

    def test_aa_ratios_of_unchanged_programs_are_a_separate_figure(self):
        s = corpuslib.speedup_summary([row("unchanged", 1.0, aa=1.17),
                                       row("unchanged", 1.0, aa=0.83), row("changed", 1.5)])
        self.assertAlmostEqual(s["geomean_aa"], (1.17 * 0.83) ** 0.5)
        self.assertEqual(s["aa_range"], (0.83, 1.17))
        self.assertAlmostEqual(s["geomean_all"], 1.5 ** (1 / 3))
        self.assertIn("A/A", corpuslib.summary_sentence(s))

    def test_the_sentence_says_every_figure_and_survives_an_empty_measurement(self):
        text = corpuslib.summary_sentence(corpuslib.speedup_summary(
            [row("changed", 1.21, 0.1), row("unchanged", 1.0)]))
        for part in ("1.210x over 1 changed", "1.100x over all 2",
                     "unchanged programs (identical source): 1", "spread of the originals 0.100"):
            self.assertIn(part, text)
        self.assertNotIn("A/A", text)
        self.assertIn("- over 0 changed", corpuslib.summary_sentence(corpuslib.speedup_summary([])))


def summarize(manifest, reports, results):
    return subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "summarize"),
                           "--manifest", manifest, "--reports", reports, "--results", results],
                          check=True, stdout=subprocess.PIPE, text=True).stdout


class SummarizeReadsResultsOlderThanTheSourceColumn(unittest.TestCase):
    def test_a_program_whose_reports_say_unchanged_counts_as_one_and_its_ratio_as_noise(self):
        with tempfile.TemporaryDirectory() as t:
            progs = [{"name": n, "dir": "src/%s-cuda" % n, "tus": ["main.cu"], "measured": True}
                     for n in ("edited", "same")]
            corpuslib.save_manifest({"programs": progs}, os.path.join(t, "manifest.json"))
            for n, changed in (("edited", True), ("same", False)):
                os.makedirs(os.path.join(t, "reports", n))
                with open(os.path.join(t, "reports", n, "main.cu.json"), "w") as f:
                    json.dump({"files": [{"file": "main.cu", "changed": changed}]}, f)
            with open(os.path.join(t, "results.tsv"), "w") as f:
                f.write("program\toriginal_s\toriginal_spread\ttransformed_s\t"
                        "transformed_spread\tspeedup\tmatch\tstatus_original\t"
                        "status_transformed\n"
                        "edited\t1.0\t0.02\t0.8\t0.03\t1.2500\tyes\tok\tok\n"
                        "same\t1.0\t0.04\t0.85\t0.03\t1.1700\tyes\tok\tok\n")
            page = summarize(os.path.join(t, "manifest.json"), os.path.join(t, "reports"), t)
        self.assertIn("| same | - | 1.00x (identical source; A/A 1.17x) | yes |", page)
        self.assertIn("1.250x over 1 changed", page)
        self.assertIn("1.118x over all 2", page)
        self.assertIn("spread of the originals 0.030 (2 programs)", page)


# Stands in for nvcc: logs the sources of each build and writes, as the executable, a
# script that logs its own run and prints a PASS verdict.
FAKE_NVCC = r"""#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
exe = args[args.index("-o") + 1]
srcs = [a for a in args if a.endswith(".cu")]
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("build %s\n" % " ".join(srcs))
# A traced executable (linked with timeline.cpp) reports its syncs as the tracer does:
# the transformed variant one more than the original.
trace = ""
if any(a.endswith("timeline.cpp") for a in args):
    trace = ('[ -n "$SA_TIMELINE_OUT" ] && printf "syncs_n %d\\nwait_s 0.5\\n" > '
             '"$SA_TIMELINE_OUT"\n' % (2 if "transformed" in exe else 1))
with open(exe, "w") as f:
    f.write("#!/bin/sh\necho run %s >> %s\n%secho 'check: PASS'\n"
            % (os.path.basename(exe), os.environ["FAKE_LOG"], trace))
os.chmod(exe, 0o755)
"""


class RunSkipsUnchangedPrograms(unittest.TestCase):
    RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run")

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.log = os.path.join(t, "log")
        self.nvcc = os.path.join(t, "nvcc")
        with open(self.nvcc, "w") as f:
            f.write(FAKE_NVCC)
        os.chmod(self.nvcc, os.stat(self.nvcc).st_mode | stat.S_IXUSR)
        progs = []
        for name, transformed in (("edited", "int main() { return 0; } // async\n"),
                                  ("same", "int main() { return 0; }\n")):
            d = os.path.join(t, "src", name + "-cuda")
            os.makedirs(d)
            for f, text in (("main.cu", "int main() { return 0; }\n"),
                            ("main.sa.cu", transformed)):
                with open(os.path.join(d, f), "w") as out:
                    out.write(text)
            progs.append({"name": name, "dir": "src/%s-cuda" % name, "tus": ["main.cu"],
                          "flags": [], "libs": [], "args": "", "check": "pass",
                          "ignore": "", "note": "", "measured": True})
        self.manifest = os.path.join(t, "manifest.json")
        corpuslib.save_manifest({"programs": progs}, self.manifest)

    def tearDown(self):
        self.tmp.cleanup()

    def run_harness(self, *extra):
        out = os.path.join(self.tmp.name, "out")
        # A small budget bounds the time a broken harness can wait for its builds.
        r = subprocess.run([self.RUN, "--out", out, "--src", self.tmp.name,
                            "--manifest", self.manifest, "--nvcc", self.nvcc, "--jobs", "1",
                            "--runs", "2", "--budget-s", "20"] + list(extra),
                           env=dict(os.environ, FAKE_LOG=self.log), timeout=120,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(r.returncode, 0, r.stdout)
        if not os.path.exists(self.log):
            return out, []  # nothing was built
        with open(self.log) as f:
            return out, f.read().splitlines()

    def table(self, path):
        with open(path, newline="") as f:
            return {r.get("program") or r["name"]: r for r in csv.DictReader(f, delimiter="\t")}

    def test_measure_neither_builds_nor_times_an_unchanged_program(self):
        out, log = self.run_harness()
        self.assertEqual([l for l in log if "same" in l], [])
        self.assertIn("run edited.transformed", log)
        rows = self.table(os.path.join(out, "results.tsv"))
        self.assertEqual((rows["same"]["source"], rows["same"]["speedup"],
                          rows["same"]["match"], rows["same"]["status_transformed"]),
                         ("unchanged", "1.0000", "identical", "unchanged"))
        self.assertEqual(rows["edited"]["source"], "changed")
        with open(os.path.join(out, "results.md")) as f:
            md = f.read()
        self.assertIn("| same | - | - | - | - | 1.00x (identical source) | identical | "
                      "unchanged |", md)
        self.assertIn("unchanged programs (identical source): 1", md)
        with open(os.path.join(out, "results.json")) as f:
            self.assertEqual(json.load(f)["summary"]["n_unchanged"], 1)
        page = summarize(self.manifest, os.path.join(self.tmp.name, "no-reports"), out)
        self.assertIn("| same | - | 1.00x (identical source) | identical |", page)
        self.assertIn("unchanged programs (identical source): 1", page)

    def test_time_unchanged_times_both_variants_as_an_aa_reference(self):
        out, log = self.run_harness("--time-unchanged")
        self.assertEqual(log.count("run same.original"), 2)
        self.assertEqual(log.count("run same.transformed"), 2)
        row = self.table(os.path.join(out, "results.tsv"))["same"]
        self.assertEqual((row["speedup"], row["match"]), ("1.0000", "yes"))
        self.assertNotEqual(row["aa_ratio"], "-")

    def test_calibration_runs_the_original_but_not_the_identical_transformed(self):
        out, log = self.run_harness("--calibrate")
        self.assertIn("run same.original", log)
        self.assertNotIn("run same.transformed", log)
        self.assertIn("run edited.transformed", log)
        row = self.table(os.path.join(out, "calibration.tsv"))["same"]
        self.assertEqual((row["source"], row["transformed_built"], row["match"]),
                         ("unchanged", "unchanged", "identical"))

    def test_trace_compiles_once_links_twice_and_compares_syncs_of_both_variants(self):
        out, log = self.run_harness("--trace")
        self.assertEqual(log.count("build main.sa.cu"), 1)
        self.assertIn("run edited.transformed.trace", log)
        self.assertIn("run edited.original.trace", log)
        self.assertEqual(log.count("run edited.transformed"), 2)  # the rounds, untraced
        with open(os.path.join(out, "results.md")) as f:
            md = f.read()
        self.assertRegex(md, r"\| edited \| 1 \| 2 \| \? \| \? \| 0\.500 \| 0\.500 \| (-|[0-9.]+x) \|")
        self.assertIn("Host-blocked bound", md)
        self.assertIn("more syncs than their original: edited (2 > 1).", md)
        with open(os.path.join(out, "trace.tsv"), newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        self.assertEqual(sorted((r["program"], r["variant"]) for r in rows),
                         [("edited", "original"), ("edited", "transformed")])

    def test_a_missing_program_folder_is_a_failed_build_not_a_wait_for_the_deadline(self):
        os.rename(os.path.join(self.tmp.name, "src", "edited-cuda"),
                  os.path.join(self.tmp.name, "src", "elsewhere"))
        out, _ = self.run_harness("--calibrate", "--only", "edited")
        row = self.table(os.path.join(out, "calibration.tsv"))["edited"]
        self.assertEqual(row["verdict"], "build-failed")


if __name__ == "__main__":
    unittest.main()
