package io.flakescan.gradle.internal.report;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * The verdict file of a scan with nothing to scan, in the format `flakescan scan` writes, so
 * that `flakescan report` still writes every report, empty.
 */
public final class EmptyVerdictsFile {
    private EmptyVerdictsFile() {}

    public static void write(File verdicts, String backend, List<String> techniques) throws IOException {
        StringBuilder t = new StringBuilder();
        for (String tech : techniques) t.append(t.length() == 0 ? "" : ", ").append('"').append(tech).append('"');
        String json = "{\n  \"schema_version\": 1,\n  \"scan\": {\"id\": \"none\", \"state\": \"completed\", \"backend\": \""
                + backend + "\", \"techniques\": [" + t + "], \"error\": null},\n  \"verdicts\": []\n}\n";
        Files.write(verdicts.toPath(), json.getBytes(StandardCharsets.UTF_8));
    }
}
