package dev.runboard.workspace;

/** Quoting a word for a POSIX shell only when it needs it: {@code build} stays bare, {@code a b} becomes {@code 'a b'}. */
final class ShellWords {
    private ShellWords() {
    }

    static String quote(String word) {
        if (word.matches("[A-Za-z0-9_@%+=:,./-]+")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
