package dev.runboard.workspace;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The targets a person would run from a Makefile, read without running make: rule lines only
 * (not recipes, variables, conditionals or {@code define} blocks); special targets ({@code .PHONY},
 * {@code .DEFAULT}…), pattern rules ({@code %.o}) and targets built from variables are skipped, and
 * so are file targets ({@code build/app}, {@code main.o}) unless declared {@code .PHONY}.
 */
final class MakefileTargets {
    /** Targets, then one or two colons not followed by '=' (that would be := or ::=). */
    private static final Pattern RULE = Pattern.compile("^([^:#=\\t][^:#=]*?)\\s*::?(?![=:])(.*)$");
    private static final Pattern ASSIGNMENT = Pattern.compile("^[^:#=]*?(\\?=|\\+=|!=|::=|:=|=)");

    private MakefileTargets() {
    }

    static List<DiscoveredCommand> read(String text, String fileName) {
        Set<String> phony = new LinkedHashSet<>();
        Set<String> targets = new LinkedHashSet<>();
        boolean inDefine = false;
        String pending = "";
        for (String raw : text.split("\\R")) {
            if (raw.endsWith("\\")) { // continued line: join before reading
                pending += raw.substring(0, raw.length() - 1) + " ";
                continue;
            }
            String line = pending + raw;
            pending = "";
            String trimmed = line.strip();
            if (inDefine) {
                inDefine = !trimmed.equals("endef");
                continue;
            }
            if (trimmed.startsWith("define ") || trimmed.equals("define") || trimmed.matches("^(export|override)\\s+define\\b.*")) {
                inDefine = true;
                continue;
            }
            if (line.startsWith("\t") || trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue; // recipe, blank or comment
            }
            Matcher assignment = ASSIGNMENT.matcher(line);
            Matcher rule = RULE.matcher(line);
            if (!rule.find()) {
                continue;
            }
            if (assignment.find() && assignment.start(1) < rule.end(1)) {
                continue; // a variable whose value contains a colon
            }
            String[] names = rule.group(1).strip().split("\\s+");
            if (names.length == 1 && names[0].equals(".PHONY")) {
                String deps = rule.group(2).replaceAll("#.*$", "").strip();
                if (!deps.isEmpty()) {
                    phony.addAll(List.of(deps.split("\\s+")));
                }
                continue;
            }
            for (String name : names) {
                targets.add(name);
            }
        }
        List<DiscoveredCommand> out = new ArrayList<>();
        for (String t : targets) {
            boolean special = t.startsWith(".") || t.contains("%") || t.contains("$") || t.contains("(");
            boolean fileLike = (t.contains("/") || t.contains(".")) && !phony.contains(t);
            if (!special && !fileLike && !t.isEmpty()) {
                out.add(new DiscoveredCommand(fileName, t, WorkspaceCommand.shell("make " + dev.runboard.session.ShellQuoting.quote(t)).withGroup("make")));
            }
        }
        return out;
    }
}
