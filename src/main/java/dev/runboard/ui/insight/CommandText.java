package dev.runboard.ui.insight;

import dev.runboard.session.ProcessTreeSnapshot;

/**
 * How the Processes tab names a process in its narrow Command column: the program's name and its
 * arguments ({@code bash ./run-tests.sh --watch}) rather than an absolute path that fills the column
 * before the part that tells processes apart ({@code /bin/bash ./...}), and runboard's own wrapper
 * by name, not as a Perl command line of status-file paths. The cell's tooltip keeps the whole
 * command line and says what the wrapper is for.
 */
final class CommandText {
    static final String WRAPPER = "runboard wrapper";

    private CommandText() {
    }

    static String shown(ProcessTreeSnapshot.Node node) {
        if (node.isWrapper()) {
            return WRAPPER;
        }
        String command = node.command();
        if (!command.startsWith("/")) {
            return command; // a program named as typed (./serve.sh, sleep), or a process's [name] when its command line is unreadable
        }
        int end = command.indexOf(' ');
        String program = end < 0 ? command : command.substring(0, end);
        int slash = program.lastIndexOf('/');
        return slash < 0 || slash == program.length() - 1 ? command : command.substring(slash + 1);
    }
}
