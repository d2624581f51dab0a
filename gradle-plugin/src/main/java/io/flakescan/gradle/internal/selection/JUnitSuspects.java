package io.flakescan.gradle.internal.selection;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.gradle.api.logging.Logger;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Suspects from earlier results: every test case of JUnit XML reports (Gradle's, Surefire's,
 * or a CI run's) that failed, errored, or was marked flaky by a rerun. A method name that is
 * not a plain Java name (JUnit 5 display names such as "[1] 2") makes its whole class the suspect.
 */
final class JUnitSuspects {
    private static final List<String> BAD = Arrays.asList("failure", "error", "flakyFailure", "flakyError", "rerunFailure", "rerunError");
    private static final Pattern CLASS = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");
    private static final Pattern METHOD = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\[[^\\]#,]*\\])?");

    private JUnitSuspects() {}

    static Set<String> read(List<File> locations, Logger logger) {
        Set<String> out = new TreeSet<>();
        DocumentBuilder builder;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            builder = f.newDocumentBuilder();
        } catch (Exception e) {
            throw new IllegalStateException("no XML parser", e);
        }
        for (File loc : locations) {
            List<File> files = new ArrayList<>();
            if (loc.isDirectory()) {
                File[] children = loc.listFiles((d, n) -> n.endsWith(".xml"));
                if (children != null) files.addAll(Arrays.asList(children));
            } else if (loc.isFile()) {
                files.add(loc);
            }
            files.sort(null);
            for (File xml : files) {
                try {
                    NodeList cases = builder.parse(xml).getElementsByTagName("testcase");
                    for (int i = 0; i < cases.getLength(); i++) {
                        String id = suspect((Element) cases.item(i));
                        if (id != null) out.add(id);
                    }
                } catch (Exception e) {
                    logger.warn("flakescan: skipping unreadable JUnit XML {}: {}", xml, e.getMessage());
                }
            }
        }
        return out;
    }

    private static String suspect(Element testcase) {
        boolean bad = false;
        for (Node c = testcase.getFirstChild(); c != null; c = c.getNextSibling())
            if (c instanceof Element && BAD.contains(((Element) c).getTagName())) bad = true;
        if (!bad) return null;
        String cls = testcase.getAttribute("classname").trim();
        if (!CLASS.matcher(cls).matches()) return null;
        String method = testcase.getAttribute("name").trim();
        if (method.endsWith("()")) method = method.substring(0, method.length() - 2);
        return METHOD.matcher(method).matches() ? cls + "#" + method : cls;
    }
}
