package example.shuffle.app;

/** The client end of the in-process RPC. */
public final class RpcClient {
    private final RpcServer server;
    private final OpcodeTable table;

    public RpcClient(Class<?> api, RpcServer server) {
        this.server = server;
        this.table = new OpcodeTable(api);
    }

    /** Protocol v1: sends the operation's number from the client's own table. */
    public String call(String operation) {
        return server.handle(table.opcodeOf(operation));
    }

    /** Protocol v2: sends the operation's name. */
    public String callByName(String operation) {
        return server.handle(operation);
    }
}
