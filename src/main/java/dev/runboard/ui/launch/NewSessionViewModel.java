package dev.runboard.ui.launch;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.OutputRule;
import dev.runboard.session.Durations;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.WatchSpec;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The new-session form: text fields in, a {@link SessionSpec} out. Errors are kept per field
 * (the names of {@link InvalidSpecException#field()}) so the view shows each beside its field.
 */
public final class NewSessionViewModel {
    public static final String[] FIELDS = {"command", "shell", "cwd", "host", "slurm", "env", "timeout", "grace", "hang", "maxOutput",
        "form"};

    private final StringProperty command = new SimpleStringProperty(this, "command", "");
    private final StringProperty shell = new SimpleStringProperty(this, "shell", SessionSpec.defaultShell().toString());
    private final BooleanProperty noShell = new SimpleBooleanProperty(this, "noShell");
    private final StringProperty cwd = new SimpleStringProperty(this, "cwd", "");
    /** An ssh destination to run on (a Host alias or user@box); empty: this machine. */
    private final StringProperty host = new SimpleStringProperty(this, "host", "");
    /** Submit the command as a Slurm batch job (docs/CLUSTERS.md): from this machine, or through the host (its login host) when one is given. */
    private final BooleanProperty slurm = new SimpleBooleanProperty(this, "slurm");
    /** sbatch's arguments for a Slurm job, as words (--partition=gpu --gres=gpu:1); empty: Slurm's defaults. */
    private final StringProperty sbatch = new SimpleStringProperty(this, "sbatch", "");
    /** While a remote launch waits for its host: what the form is waiting for; otherwise null. */
    private final StringProperty hostStatus = new SimpleStringProperty(this, "hostStatus");
    private final StringProperty timeout = new SimpleStringProperty(this, "timeout", "");
    /** max_output as people write sizes (50M); empty: the settings' default_max_output, else the whole output. */
    private final StringProperty maxOutput = new SimpleStringProperty(this, "maxOutput", "");
    private String maxOutputPrompt = "all";
    /** The hang watchdog: silence longer than this warns, or kills the tree when {@link #hangKills}. */
    private final StringProperty hangAfter = new SimpleStringProperty(this, "hangAfter", "");
    private final BooleanProperty hangKills = new SimpleBooleanProperty(this, "hangKills");
    private final BooleanProperty pty = new SimpleBooleanProperty(this, "pty");
    /** Run below normal priority, yielding the CPU to the window (see {@link SessionSpec#BACKGROUND_NICE}). */
    private final BooleanProperty background = new SimpleBooleanProperty(this, "background", true);
    private int backgroundNice = SessionSpec.BACKGROUND_NICE;
    private final StringProperty failOn = new SimpleStringProperty(this, "failOn", "");
    private final StringProperty highlight = new SimpleStringProperty(this, "highlight", "");
    private final StringProperty notifyOn = new SimpleStringProperty(this, "notifyOn", "");
    private final StringProperty grace = new SimpleStringProperty(this, "grace", Durations.format(SessionSpec.DEFAULT_GRACE));
    private final ObservableList<EnvEntry> env = FXCollections.observableArrayList();
    private final Map<String, StringProperty> errors = new LinkedHashMap<>();
    private SessionSpec base;
    private final Duration defaultGrace;
    private final int previewBytes;
    /** A fresh form's rules (the app-wide defaults); a rerun keeps its own spec's. */
    private final List<OutputRule> defaultRules;

    public NewSessionViewModel(Path defaultCwd) {
        this(defaultCwd, SessionSpec.DEFAULT_GRACE, SessionSpec.DEFAULT_PREVIEW_BYTES);
    }

    /** A fresh form whose grace and preview bound start from the user's settings. */
    public NewSessionViewModel(Path defaultCwd, Duration defaultGrace, int previewBytes) {
        this(defaultCwd, defaultGrace, previewBytes, List.of());
    }

    /** ... and the app-wide default output rules; the first of each action fills its field (Fail on, Highlight, Notify on). */
    public NewSessionViewModel(Path defaultCwd, Duration defaultGrace, int previewBytes, List<OutputRule> defaultRules) {
        this.defaultRules = List.copyOf(defaultRules);
        showRules(this.defaultRules);
        this.defaultGrace = defaultGrace;
        this.previewBytes = previewBytes;
        grace.set(Durations.format(defaultGrace));
        cwd.set(defaultCwd == null ? "" : defaultCwd.toString());
        for (String f : FIELDS) {
            errors.put(f, new SimpleStringProperty(this, f + "Error"));
        }
    }

    /** A fresh form from the user's settings: grace, preview bound, rules, and the priority and timeout it starts with. */
    public NewSessionViewModel(Path defaultCwd, SessionDefaults defaults) {
        this(defaultCwd, defaults.grace(), defaults.previewBytes(), defaults.rules());
        timeout.set(Durations.format(defaults.timeout()));
        maxOutputPrompt = defaults.maxOutput() == null ? "all" : dev.runboard.session.Sizes.format(defaults.maxOutput()) + " (default)";
        background.set(defaults.nice() > 0);
        backgroundNice = defaults.nice() > 0 ? defaults.nice() : SessionSpec.BACKGROUND_NICE;
    }

    /** The niceness a session gets with Background ticked (the settings' default_nice when it is above 0). */
    public int backgroundNice() {
        return backgroundNice;
    }

    /** Fills the form from an earlier session's spec (Edit & rerun). */
    public void prefill(SessionSpec spec) {
        base = spec;
        command.set(spec.usesShell() ? spec.shellCommand() : spec.displayCommand());
        noShell.set(!spec.usesShell());
        if (spec.shell() != null) {
            shell.set(spec.shell().toString());
        }
        cwd.set(spec.cwd() == null ? "" : spec.cwd().toString());
        host.set(spec.host() == null ? "" : spec.host());
        slurm.set(spec.isSlurm());
        sbatch.set(spec.isSlurm() ? dev.runboard.session.ShellQuoting.join(spec.slurm().sbatch()) : "");
        timeout.set(Durations.format(spec.timeout()));
        hangAfter.set(Durations.format(spec.watch().hangAfter()));
        hangKills.set(spec.watch().hangAction() == WatchSpec.HangAction.KILL);
        maxOutput.set(spec.maxOutputBytes() == null ? "" : dev.runboard.session.Sizes.format(spec.maxOutputBytes()));
        grace.set(Durations.format(spec.grace()));
        pty.set(spec.pty());
        background.set(spec.nice() > 0);
        showRules(spec.watch().rules());
        env.setAll(spec.env().entrySet().stream().map(e -> new EnvEntry(e.getKey(), e.getValue())).toList());
    }

    /**
     * Builds the spec and hands it to {@code launch} (the window, which validates it at once and
     * starts it in the background). Returns true when it was accepted; otherwise the field errors say why.
     */
    public boolean launch(Consumer<SessionSpec> launch) {
        errors.values().forEach(e -> e.set(null));
        Optional<SessionSpec> spec = build();
        if (spec.isEmpty()) {
            return false;
        }
        if (errors.values().stream().anyMatch(e -> e.get() != null)) {
            // Some text did not parse; still show what the engine says about the rest, and start nothing.
            try {
                spec.get().validate();
            } catch (InvalidSpecException e) {
                if (error(e.field()).get() == null) {
                    error(e.field()).set(e.getMessage());
                }
            }
            return false;
        }
        try {
            launch.accept(spec.get());
            return true;
        } catch (InvalidSpecException e) {
            error(e.field()).set(e.getMessage());
            return false;
        }
    }

    /**
     * The spec the form describes, or empty when no spec can be made (command or cwd unusable);
     * field errors are set for whatever does not parse.
     */
    Optional<SessionSpec> build() {
        SessionSpec.Builder b = base == null ? SessionSpec.shell("").previewBytes(previewBytes) : base.toBuilder();
        boolean ok = true;
        if (noShell.get()) {
            try {
                b.argv(ArgvSplitter.split(command.get()));
            } catch (IllegalArgumentException e) {
                error("command").set("cannot split the command into words: " + e.getMessage());
                ok = false;
            }
        } else {
            b.shellCommand(command.get());
            String sh = shell.get() == null ? "" : shell.get().strip();
            b.shell(sh.isEmpty() ? null : Path.of(sh));
        }
        b.host(host.get());
        b.slurm(null);
        if (slurm.get()) {
            try {
                b.slurm(new dev.runboard.session.SlurmTarget(ArgvSplitter.split(sbatch.get())));
            } catch (IllegalArgumentException e) {
                error("slurm").set("cannot split the sbatch arguments into words: " + e.getMessage());
                ok = false;
            }
        }
        ok &= path(cwd.get(), "cwd").map(p -> {
            b.cwd(p);
            return true;
        }).orElse(false);
        Map<String, String> vars = new LinkedHashMap<>();
        for (EnvEntry e : env) {
            if (!e.isBlank()) {
                vars.put(e.keyProperty().get().strip(), e.valueProperty().get());
            }
        }
        b.env(vars);
        // A duration that does not parse is left out so the rest can still be checked; its error stays.
        duration(timeout.get(), "timeout", b::timeout);
        duration(grace.get(), "grace", d -> b.grace(d == null ? defaultGrace : d));
        b.pty(pty.get());
        b.nice(!background.get() ? 0 : base != null && base.nice() > 0 ? base.nice() : backgroundNice);
        // The dialog edits the first rule of each action; the other rules (of a rerun spec, or the defaults) are kept.
        WatchSpec watch = base == null ? WatchSpec.NONE.withRules(defaultRules) : base.watch();
        List<OutputRule> rules = edited(watch.rules(), OutputRule.Action.FAIL, failOn.get());
        rules = edited(rules, OutputRule.Action.HIGHLIGHT, highlight.get());
        rules = edited(rules, OutputRule.Action.NOTIFY, notifyOn.get());
        WatchSpec withRules = watch.withRules(rules);
        b.watch(withRules);
        duration(hangAfter.get(), "hang", "hang after", after -> b.watch(withRules.withHang(after,
                hangKills.get() ? WatchSpec.HangAction.KILL : WatchSpec.HangAction.WARN)));
        ok &= maxOutput(b);
        return ok ? Optional.of(b.build()) : Optional.empty();
    }

    /** The Keep output field: empty for the default, else a size of at least SessionSpec's minimum. */
    private boolean maxOutput(SessionSpec.Builder b) {
        String text = maxOutput.get() == null ? "" : maxOutput.get().strip();
        if (text.isEmpty()) {
            b.maxOutputBytes(null);
            return true;
        }
        try {
            b.maxOutputBytes(SessionSpec.checkMaxOutput(dev.runboard.session.Sizes.parse(text), "keep output", text));
            return true;
        } catch (IllegalArgumentException e) {
            error("maxOutput").set(e.getMessage());
            return false;
        }
    }

    private Optional<Path> path(String text, String field) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            error(field).set("choose a working directory");
            return Optional.empty();
        }
        try {
            return Optional.of(expandHome(t));
        } catch (InvalidPathException e) {
            error(field).set(field + " " + t + " is not a valid path");
            return Optional.empty();
        }
    }

    /** "~" and "~/src" as a shell reads them: the folders are shown that way, so people type them that way. */
    private static Path expandHome(String text) {
        if (text.equals("~") || text.startsWith("~/")) {
            return Path.of(System.getProperty("user.home"), text.substring(1));
        }
        return Path.of(text);
    }

    private boolean duration(String text, String field, Consumer<Duration> set) {
        return duration(text, field, field, set);
    }

    /** @param what how the message names the field ("hang after must be ...") */
    private boolean duration(String text, String field, String what, Consumer<Duration> set) {
        try {
            set.accept(Durations.parseOptional(text));
            return true;
        } catch (IllegalArgumentException e) {
            error(field).set(what + ": " + e.getMessage());
            return false;
        }
    }

    /** The error property for an engine field name; names the form does not have land on the form. */
    private void showRules(List<OutputRule> rules) {
        failOn.set(first(rules, OutputRule.Action.FAIL));
        highlight.set(first(rules, OutputRule.Action.HIGHLIGHT));
        notifyOn.set(first(rules, OutputRule.Action.NOTIFY));
    }

    private static String first(List<OutputRule> rules, OutputRule.Action action) {
        return rules.stream().filter(r -> r.action() == action).map(OutputRule::pattern).findFirst().orElse("");
    }

    /** {@code rules} with the first rule of {@code action} replaced by {@code text} (removed when blank), in its place. */
    private static List<OutputRule> edited(List<OutputRule> rules, OutputRule.Action action, String text) {
        List<OutputRule> out = new ArrayList<>(rules);
        int at = -1;
        for (int i = 0; i < out.size() && at < 0; i++) {
            if (out.get(i).action() == action) {
                at = i;
            }
        }
        if (at >= 0) {
            out.remove(at);
        }
        if (text != null && !text.isBlank()) {
            out.add(Math.max(0, at), new OutputRule(text.strip(), action));
        }
        return out;
    }

    /**
     * True when the form runs its command on another host or submits it to Slurm (the window then
     * waits for the host's or sbatch's answer).
     */
    public boolean isRemote() {
        return !host.get().isBlank() || slurm.get();
    }

    /** Says the form waits for its host or for sbatch (or no longer does). */
    public void connecting(boolean waiting) {
        hostStatus.set(!waiting ? null : slurm.get() ? "Asking sbatch…" : "Connecting to " + host.get().strip() + "\u2026");
    }

    /** The host or Slurm refused the session (unreachable, login refused, no perl, disk full, sbatch said no): its one line. */
    public void refused(String reason) {
        error(slurm.get() ? "slurm" : "host").set(reason);
    }

    public BooleanProperty slurmProperty() {
        return slurm;
    }

    public StringProperty sbatchProperty() {
        return sbatch;
    }

    public StringProperty hostStatusProperty() {
        return hostStatus;
    }

    public StringProperty error(String field) {
        return errors.getOrDefault(field, errors.get("form"));
    }

    /** A form, not a file: more variables than this belong in a script (and each row costs the window memory). */
    public static final int MAX_ENV_ROWS = 64;

    /** Adds an empty variable row, up to {@link #MAX_ENV_ROWS}. */
    public void addEnvRow() {
        if (env.size() < MAX_ENV_ROWS) {
            env.add(new EnvEntry("", ""));
        }
    }

    public StringProperty commandProperty() {
        return command;
    }

    public StringProperty shellProperty() {
        return shell;
    }

    public BooleanProperty noShellProperty() {
        return noShell;
    }

    public StringProperty hostProperty() {
        return host;
    }

    public StringProperty cwdProperty() {
        return cwd;
    }

    public StringProperty hangAfterProperty() {
        return hangAfter;
    }

    public BooleanProperty hangKillsProperty() {
        return hangKills;
    }

    /** What an empty Keep output field means: "all", or the settings' default_max_output. */
    public String maxOutputPrompt() {
        return maxOutputPrompt;
    }

    public StringProperty maxOutputProperty() {
        return maxOutput;
    }

    public StringProperty timeoutProperty() {
        return timeout;
    }

    public BooleanProperty ptyProperty() {
        return pty;
    }

    public BooleanProperty backgroundProperty() {
        return background;
    }

    public StringProperty failOnProperty() {
        return failOn;
    }

    public StringProperty highlightProperty() {
        return highlight;
    }

    public StringProperty notifyOnProperty() {
        return notifyOn;
    }

    public StringProperty graceProperty() {
        return grace;
    }

    public ObservableList<EnvEntry> env() {
        return env;
    }
}
