package io.flakescan.gradle.internal.selection;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.flakescan.gradle.internal.settings.ScanSettings;
import io.flakescan.gradle.internal.target.ScanTarget;

import org.gradle.api.Project;
import org.gradle.api.logging.Logger;

/**
 * Which tests one scan runs: the explicit ids, then (as the settings ask) every test class,
 * the tests annotated {@code @FlakyTest} in the compiled classes, and the suspects from
 * earlier JUnit XML results. A whole class stands for its methods.
 */
public final class TestSelection {
    private TestSelection() {}

    public static List<String> select(ScanSettings s, ScanTarget target, Project project, Logger logger) throws IOException {
        Set<String> ids = new LinkedHashSet<>(s.tests);
        if (!s.all && !s.annotated && !s.suspects) return new ArrayList<>(ids);
        Map<String, ClassFileScanner.TestClass> classes = ClassFileScanner.scan(target.classDirs());
        if (s.all) {
            ids.addAll(classes.keySet());
            logger.info("flakescan: all {} test classes selected", classes.size());
        }
        if (s.annotated) {
            for (ClassFileScanner.TestClass c : classes.values()) {
                if (c.flakyClass) ids.add(c.name);
                else for (String m : c.flakyMethods) ids.add(c.name + "#" + m);
            }
        }
        if (s.suspects) {
            List<File> locations = new ArrayList<>(target.defaultResults());
            for (String f : s.suspectsFrom) locations.add(project.file(f));
            Set<String> suspects = JUnitSuspects.read(locations, logger);
            logger.info("flakescan: {} suspect(s) from earlier results", suspects.size());
            ids.addAll(suspects);
        }
        List<String> out = new ArrayList<>();
        for (String id : ids) {
            int hash = id.indexOf('#');
            if (hash < 0 || !ids.contains(id.substring(0, hash))) out.add(id);
        }
        return out;
    }
}
