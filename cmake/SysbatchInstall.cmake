# The install tree and the Debian package (included last by the top-level
# CMakeLists.txt, once every plugin has registered itself in the global
# property SYSBATCH_INSTALLED_PLUGINS as "<id>/<file>"):
#
#   bin/sysbatch-cc, bin/sysbatch-c++ (link)    the compiler wrapper
#   bin/sysbatch-plan                           the planner on textual regions
#   bin/sysbatch-report                         sums up report=DIR records
#   include/sysbatch.h, sysbatch_tock.h
#   <libdir>/libsysbatch.a                      (libsysbatch.so.0 only with
#                                                SYSBATCH_INSTALL_SHARED_RUNTIME)
#   <libdir>/sysbatch/<id>/{sysbatch,SysbatchPass}.so   plugin per compiler:
#       gcc-12, clang-14, clang-15, ..., arm-none-eabi-gcc-12, ...
#   <libdir>/cmake/sysbatch/                    find_package(sysbatch)
#   <libdir>/pkgconfig/sysbatch.pc
#   share/man/man1/sysbatch-cc.1, share/doc/sysbatch/*.md
#
# Every path inside the package files is relative to where they are
# installed, so `cmake --install build --prefix DIR` anywhere works.
include(CMakePackageConfigHelpers)

get_property(SYSBATCH_INSTALLED_PLUGINS GLOBAL PROPERTY SYSBATCH_INSTALLED_PLUGINS)
set(SYSBATCH_INSTALLED_PLUGIN_IDS "")
set(SYSBATCH_PC_PLUGIN_VARS "")
set(SYSBATCH_PC_GCC_MAJOR "N")
set(SYSBATCH_PC_CLANG_MAJOR "N")
foreach(plugin ${SYSBATCH_INSTALLED_PLUGINS})
  get_filename_component(id "${plugin}" DIRECTORY)
  list(APPEND SYSBATCH_INSTALLED_PLUGIN_IDS "${id}")
  string(MAKE_C_IDENTIFIER "${id}" var)
  if(plugin MATCHES "SysbatchPass")
    set(flag "-fpass-plugin")
  else()
    set(flag "-fplugin")
  endif()
  if(id MATCHES "^gcc-([0-9]+)$")
    set(SYSBATCH_PC_GCC_MAJOR ${CMAKE_MATCH_1})
  elseif(id MATCHES "^clang-([0-9]+)$")
    set(SYSBATCH_PC_CLANG_MAJOR ${CMAKE_MATCH_1})
  endif()
  string(APPEND SYSBATCH_PC_PLUGIN_VARS "${var}_cflags=${flag}=\${plugindir}/${plugin}\n")
endforeach()

# pkg-config: prefix relative to the .pc file itself (pkgconf's pcfiledir).
set(pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
file(RELATIVE_PATH pc_to_prefix "/prefix/${pc_dir}" "/prefix")
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
set(SYSBATCH_PC_PREFIX "\${pcfiledir}/${pc_to_prefix}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/sysbatch.pc.in
               ${CMAKE_BINARY_DIR}/sysbatch.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/sysbatch.pc DESTINATION ${pc_dir})

# CMake package.
set(cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/sysbatch")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/sysbatchConfig.cmake.in
  ${CMAKE_BINARY_DIR}/sysbatchConfig.cmake
  INSTALL_DESTINATION ${cmake_dir}
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/sysbatchConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/sysbatchConfig.cmake
              ${CMAKE_BINARY_DIR}/sysbatchConfigVersion.cmake
        DESTINATION ${cmake_dir})

install(FILES README.md docs/usage.md docs/design.md docs/runtime.md
              docs/llvm.md docs/gcc.md docs/core.md docs/tock.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
foreach(tool sysbatch-plan sysbatch-report)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# Debian package from the same install: `cpack -G DEB` in the build tree
# (or `cmake --build build --target package`).  Installs under /usr.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "sysbatch")
set(CPACK_PACKAGE_VENDOR "sysbatch")
set(CPACK_PACKAGE_CONTACT "sysbatch maintainers <sysbatch@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "batch runs of system calls into one kernel crossing (GCC and clang plugins)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The plugins need the compiler they were built for; the package works with
# any one of them, so they are suggestions, not dependencies.
set(suggests "")
foreach(id ${SYSBATCH_INSTALLED_PLUGIN_IDS})
  if(id MATCHES "^(clang|gcc)-([0-9]+)$")
    list(APPEND suggests "${id}")
  endif()
endforeach()
list(JOIN suggests ", " CPACK_DEBIAN_PACKAGE_SUGGESTS)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"sysbatch-cc wraps gcc or clang: it loads the sysbatch plugin that matches
the compiler and links libsysbatch, which runs each batch through Linux
sys_batch, or runs the original calls where the kernel has none.")
set(CPACK_STRIP_FILES ON)
include(CPack)
