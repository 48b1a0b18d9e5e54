package dev.runboard.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * runboard's main classes as the packaged jar holds them, made from {@code target/classes} during the test run:
 * a jar whose manifest names the libraries of the test's class path, so that {@code java -jar} (bin/runboard)
 * or {@code java -cp JAR} runs it as a user's build does, and a class-data archive can cover it (the JDK makes
 * none for a class path with a folder on it).
 */
public final class ClassesJar {
    private ClassesJar() {
    }

    /** Writes the jar of {@code classes} to {@code target}, its Main-Class the launcher and its Class-Path {@code libraries}. */
    public static void write(Path target, Path classes, List<Path> libraries) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "dev.runboard.Launcher");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH,
                String.join(" ", libraries.stream().map(l -> l.toUri().toString()).toList()));
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target), m);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    /** The jars on the test's class path (Surefire names them in its booter jar's manifest). */
    public static List<Path> libraries() throws IOException {
        List<Path> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (JarFile j = new JarFile(p.toFile())) {
                String classPath = j.getManifest() == null ? null : j.getManifest().getMainAttributes().getValue("Class-Path");
                if (classPath == null) {
                    jars.add(p.toAbsolutePath());
                    continue;
                }
                for (String url : classPath.trim().split("\\s+")) {
                    Path lib = Path.of(URI.create(url).isAbsolute() ? URI.create(url) : p.toAbsolutePath().getParent().toUri().resolve(url));
                    if (lib.toString().endsWith(".jar")) {
                        jars.add(lib);
                    }
                }
            }
        }
        return jars;
    }
}
