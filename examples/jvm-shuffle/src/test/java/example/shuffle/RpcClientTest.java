package example.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.shuffle.app.InventoryApi;
import example.shuffle.app.InventoryService;
import example.shuffle.app.RpcClient;
import example.shuffle.app.RpcServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** JUnit 5. Class.getMethods() read twice in main code (OpcodeTable, once per end). */
class RpcClientTest {
    private static final List<String> OPERATIONS = List.of("reserve", "release", "restock", "audit");
    private static final List<String> ANSWERS = List.of(
            "reserved 2 of SKU-1", "released 2 of SKU-1", "restocked SKU-1 to 40", "audit: 40 of SKU-1 on hand");

    private static RpcClient connect() {
        RpcServer server = new RpcServer(InventoryApi.class, new InventoryService());
        return new RpcClient(InventoryApi.class, server);
    }

    /**
     * Implementation-dependent, whatever order the plain JDK uses: each call must reach the
     * operation it names. Client and server number the operations by two getMethods() calls,
     * which agree on OpenJDK and need not. Fixed by sorting the methods in OpcodeTable, so
     * that both ends agree.
     */
    @Test
    void callsEachOperationByOpcode() {
        RpcClient client = connect();
        List<String> answers = new ArrayList<>();
        for (String operation : OPERATIONS) {
            answers.add(client.call(operation));
        }
        assertEquals(ANSWERS, answers);
    }

    /** Twin: the same calls by name (protocol v2), which no order can mix up. */
    @Test
    void callsEachOperationByName() {
        RpcClient client = connect();
        List<String> answers = new ArrayList<>();
        for (String operation : OPERATIONS) {
            answers.add(client.callByName(operation));
        }
        assertEquals(ANSWERS, answers);
    }
}
