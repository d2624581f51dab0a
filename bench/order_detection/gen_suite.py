#!/usr/bin/env python3
"""Writes the order_detection benchmark suite: CLASSES test classes of METHODS tests each
(alternately JUnit 4 and JUnit 5) with planted victims (+ polluters), one cleaner, brittles
(+ state-setters) and NIO tests, all placed by a seeded generator. Prints nothing; writes
<out>/src/**.java, <out>/tests.txt (the original order) and <out>/truth.txt:
  victim <test> <polluter> [cleaner]
  brittle <test> <state-setter>
  nio <test>
"""
import os
import random
import sys

out, seed = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2026
CLASSES, METHODS = 50, 11
VICTIMS, BRITTLES, NIOS = 4, 2, 3
rng = random.Random(seed)

classes = [f"C{c:02d}" for c in range(CLASSES)]
slots = [(c, m) for c in range(CLASSES) for m in range(METHODS)]
rng.shuffle(slots)
take = iter(slots)
body = {}     # (class, method) -> java statements
truth = []
state_fields = []


def tid(slot):
    return f"bench.gen.{classes[slot[0]]}#t{slot[1]:02d}"


for k in range(VICTIMS):
    v, p = next(take), next(take)
    state_fields.append(f"v{k}")
    body[v] = f"check(State.v{k} == 0, \"polluted v{k}\");"
    body[p] = f"State.v{k} = 1;"
    line = f"victim {tid(v)} {tid(p)}"
    if k == 0:  # one victim has a cleaner
        c = next(take)
        body[c] = f"State.v{k} = 0;"
        line += f" {tid(c)}"
    truth.append(line)
for k in range(BRITTLES):
    b, s = next(take), next(take)
    state_fields.append(f"b{k}")
    body[b] = f"check(State.b{k} == 1, \"not set b{k}\");"
    body[s] = f"State.b{k} = 1;"
    truth.append(f"brittle {tid(b)} {tid(s)}")
for k in range(NIOS):
    n = next(take)
    state_fields.append(f"n{k}")
    body[n] = f"State.n{k}++; check(State.n{k} == 1, \"second run n{k}\");"
    truth.append(f"nio {tid(n)}")

src = os.path.join(out, "src", "bench", "gen")
os.makedirs(src, exist_ok=True)
with open(os.path.join(src, "State.java"), "w") as f:
    f.write("package bench.gen;\n\n/** Shared static state of the planted tests. */\npublic final class State {\n")
    for name in state_fields:
        f.write(f"    public static int {name};\n")
    f.write("    private State() {}\n}\n")

for c, name in enumerate(classes):
    junit5 = c % 2 == 1
    with open(os.path.join(src, f"{name}.java"), "w") as f:
        f.write("package bench.gen;\n\n")
        f.write("import org.junit.jupiter.api.Test;\n\n" if junit5 else "import org.junit.Test;\n\n")
        f.write(("class " if junit5 else "public class ") + name + " {\n")
        f.write("    static void check(boolean ok, String what) { if (!ok) throw new AssertionError(what); }\n\n")
        for m in range(METHODS):
            stmt = body.get((c, m), f"check(Integer.toString({c * 100 + m}).length() > 0, \"stable\");")
            f.write(f"    @Test {'' if junit5 else 'public '}void t{m:02d}() {{ {stmt} }}\n")
        f.write("}\n")

with open(os.path.join(out, "tests.txt"), "w") as f:
    for c in range(CLASSES):
        for m in range(METHODS):
            f.write(f"bench.gen.{classes[c]}#t{m:02d}\n")
with open(os.path.join(out, "truth.txt"), "w") as f:
    f.write("\n".join(truth) + "\n")
