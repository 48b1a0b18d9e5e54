package dev.runboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The layer order as the README's contributor section states it: the one copy of it, which ArchitectureTest
 * enforces on the classes and ReadmeTruthTest holds to the package folders.
 *
 * <p>How the paragraph is read, kept simple so that a person editing it can follow: it is the list item whose
 * line starts with {@code - Layers (} and it runs to the next line that is not indented (the next item, a
 * blank line, a heading). Its layers are its backticked words of lowercase letters only ({@code `session`},
 * {@code `cli`}), lowest first, each placed at its first mention. Anything else in backticks is prose: a
 * command ({@code `runboard grep`}), a path ({@code `/proc`}), a file ({@code `runboard.yaml`}), a class, or
 * {@code `dev.runboard`} itself, whose own classes (the launcher) sit on top of every layer.
 */
final class ReadmeLayers {
    static final Path README = Path.of("README.md");

    private static final String ITEM = "- Layers (";
    private static final Pattern LAYER = Pattern.compile("`([a-z]+)`");

    private ReadmeLayers() {
    }

    /** The README's layers, lowest first. */
    static List<String> lowestFirst() {
        try {
            return of(Files.readString(README));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + README.toAbsolutePath() + " (tests run from the project's folder)", e);
        }
    }

    static List<String> of(String readme) {
        Set<String> layers = new LinkedHashSet<>();
        Matcher m = LAYER.matcher(paragraph(readme));
        while (m.find()) {
            layers.add(m.group(1));
        }
        return List.copyOf(layers);
    }

    /** The Layers item, its lines joined with spaces. */
    static String paragraph(String readme) {
        List<String> lines = readme.lines().toList();
        List<String> item = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(ITEM)) {
                item.add(lines.get(i));
                for (int j = i + 1; j < lines.size() && lines.get(j).startsWith(" ") && !lines.get(j).isBlank(); j++) {
                    item.add(lines.get(j).strip());
                }
                return String.join(" ", item);
            }
        }
        throw new IllegalStateException(README + " has no line starting '" + ITEM + "' (its contributor section's"
                + " layer list): ArchitectureTest and ReadmeTruthTest read the layer order from it; put it back");
    }
}
