package dev.runboard.session;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Paths whose names are not UTF-8, as {@link RawText}. Java makes a Path from a String through
 * UTF-8, so a folder named with another byte cannot be named from text; but a Path the file system
 * gave (a directory's entry, a link's target) keeps its bytes, and works. {@link #path} finds such a
 * folder entry by entry; {@link #text} says a path's bytes as text that travels (a record, a request).
 */
public final class RawPaths {
    private RawPaths() {
    }

    /** The path's bytes as {@link RawText}: its name exactly, whatever the bytes. */
    public static String text(Path path) {
        String plain = path.toString();
        if (plain.indexOf('\uFFFD') < 0) {
            return plain; // Java read every byte (a real U+FFFD in a name is read again below, at the cost of a stat)
        }
        String uri = path.toAbsolutePath().toUri().getRawPath(); // the path's bytes, %XX-escaped where not ASCII
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(uri.length());
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '%' && i + 2 < uri.length()) {
                bytes.write(Integer.parseInt(uri.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        byte[] b = bytes.toByteArray();
        int end = b.length > 1 && b[b.length - 1] == '/' ? b.length - 1 : b.length; // toUri marks a folder with a slash
        return RawText.decode(b, 0, end);
    }

    /**
     * The path the text names: {@code Path.of} for UTF-8 text; else found entry by entry where a name
     * holds other bytes. A name that is not there is kept as Java would read it (shown, and reported
     * missing, with U+FFFD for each such byte).
     */
    public static Path path(String text) {
        if (!RawText.isRaw(text)) {
            return Path.of(text);
        }
        Path at = text.startsWith("/") ? Path.of("/") : Path.of("").toAbsolutePath();
        String[] names = text.split("/");
        for (int i = 0; i < names.length; i++) {
            String name = names[i];
            if (name.isEmpty()) {
                continue;
            }
            if (!RawText.isRaw(name)) {
                at = at.resolve(name);
                continue;
            }
            Path found = entry(at, RawText.encode(name));
            if (found == null) {
                at = at.resolve(RawText.display(name));
                for (int j = i + 1; j < names.length; j++) {
                    at = names[j].isEmpty() ? at : at.resolve(RawText.display(names[j]));
                }
                return at;
            }
            at = found;
        }
        return at;
    }

    /** The entry of {@code folder} whose name is exactly these bytes, or null. */
    private static Path entry(Path folder, byte[] name) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path e : entries) {
                String whole = text(e); // (absolute: a name alone would be read against the current folder)
                if (Arrays.equals(RawText.encode(whole.substring(whole.lastIndexOf('/') + 1)), name)) {
                    return e;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }
}
