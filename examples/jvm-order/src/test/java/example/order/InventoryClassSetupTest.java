package example.order;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * JUnit 4. A victim and its polluter in one class whose @BeforeClass resets the shared state:
 * startsEmpty fails after addsItem in the same run of the class, and passes whenever the class
 * runs again before it (its @BeforeClass empties the inventory). A test of another class put
 * between them splits the class that way, so it only looks like a cleaner.
 */
public class InventoryClassSetupTest {
    private static final List<String> INVENTORY = new ArrayList<>();

    @BeforeClass
    public static void emptyInventory() {
        INVENTORY.clear();
    }

    @Test
    public void addsItem() {
        INVENTORY.add("apple");
        assertEquals("apple", INVENTORY.get(INVENTORY.size() - 1));
    }

    @Test
    public void startsEmpty() {
        assertTrue("inventory not empty: " + INVENTORY, INVENTORY.isEmpty());
    }
}
