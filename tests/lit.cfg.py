# lit configuration for every sysbatch suite.  Features name the optional
# parts of the build, so a test for a missing toolchain is UNSUPPORTED (with
# the feature it needs printed by lit -v), never silently passed.
import os
import shutil

import lit.formats

config.name = "sysbatch"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test", ".ll", ".c"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt"]
config.test_source_root = os.path.join(config.sysbatch_src_root, "tests")
config.test_exec_root = os.path.join(config.sysbatch_obj_root, "tests")

# Tests run in a clean environment; only what the programs need passes in.
for var in ["HOME", "TMPDIR", "PATH"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
for var in ["BATCH_EMUL", "SYSBATCH_EMUL", "BATCH_VERBOSE", "SYSBATCH_STATS"]:
    config.environment.pop(var, None)


def feature(name, present):
    if present:
        config.available_features.add(name)


def have_file(path):
    return bool(path) and os.path.exists(path)


feature("llvm", config.have_llvm and have_file(config.llvm_plugin))
feature("gcc-host", config.have_gcc_host and have_file(config.gcc_plugin_host))
feature("gcc-arm", config.have_gcc_arm and have_file(config.gcc_plugin_arm))
feature("gcc-riscv", config.have_gcc_riscv and have_file(config.gcc_plugin_riscv))
feature("strace", have_file(config.strace))
# sysbatch-src needs libclang-cpp (src-tool/CMakeLists.txt says what to install).
feature("src-tool", have_file(getattr(config, "src_tool", "")))
feature("valgrind", shutil.which("valgrind") is not None)
feature("qemu-arm", have_file(config.qemu_arm))
feature("qemu-riscv32", have_file(config.qemu_riscv32))
feature("kernel-vm", config.kernel_vm_ready)
if have_file(config.clang) and shutil.which("ld.lld-14") or shutil.which("ld.lld"):
    config.available_features.add("lld")

# Pointer IR: the .ll inputs and their CHECK lines are typed-pointer IR
# (LLVM 14's form).  LLVM 15 and 16 still read it with -opaque-pointers=0
# (without it 15 picks opaque mode for a module with no pointer in it, and
# 16 upgrades every module); clang-generated IR stays in each major's
# default mode.  From 17 on typed IR does not parse: tests/llvm's format
# reports those .ll tests UNSUPPORTED.
llvm_major = int(config.llvm_major or 0)
opt_pointer_mode = "-opaque-pointers=0" if 15 <= llvm_major <= 16 else ""
if llvm_major and llvm_major <= 16:
    config.available_features.add("typed-pointer-ir")
config.available_features.add("llvm-%d" % llvm_major)
# An lld of this LLVM major that loads pass plugins (--load-pass-plugin,
# lld 15 and up): the LTO tests' link-time looks.
lto_lld = os.path.join(config.llvm_bin or "", "ld.lld")
if llvm_major >= 15 and have_file(lto_lld):
    config.available_features.add("lld-pass-plugin")

src = config.sysbatch_src_root
obj = config.sysbatch_obj_root
rt_flags = "-I%s %s" % (config.runtime_include, config.runtime_lib)

subs = [
    ("%FileCheck", config.filecheck),
    ("%not", config.not_tool),
    ("%sbplan", config.plan_tool),
    ("%sbsrc", getattr(config, "src_tool", "") or "sysbatch-src-not-built"),
    ("%sbruntime", config.runtime_lib),
    ("%sbinclude", config.runtime_include),
    # FileCheck prefix for the pointer form of clang-generated IR.
    ("%ptrs", "TYPED" if llvm_major and llvm_major <= 14 else "OPAQUE"),
    ("%srcroot", src),
    ("%objroot", obj),
    ("%python", "python3"),
    # The bare tools and plugin files, for tests that build their own lines.
    ("%clang_bin", config.clang),
    ("%opt_bin", config.opt),
    ("%gcc_bin", config.gcc_host or "gcc"),
    ("%sbgccplugin", config.gcc_plugin_host),
    ("%sbplugin", config.llvm_plugin),
    # opt with the pass loaded; add -passes='sysbatch<...>' in the test.
    ("%sbopt", "%s %s -load-pass-plugin=%s" % (config.opt, opt_pointer_mode,
                                                config.llvm_plugin)),
    # clang with the pass plugin, compiling and linking against libsysbatch.
    ("%sbclang", "%s -fpass-plugin=%s -I%s" % (config.clang, config.llvm_plugin,
                                               config.runtime_include)),
    ("%clang", "%s -I%s" % (config.clang, config.runtime_include)),
    # Longer names first: lit substitutes in order, and %sbgcc is a prefix.
    # SYSBATCH_GCC_TEST_FLAGS (CI's checked configuration: collect at every
    # opportunity) goes on every plugged GCC line.
    ("%sbgcc_arm", "%s -fplugin=%s %s" % (config.gcc_arm, config.gcc_plugin_arm,
                                          config.gcc_test_flags)),
    ("%sbgcc_riscv", "%s -fplugin=%s %s" % (config.gcc_riscv, config.gcc_plugin_riscv,
                                            config.gcc_test_flags)),
    ("%sbgcc", "%s -fplugin=%s %s -I%s" % (config.gcc_host or "gcc", config.gcc_plugin_host,
                                          config.gcc_test_flags, config.runtime_include)),
    ("%gcc", "%s -I%s" % (config.gcc_host or "gcc", config.runtime_include)),
]
config.substitutions.extend(subs)
