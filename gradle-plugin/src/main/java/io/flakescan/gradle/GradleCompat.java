package io.flakescan.gradle;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import org.gradle.api.Action;
import org.gradle.api.DomainObjectCollection;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
import org.gradle.api.tasks.TaskContainer;

/**
 * The one place that knows which Gradle version offers which API.
 *
 * <p>Task configuration avoidance ({@code TaskContainer.register}, {@code configureEach}) exists
 * from Gradle 4.9. On such versions tasks are registered and configured only when something
 * needs them. Older versions (Debian's 4.4.1 builds and tests this plugin) have no lazy tasks;
 * there the plugin adds a task rule instead, which creates a task only when its name is
 * requested (command line or dependency), so {@code gradle help} still creates none.
 */
final class GradleCompat {
    private static final Method REGISTER = find(TaskContainer.class, "register", String.class, Class.class, Action.class);
    private static final Method CONFIGURE_EACH = find(DomainObjectCollection.class, "configureEach", Action.class);

    private GradleCompat() {}

    /** True when this Gradle has {@code TaskContainer.register} (4.9+). */
    static boolean hasLazyTasks() {
        return REGISTER != null;
    }

    /** {@code tasks.register(name, type, action)}; only call when {@link #hasLazyTasks()}. */
    static void register(TaskContainer tasks, String name, Class<? extends Task> type, Action<? super Task> action) {
        if (REGISTER == null) throw new IllegalStateException("TaskContainer.register needs Gradle 4.9+");
        invoke(REGISTER, tasks, name, type, action);
    }

    /** {@code collection.configureEach(action)} where it exists, {@code all(action)} before 4.9. */
    @SuppressWarnings("unchecked")
    static <T> void configureEach(DomainObjectCollection<T> collection, Action<? super T> action) {
        if (CONFIGURE_EACH != null) invoke(CONFIGURE_EACH, collection, action);
        else collection.all((Action<T>) action);
    }

    private static Method find(Class<?> type, String name, Class<?>... params) {
        try {
            return type.getMethod(name, params);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) throw (RuntimeException) cause;
            if (cause instanceof Error) throw (Error) cause;
            throw new GradleException(m.getName() + " failed", cause);
        } catch (IllegalAccessException e) {
            throw new GradleException("cannot call " + m, e);
        }
    }
}
