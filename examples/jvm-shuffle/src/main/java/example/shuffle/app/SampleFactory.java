package example.shuffle.app;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Builds sample objects for documentation and tests: one per constructor, each argument a
 * default value for its type ("x" for a String).
 */
public final class SampleFactory {
    public List<String> signatures(Class<?> type) {
        List<String> signatures = new ArrayList<>();
        for (Constructor<?> constructor : constructors(type)) {
            StringJoiner parameters = new StringJoiner(",", "(", ")");
            for (Class<?> parameter : constructor.getParameterTypes()) {
                parameters.add(parameter.getSimpleName());
            }
            signatures.add(parameters.toString());
        }
        return signatures;
    }

    public List<Object> instances(Class<?> type) {
        List<Object> instances = new ArrayList<>();
        for (Constructor<?> constructor : constructors(type)) {
            instances.add(instantiate(constructor));
        }
        return instances;
    }

    /**
     * The samples keyed by the signature of the constructor that made them. Labels and objects
     * come from two separate walks over the constructors and are paired by position, which is
     * right only while getDeclaredConstructors() returns the same order both times.
     */
    public Map<String, Object> samples(Class<?> type) {
        List<String> labels = signatures(type);
        List<Object> objects = instances(type);
        Map<String, Object> samples = new LinkedHashMap<>();
        for (int i = 0; i < labels.size(); i++) {
            samples.put(labels.get(i), objects.get(i));
        }
        return samples;
    }

    private static Object instantiate(Constructor<?> constructor) {
        Object[] arguments = new Object[constructor.getParameterCount()];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = defaultFor(constructor.getParameterTypes()[i]);
        }
        try {
            return constructor.newInstance(arguments);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot call " + constructor, e);
        }
    }

    private static Object defaultFor(Class<?> type) {
        if (type == String.class) {
            return "x";
        }
        if (type == int.class) {
            return 0;
        }
        return null;
    }

    private static Constructor<?>[] constructors(Class<?> type) {
        return type.getDeclaredConstructors(); // shuffle-site
    }
}
