package io.flakescan.gradle.internal.selection;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Reads compiled test classes (no class loading, so nothing of the project runs in Gradle):
 * which classes hold test methods, and which methods or classes carry an annotation whose
 * simple name is {@code FlakyTest} (androidx.test.filters, android.support.test, or a
 * project's own), visible or invisible at run time.
 *
 * <p>Only the parts of the class-file format needed for that are decoded: the constant pool,
 * the class's access flags and name, and the annotations attributes of the class and its
 * methods (JVMS chapter 4).
 */
final class ClassFileScanner {
    static final class TestClass {
        final String name;                  // binary name, "pkg.Outer$Inner"
        final List<String> testMethods = new ArrayList<>();
        final List<String> flakyMethods = new ArrayList<>();
        boolean flakyClass;

        TestClass(String name) {
            this.name = name;
        }
    }

    private static final int ACC_ABSTRACT = 0x0400;
    private static final int ACC_INTERFACE = 0x0200;
    private static final int MAX_CLASS_BYTES = 16 << 20;

    private ClassFileScanner() {}

    /** Every concrete class with test methods under the given class directories, by name. */
    static TreeMap<String, TestClass> scan(Iterable<File> classDirs) throws IOException {
        TreeMap<String, TestClass> out = new TreeMap<>();
        for (File dir : classDirs) walk(dir, out);
        return out;
    }

    private static void walk(File f, TreeMap<String, TestClass> out) throws IOException {
        if (f.isDirectory()) {
            File[] children = f.listFiles();
            if (children == null) return;
            java.util.Arrays.sort(children);
            for (File c : children) walk(c, out);
        } else if (f.getName().endsWith(".class") && f.length() < MAX_CLASS_BYTES) {
            TestClass tc = read(Files.readAllBytes(f.toPath()));
            if (tc != null && (!tc.testMethods.isEmpty())) out.put(tc.name, tc);
        }
    }

    static boolean isTestAnnotation(String descriptor) {
        return descriptor.equals("Lorg/junit/Test;") || descriptor.equals("Lorg/junit/jupiter/api/Test;")
                || descriptor.equals("Lorg/junit/jupiter/params/ParameterizedTest;")
                || descriptor.equals("Lorg/junit/jupiter/api/RepeatedTest;")
                || descriptor.equals("Lorg/junit/jupiter/api/TestFactory;")
                || descriptor.equals("Lorg/junit/jupiter/api/TestTemplate;")
                || descriptor.equals("Lorg/testng/annotations/Test;");
    }

    static boolean isFlakyTestAnnotation(String descriptor) {
        return descriptor.equals("LFlakyTest;") || descriptor.endsWith("/FlakyTest;");
    }

    /** Decodes one class file; null when it is not a concrete class. */
    static TestClass read(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNameIndex = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: utf8[i] = in.readUTF(); break;
                case 7: classNameIndex[i] = in.readUnsignedShort(); break;
                case 8: case 16: case 19: case 20: in.readUnsignedShort(); break;
                case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break;
                case 5: case 6: in.readLong(); i++; break;
                default: throw new IOException("bad constant pool tag " + tag);
            }
        }
        int access = in.readUnsignedShort();
        int thisClass = in.readUnsignedShort();
        String name = utf8[classNameIndex[thisClass]].replace('/', '.');
        in.readUnsignedShort();  // super
        int interfaces = in.readUnsignedShort();
        for (int i = 0; i < interfaces; i++) in.readUnsignedShort();
        int fields = in.readUnsignedShort();
        for (int i = 0; i < fields; i++) {
            in.readUnsignedShort();
            in.readUnsignedShort();
            in.readUnsignedShort();
            skipAttributes(in);
        }
        TestClass tc = new TestClass(name);
        int methods = in.readUnsignedShort();
        for (int i = 0; i < methods; i++) {
            in.readUnsignedShort();
            String methodName = utf8[in.readUnsignedShort()];
            in.readUnsignedShort();
            boolean test = false, flaky = false;
            for (String a : annotations(in, utf8)) {
                test |= isTestAnnotation(a);
                flaky |= isFlakyTestAnnotation(a);
            }
            if (test && !tc.testMethods.contains(methodName)) {
                tc.testMethods.add(methodName);
                if (flaky) tc.flakyMethods.add(methodName);
            }
        }
        for (String a : annotations(in, utf8)) tc.flakyClass |= isFlakyTestAnnotation(a);
        if ((access & (ACC_ABSTRACT | ACC_INTERFACE)) != 0) return null;
        return tc;
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        for (int i = 0; i < n; i++) {
            in.readUnsignedShort();
            int len = in.readInt();
            in.skipBytes(len);
        }
    }

    /** The annotation type descriptors of one attributes table (visible and invisible). */
    private static List<String> annotations(DataInputStream in, String[] utf8) throws IOException {
        List<String> out = new ArrayList<>();
        int n = in.readUnsignedShort();
        for (int i = 0; i < n; i++) {
            String attr = utf8[in.readUnsignedShort()];
            int len = in.readInt();
            byte[] body = new byte[len];
            in.readFully(body);
            if (!"RuntimeVisibleAnnotations".equals(attr) && !"RuntimeInvisibleAnnotations".equals(attr)) continue;
            DataInputStream a = new DataInputStream(new ByteArrayInputStream(body));
            int count = a.readUnsignedShort();
            for (int k = 0; k < count; k++) out.add(readAnnotation(a, utf8));
        }
        return out;
    }

    private static String readAnnotation(DataInputStream a, String[] utf8) throws IOException {
        String type = utf8[a.readUnsignedShort()];
        int pairs = a.readUnsignedShort();
        for (int p = 0; p < pairs; p++) {
            a.readUnsignedShort();
            skipElementValue(a, utf8);
        }
        return type;
    }

    private static void skipElementValue(DataInputStream a, String[] utf8) throws IOException {
        int tag = a.readUnsignedByte();
        switch (tag) {
            case 'e': a.readUnsignedShort(); a.readUnsignedShort(); break;
            case '@': readAnnotation(a, utf8); break;
            case '[': {
                int n = a.readUnsignedShort();
                for (int i = 0; i < n; i++) skipElementValue(a, utf8);
                break;
            }
            default: a.readUnsignedShort();  // const_value_index or class_info_index
        }
    }
}
