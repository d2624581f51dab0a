package io.flakescan.gradle.internal.compat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;

import org.gradle.api.Action;
import org.gradle.api.DomainObjectCollection;
import org.gradle.api.GradleException;
import org.gradle.api.Task;
import org.gradle.api.model.ObjectFactory;
import org.gradle.api.provider.Property;
import org.gradle.api.tasks.TaskContainer;

/**
 * The one place that knows which Gradle version offers which API: every difference between
 * Gradle 4.4 (Debian's 4.4.1 builds and tests this plugin) and newer releases is handled here,
 * and nothing else in the plugin uses reflection or checks a version.
 *
 * <ul>
 * <li>Task configuration avoidance ({@code TaskContainer.register}, {@code configureEach})
 * exists from Gradle 4.9. There tasks are registered and configured only when something needs
 * them. Before 4.9 an instance of this class adds a task rule instead, which creates a task
 * only when its name is requested (command line or dependency), so {@code gradle help} still
 * creates none; {@link #define} hides which of the two happens.
 * <li>Gradle 4.x gives unset {@code Integer} and {@code Boolean} properties the value 0 / false,
 * newer versions none: {@link #property} always sets an explicit default so both behave alike.
 * Only {@code String}, {@code Integer}, {@code Long} and {@code Boolean} properties are used:
 * {@code ListProperty} changed its type hierarchy in 5.0 (binary incompatible).
 * </ul>
 */
public final class GradleVersionCompat {
    private static final Method REGISTER = find(TaskContainer.class, "register", String.class, Class.class, Action.class);
    private static final Method CONFIGURE_EACH = find(DomainObjectCollection.class, "configureEach", Action.class);

    private final TaskContainer tasks;
    /** Before 4.9: how to create each defined task, waiting for the task rule to ask for it. */
    private final Map<String, Runnable> pending = new LinkedHashMap<>();

    /** Before 4.9 adds the task rule, described in {@code gradle tasks} by {@code ruleDescription}. */
    public GradleVersionCompat(TaskContainer tasks, String ruleDescription) {
        this.tasks = tasks;
        if (!hasLazyTasks()) {
            tasks.addRule(ruleDescription, name -> {
                Runnable create = pending.remove(name);
                if (create != null) create.run();
            });
        }
    }

    /** True when this Gradle has {@code TaskContainer.register} (4.9+). */
    private static boolean hasLazyTasks() {
        return REGISTER != null;
    }

    /**
     * Defines task {@code name}: {@code tasks.register(name, type, configure)} from 4.9, before
     * that created and configured by the task rule when the name is requested.
     */
    public <T extends Task> void define(String name, Class<T> type, Action<? super T> configure) {
        if (hasLazyTasks()) invoke(REGISTER, tasks, name, type, configure);
        else pending.put(name, () -> configure.execute(tasks.create(name, type)));
    }

    /** {@code collection.configureEach(action)} where it exists, {@code all(action)} before 4.9. */
    @SuppressWarnings("unchecked")
    public static <T> void configureEach(DomainObjectCollection<T> collection, Action<? super T> action) {
        if (CONFIGURE_EACH != null) invoke(CONFIGURE_EACH, collection, action);
        else collection.all((Action<T>) action);
    }

    /** A property with an explicit default, the same on every version (see the class comment). */
    public static <T> Property<T> property(ObjectFactory objects, Class<T> type, T defaultValue) {
        Property<T> p = objects.property(type);
        p.set(defaultValue);
        return p;
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
