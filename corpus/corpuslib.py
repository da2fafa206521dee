"""Shared pieces of the corpus scripts: the manifest, program paths, and output checks.

Only the Python standard library is used (the GPU machine has nothing else).

The manifest (corpus/manifest.json) is our own data about third-party programs:
  {"hecbench_commit": "...",
   "programs": [{"name", "dir", "tus", "flags", "libs", "args", "check", "ignore", "note"}],
   "excluded": {"NAME": "why"}}
  dir    the program's folder relative to the extracted tree (src/NAME-cuda)
  tus    translation units relative to dir, compiled together into one executable
  flags  nvcc flags from its Makefile that matter for parsing and building (-I -D -std ...)
  libs   link flags (-lcublas ...)
  args   run arguments (scaled so the original runs about 0.3-2 s on an H200)
  check  "pass": the program prints PASS and no FAIL; "stdout": stdout with the lines that
         match `ignore` (timings) dropped must equal the original's
"""
import filecmp
import json
import math
import os
import re
import shlex
import statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "corpus", "manifest.json")
DEFAULT_SRC = os.path.join(ROOT, "corpus", "src")
DEFAULT_REPORTS = os.path.join(ROOT, "corpus", "reports")

# Lines that carry timings or rates; dropped before outputs are compared.
DEFAULT_IGNORE = (r"(?i)(time|elapsed|\bms\b|msec|\bsec|second|\bus\b|usec|GB/s|GiB/s|"
                  r"MB/s|/s\b|flop|throughput|bandwidth|perf|speed|rate|deviation|%error)")
PASS_RE = re.compile(r"\bPASS(ED)?\b", re.IGNORECASE)
FAIL_RE = re.compile(r"\bFAIL(ED|URE)?\b", re.IGNORECASE)
VERDICT_RE = re.compile(r"\b(PASS(ED)?|FAIL(ED|URE)?)\b", re.IGNORECASE)

# Suffix of a program's transformed variant: a sibling folder of the program's folder
# (src/NAME-cuda.sa beside src/NAME-cuda) holding only the files the tool wrote, with the
# program folder's layout, so that includes of files outside the program ("../x/y.h")
# resolve from it as they do from the original.
SA_TAG = ".sa"


def load_manifest(path=MANIFEST):
    with open(path) as f:
        return json.load(f)


def save_manifest(data, path=MANIFEST):
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=False)
        f.write("\n")


def select(programs, only):
    if not only:
        return programs
    wanted = [n.strip() for n in only.split(",") if n.strip()]
    names = {p["name"] for p in programs}
    unknown = [n for n in wanted if n not in names]
    if unknown:
        raise SystemExit("unknown program(s): " + ", ".join(unknown))
    return [p for p in programs if p["name"] in wanted]


def is_cuda_tu(tu):
    return tu.endswith(".cu")


def cuda_tus(prog):
    """The program's .cu units: the inputs of the tool's run over the program."""
    return [t for t in prog["tus"] if is_cuda_tu(t)]


def variant_dir(prog_dir):
    """The folder of a program's transformed variant (written by corpus/transform)."""
    return os.path.normpath(prog_dir) + SA_TAG


def variant_files(vdir):
    """Paths, relative to the variant folder, of every file in it (sorted)."""
    out = []
    for d, _, names in os.walk(vdir):
        out += [os.path.relpath(os.path.join(d, n), vdir) for n in names]
    return sorted(out)


def include_flags(flags, vdir, prog_dir):
    """The program's flags for a compile in the variant folder: each relative -I folder
    twice, the variant's first (its rewritten headers win) and then the original's (for
    every file the tool did not write); everything else as it is."""
    out, i = [], 0
    while i < len(flags):
        a = flags[i]
        if a == "-I" and i + 1 < len(flags):
            path, i = flags[i + 1], i + 2
        elif a.startswith("-I") and len(a) > 2:
            path, i = a[2:], i + 1
        else:
            out.append(a)
            i += 1
            continue
        folders = [path]
        if not os.path.isabs(path):
            original = os.path.relpath(os.path.join(prog_dir, path), vdir)
            if os.path.normpath(original) != os.path.normpath(path):
                folders.append(original)
        out += ["-I" + f for f in folders]
    return out


def variant_build(prog, prog_dir, variant):
    """(folder to compile in, units, flags) of one variant of a program. The transformed
    variant is compiled in its own folder, so that relative includes find the rewritten
    files first and __FILE__ names the units as in the original; its non-CUDA units (never
    transformed) are the original files."""
    if variant == "original":
        return prog_dir, list(prog["tus"]), list(prog.get("flags", []))
    vdir = variant_dir(prog_dir)
    tus = [t if is_cuda_tu(t) else os.path.relpath(os.path.join(prog_dir, t), vdir)
           for t in prog["tus"]]
    return vdir, tus, include_flags(prog.get("flags", []), vdir, prog_dir)


# What the tool did to a program's source, which decides whether its transformed
# variant is built and timed (corpus/run) and how it is counted (corpus/summarize).
CHANGED, UNCHANGED, NO_SOURCE = "changed", "unchanged", "no-source"


def source_change(prog, prog_dir):
    """CHANGED if a file of the program's variant folder (its .cu units and the project
    files they include, as the tool wrote them) differs from the original file,
    UNCHANGED if every one is byte-identical (then both variants are built from the same
    source and timing them measures only noise), NO_SOURCE if the variant lacks one of
    the program's .cu units (the tool failed on it). A written file without an original
    counts as CHANGED: nothing is proven identical."""
    vdir = variant_dir(prog_dir)
    if not all(os.path.isfile(os.path.join(vdir, t)) for t in cuda_tus(prog)):
        return NO_SOURCE
    for rel in variant_files(vdir):
        orig = os.path.join(prog_dir, rel)
        if not os.path.isfile(orig) or not filecmp.cmp(orig, os.path.join(vdir, rel),
                                                       shallow=False):
            return CHANGED
    return UNCHANGED


def report_path(reports, name):
    """The JSON report of the tool's run over one program."""
    return os.path.join(reports, name, "program.json")


def load_report(reports, name):
    """The program's JSON report, or None when there is none or it does not parse."""
    try:
        with open(report_path(reports, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# Lists of a unit's report whose records say in which file they lie (`file`, absent for
# the unit itself).
RECORD_LISTS = ("ops", "waits", "host_buffers", "syncs", "clock_reads", "functions", "loops")


def _rank(rec):
    """Which unit's view of a file file_records keeps: its own unit's, else one with
    records, else any."""
    if not rec["included"]:
        return 2
    return 1 if any(rec.get(k) for k in RECORD_LISTS) else 0


def file_records(report):
    """The report of one run over several units, split by file: {path relative to the
    program folder: {"unit": the input whose report holds it, "included": bool,
    "changed": bool (as the report says), "left_as_written": reason or "",
    "file_blockers": [...], and each of RECORD_LISTS}}. A project file that several
    units include is analysed in each of them alike (a rewritten one only when they all
    ask for the same text); its records are taken from one unit only, so that nothing
    is counted twice: a unit's own file from its own report (another unit that includes
    it leaves it as written), an included file from the first unit with records of it."""
    files = {}
    for unit in (report or {}).get("files", []):
        name = os.path.normpath(unit["file"])
        mine = {name: {"unit": name, "included": False, "changed": bool(unit.get("changed")),
                       "left_as_written": "", "file_blockers": list(unit.get("file_blockers",
                                                                              []))}}
        for inc in unit.get("included_files", []):
            mine[os.path.normpath(inc["file"])] = {
                "unit": name, "included": True, "changed": bool(inc.get("changed")),
                "left_as_written": inc.get("left_as_written", ""), "file_blockers": []}
        for key in RECORD_LISTS:
            for rec in unit.get(key, []):
                f = os.path.normpath(rec.get("file", name))
                mine.setdefault(f, {"unit": name, "included": True, "changed": False,
                                    "left_as_written": "", "file_blockers": []})
                mine[f].setdefault(key, []).append(rec)
        for f, rec in mine.items():
            if f not in files or _rank(rec) > _rank(files[f]):
                files[f] = rec
    for rec in files.values():
        for key in RECORD_LISTS:
            rec.setdefault(key, [])
    return files


def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


# A changed program below this speed-up is listed as slower (issue 12's threshold).
SLOWER_THAN = 0.97


def speedup_summary(rows):
    """The corpus-wide figures of one measurement. rows: dicts with `source` (CHANGED,
    UNCHANGED, NO_SOURCE), `speedup` (a float, or None when the program has none: not
    run, failed, mismatch; an unchanged program's is 1.0 unless its original failed),
    `original_spread` ((max-min)/median of the original's runs, or None) and, for an
    unchanged program timed anyway, `aa` (original / transformed of the same source)."""
    changed = [r["speedup"] for r in rows if r["source"] == CHANGED and r.get("speedup")]
    unchanged = [r for r in rows if r["source"] == UNCHANGED]
    every = changed + [r["speedup"] for r in unchanged if r.get("speedup")]
    spreads = [r["original_spread"] for r in rows if r.get("original_spread") is not None]
    aa = [r["aa"] for r in unchanged if r.get("aa")]
    return {"geomean_changed": geomean(changed), "n_changed": len(changed),
            "slower": sum(1 for x in changed if x < SLOWER_THAN),
            "geomean_all": geomean(every), "n_all": len(every), "n_unchanged": len(unchanged),
            "median_spread": statistics.median(spreads) if spreads else None,
            "n_spread": len(spreads), "geomean_aa": geomean(aa), "n_aa": len(aa),
            "aa_range": (min(aa), max(aa)) if aa else None}


def summary_sentence(s):
    """speedup_summary's figures as the sentence under a results table."""
    def f(x, spec):
        return "-" if x is None else spec % x
    text = ("Geomean speed-up %s over %d changed programs (%d slower than %.2fx); %s over "
            "all %d with a speed-up, unchanged ones at 1.00x; unchanged programs "
            "(identical source): %d; median run-to-run spread of the originals %s (%d "
            "programs)."
            % (f(s["geomean_changed"], "%.3fx"), s["n_changed"], s["slower"], SLOWER_THAN,
               f(s["geomean_all"], "%.3fx"), s["n_all"], s["n_unchanged"],
               f(s["median_spread"], "%.3f"), s["n_spread"]))
    if s["n_aa"]:
        text += (" A/A noise reference (unchanged programs, the same source built and timed "
                 "twice): geomean %.3fx over %d, from %.2fx to %.2fx."
                 % ((s["geomean_aa"], s["n_aa"]) + s["aa_range"]))
    return text


def split_args(args):
    return shlex.split(args) if isinstance(args, str) else list(args)


def output_verdict(prog, stdout, rc):
    """(ok, why) for one run of a program judged on its own, by the manifest's check."""
    text = stdout.decode(errors="replace") if isinstance(stdout, bytes) else stdout
    if rc != 0:
        return False, "exit %s" % rc
    if prog.get("check", "pass") == "pass":
        if FAIL_RE.search(text):
            return False, "prints FAIL"
        if not PASS_RE.search(text):
            return False, "no PASS line"
    return True, "ok"


def comparable(prog, stdout):
    """The part of stdout that must be equal between original and transformed: for a
    program that checks itself, the sequence of its PASS/FAIL verdicts (the lines that
    carry them often carry timings too); otherwise every line not matching `ignore`."""
    text = stdout.decode(errors="replace") if isinstance(stdout, bytes) else stdout
    if prog.get("check", "pass") == "pass":
        return "\n".join(" ".join(m.group(0).upper() for m in VERDICT_RE.finditer(l))
                         for l in text.splitlines() if VERDICT_RE.search(l))
    ignore = re.compile(prog.get("ignore") or DEFAULT_IGNORE)
    return "\n".join(l.rstrip() for l in text.splitlines() if not ignore.search(l))


def scaled_args(args, factor, first=False):
    """args with its last integer argument >= 10 (in HeCBench most often the repeat count,
    otherwise a size) multiplied by factor, or None if there is none to scale. With
    first=True the first such argument (most often a problem size) is scaled instead, and
    None is returned when it is also the last one (the plain form already scales it)."""
    toks = split_args(args)
    idx = [i for i, t in enumerate(toks) if re.fullmatch(r"\d+", t) and int(t) >= 10]
    if not idx or (first and len(idx) < 2):
        return None
    i = idx[0] if first else idx[-1]
    toks[i] = str(max(1, int(int(toks[i]) * factor)))
    return " ".join(shlex.quote(t) for t in toks)

def sync_count(kv):
    """Host waits of one traced run (bench/timeline.cpp): device, stream and event syncs."""
    return sum(int(float(kv.get(k, 0) or 0)) for k in ("syncs_n", "event_syncs_n"))


def trace_count(kv, key):
    """A count of a traced run as an integer, `?` when the tracer did not write it."""
    return "?" if kv.get(key) in (None, "") else "%d" % int(float(kv[key]))


def host_blocked_bound(original_s, trace):
    """The most any change to where the host waits can gain on one program: its own host
    work still runs, so its run time cannot drop below the original's (original_s, the
    median of the rounds) less the time the original's host spent blocked in CUDA calls
    (wait_s of its traced run; context creation is not counted). Returns
    original_s / (original_s - wait_s), or None without a trace, or when the blocked time
    is not below the run time (then the two runs disagree too much to say)."""
    if not original_s or not trace or trace.get("wait_s") in (None, ""):
        return None
    blocked = float(trace["wait_s"])
    return original_s / (original_s - blocked) if 0 <= blocked < original_s else None


def trace_table(traces, original_s=None):
    """Markdown lines comparing the traced original and transformed run of each program:
    host waits (syncs), the tool's event records and waits, host time blocked in CUDA calls
    and, given the originals' median run times (original_s: name -> seconds), each
    program's host-blocked bound; then the programs whose transformed run syncs more often
    than the original."""
    original_s = original_s or {}
    lines = ["| program | syncs original | syncs transformed | event records | event waits "
             "| blocked s original | blocked s transformed | host-blocked bound |",
             "|---|---|---|---|---|---|---|---|"]
    more = []
    for name in sorted(traces):
        o, t = traces[name].get("original"), traces[name].get("transformed")
        if not o or not t:
            continue
        so, st = sync_count(o), sync_count(t)
        if st > so:
            more.append("%s (%d > %d)" % (name, st, so))
        bound = host_blocked_bound(original_s.get(name), o)
        lines.append("| %s | %d | %d | %s | %s | %.3f | %.3f | %s |" % (
            name, so, st, trace_count(t, "event_records_n"), trace_count(t, "event_waits_n"),
            float(o.get("wait_s", 0) or 0), float(t.get("wait_s", 0) or 0),
            "-" if bound is None else "%.2fx" % bound))
    lines += ["", "Transformed runs with more syncs than their original: %s."
              % (", ".join(more) or "none")]
    return lines


def bound_sentence(rows, traces):
    """The corpus geomean next to the host-blocked bound, over the programs that have
    both a speed-up and a bound. rows: dicts with `name`, `source`, `speedup`,
    `original_s`; traces: name -> {"original": kv, ...}."""
    pairs = {}
    for r in rows:
        b = host_blocked_bound(r.get("original_s"), traces.get(r["name"], {}).get("original"))
        if b and r.get("speedup"):
            pairs[r["name"]] = (r["speedup"], b, r["source"] == CHANGED)
    if not pairs:
        return "Host-blocked bound: no program has both a speed-up and a traced original."
    def part(keep, what):
        sel = [v for v in pairs.values() if keep(v)]
        if not sel:
            return "no %s program" % what
        return "over the %d %s programs the tool's geomean is %.3fx against a bound of %.3fx" % (
            len(sel), what, geomean([v[0] for v in sel]), geomean([v[1] for v in sel]))
    return ("Host-blocked bound (the original's run time over its run time less the time its "
            "host spent blocked in CUDA calls: what overlapping every such wait with host "
            "work could gain at most): %s; %s." % (
                part(lambda v: v[2], "changed"), part(lambda v: True, "measured")))
