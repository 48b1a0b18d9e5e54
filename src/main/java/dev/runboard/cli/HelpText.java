package dev.runboard.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Help as an 80-column terminal shows it whole: each description is one paragraph, wrapped only
 * at spaces. Picocli's own wrapping also breaks after a slash or a dot, which cut paths
 * ("~/.⏎local/share/runboard"), and its command list showed only a description's first line
 * ("…CONT resumes it,"); these renderers replace its description, option, parameter and command
 * sections for every command.
 */
final class HelpText {
    static final int WIDTH = 80;
    /** Where option and parameter descriptions start. */
    private static final int COLUMN = 24;

    private HelpText() {
    }

    static void install(CommandLine cli) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = cli.getHelpSectionMap();
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION,
                help -> wrap(paragraph(help.commandSpec().usageMessage().description()), "", ""));
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_PARAMETER_LIST, help -> parameters(help.commandSpec()));
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> options(help.commandSpec()));
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, help -> commands(cli));
        cli.getSubcommands().values().forEach(HelpText::install);
    }

    /** A description given as several strings, as one paragraph. */
    static String paragraph(String[] lines) {
        // "%n" is picocli's line break inside a description (its own help command has some).
        return String.join(" ", lines).replace("%n", " ").replaceAll("\\s+", " ").strip();
    }

    private static String options(CommandSpec spec) {
        StringBuilder out = new StringBuilder();
        spec.options().stream().filter(o -> !o.hidden())
                .sorted(Comparator.comparing((OptionSpec o) -> o.shortestName().replaceFirst("^-+", "").toLowerCase(java.util.Locale.ROOT)))
                .forEach(o -> {
                    String names = String.join(", ", o.names());
                    String label = (o.shortestName().startsWith("--") ? "    " : "") + names
                            + (o.typeInfo().isBoolean() ? "" : "=" + o.paramLabel());
                    out.append(entry(label, describe(o)));
                });
        return out.toString();
    }

    private static String parameters(CommandSpec spec) {
        StringBuilder out = new StringBuilder();
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (!p.hidden()) {
                out.append(entry("    " + p.paramLabel() + (p.arity().max() > 1 ? "..." : ""), describe(p)));
            }
        }
        return out.toString();
    }

    private static String commands(CommandLine cli) {
        StringBuilder out = new StringBuilder();
        Map<String, CommandLine> subs = cli.getSubcommands();
        if (subs.isEmpty()) {
            return "";
        }
        int width = subs.keySet().stream().mapToInt(String::length).max().orElse(0) + 4;
        String indent = " ".repeat(width);
        subs.forEach((name, sub) -> {
            if (!sub.getCommandSpec().usageMessage().hidden() && sub.getCommandSpec().name().equals(name)) {
                String first = String.format("  %-" + (width - 2) + "s", name);
                out.append(wrap(paragraph(sub.getCommandSpec().usageMessage().description()), first, indent));
            }
        });
        return out.toString();
    }

    private static String describe(ArgSpec arg) {
        String text = paragraph(arg.description());
        String defaultValue = arg.defaultValue() == null ? "" : arg.defaultValue();
        return text.replace("${DEFAULT-VALUE}", defaultValue);
    }

    /** "  --name=X   description…", the description on the next line when the name is too long. */
    private static String entry(String label, String description) {
        String first = "  " + label;
        String indent = " ".repeat(COLUMN);
        if (first.length() + 2 > COLUMN) {
            return first + "\n" + wrap(description, indent, indent);
        }
        return wrap(description, first + " ".repeat(COLUMN - first.length()), indent);
    }

    /** Wraps at spaces only: a word longer than a line stays whole (and runs over) rather than being cut. */
    static String wrap(String text, String firstPrefix, String prefix) {
        StringBuilder out = new StringBuilder();
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(firstPrefix);
        int start = firstPrefix.length();
        for (String word : text.split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            boolean empty = line.length() == start;
            if (!empty && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder(prefix);
                start = prefix.length();
                empty = true;
            }
            line.append(empty ? "" : " ").append(word);
        }
        lines.add(line.toString());
        lines.forEach(l -> out.append(l.stripTrailing()).append('\n'));
        return out.toString();
    }
}
