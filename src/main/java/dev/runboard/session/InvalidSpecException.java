package dev.runboard.session;

/** A session spec that cannot start; {@link #field()} names the offending field so a form can show the message beside it. */
public final class InvalidSpecException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String field;

    public InvalidSpecException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** One of {@code command}, {@code cwd}, {@code shell}, {@code timeout}, {@code grace}, {@code env}, {@code preview},
     * {@code nice}, {@code rules}, {@code hang}, {@code guards}, {@code data}. */
    public String field() {
        return field;
    }
}
