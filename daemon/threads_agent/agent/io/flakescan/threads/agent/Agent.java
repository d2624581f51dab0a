package io.flakescan.threads.agent;

import java.io.File;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * The agent's entry point (-javaagent:flakescan-threads-agent.jar). It loads the rewriter and
 * Debian's ASM in a class loader of their own whose parent is the platform loader, so a
 * project's own ASM on the test classpath neither shadows ours nor is shadowed by it; the
 * scheduler runtime the rewritten code calls is on the bootstrap class path (the manifest's
 * Boot-Class-Path), where every class loader sees it. See daemon/threads_agent/CMakeLists.txt.
 */
public final class Agent {
    private Agent() {}

    public static void premain(String args, Instrumentation inst) throws Exception {
        URL self = Agent.class.getProtectionDomain().getCodeSource().getLocation();
        List<URL> urls = new ArrayList<>();
        urls.add(self);
        for (String jar : asmJars(self)) urls.add(new File(jar).toURI().toURL());
        ClassLoader rewriterLoader = new URLClassLoader("flakescan-threads-rewriter", urls.toArray(new URL[0]),
                ClassLoader.getPlatformClassLoader());
        Class<?> rewriter = Class.forName("io.flakescan.threads.rewrite.Rewriter", true, rewriterLoader);
        ClassFileTransformer transformer = (ClassFileTransformer) rewriter.getConstructor(String.class)
                .newInstance(System.getProperty("flakescan.threads.include"));
        inst.addTransformer(transformer);
    }

    /** flakescan.threads.asm (a class path), else the manifest's Flakescan-Asm-Jars (set at build time). */
    private static List<String> asmJars(URL self) throws Exception {
        List<String> jars = new ArrayList<>();
        String property = System.getProperty("flakescan.threads.asm");
        if (property != null) {
            for (String jar : property.split(File.pathSeparator)) if (!jar.isEmpty()) jars.add(jar);
            return jars;
        }
        try (JarFile jar = new JarFile(new File(self.toURI()))) {
            String listed = jar.getManifest().getMainAttributes().getValue("Flakescan-Asm-Jars");
            if (listed != null) for (String j : listed.trim().split("\\s+")) jars.add(j);
        }
        return jars;
    }
}
