/* region-end.cc: what follows a straight-line region's last call - the
 * facts the core turns into a lone call's reason (sb_region_end in
 * core.h): how the block ends, a barrier after its last call, and what a
 * walk from the block's end through call-free blocks meets before the next
 * candidate call: a loop's back edge (the edge's destination dominates its
 * source), a loop exit, or no call at all.  The LLVM pass walks the same
 * way (llvm-pass/RegionEnd.cpp), so both print the same reasons.
 */
#include "sysbatch-gcc.h"
#include "block-scanner.h"
#include "loop-batching.h"

using namespace sysbatch_gcc;

namespace {

uint8_t terminator_kind(basic_block bb)
{
    if (EDGE_COUNT(bb->succs) == 0)
        return SB_ENDT_RETURN;
    gimple *last = last_stmt(bb);
    if (last && gimple_code(last) == GIMPLE_RETURN)
        return SB_ENDT_RETURN;
    if (last && (gimple_code(last) == GIMPLE_COND ||
                 gimple_code(last) == GIMPLE_SWITCH))
        return SB_ENDT_BRANCH;
    return single_succ_p(bb) ? SB_ENDT_JUMP : SB_ENDT_BRANCH;
}

/* The normal successors of `bb` (no EH or abnormal edges, no exit). */
void normal_successors(basic_block bb, auto_vec<basic_block> *out)
{
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
        if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)) &&
            e->dest != EXIT_BLOCK_PTR_FOR_FN(cfun))
            out->safe_push(e->dest);
}

/* A catalogued call in `bb` that an earlier look decided (marked rewritten:
 * the original call a batch kept for the path where its slot did not run,
 * or a refusal of a region that batched), not one of this look's loops
 * nor a batch's own sysbatch_run (a never-batch row):
 * its symbol, or NULL.  It is no candidate, but it is a call that
 * follows. */
const char *decided_call_symbol(basic_block bb, enum sb_abi abi)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        tree fndecl = call ? gimple_call_fndecl(call) : NULL_TREE;
        if (!fndecl || gimple_call_internal_p(call) ||
            !sysbatch_rewritten_p(call) ||
            (sysbatch_loop_calls && sysbatch_loop_calls->contains(call)))
            continue;
        const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
        if (name[0] == '*')
            name++;
        const struct sb_syscall *row = sb_catalog_lookup(abi, name);
        if (row && !(row->flags & SB_ROW_NEVER)) /* not the batch call */
            return name;
    }
    return NULL;
}

} // namespace

int sysbatch_count_catalogue_calls(function *fun, enum sb_abi abi)
{
    int n = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
             gsi_next(&gsi)) {
            gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
            tree fndecl = call ? gimple_call_fndecl(call) : NULL_TREE;
            if (!fndecl || gimple_call_internal_p(call) ||
                !DECL_EXTERNAL(fndecl))
                continue;
            const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
            n += sb_catalog_lookup(abi, name[0] == '*' ? name + 1 : name) != 0;
        }
    return n;
}

void sysbatch_describe_region_end(struct sysbatch_block *blk,
                                  int function_calls, bool last_part)
{
    struct sb_region_end &end = blk->region.end;
    memset(&end, 0, sizeof end);
    if (blk->calls.is_empty() || blk->region.nblocks)
        return;
    basic_block bb = blk->bb;
    end.term = terminator_kind(bb);
    end.only_call = function_calls == 1;
    end.split = !last_part;
    block_scanner scanner(bb, blk->region.abi, 0, blk);
    gimple_stmt_iterator gsi = gsi_for_stmt(blk->calls.last());
    for (gsi_next(&gsi); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (is_gimple_debug(stmt) || gimple_code(stmt) == GIMPLE_LABEL ||
            gimple_code(stmt) == GIMPLE_NOP)
            continue;
        const char *why = NULL;
        if (scanner.stmt_is_barrier(stmt, &why)) {
            end.barrier = why;
            break;
        }
    }
    /* Left as found: the rewrite that follows splits blocks. */
    bool had_dominators = dom_info_available_p(CDI_DOMINATORS);
    if (!had_dominators)
        calculate_dominance_info(CDI_DOMINATORS);
    bool loops = current_loops && !loops_state_satisfies_p(LOOPS_NEED_FIXUP);
    bool call_follows = false;
    hash_set<basic_block> seen;
    auto_vec<basic_block> work;
    work.safe_push(bb);
    while (!work.is_empty()) {
        basic_block u = work.pop();
        class loop *l = loops ? u->loop_father : NULL;
        if (l && l == current_loops->tree_root)
            l = NULL;
        auto_vec<basic_block> succs;
        normal_successors(u, &succs);
        for (basic_block v : succs) {
            end.back_edge |= dominated_by_p(CDI_DOMINATORS, u, v);
            end.loop_exit |= l && !flow_bb_inside_loop_p(l, v);
            if (v == bb || sysbatch_count_candidates(v, blk->region.abi)) {
                call_follows = true;
                continue;
            }
            if (const char *sym = decided_call_symbol(v, blk->region.abi)) {
                if (!end.decided_next)
                    end.decided_next = sym;
                call_follows = true;
                continue;
            }
            if (!seen.add(v))
                work.safe_push(v);
        }
    }
    end.no_call_follows = !call_follows;
    if (!had_dominators)
        free_dominance_info(CDI_DOMINATORS);
}
