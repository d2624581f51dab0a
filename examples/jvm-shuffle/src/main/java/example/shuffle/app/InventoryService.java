package example.shuffle.app;

/** The server-side implementation of InventoryApi. */
public final class InventoryService implements InventoryApi {
    @Override
    public String reserve() {
        return "reserved 2 of SKU-1";
    }

    @Override
    public String release() {
        return "released 2 of SKU-1";
    }

    @Override
    public String restock() {
        return "restocked SKU-1 to 40";
    }

    @Override
    public String audit() {
        return "audit: 40 of SKU-1 on hand";
    }
}
