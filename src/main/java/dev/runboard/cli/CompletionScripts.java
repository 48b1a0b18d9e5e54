package dev.runboard.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The completion scripts of bash, zsh and fish, made from picocli's model of the commands that also
 * parses them, so a new subcommand or option completes at once in all three. What a subcommand's
 * operand is decides what completes after it: session ids ({@code list -q}, asked when Tab is pressed,
 * since ids change), the workspace's command and group names ({@code names}, from the runboard.yaml
 * of the folder), folders, files, or a fixed list of words.
 */
final class CompletionScripts {
    /** What completes as a subcommand's operand. */
    enum Operand { NONE, IDS, NAMES, DIRS, FILES, WORDS }

    /** One subcommand: its options, its own subcommands (config get|set), and what its operand is. */
    record Sub(String name, List<String> options, List<String> subcommands, Operand operand, List<String> words) {
        /** The words that complete after it without a dash: its own subcommands, then its fixed words. */
        List<String> fixedWords() {
            List<String> all = new ArrayList<>(subcommands);
            if (operand == Operand.WORDS) {
                all.addAll(words);
            }
            return all;
        }
    }

    /** The commands that take the workspace's names (not queue names: {@code queue NAME} is a queue). */
    private static final List<String> TAKES_NAMES = List.of("up", "down", "logs");

    private CompletionScripts() {
    }

    static List<Sub> model(CommandLine root) {
        List<Sub> subs = new ArrayList<>();
        for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
            CommandSpec spec = e.getValue().getCommandSpec();
            if (spec.usageMessage().hidden()) {
                continue;
            }
            List<String> options = optionNames(spec);
            List<String> nested = spec.subcommands().entrySet().stream()
                    .filter(n -> !n.getValue().getCommandSpec().usageMessage().hidden()).map(Map.Entry::getKey).toList();
            Operand operand = Operand.NONE;
            List<String> words = List.of();
            for (PositionalParamSpec p : spec.positionalParameters()) {
                String label = p.paramLabel();
                if (p.completionCandidates() != null) {
                    operand = Operand.WORDS;
                    words = new ArrayList<>();
                    p.completionCandidates().forEach(words::add);
                } else if (label.startsWith("ID")) {
                    operand = Operand.IDS;
                } else if (label.equals("NAME") && TAKES_NAMES.contains(e.getKey())) {
                    operand = Operand.NAMES;
                } else if (label.equals("DIR")) {
                    operand = Operand.DIRS;
                } else if (label.equals("FILE") || label.equals("COMMAND")) {
                    operand = Operand.FILES;
                }
            }
            subs.add(new Sub(e.getKey(), options, nested, operand, words));
        }
        return subs;
    }

    /** Every name of every option a person may see (hidden ones left out). */
    private static List<String> optionNames(CommandSpec spec) {
        List<String> options = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                options.addAll(List.of(o.names()));
            }
        }
        return options;
    }

    private static List<String> topOptions(CommandLine root) {
        return optionNames(root.getCommandSpec());
    }

    static String bash(CommandLine root, String command) {
        List<Sub> subs = model(root);
        String fn = functionName(command);
        StringBuilder cases = new StringBuilder();
        for (Sub s : subs) {
            cases.append("        ").append(s.name()).append(") opts=\"").append(String.join(" ", s.options()))
                    .append("\"; words=\"").append(String.join(" ", s.fixedWords()));
            cases.append("\"; kind=").append(s.operand().name().toLowerCase(Locale.ROOT)).append(";;\n");
        }
        List<String> top = new ArrayList<>(subs.stream().map(Sub::name).toList());
        top.addAll(topOptions(root));
        return """
                # %1$s completion for bash (from `%1$s completion bash`): subcommands, their options, session ids
                # and the workspace's command names (asked of %1$s when Tab is pressed).
                %2$s() {
                    # The word being completed is $2 and the words before it are walked by position, not by index:
                    # zsh's bashcompinit calls this too, with arrays that count from 1.
                    local cur="$2" sub="" w n=0 opts="" words="" kind=none
                    for w in "${COMP_WORDS[@]}"; do
                        n=$((n + 1))
                        [ "$n" -eq 1 ] && continue
                        [ "$n" -gt "$COMP_CWORD" ] && break
                        case "$w" in -*) ;; *) sub="$w"; break ;; esac
                    done
                    if [ -z "$sub" ]; then
                        COMPREPLY=($(compgen -W "%3$s" -- "$cur"))
                        return 0
                    fi
                    case "$sub" in
                %4$s    esac
                    case "$cur" in
                        -*) COMPREPLY=($(compgen -W "$opts" -- "$cur")); return 0 ;;
                    esac
                    case "$kind" in
                        ids) words="$words $(%1$s list -q 2>/dev/null)" ;;
                        names) words="$words $(%1$s names 2>/dev/null)" ;;
                        dirs) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
                        files) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
                    esac
                    COMPREPLY=($(compgen -W "$words" -- "$cur"))
                }
                complete -o default -F %2$s %1$s
                """.formatted(command, fn, String.join(" ", top), cases);
    }

    /** The bash function's name: not {@code _runboard}, which zsh's compinit gives the file it autoloads. */
    static String functionName(String command) {
        return "_" + command.replace('-', '_') + "_complete";
    }

    /**
     * zsh reads the bash script through its bashcompinit, which gives it {@code complete} and
     * {@code compgen}. Sourced, the script registers itself; autoloaded by compinit from the .deb's
     * vendor-completions (as {@code _runboard}, on the first Tab), it registers and answers that Tab too.
     */
    static String zsh(CommandLine root, String command) {
        return "#compdef " + command + "\n"
                + "# " + command + " completion for zsh (from `" + command + " completion zsh`), through zsh's bash completion layer.\n"
                + "autoload -U +X compinit && { (( $+functions[compdef] )) || compinit -u; }\n"
                + "autoload -U +X bashcompinit && bashcompinit\n"
                + bash(root, command)
                + "[[ ${funcstack[1]} == _" + command.replace('-', '_') + " ]] && _bash_complete -o default -F " + functionName(command) + "\n";
    }

    /** fish's own script: its {@code complete} lines, with fish's helpers for "which subcommand is this". */
    static String fish(CommandLine root, String command) {
        List<Sub> subs = model(root);
        StringBuilder out = new StringBuilder();
        out.append("# ").append(command).append(" completion for fish (from `").append(command).append(" completion fish`).\n");
        out.append("complete -c ").append(command).append(" -f\n");
        String none = "-n __fish_use_subcommand";
        for (Sub s : subs) {
            out.append("complete -c ").append(command).append(' ').append(none).append(" -a ").append(s.name()).append('\n');
        }
        for (String o : topOptions(root)) {
            out.append("complete -c ").append(command).append(' ').append(none).append(' ').append(flag(o)).append('\n');
        }
        Map<Operand, List<String>> byOperand = new LinkedHashMap<>();
        for (Sub s : subs) {
            String in = "-n '__fish_seen_subcommand_from " + s.name() + "'";
            for (String o : s.options()) {
                out.append("complete -c ").append(command).append(' ').append(in).append(' ').append(flag(o)).append('\n');
            }
            List<String> words = s.fixedWords();
            if (!words.isEmpty()) {
                out.append("complete -c ").append(command).append(' ').append(in).append(" -a '")
                        .append(String.join(" ", words)).append("'\n");
            }
            byOperand.computeIfAbsent(s.operand(), k -> new ArrayList<>()).add(s.name());
        }
        for (Map.Entry<Operand, List<String>> e : byOperand.entrySet()) {
            String in = "-n '__fish_seen_subcommand_from " + String.join(" ", e.getValue()) + "'";
            String what = switch (e.getKey()) {
                case IDS -> "-a '(" + command + " list -q 2>/dev/null)'";
                case NAMES -> "-a '(" + command + " names 2>/dev/null)'";
                case DIRS -> "-a '(__fish_complete_directories)'";
                case FILES -> "-F";
                default -> null;
            };
            if (what != null) {
                out.append("complete -c ").append(command).append(' ').append(in).append(' ').append(what).append('\n');
            }
        }
        return out.toString();
    }

    /** A picocli option name as fish's {@code complete} takes it: {@code -l timeout}, {@code -s f}. */
    private static String flag(String name) {
        return name.startsWith("--") ? "-l " + name.substring(2) : "-s " + name.substring(1);
    }
}
