#!/usr/bin/env python3
"""Blanks FileCheck directive lines of a test input before the tool sees it.

A tool that copies its input to its output could otherwise satisfy a CHECK
line with the CHECK line itself. Lines are emptied, not removed, so line
numbers in the tool's output still match the test file.
"""
import re
import sys

DIRECTIVE = re.compile(r"^\s*//\s*[A-Z][A-Z0-9_-]*(-NEXT|-NOT|-LABEL|-SAME|-DAG|-EMPTY|-COUNT-\d+)?:")

with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        sys.stdout.write("\n" if DIRECTIVE.match(line) else line)
