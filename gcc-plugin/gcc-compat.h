/* gcc-compat.h: the one place the sysbatch GCC plugin includes GCC's
 * internal headers, and the place for anything that differs between GCC
 * releases.
 *
 * GCC's plugin headers are not a stable API: names move between headers and
 * signatures change from release to release.  Every other plugin source
 * includes this file instead of GCC headers, so supporting another GCC means
 * touching this file only.  The plugin is built once per GCC (host gcc,
 * arm-none-eabi-gcc, riscv64-unknown-elf-gcc) against that compiler's own
 * `-print-file-name=plugin` headers; the code below is written for GCC 12
 * and refuses anything older at compile time.
 *
 * The order matters: gcc-plugin.h pulls in config.h/system.h, which must
 * come first, and system.h poisons some libc names, so no system header may
 * be included after this file.
 */
#ifndef SYSBATCH_GCC_COMPAT_H
#define SYSBATCH_GCC_COMPAT_H

#include "gcc-plugin.h"
#include "plugin-version.h"

#if GCCPLUGIN_VERSION_MAJOR < 12
#error "the sysbatch GCC plugin needs GCC 12 or newer plugin headers"
#endif

#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "cgraph.h"
#include "context.h"
#include "diagnostic.h"
#include "dumpfile.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "stringpool.h"
#include "varasm.h"
#include "tree-eh.h"
#include "tree-cfg.h"
#include "tree-dfa.h"
#include "tree-into-ssa.h"
#include "tree-phinodes.h"
#include "tree-ssa-alias.h"
#include "tree-ssanames.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "tree-ssa-loop.h"
#include "tree-scalar-evolution.h"
#include "gimple-iterator.h"
#include "gimple-fold.h"
#include "gimple-pretty-print.h"
#include "gimple-walk.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "builtins.h"
#include "langhooks.h"
#include "intl.h"

/* plugin-version.h defines `gcc_version` (the compiler the plugin was built
 * against) as a static; only the file doing the version check uses it. */
static inline const struct plugin_gcc_version *sysbatch_built_for_gcc(void)
{
    return &gcc_version;
}

#endif /* SYSBATCH_GCC_COMPAT_H */
