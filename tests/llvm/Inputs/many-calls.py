"""Write an IR function with N getuid() calls in one block (argv[1])."""
import sys

n = int(sys.argv[1])
print('target triple = "x86_64-unknown-linux-gnu"')
print("declare i32 @getuid()")
print("define void @many() {")
for i in range(n):
    print("  %%c%d = call i32 @getuid()" % i)
print("  ret void")
print("}")
