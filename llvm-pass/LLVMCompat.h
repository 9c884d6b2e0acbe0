//===- LLVMCompat.h - the one place for LLVM version differences -*- C++ -*-===//
//
// The pass (every .cpp in llvm-pass/) is written against LLVM 14.
// Everything that changed (or is announced to change) in 15 and 16 goes
// through the small helpers below, so porting the pass means editing this
// file only:
//
//   LLVM 14                           LLVM 15/16
//   llvm/Passes/OptimizationLevel.h   same header, same class
//   typed pointers (i8*, i64*)        opaque `ptr` by default: the pointer
//                                     types below collapse to one `ptr`
//   Type::getInt8PtrTy                gone in 17: PointerType::getUnqual
//   llvm::Optional in AA signatures   std::optional: we only ever pass a
//                                     plain MemoryLocation, which converts
//   sret type via getParamAttr        CallBase::getParamStructRetType
//
//===----------------------------------------------------------------------===//
#ifndef SYSBATCH_LLVM_COMPAT_H
#define SYSBATCH_LLVM_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Passes/OptimizationLevel.h"

#if LLVM_VERSION_MAJOR < 14 || LLVM_VERSION_MAJOR > 16
#error "sysbatch's LLVM pass supports LLVM 14 to 16; extend LLVMCompat.h"
#endif

namespace sysbatch {
namespace compat {

using OptimizationLevel = llvm::OptimizationLevel;

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

/// The type an sret argument points to (what the callee writes), or null.
inline llvm::Type *sretType(const llvm::CallBase &Call, unsigned ArgNo) {
  llvm::Attribute A = Call.getParamAttr(ArgNo, llvm::Attribute::StructRet);
  return A.isValid() ? A.getValueAsType() : nullptr;
}

} // namespace compat
} // namespace sysbatch

#endif // SYSBATCH_LLVM_COMPAT_H
