package example.shuffle.app;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Text-menu front end for a command plugin: {@link #help()} numbers the plugin's commands and
 * {@code run(n)} runs command number n. The menu is built when the plugin is registered; the
 * dispatch table only on the first run, to keep start-up cheap. Both come from
 * getDeclaredMethods(), and they agree only while it returns the methods in the same order
 * twice, which it does on OpenJDK but is not promised anywhere.
 */
public final class CommandRegistry {
    private final Object plugin;
    private final List<String> menu = new ArrayList<>();
    private List<Method> dispatch;

    public CommandRegistry(Object plugin) {
        this.plugin = plugin;
        for (Method command : commands(plugin.getClass())) {
            menu.add(command.getName());
        }
    }

    public List<String> menu() {
        return Collections.unmodifiableList(menu);
    }

    public String help() {
        StringBuilder help = new StringBuilder();
        for (int i = 0; i < menu.size(); i++) {
            help.append(i + 1).append(". ").append(menu.get(i)).append('\n');
        }
        return help.toString();
    }

    /** Runs the command with the given menu number (1-based). */
    public String run(int number) {
        if (dispatch == null) {
            dispatch = commands(plugin.getClass());
        }
        return invoke(dispatch.get(number - 1));
    }

    /** Runs the command with the given name. */
    public String run(String name) {
        for (Method command : commands(plugin.getClass())) {
            if (command.getName().equals(name)) {
                return invoke(command);
            }
        }
        throw new IllegalArgumentException("no command " + name);
    }

    private String invoke(Method command) {
        try {
            return (String) command.invoke(plugin);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("command " + command.getName() + " failed", e);
        }
    }

    private static List<Method> commands(Class<?> type) {
        List<Method> commands = new ArrayList<>();
        for (Method method : type.getDeclaredMethods()) { // shuffle-site
            if (method.isAnnotationPresent(Command.class)) {
                commands.add(method);
            }
        }
        return commands;
    }
}
