"""lit test format for tests/llvm under LLVM 17 and later: a .ll test is
UNSUPPORTED (its input and CHECK lines are typed-pointer IR, which those
LLVMs no longer parse); every other test runs as lit's ShTest."""
import lit.Test
import lit.formats


class TypedIRUnsupported(lit.formats.ShTest):
    def __init__(self, reason, execute_external=True):
        super().__init__(execute_external)
        self.reason = reason

    def execute(self, test, lit_config):
        if test.getSourcePath().endswith(".ll"):
            return lit.Test.Result(
                lit.Test.UNSUPPORTED,
                "typed-pointer IR input; " + self.reason)
        return super().execute(test, lit_config)
