package example.shuffle.app;

import java.lang.reflect.Method;
import java.util.List;

/**
 * Numbers the operations of a remote interface; the compact wire protocol sends the number,
 * not the name. Client and server each build their own table from the interface, and they
 * agree only if getMethods() returns the methods in the same order both times: true on
 * OpenJDK for one JVM, promised nowhere (its Javadoc: "not sorted and are not in any
 * particular order").
 */
public final class OpcodeTable {
    private final List<Method> operations;

    public OpcodeTable(Class<?> api) {
        this.operations = List.of(api.getMethods()); // shuffle-site
    }

    public int opcodeOf(String operation) {
        for (int opcode = 0; opcode < operations.size(); opcode++) {
            if (operations.get(opcode).getName().equals(operation)) {
                return opcode;
            }
        }
        throw new IllegalArgumentException("no operation " + operation);
    }

    public Method operation(int opcode) {
        return operations.get(opcode);
    }
}
