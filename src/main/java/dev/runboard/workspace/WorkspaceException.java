package dev.runboard.workspace;

import java.nio.file.Path;

/**
 * A workspace file that cannot be used: what is wrong and where (1-based line and column; 0 when
 * the problem has no place, such as an unreadable file).
 */
public final class WorkspaceException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    private final String problem;
    private final int line;
    private final int column;

    /** With the place of a Jackson location (null or unknown: no place). */
    public WorkspaceException(Path file, String problem, com.fasterxml.jackson.core.JsonLocation at, Throwable cause) {
        this(file, problem, at == null ? 0 : Math.max(0, at.getLineNr()), at == null ? 0 : Math.max(0, at.getColumnNr()), cause);
    }

    public WorkspaceException(Path file, String problem, int line, int column, Throwable cause) {
        super(format(file == null ? "" : String.valueOf(file.getFileName()), problem, line, column), cause);
        this.file = file;
        this.problem = problem;
        this.line = line;
        this.column = column;
    }

    private static String format(String name, String problem, int line, int column) {
        String where = name;
        if (line > 0) {
            where += ":" + line + (column > 0 ? ":" + column : "");
        }
        return where.isEmpty() ? problem : where + ": " + problem;
    }

    /** The message with the file's whole path, for a reader who is not in the file's folder (the supervisor's client). */
    public String withWholePath() {
        return file == null ? getMessage() : format(file.toAbsolutePath().normalize().toString(), problem, line, column);
    }

    public Path file() {
        return file;
    }

    /** The sentence without the place. */
    public String problem() {
        return problem;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
