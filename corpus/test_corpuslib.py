#!/usr/bin/env python3
"""Unit tests of corpuslib (output comparison, identical-source check, corpus-wide
figures), and of how corpus/run treats programs the tool left unchanged, with a stand-in
for nvcc so that no GPU is needed (python3 corpus/test_corpuslib.py)."""
import csv
import json
import os
import shutil
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
    ORIGINAL = (("main.cu", "#include \"inc/k.h\"\nint main() {}\n"),
                ("kernels.cu", "__global__ void k() {}\n"),
                ("inc/k.h", "void copy();\n"),
                ("util.cpp", "int f() { return 1; }\n"),
                ("data.txt", "1 2 3\n"))

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "p-cuda")
        self.variant = corpuslib.variant_dir(self.dir)
        for name, text in self.ORIGINAL:
            self.write(self.dir, name, text)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, folder, name, text):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def copy_unchanged(self, *names):
        for name in names:
            with open(os.path.join(self.dir, name)) as f:
                self.write(self.variant, name, f.read())

    def change(self):
        return corpuslib.source_change(self.PROG, self.dir)

    def test_the_variant_is_a_sibling_folder(self):
        self.assertEqual(self.variant, os.path.join(self.tmp.name, "p-cuda.sa"))

    def test_every_written_file_identical_is_unchanged(self):
        self.copy_unchanged("main.cu", "kernels.cu", "inc/k.h")
        self.assertEqual(self.change(), corpuslib.UNCHANGED)

    def test_one_rewritten_unit_makes_the_program_changed(self):
        self.copy_unchanged("main.cu", "inc/k.h")
        self.write(self.variant, "kernels.cu", "__global__ void k() {}\n// rewritten\n")
        self.assertEqual(self.change(), corpuslib.CHANGED)

    def test_a_rewritten_included_file_makes_the_program_changed(self):
        self.copy_unchanged("main.cu", "kernels.cu")
        self.write(self.variant, "inc/k.h", "void copy(); // rewritten\n")
        self.assertEqual(self.change(), corpuslib.CHANGED)

    def test_a_missing_unit_is_no_source_even_with_a_changed_file(self):
        self.copy_unchanged("main.cu")
        self.write(self.variant, "inc/k.h", "void copy(); // rewritten\n")
        self.assertEqual(self.change(), corpuslib.NO_SOURCE)

    def test_no_variant_folder_is_no_source(self):
        self.assertEqual(self.change(), corpuslib.NO_SOURCE)

    def test_units_that_are_not_cuda_and_data_files_are_not_looked_at(self):
        self.copy_unchanged("main.cu", "kernels.cu")
        self.write(self.dir, "util.cpp", "int f() { return 2; }\n")  # never transformed
        self.assertEqual(self.change(), corpuslib.UNCHANGED)

    def test_a_written_file_without_an_original_is_not_proven_identical(self):
        self.copy_unchanged("main.cu", "kernels.cu")
        self.write(self.variant, "inc/new.h", "\n")
        self.assertEqual(self.change(), corpuslib.CHANGED)


class VariantBuild(unittest.TestCase):
    PROG = {"tus": ["src/main.cu", "src/k.cu", "util.cpp", "../shared/ref.cpp"],
            "flags": ["-std=c++17", "-Isrc", "-I", "../shared", "-I/opt/x/include", "-DN=1",
                      "-I."]}

    def test_the_original_is_built_in_its_folder_as_the_manifest_says(self):
        self.assertEqual(corpuslib.variant_build(self.PROG, "/c/src/p-cuda", "original"),
                         ("/c/src/p-cuda", self.PROG["tus"], self.PROG["flags"]))

    def test_the_transformed_is_built_in_the_variant_with_its_folders_first(self):
        cwd, tus, flags = corpuslib.variant_build(self.PROG, "/c/src/p-cuda", "transformed")
        self.assertEqual(cwd, "/c/src/p-cuda.sa")
        # The units keep their names (__FILE__); the .cpp units are the original files.
        self.assertEqual(tus, ["src/main.cu", "src/k.cu", "../p-cuda/util.cpp",
                               "../shared/ref.cpp"])
        # A sibling folder is the same folder from both; absolute ones stay as they are.
        self.assertEqual(flags, ["-std=c++17", "-Isrc", "-I../p-cuda/src", "-I../shared",
                                 "-I/opt/x/include", "-DN=1", "-I.", "-I../p-cuda"])


def unit_report(name, ops=(), clock_reads=(), included=(), changed=False, streams=0):
    return {"file": name, "changed": changed, "streams": streams, "ops": list(ops),
            "clock_reads": list(clock_reads), "included_files": list(included)}


def op(line, async_, file=None):
    rec = {"line": line, "async": async_, "callee": "cudaMemcpy", "kind": "copy"}
    if file:
        rec["file"] = file
    return rec


class FileRecords(unittest.TestCase):
    def test_a_header_two_units_include_is_counted_once(self):
        header = [op(30, True, "inc/p.cuh"), op(31, False, "inc/p.cuh")]
        files = corpuslib.file_records({"files": [
            unit_report("main.cu", [op(5, True)] + header,
                        included=[{"file": "inc/p.cuh", "changed": True}], changed=True),
            unit_report("stats.cu", [op(9, False)] + header,
                        included=[{"file": "inc/p.cuh", "changed": True}])]})
        self.assertEqual(sorted(files), ["inc/p.cuh", "main.cu", "stats.cu"])
        self.assertEqual([o["line"] for o in files["inc/p.cuh"]["ops"]], [30, 31])
        self.assertEqual([o["line"] for o in files["main.cu"]["ops"]], [5])
        self.assertEqual((files["inc/p.cuh"]["changed"], files["stats.cu"]["changed"]),
                         (True, False))

    def test_records_go_to_the_file_they_name(self):
        read = {"line": 44, "file": "inc/p.cuh", "done_in_original": [37],
                "pending_at_read": []}
        files = corpuslib.file_records({"files": [unit_report("main.cu", clock_reads=[read])]})
        self.assertEqual(files["inc/p.cuh"]["clock_reads"], [read])
        self.assertEqual(files["main.cu"]["clock_reads"], [])
        self.assertTrue(files["inc/p.cuh"]["included"])

    def test_a_unit_included_by_another_keeps_its_own_records(self):
        files = corpuslib.file_records({"files": [
            unit_report("main.cu", [op(3, False, "k.cu")],
                        included=[{"file": "k.cu", "changed": False,
                                   "left_as_written": "it is an input of the run"}]),
            unit_report("k.cu", [op(3, True)], changed=True)]})
        self.assertEqual((files["k.cu"]["unit"], files["k.cu"]["changed"]), ("k.cu", True))
        self.assertTrue(files["k.cu"]["ops"][0]["async"])


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
            header = [op(3, True, "k.h"), op(4, False, "k.h")]
            for n, changed in (("edited", True), ("same", False)):
                os.makedirs(os.path.join(t, "reports", n))
                with open(corpuslib.report_path(os.path.join(t, "reports"), n), "w") as f:
                    # Two units that include one header: its ops are counted once.
                    json.dump({"files": [unit_report(
                        u, [op(9, changed)] + header, changed=changed, streams=2,
                        included=[{"file": "k.h", "changed": False}])
                        for u in ("main.cu", "other.cu")]}, f)
            with open(os.path.join(t, "results.tsv"), "w") as f:
                f.write("program\toriginal_s\toriginal_spread\ttransformed_s\t"
                        "transformed_spread\tspeedup\tmatch\tstatus_original\t"
                        "status_transformed\n"
                        "edited\t1.0\t0.02\t0.8\t0.03\t1.2500\tyes\tok\tok\n"
                        "same\t1.0\t0.04\t0.85\t0.03\t1.1700\tyes\tok\tok\n")
            page = summarize(os.path.join(t, "manifest.json"), os.path.join(t, "reports"), t)
        self.assertIn("| same | - | 1.00x (identical source; A/A 1.17x) | yes | 1 / 4 | 0 | 2 |",
                      page)
        self.assertIn("| edited | - | 1.25x | yes | 3 / 4 |", page)
        self.assertIn("1.250x over 1 changed", page)
        self.assertIn("1.118x over all 2", page)
        self.assertIn("spread of the originals 0.030 (2 programs)", page)


# Stands in for nvcc: logs the folder and the sources of each build and, when FAKE_CPP
# names a C compiler, each source as its preprocessor sees it with the build's -I flags,
# on one line; writes, as the executable, a script that logs its own run and the folder
# it runs in, and prints a PASS verdict.
FAKE_NVCC = r"""#!/usr/bin/env python3
import os, subprocess, sys
args = sys.argv[1:]
exe = args[args.index("-o") + 1]
srcs = [a for a in args if a.endswith(".cu")]
here = os.path.basename(os.getcwd())
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("build %s: %s\n" % (here, " ".join(srcs)))
    for src in srcs if os.environ.get("FAKE_CPP") else []:
        pp = subprocess.run([os.environ["FAKE_CPP"], "-E", "-P", "-x", "c"]
                            + [a for a in args if a.startswith(("-I", "-D"))] + [src],
                            stdout=subprocess.PIPE, text=True).stdout
        f.write("pp %s %s: %s\n" % (here, src, " ".join(pp.split())))
# A traced executable (linked with timeline.cpp) reports its syncs as the tracer does:
# the transformed variant one more than the original.
trace = ""
if any(a.endswith("timeline.cpp") for a in args):
    trace = ('[ -n "$SA_TIMELINE_OUT" ] && printf "syncs_n %d\\nwait_s 0.5\\n" > '
             '"$SA_TIMELINE_OUT"\n' % (2 if "transformed" in exe else 1))
with open(exe, "w") as f:
    f.write("#!/bin/sh\necho run %s >> %s\necho in $(basename $(pwd)) >> %s\n"
            "%secho 'check: PASS'\n" % (os.path.basename(exe), os.environ["FAKE_LOG"],
                                        os.environ["FAKE_LOG"], trace))
os.chmod(exe, 0o755)
"""


MAIN = "int main() { return 0; }\n"


class RunHarness(unittest.TestCase):
    """corpus/run over PROGRAMS, with the stand-in nvcc."""
    RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run")
    PROGRAMS = ()  # (name, the program's files, the files of its variant folder, flags)
    CPP = None

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.log = os.path.join(t, "log")
        self.nvcc = os.path.join(t, "nvcc")
        with open(self.nvcc, "w") as f:
            f.write(FAKE_NVCC)
        os.chmod(self.nvcc, os.stat(self.nvcc).st_mode | stat.S_IXUSR)
        progs = []
        for name, files, written, flags in self.PROGRAMS:
            d = os.path.join(t, "src", name + "-cuda")
            for folder, texts in ((d, files), (corpuslib.variant_dir(d), written)):
                for f, text in texts.items():
                    os.makedirs(os.path.dirname(os.path.join(folder, f)), exist_ok=True)
                    with open(os.path.join(folder, f), "w") as out:
                        out.write(text)
            progs.append({"name": name, "dir": "src/%s-cuda" % name, "tus": ["main.cu"],
                          "flags": flags, "libs": [], "args": "", "check": "pass",
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
                           env=dict(os.environ, FAKE_LOG=self.log, FAKE_CPP=self.CPP or ""),
                           timeout=120,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(r.returncode, 0, r.stdout)
        if not os.path.exists(self.log):
            return out, []  # nothing was built
        with open(self.log) as f:
            return out, f.read().splitlines()

    def table(self, path):
        with open(path, newline="") as f:
            return {r.get("program") or r["name"]: r for r in csv.DictReader(f, delimiter="\t")}



class RunSkipsUnchangedPrograms(RunHarness):
    PROGRAMS = (("edited", {"main.cu": MAIN}, {"main.cu": MAIN + "// async\n"}, []),
                ("same", {"main.cu": MAIN}, {"main.cu": MAIN}, []))

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
        self.assertEqual(log.count("build edited-cuda.sa: main.cu"), 1)
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



class RunBuildsTheVariantFolder(RunHarness):
    """A program whose included header the tool rewrote: the variant folder holds the
    unit and the header; another header it includes was not written."""
    MAIN_CU = '#include "k.h"\nconst char *file = __FILE__;\nint main() { return 0; }\n'
    PROGRAMS = (("hdr", {"main.cu": MAIN_CU, "inc/k.h": 'ORIGINAL_K\n#include "other.h"\n',
                         "inc/other.h": "OTHER_H\n", "data.txt": "input\n"},
                 {"main.cu": MAIN_CU, "inc/k.h": 'REWRITTEN_K\n#include "other.h"\n'},
                 ["-Iinc"]),)
    CPP = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")

    def setUp(self):
        if not self.CPP:
            self.skipTest("no C compiler to preprocess with")
        super().setUp()

    def preprocessed(self, log, folder):
        return [l for l in log if l.startswith("pp %s main.cu:" % folder)]

    def test_the_rewritten_header_wins_the_rest_is_found_and_it_runs_in_the_original(self):
        out, log = self.run_harness("--only", "hdr")
        self.assertIn("build hdr-cuda.sa: main.cu", log)
        self.assertEqual(self.preprocessed(log, "hdr-cuda.sa"),
                         ['pp hdr-cuda.sa main.cu: REWRITTEN_K OTHER_H const char *file = '
                          '"main.cu"; int main() { return 0; }'])
        self.assertEqual(self.preprocessed(log, "hdr-cuda"),
                         ['pp hdr-cuda main.cu: ORIGINAL_K OTHER_H const char *file = '
                          '"main.cu"; int main() { return 0; }'])
        runs = [log[i + 1] for i, l in enumerate(log) if l.startswith("run hdr.")]
        self.assertEqual(set(runs), {"in hdr-cuda"})
        self.assertEqual(self.table(os.path.join(out, "results.tsv"))["hdr"]["match"], "yes")

    def test_compile_check_compiles_the_unit_with_the_rewritten_header(self):
        out, log = self.run_harness("--compile-check", "--all")
        self.assertEqual([l.split(":")[1] for l in self.preprocessed(log, "hdr-cuda.sa")],
                         [" REWRITTEN_K OTHER_H const char *file = \"main.cu\"; int main() {"
                          " return 0; }"])
        self.assertEqual(self.table(os.path.join(out, "compile-check.tsv"))["hdr"]["transformed"],
                         "ok")

    def test_a_header_left_byte_identical_is_an_unchanged_program(self):
        with open(os.path.join(self.tmp.name, "src", "hdr-cuda.sa", "inc", "k.h"), "w") as f:
            f.write('ORIGINAL_K\n#include "other.h"\n')
        out, log = self.run_harness("--only", "hdr")
        self.assertEqual(log, [])
        self.assertEqual(self.table(os.path.join(out, "results.tsv"))["hdr"]["source"],
                         "unchanged")


# Stands in for streamalloc over several inputs with --out-dir: writes each input and
# every file it includes with "..." (found in its folder, then in the -I folders), with
# cudaMemcpy( made cudaMemcpyAsync(, under the out-dir below the deepest folder that holds
# them all, as the tool does; an input with #error is not parsed (its message as the
# tool's). Logs its arguments to FAKE_TOOL_LOG.
FAKE_TOOL = r"""#!/usr/bin/env python3
import json, os, re, sys
args = sys.argv[1:]
flags = args[args.index("--") + 1:]
args = args[:args.index("--")]
opts = dict(a.split("=", 1) for a in args if a.startswith("--") and "=" in a)
inputs = [a for a in args if not a.startswith("-")]
with open(os.environ["FAKE_TOOL_LOG"], "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")
written, units, failed = {}, [], False
for unit in inputs:
    text = open(unit).read()
    if "#error" in text:
        print("streamalloc: error: '%s' could not be parsed; nothing was written for it" % unit)
        print("streamalloc: note: the first error was %s:1:2: boom" % unit)
        failed = True
        continue
    written[unit] = text
    for name in re.findall(r'#include "(.*)"', text):
        for d in [os.path.dirname(unit)] + [f[2:] for f in flags if f.startswith("-I")]:
            path = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(path):
                written[path] = open(path).read().replace("cudaMemcpy(", "cudaMemcpyAsync(")
                break
    print("streamalloc: %s: parse 0.50 s, analysis and rewrite 0.25 s (CPU)" % unit)
    units.append({"file": unit, "changed": False, "ops": []})
root = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in written])
for path, text in written.items():
    dest = os.path.join(opts["--out-dir"], os.path.relpath(os.path.abspath(path), root))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as f:
        f.write(text)
with open(opts["--report-file"], "w") as f:
    json.dump({"files": units}, f)
sys.exit(1 if failed else 0)
"""


class TransformRunsOncePerProgram(unittest.TestCase):
    TRANSFORM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "transform")
    HEADER = "void up(float *d, float *h) { cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); }\n"
    # name: (units, flags, files)
    PROGRAMS = {
        # Every written file is below src/: the tool's tree starts there.
        "nested": (["src/main.cu", "src/other.cu", "util.cpp"], [],
                   {"src/main.cu": '#include "k.cuh"\nint main() {}\n', "src/k.cuh": HEADER,
                    "src/other.cu": "void other() {}\n", "util.cpp": "int u;\n",
                    "data.txt": "1\n"}),
        # An include folder beside the units: the tree starts at the program folder.
        "inc": (["main.cu"], ["-Iinclude"],
                {"main.cu": '#include "common.h"\nint main() {}\n', "include/common.h": HEADER}),
        "broken": (["main.cu", "bad.cu"], [],
                   {"main.cu": "int main() {}\n", "bad.cu": "#error no\n"}),
    }

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.tool = os.path.join(t, "streamalloc")
        with open(self.tool, "w") as f:
            f.write(FAKE_TOOL)
        os.chmod(self.tool, 0o755)
        progs = []
        for name, (tus, flags, files) in self.PROGRAMS.items():
            for f, text in files.items():
                path = os.path.join(t, "src", "src", name + "-cuda", f)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as out:
                    out.write(text)
            progs.append({"name": name, "dir": "src/%s-cuda" % name, "tus": tus,
                          "flags": flags})
        self.progs = {p["name"]: p for p in progs}
        self.manifest = os.path.join(t, "manifest.json")
        corpuslib.save_manifest({"programs": progs}, self.manifest)
        self.reports = os.path.join(t, "reports")

    def tearDown(self):
        self.tmp.cleanup()

    def transform(self):
        t = self.tmp.name
        r = subprocess.run([self.TRANSFORM, "--manifest", self.manifest,
                            "--src", os.path.join(t, "src"), "--reports", self.reports],
                           env=dict(os.environ, STREAMALLOC=self.tool,
                                    FAKE_TOOL_LOG=os.path.join(t, "tool.log")),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=60)
        calls = {}  # program name (from its report's path): the tool's arguments
        with open(os.path.join(t, "tool.log")) as f:
            for line in f:
                report = next(a for a in line.split() if a.startswith("--report-file="))
                calls[os.path.basename(os.path.dirname(report))] = line.split()
        with open(os.path.join(self.reports, "status.tsv"), newline="") as f:
            rows = {(r["program"], r["tu"]): r for r in csv.DictReader(f, delimiter="\t")}
        return r, calls, rows

    def pdir(self, name):
        return os.path.join(self.tmp.name, "src", "src", name + "-cuda")

    def variant(self, name):
        vdir = corpuslib.variant_dir(self.pdir(name))
        files = {}
        for f in corpuslib.variant_files(vdir):
            with open(os.path.join(vdir, f)) as text:
                files[f] = text.read()
        return files

    def test_one_run_over_the_units_whose_tree_lands_at_the_program_folders_paths(self):
        stale = os.path.join(corpuslib.variant_dir(self.pdir("nested")), "stale.h")
        os.makedirs(os.path.dirname(stale))
        open(stale, "w").close()
        _, calls, rows = self.transform()
        call = calls["nested"]
        self.assertEqual(call[:2], ["src/main.cu", "src/other.cu"])
        self.assertIn("--summary-source=util.cpp", call)
        self.assertNotIn("--whole-program", call)
        self.assertIn("--report-file=" + corpuslib.report_path(self.reports, "nested"), call)
        files = self.variant("nested")
        self.assertEqual(sorted(files), ["src/k.cuh", "src/main.cu", "src/other.cu"])
        self.assertIn("cudaMemcpyAsync(", files["src/k.cuh"])
        self.assertEqual(corpuslib.source_change(self.progs["nested"], self.pdir("nested")),
                         corpuslib.CHANGED)
        self.assertEqual([(rows[("nested", u)]["result"], rows[("nested", u)]["parse_cpu_s"])
                          for u in ("src/main.cu", "src/other.cu")], [("ok", "0.50")] * 2)
        self.assertNotIn(("nested", "util.cpp"), rows)

    def test_a_single_unit_is_the_whole_program_and_its_include_folder_is_mirrored(self):
        _, calls, rows = self.transform()
        self.assertIn("--whole-program", calls["inc"])
        self.assertNotIn("--whole-program", calls["broken"])
        files = self.variant("inc")
        self.assertEqual(sorted(files), ["include/common.h", "main.cu"])
        self.assertIn("cudaMemcpyAsync(", files["include/common.h"])
        self.assertEqual(rows[("inc", "main.cu")]["result"], "ok")

    def test_a_unit_that_does_not_parse_fails_alone_and_leaves_no_source(self):
        r, _, rows = self.transform()
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertEqual(rows[("broken", "main.cu")]["result"], "ok")
        bad = rows[("broken", "bad.cu")]
        self.assertEqual((bad["result"], bad["first_error"]),
                         ("parse-error", "bad.cu:1:2: boom"))
        self.assertEqual(sorted(self.variant("broken")), ["main.cu"])
        self.assertEqual(corpuslib.source_change(self.progs["broken"], self.pdir("broken")),
                         corpuslib.NO_SOURCE)


if __name__ == "__main__":
    unittest.main()
