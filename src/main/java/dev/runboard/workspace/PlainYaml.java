package dev.runboard.workspace;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Refuses the YAML that Jackson would read as something other than what the file says: an alias
 * ({@code command: *c} would run {@code c}, the anchor's name), a merge key ({@code <<: *base}), a
 * second document ({@code ---}, silently dropped) and a non-standard tag ({@code !!binary}). Each
 * is refused with its line and column, before the file is read, so a workspace never runs
 * something the file does not say.
 */
final class PlainYaml {
    private static final String CORE = "tag:yaml.org,2002:";
    private static final Set<String> CORE_TAGS = Set.of(CORE + "str", CORE + "int", CORE + "bool", CORE + "float",
            CORE + "null", CORE + "map", CORE + "seq", "!");

    private PlainYaml() {
    }

    /** Throws for the first construct runboard does not read; syntax errors are left to the reader, which names them. */
    static void check(String text, Path file) throws WorkspaceException {
        Deque<int[]> open = new ArrayDeque<>(); // per open collection: {1 if a mapping, nodes seen in it}
        int documents = 0;
        try {
            for (Event e : new Yaml(new LoaderOptions()).parse(new StringReader(text))) {
                if (e instanceof DocumentStartEvent && ++documents > 1) {
                    throw refuse(file, e.getStartMark(), "a second YAML document ('---') is not read: runboard.yaml"
                            + " holds one document; move its commands into the first");
                }
                if (e instanceof NodeEvent node) {
                    boolean isKey = !open.isEmpty() && open.peek()[0] == 1 && open.peek()[1] % 2 == 0;
                    if (!open.isEmpty()) {
                        open.peek()[1]++;
                    }
                    checkNode(node, isKey, file);
                    if (e instanceof CollectionStartEvent) {
                        open.push(new int[] {e instanceof MappingStartEvent ? 1 : 0, 0});
                    }
                } else if (e.is(Event.ID.MappingEnd) || e.is(Event.ID.SequenceEnd)) {
                    open.pop();
                }
            }
        } catch (YAMLException syntax) {
            // Not well-formed: Jackson's reading says where and what, as it always did.
        }
    }

    private static void checkNode(NodeEvent node, boolean isKey, Path file) throws WorkspaceException {
        if (isKey && node instanceof ScalarEvent s && s.isPlain() && "<<".equals(s.getValue())) {
            throw refuse(file, node.getStartMark(), "YAML merge keys (<<) are not supported: write the keys out in each command");
        }
        if (node instanceof AliasEvent a) {
            throw refuse(file, node.getStartMark(), "YAML aliases (*" + a.getAnchor() + ") are not supported: write the value"
                    + " out where it is used");
        }
        String tag = node instanceof ScalarEvent s ? s.getTag() : node instanceof CollectionStartEvent c ? c.getTag() : null;
        if (tag != null && !CORE_TAGS.contains(tag)) {
            throw refuse(file, node.getStartMark(), "the YAML tag " + tag.replace(CORE, "!!") + " is not supported:"
                    + " write the value as plain text");
        }
    }

    private static WorkspaceException refuse(Path file, Mark at, String problem) {
        return new WorkspaceException(file, problem, at.getLine() + 1, at.getColumn() + 1, null);
    }
}
