package android.os;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import org.junit.Test;

/**
 * The names and shapes the debugger engine reads on Android (docs/android-fixture.md): if one
 * of these changes, the engine would need fixture-specific code.
 */
public class EngineContractTest {
    private static Field field(Class<?> c, String name, Class<?> type, boolean isStatic)
            throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        assertEquals(c.getSimpleName() + "." + name + " type", type, f.getType());
        assertEquals(c.getSimpleName() + "." + name + " static", isStatic,
                Modifier.isStatic(f.getModifiers()));
        return f;
    }

    @Test
    public void enqueueHookHasAndroidsSignatureAndTakesNoLockOnEntry() throws Exception {
        Method m = MessageQueue.class.getDeclaredMethod("enqueueMessage", Message.class,
                long.class);
        assertEquals(boolean.class, m.getReturnType());
        assertFalse("a synchronized hook would hold the queue lock while suspended",
                Modifier.isSynchronized(m.getModifiers()));
        assertTrue(MessageQueue.class.getDeclaredMethod("next").getReturnType() == Message.class);
    }

    @Test
    public void fieldsTheEngineReads() throws Exception {
        field(Looper.class, "sMainLooper", Looper.class, true);
        field(Looper.class, "mQueue", MessageQueue.class, false);
        field(Looper.class, "mThread", Thread.class, false);
        field(MessageQueue.class, "mMessages", Message.class, false);
        field(MessageQueue.class, "mIdleHandlers", ArrayList.class, false);
        field(MessageQueue.class, "mBlocked", boolean.class, false);
        field(Message.class, "when", long.class, false);
        field(Message.class, "target", Handler.class, false);
        field(Message.class, "callback", Runnable.class, false);
        field(Message.class, "next", Message.class, false);
        field(Message.class, "what", int.class, false);
    }

    /** Members the engine reads that are not public API on Android stay non-public here. */
    @Test
    public void hiddenAndroidMembersAreNotPublic() throws Exception {
        assertFalse(Modifier.isPublic(Message.class.getDeclaredField("when").getModifiers()));
        assertFalse(Modifier.isPublic(
                HandlerThread.class.getDeclaredMethod("getThreadHandler").getModifiers()));
        assertFalse(Modifier.isPublic(MessageQueue.class.getDeclaredMethod("enqueueMessage",
                Message.class, long.class).getModifiers()));
    }

    @Test
    public void mainLooperAccessorsTheEngineInvokes() throws Exception {
        Method getMain = Looper.class.getDeclaredMethod("getMainLooper");
        assertTrue(Modifier.isStatic(getMain.getModifiers()));
        assertEquals(Looper.class, getMain.getReturnType());
        assertEquals(MessageQueue.class,
                Looper.class.getDeclaredMethod("getQueue").getReturnType());
        assertEquals(boolean.class, MessageQueue.class.getDeclaredMethod("isIdle").getReturnType());
    }
}
