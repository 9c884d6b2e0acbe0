#!/usr/bin/env python3
"""Run LLVM's lit without its test-times file.

ctest starts one lit process per test, in parallel, over one exec root.
Stock lit reads and rewrites <exec root>/.lit_test_times.txt in every
process, so two processes can tear it and every later lit start dies
parsing it ("not enough values to unpack").  Timing only orders tests
inside one lit run, and each of ours runs one test, so here it is neither
read nor written.

    run_lit.py LIT_PY [lit arguments...]
"""
import os
import sys

lit_py = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(lit_py)))
sys.argv = [lit_py] + sys.argv[2:]

import lit.Test  # noqa: E402
import lit.TestTimes  # noqa: E402
import lit.main  # noqa: E402


def no_test_times(_suite):
    return {}


lit.TestTimes.read_test_times = no_test_times
lit.Test.read_test_times = no_test_times
lit.main.record_test_times = lambda *_args, **_kw: None

lit.main.main()
