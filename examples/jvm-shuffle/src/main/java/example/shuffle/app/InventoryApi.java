package example.shuffle.app;

/** The remote inventory service; RpcClient calls it through RpcServer. */
public interface InventoryApi {
    String reserve();

    String release();

    String restock();

    String audit();
}
