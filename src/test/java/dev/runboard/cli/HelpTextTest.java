package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Every --help fits an 80-column terminal, with each description whole: no word, path or sentence cut. */
class HelpTextTest {

    @Test
    void everyHelpFitsEightyColumnsAndKeepsEveryWordWhole() {
        List<String> problems = new ArrayList<>();
        for (List<String> command : commands(RunboardCli.commandLine().getCommandSpec(), new ArrayList<>())) {
            List<String> args = new ArrayList<>(command);
            args.add("--help");
            String help = run(args);
            CommandSpec spec = RunboardCli.commandLine().getCommandSpec();
            for (String name : command) {
                spec = spec.subcommands().get(name).getCommandSpec();
            }
            help.lines().filter(l -> l.length() > 80)
                    .forEach(l -> problems.add(command + ": " + l.length() + " columns: " + l));
            Set<String> printed = new HashSet<>(Arrays.asList(help.split("\\s+")));
            List<String> descriptions = new ArrayList<>(Arrays.asList(spec.usageMessage().description()));
            spec.options().forEach(o -> descriptions.addAll(Arrays.asList(o.description())));
            spec.positionalParameters().forEach(p -> descriptions.addAll(Arrays.asList(p.description())));
            for (String d : descriptions) {
                for (String word : HelpText.paragraph(new String[] {d}).split("\\s+")) {
                    if (!word.isEmpty() && !word.contains("${") && !printed.contains(word)) {
                        problems.add(command + ": '" + word + "' is cut");
                    }
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theTopLevelListGivesEachCommandsDescriptionWhole() {
        String help = run(List.of("--help"));
        Set<String> printed = new HashSet<>(Arrays.asList(help.split("\\s+")));
        for (CommandLine sub : RunboardCli.commandLine().getSubcommands().values()) {
            if (sub.getCommandSpec().usageMessage().hidden()) {
                continue;
            }
            for (String d : List.of(HelpText.paragraph(sub.getCommandSpec().usageMessage().description()))) {
                for (String word : d.split("\\s+")) {
                    assertTrue(word.isEmpty() || printed.contains(word), sub.getCommandName() + ": '" + word + "' missing from\n" + help);
                }
            }
        }
    }

    private static List<List<String>> commands(CommandSpec spec, List<String> path) {
        List<List<String>> out = new ArrayList<>();
        out.add(List.copyOf(path));
        spec.subcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().name().equals(name) || name.equals("help") || sub.getCommandSpec().usageMessage().hidden()) {
                return; // aliases, and help, which has no help of its own worth checking
            }
            List<String> next = new ArrayList<>(path);
            next.add(name);
            out.addAll(commands(sub.getCommandSpec(), next));
        });
        return out;
    }

    private static String run(List<String> args) {
        StringWriter out = new StringWriter();
        RunboardCli.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        return out.toString();
    }
}
