package example.shuffle.app;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** The server end of the in-process RPC: answers calls by opcode (v1) or by name (v2). */
public final class RpcServer {
    private final Class<?> api;
    private final Object service;
    private final OpcodeTable table;

    public <T> RpcServer(Class<T> api, T service) {
        this.api = api;
        this.service = service;
        this.table = new OpcodeTable(api);
    }

    public String handle(int opcode) {
        return invoke(table.operation(opcode));
    }

    public String handle(String operation) {
        try {
            return invoke(api.getMethod(operation));
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("no operation " + operation, e);
        }
    }

    private String invoke(Method operation) {
        try {
            return (String) operation.invoke(service);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("operation " + operation.getName() + " failed", e);
        }
    }
}
