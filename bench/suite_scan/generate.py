#!/usr/bin/env python3
"""Writes the suite_scan benchmark's generated suite: CLASSES test classes of METHODS tests
each (even classes JUnit 4, odd JUnit 5) in package gen, with planted flaky tests of every
kind, and prints the planted tests as JSON ({test: kind}). Usage: generate.py OUT_DIR
[--deterministic]; --deterministic plants no random and no timing test, so that every run of a
test has one outcome for one order (bench/shared_store compares two scans' verdicts)."""
import json
import os
import sys

CLASSES, METHODS = 200, 10
out = sys.argv[1]
deterministic = "--deterministic" in sys.argv[2:]

def tid(c, m):
    return f"gen.C{c:03d}#t{m}"

# kind -> list of (class, method, extra)
random_ = [(10, 3, 0.20), (50, 5, 0.15), (120, 1, 0.20), (170, 8, 0.15)]
victims = [((30, 2), (150, 4)), ((60, 7), (160, 0)), ((90, 9), (199, 5))]   # victim, polluter (later class)
brittles = [((40, 1), (140, 6)), ((100, 4), (180, 2))]                      # brittle, state-setter (later class)
nio = [(70, 0), (110, 6), (130, 9)]
timing = [(190, 3)]
if deterministic:
    random_, timing = [], []

body = {}
planted = {}
for c, m, p in random_:
    body[(c, m)] = f"if (new java.util.Random().nextDouble() < {p}) throw new AssertionError(\"random failure at {p}\");"
    planted[tid(c, m)] = "random"
for i, ((vc, vm), (pc, pm)) in enumerate(victims):
    body[(vc, vm)] = f"if (State.polluted{i} != 0) throw new AssertionError(\"polluted{i} is \" + State.polluted{i});"
    body[(pc, pm)] = f"State.polluted{i} = 1;"
    planted[tid(vc, vm)] = "victim"
for i, ((bc, bm), (sc, sm)) in enumerate(brittles):
    body[(bc, bm)] = f"if (State.configured{i} != 1) throw new AssertionError(\"configured{i} was never set\");"
    body[(sc, sm)] = f"State.configured{i} = 1;"
    planted[tid(bc, bm)] = "brittle"
for i, (c, m) in enumerate(nio):
    body[(c, m)] = f"State.opened{i}++; if (State.opened{i} != 1) throw new AssertionError(\"opened{i} twice\");"
    planted[tid(c, m)] = "nio"
for c, m in timing:
    body[(c, m)] = ("final boolean[] done = {false}; Thread t = new Thread(() -> { try { Thread.sleep(4); } catch (InterruptedException e) { } done[0] = true; });"
                    " t.start(); try { Thread.sleep(5); } catch (InterruptedException e) { } if (!done[0]) throw new AssertionError(\"the worker was late\");")
    planted[tid(c, m)] = "timing"

pkg = os.path.join(out, "gen")
os.makedirs(pkg, exist_ok=True)
fields = [f"polluted{i}" for i in range(len(victims))] + [f"configured{i}" for i in range(len(brittles))] + [f"opened{i}" for i in range(len(nio))]
with open(os.path.join(pkg, "State.java"), "w") as f:
    f.write("package gen;\n\n/** Shared state of the planted order-dependent and NIO tests. */\npublic final class State {\n")
    for name in fields:
        f.write(f"    public static int {name};\n")
    f.write("    private State() {}\n}\n")
for c in range(CLASSES):
    junit5 = c % 2 == 1
    lines = ["package gen;", ""]
    lines.append("import org.junit.jupiter.api.Test;" if junit5 else "import org.junit.Test;")
    lines += ["", ("class" if junit5 else "public class") + f" C{c:03d} {{"]
    for m in range(METHODS):
        stmt = body.get((c, m), f"int x = {c} * {m + 1}; if (x / {m + 1} != {c}) throw new AssertionError(\"arithmetic\");")
        lines.append("    @Test")
        lines.append(("    void" if junit5 else "    public void") + f" t{m}() {{ {stmt} }}")
    lines.append("}")
    with open(os.path.join(pkg, f"C{c:03d}.java"), "w") as f:
        f.write("\n".join(lines) + "\n")
print(json.dumps(planted))
