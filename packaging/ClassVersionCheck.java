import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Lists jars holding class files newer than the Java runtime that runs this check, i.e. classes the
 * packaged runtime could not load (UnsupportedClassVersionError at run time, and a jdeps failure at
 * build time). Prints one line per such jar, "jar<TAB>Java N", and nothing when all is well.
 * Multi-release entries (META-INF/versions/N/) are skipped: the runtime only loads those it supports.
 *
 * Run with the JDK whose runtime jpackage bundles: java packaging/ClassVersionCheck.java JAR...
 */
public final class ClassVersionCheck {
    private ClassVersionCheck() {
    }

    public static void main(String[] args) throws IOException {
        int runtimeMajor = 44 + Runtime.version().feature();
        for (String path : args) {
            int newest = newestClassMajor(path);
            if (newest > runtimeMajor) {
                System.out.println(path + "\tJava " + (newest - 44));
            }
        }
    }

    private static int newestClassMajor(String path) throws IOException {
        int newest = 0;
        try (JarFile jar = new JarFile(path)) {
            List<JarEntry> classes = new ArrayList<>();
            jar.stream()
                    .filter(e -> e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/"))
                    .forEach(classes::add);
            for (JarEntry entry : classes) {
                try (InputStream in = jar.getInputStream(entry)) {
                    DataInputStream data = new DataInputStream(in);
                    if (data.readInt() != 0xCAFEBABE) {
                        continue;
                    }
                    data.readUnsignedShort(); // minor
                    newest = Math.max(newest, data.readUnsignedShort());
                }
            }
        }
        return newest;
    }
}
