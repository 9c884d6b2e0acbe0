# Detection of every optional toolchain.  Each check sets SYSBATCH_HAVE_<X>
# and appends "<x>=on|off" to SYSBATCH_PARTS; nothing here fails configure.

set(SYSBATCH_PARTS "")
macro(sysbatch_part name have reason)
  if(${have})
    list(APPEND SYSBATCH_PARTS "${name}=on")
  else()
    list(APPEND SYSBATCH_PARTS "${name}=off")
    message(STATUS "sysbatch: ${name} switched off: ${reason}")
  endif()
endmacro()

find_package(Python3 COMPONENTS Interpreter REQUIRED)

# LLVM 14 (the pass plugin, clang for tests, FileCheck and lit).
find_package(LLVM 14 CONFIG QUIET
  HINTS /usr/lib/llvm-14/lib/cmake/llvm /usr/lib/llvm-14/cmake)
set(SYSBATCH_HAVE_LLVM OFF)
if(LLVM_FOUND)
  set(SYSBATCH_HAVE_LLVM ON)
  set(SYSBATCH_LLVM_BIN ${LLVM_TOOLS_BINARY_DIR})
endif()
sysbatch_part(llvm SYSBATCH_HAVE_LLVM "LLVM 14 CMake package not found (apt-get install llvm-14-dev)")

find_program(SYSBATCH_CLANG NAMES clang-14 clang HINTS ${SYSBATCH_LLVM_BIN})
find_program(SYSBATCH_OPT NAMES opt-14 opt HINTS ${SYSBATCH_LLVM_BIN})
find_program(SYSBATCH_FILECHECK NAMES FileCheck FileCheck-14 HINTS ${SYSBATCH_LLVM_BIN} /usr/lib/llvm-14/bin)
find_program(SYSBATCH_NOT NAMES not HINTS ${SYSBATCH_LLVM_BIN} /usr/lib/llvm-14/bin)
find_file(SYSBATCH_LIT_PY lit.py HINTS /usr/lib/llvm-14/build/utils/lit ${LLVM_BUILD_UTILS}/lit NO_DEFAULT_PATH)
if(NOT SYSBATCH_FILECHECK OR NOT SYSBATCH_LIT_PY)
  message(FATAL_ERROR "sysbatch: tests need FileCheck and lit.py from llvm-14-tools "
                      "(run scripts/install-deps.sh)")
endif()

# GCC plugins: one build per GCC whose plugin headers are present.
function(sysbatch_find_gcc_plugin_dir var compiler)
  set(${var} "" PARENT_SCOPE)
  find_program(_gcc_${var} ${compiler})
  if(NOT _gcc_${var})
    return()
  endif()
  execute_process(COMMAND ${_gcc_${var}} -print-file-name=plugin
                  OUTPUT_VARIABLE dir OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(EXISTS "${dir}/include/gcc-plugin.h")
    set(${var} "${dir}" PARENT_SCOPE)
    set(${var}_GCC "${_gcc_${var}}" PARENT_SCOPE)
  endif()
endfunction()

sysbatch_find_gcc_plugin_dir(SYSBATCH_GCC_HOST_PLUGIN_DIR gcc)
# The host GCC's triple: a GCC whose target differs is a cross compiler,
# with its own plugin (sysbatch-cc and the CMake package tell them apart).
set(SYSBATCH_HOST_TRIPLE "${CMAKE_LIBRARY_ARCHITECTURE}")
if(SYSBATCH_GCC_HOST_PLUGIN_DIR_GCC)
  execute_process(COMMAND ${SYSBATCH_GCC_HOST_PLUGIN_DIR_GCC} -dumpmachine
                  OUTPUT_VARIABLE SYSBATCH_HOST_TRIPLE OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
sysbatch_find_gcc_plugin_dir(SYSBATCH_GCC_ARM_PLUGIN_DIR arm-none-eabi-gcc)
sysbatch_find_gcc_plugin_dir(SYSBATCH_GCC_RISCV_PLUGIN_DIR riscv64-unknown-elf-gcc)
foreach(t HOST ARM RISCV)
  if(SYSBATCH_GCC_${t}_PLUGIN_DIR)
    set(SYSBATCH_HAVE_GCC_${t} ON)
  else()
    set(SYSBATCH_HAVE_GCC_${t} OFF)
  endif()
endforeach()
sysbatch_part(gcc-plugin-host SYSBATCH_HAVE_GCC_HOST "no gcc plugin headers (apt-get install gcc-12-plugin-dev)")
sysbatch_part(gcc-plugin-arm SYSBATCH_HAVE_GCC_ARM "arm-none-eabi-gcc with plugin headers not found (apt-get install gcc-arm-none-eabi)")
sysbatch_part(gcc-plugin-riscv SYSBATCH_HAVE_GCC_RISCV "riscv64-unknown-elf-gcc with plugin headers not found (apt-get install gcc-riscv64-unknown-elf)")

# Emulators for the Tock and kernel tiers.
find_program(SYSBATCH_QEMU_ARM qemu-system-arm)
find_program(SYSBATCH_QEMU_RISCV32 qemu-system-riscv32)
find_program(SYSBATCH_QEMU_X86 qemu-system-x86_64)
find_program(SYSBATCH_STRACE strace)
find_program(SYSBATCH_VALGRIND valgrind)
