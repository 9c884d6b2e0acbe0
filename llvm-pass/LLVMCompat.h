//===- LLVMCompat.h - the one place for LLVM version differences -*- C++ -*-===//
//
// The pass (every .cpp in llvm-pass/) is written against LLVM 14 and built
// and tested with the LLVM majors Debian 12 ships: 14, 15, 16 and 19
// (llvm-pass/CMakeLists.txt builds it once per major found).  Everything
// that differs between them goes through the small helpers below, so
// porting the pass means editing this file only:
//
//   LLVM 14                           LLVM 15 .. 19
//   llvm/Passes/OptimizationLevel.h   same header, same class
//   typed pointers (i8*, i64*)        opaque `ptr` (default in 15, only
//                                     form from 17): pointerTo collapses to
//                                     `ptr`
//   llvm/ADT/Triple.h                 llvm/TargetParser/Triple.h from 17
//   StringRef::startswith             starts_with (16); startswith gone in 19
//   ConstantExpr::getIntegerCast      gone in 19: ConstantFoldIntegerCast
//   llvm::Optional in AA signatures   std::optional: we only ever pass a
//                                     plain MemoryLocation, which converts
//   sret type via getParamAttr        CallBase::getParamStructRetType
//   isDereferenceableAndAligned-      an AssumptionCache before the
//     Pointer(V, Ty, A, DL, Ctx, DT)    DominatorTree from 16
//
//===----------------------------------------------------------------------===//
#ifndef SYSBATCH_LLVM_COMPAT_H
#define SYSBATCH_LLVM_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Passes/OptimizationLevel.h"
#if LLVM_VERSION_MAJOR >= 17
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif
#if LLVM_VERSION_MAJOR >= 19
#include "llvm/Analysis/ConstantFolding.h"
#endif
#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/ValueTracking.h"

#if LLVM_VERSION_MAJOR < 14 || LLVM_VERSION_MAJOR > 19
#error "sysbatch's LLVM pass supports LLVM 14 to 19; extend LLVMCompat.h"
#endif

namespace sysbatch {
namespace compat {

using OptimizationLevel = llvm::OptimizationLevel;

/// Adds \p AddPasses at the end of full LTO's link-time pipeline; LLVM 14
/// has no such extension point (and its lld loads no pass plugin).
template <typename Builder, typename Fn>
inline void registerFullLTOLastCallback(Builder &PB, Fn AddPasses) {
#if LLVM_VERSION_MAJOR >= 15
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [AddPasses](auto &MPM, OptimizationLevel) {
        AddPasses(MPM);
      });
#else
  (void)PB;
  (void)AddPasses;
#endif
}

/// A pointer to \p Elem in address space 0 (`Elem*` typed, `ptr` opaque).
inline llvm::PointerType *pointerTo(llvm::Type *Elem) {
  return llvm::PointerType::getUnqual(Elem);
}

/// The generic byte pointer (i8* / ptr).
inline llvm::PointerType *bytePointer(llvm::LLVMContext &Ctx) {
  return pointerTo(llvm::Type::getInt8Ty(Ctx));
}

/// A link-time constant integer holding a global's address (for the slot
/// template); ConstantExpr::getPtrToInt is slated for removal after 16.
inline llvm::Constant *addressAsInteger(llvm::Constant *Global,
                                        llvm::Type *IntTy) {
  return llvm::ConstantExpr::getPtrToInt(Global, IntTy);
}

/// \p C sign- or zero-extended or truncated to \p IntTy, as a constant;
/// null when LLVM 19 cannot fold it (the caller then emits an instruction).
inline llvm::Constant *integerCast(llvm::Constant *C, llvm::Type *IntTy,
                                   bool IsSigned, const llvm::DataLayout &DL) {
#if LLVM_VERSION_MAJOR >= 19
  return llvm::ConstantFoldIntegerCast(C, IntTy, IsSigned, DL);
#else
  (void)DL;
  return llvm::ConstantExpr::getIntegerCast(C, IntTy, IsSigned);
#endif
}

inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
#if LLVM_VERSION_MAJOR >= 16
  return S.starts_with(Prefix);
#else
  return S.startswith(Prefix);
#endif
}

/// The type an sret argument points to (what the callee writes), or null.
inline llvm::Type *sretType(const llvm::CallBase &Call, unsigned ArgNo) {
  llvm::Attribute A = Call.getParamAttr(ArgNo, llvm::Attribute::StructRet);
  return A.isValid() ? A.getValueAsType() : nullptr;
}

/// Is \p V dereferenceable for a \p Ty load aligned to \p A at \p CtxI?
inline bool dereferenceableAt(const llvm::Value *V, llvm::Type *Ty,
                              llvm::Align A, const llvm::DataLayout &DL,
                              const llvm::Instruction *CtxI,
                              const llvm::DominatorTree *DT) {
#if LLVM_VERSION_MAJOR >= 16
  return llvm::isDereferenceableAndAlignedPointer(V, Ty, A, DL, CtxI, nullptr,
                                                  DT);
#else
  return llvm::isDereferenceableAndAlignedPointer(V, Ty, A, DL, CtxI, DT);
#endif
}

/// Is \p V known not to be zero (a pointer: not null) where \p CtxI runs?
inline bool knownNonZeroAt(const llvm::Value *V, const llvm::DataLayout &DL,
                           const llvm::Instruction *CtxI,
                           const llvm::DominatorTree *DT) {
#if LLVM_VERSION_MAJOR >= 19
  return llvm::isKnownNonZero(V, llvm::SimplifyQuery(DL, DT, nullptr, CtxI));
#else
  return llvm::isKnownNonZero(V, DL, 0, nullptr, CtxI, DT);
#endif
}

} // namespace compat
} // namespace sysbatch

#endif // SYSBATCH_LLVM_COMPAT_H
