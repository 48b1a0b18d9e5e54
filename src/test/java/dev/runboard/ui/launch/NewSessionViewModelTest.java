package dev.runboard.ui.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.WatchSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The form logic without a window: the engine's own validation puts each message on its field. */
class NewSessionViewModelTest {
    @TempDir
    Path dir;

    @Test
    void theEnginesMessageLandsOnTheFieldItNames() {
        NewSessionViewModel form = new NewSessionViewModel(dir.resolve("gone"));
        form.commandProperty().set("echo hi");
        List<SessionSpec> launched = new ArrayList<>();
        assertFalse(form.launch(spec -> launched.add(spec.validate())));
        assertEquals("cwd " + dir.resolve("gone") + " does not exist", form.error("cwd").get());
        assertTrue(launched.isEmpty());
    }

    @Test
    void aFreshFormStartsFromTheSettingsPriorityAndTimeout() {
        SessionDefaults defaults = new SessionDefaults(java.time.Duration.ofSeconds(3), SessionSpec.DEFAULT_PREVIEW_BYTES, List.of(),
                5, java.time.Duration.ofSeconds(60), null, null);
        NewSessionViewModel form = new NewSessionViewModel(dir, defaults);
        assertEquals("1m", form.timeoutProperty().get());
        assertEquals("3s", form.graceProperty().get());
        assertTrue(form.backgroundProperty().get());
        assertEquals(5, form.backgroundNice());
        form.commandProperty().set("echo hi");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())), form.error("form").get());
        assertEquals(5, launched.get(0).nice());
        assertEquals(java.time.Duration.ofSeconds(60), launched.get(0).timeout());

        NewSessionViewModel normal = new NewSessionViewModel(dir, new SessionDefaults(SessionSpec.DEFAULT_GRACE,
                SessionSpec.DEFAULT_PREVIEW_BYTES, List.of(), 0, null, null, null));
        assertEquals("", normal.timeoutProperty().get(), "no default timeout: the field is empty");
        assertFalse(normal.backgroundProperty().get(), "default_nice 0: normal priority");
    }

    /** Keep output (issue 46's max_output in the dialog): a size as people write it, refused below the minimum, prefilled on rerun. */
    @Test
    void keepOutputTakesASizeSaysWhatIsWrongBesideItAndComesBackOnRerun() {
        NewSessionViewModel form = new NewSessionViewModel(dir, new SessionDefaults(SessionSpec.DEFAULT_GRACE,
                SessionSpec.DEFAULT_PREVIEW_BYTES, List.of(), 0, null, null, 5L << 30));
        assertEquals("5 GiB (default)", form.maxOutputPrompt(), "empty means the settings' default_max_output");
        form.commandProperty().set("make");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())), form.error("form").get());
        assertEquals(null, launched.get(0).maxOutputBytes(), "empty: the engine applies the default");

        form.maxOutputProperty().set("50M");
        assertTrue(form.launch(spec -> launched.add(spec.validate())), form.error("maxOutput").get());
        assertEquals(50L << 20, launched.get(1).maxOutputBytes());

        for (String bad : List.of("lots", "1k", "-5M")) {
            form.maxOutputProperty().set(bad);
            assertFalse(form.launch(spec -> launched.add(spec.validate())), bad);
            assertTrue(form.error("maxOutput").get() != null && form.error("maxOutput").get().contains(bad.replace("-", "")), bad + ": "
                    + form.error("maxOutput").get());
        }
        assertEquals(2, launched.size(), "nothing launched with a bad size");

        NewSessionViewModel rerun = new NewSessionViewModel(dir);
        rerun.prefill(launched.get(1));
        assertEquals("50 MiB", rerun.maxOutputProperty().get());
        assertEquals("all", rerun.maxOutputPrompt());
    }

    @Test
    void aHostRunsTheCommandThereAndABadOneIsSaidBesideTheHostField() throws Exception {
        NewSessionViewModel form = new NewSessionViewModel(Path.of("/srv/on/the/host"));
        form.commandProperty().set("make");
        form.hostProperty().set(" build-box ");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())), form.error("form").get());
        assertEquals("build-box", launched.get(0).host());
        assertEquals(Path.of("/srv/on/the/host"), launched.get(0).cwd(), "a folder of the host, not checked here");
        form.prefill(launched.get(0));
        assertEquals("build-box", form.hostProperty().get());
        form.hostProperty().set("-oProxyCommand=x");
        assertFalse(form.launch(spec -> launched.add(spec.validate())));
        assertTrue(form.error("host").get().contains("not an ssh destination"), form.error("host").get());
        assertNull(form.error("form").get(), "said once, where the host is typed");

        java.nio.file.Files.writeString(dir.resolve("config"), "Host box1 box2\n  HostName x\nHost *.corp !bad\n"
                + "Include " + dir.resolve("more") + "\n");
        java.nio.file.Files.writeString(dir.resolve("more"), "host=gpu\n");
        java.util.Set<String> hosts = new java.util.LinkedHashSet<>();
        SshConfigHosts.read(dir.resolve("config"), dir, hosts, new int[1]);
        assertEquals(List.of("box1", "box2", "gpu"), List.copyOf(hosts));
    }

    @Test
    void theSettingsExtraSshConfigOffersItsHostsFirst() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("extra"), "Host build-box gpu-*\n  HostName 10.0.0.5\n");
        List<String> hosts = SshConfigHosts.find(dir.resolve("extra"));
        assertEquals("build-box", hosts.get(0), "the extra file's hosts come first (the user's own follow): " + hosts);
        assertTrue(!hosts.contains("gpu-*"), "patterns are not offered: " + hosts);
        assertEquals(SshConfigHosts.find().size() + 1, hosts.size(), "the user's own hosts are still offered: " + hosts);
    }

    @Test
    void noShellSplitsArgvAndTheRestOfTheFormIsKept() {
        NewSessionViewModel form = new NewSessionViewModel(dir);
        form.commandProperty().set("printf '%s\\n' 'a b'");
        form.noShellProperty().set(true);
        form.timeoutProperty().set("90");
        form.graceProperty().set("500ms");
        form.addEnvRow();
        form.env().get(0).keyProperty().set("MODE");
        form.env().get(0).valueProperty().set("fast");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())));
        SessionSpec spec = launched.get(0);
        assertEquals(List.of("printf", "%s\\n", "a b"), spec.argv());
        assertNull(spec.shell());
        assertEquals(Duration.ofSeconds(90), spec.timeout());
        assertEquals(Duration.ofMillis(500), spec.grace());
        assertEquals("fast", spec.env().get("MODE"));
    }

    @Test
    void commandsFromTheDialogRunInTheBackgroundUnlessUnticked() {
        NewSessionViewModel form = new NewSessionViewModel(dir);
        form.commandProperty().set("true");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(launched::add));
        assertEquals(SessionSpec.BACKGROUND_NICE, launched.get(0).nice());
        form.backgroundProperty().set(false);
        assertTrue(form.launch(launched::add));
        assertEquals(0, launched.get(1).nice());

        // Edit & rerun keeps an earlier session's own niceness (from the CLI, say), or its normal priority.
        NewSessionViewModel rerun = new NewSessionViewModel(dir);
        rerun.prefill(SessionSpec.shell("true").cwd(dir).nice(5).build());
        assertTrue(rerun.backgroundProperty().get());
        assertTrue(rerun.launch(launched::add));
        assertEquals(5, launched.get(2).nice());
        rerun.prefill(SessionSpec.shell("true").cwd(dir).build());
        assertFalse(rerun.backgroundProperty().get());
    }

    @Test
    void aTildeInTheWorkingDirIsTheHomeFolder() {
        NewSessionViewModel form = new NewSessionViewModel(dir);
        form.commandProperty().set("true");
        form.cwdProperty().set("~");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(launched::add));
        assertEquals(Path.of(System.getProperty("user.home")).toAbsolutePath().normalize(), launched.get(0).cwd());
        form.cwdProperty().set("~/nowhere-" + dir.getFileName());
        assertFalse(form.launch(spec -> launched.add(spec.validate())));
        assertEquals("cwd " + Path.of(System.getProperty("user.home"), "nowhere-" + dir.getFileName()) + " does not exist",
                form.error("cwd").get());
    }

    @Test
    void badTimeoutIsReportedBesideTheTimeoutField() {
        NewSessionViewModel form = new NewSessionViewModel(dir);
        form.commandProperty().set("true");
        form.timeoutProperty().set("0.2");
        assertFalse(form.launch(spec -> spec.validate()));
        assertTrue(form.error("timeout").get().contains("at least 1 second"), form.error("timeout").get());
    }

    @Test
    void aFreshFormStartsFromTheSavedGraceAndPreviewBound() {
        NewSessionViewModel form = new NewSessionViewModel(dir, Duration.ofSeconds(7), 16 * 1024);
        assertEquals("7s", form.graceProperty().get(), "durations shown in the one grammar (7s, 5m, 1h30m)");
        form.commandProperty().set("true");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())));
        assertEquals(Duration.ofSeconds(7), launched.get(0).grace());
        assertEquals(16 * 1024, launched.get(0).previewBytes());
    }

    @Test
    void aFreshFormStartsWithTheDefaultRulesAndItsFieldEditsTheFirstFailRule() {
        List<OutputRule> defaults = List.of(new OutputRule("WARN", OutputRule.Action.HIGHLIGHT), OutputRule.failOn("FATAL"),
                OutputRule.failOn("panic"), new OutputRule("ready", OutputRule.Action.NOTIFY));
        NewSessionViewModel form = new NewSessionViewModel(dir, Duration.ofSeconds(2), 64 * 1024, defaults);
        assertEquals("FATAL", form.failOnProperty().get());
        form.commandProperty().set("true");
        form.failOnProperty().set("ERROR");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())));
        assertEquals(List.of(new OutputRule("WARN", OutputRule.Action.HIGHLIGHT), OutputRule.failOn("ERROR"),
                OutputRule.failOn("panic"), new OutputRule("ready", OutputRule.Action.NOTIFY)), launched.get(0).watch().rules());
    }

    @Test
    void highlightAndNotifyFieldsEditTheFirstRuleOfTheirActionAndKeepTheRest() {
        List<OutputRule> defaults = List.of(new OutputRule("WARN", OutputRule.Action.HIGHLIGHT), OutputRule.failOn("FATAL"),
                new OutputRule("deprecated", OutputRule.Action.HIGHLIGHT), new OutputRule("ready", OutputRule.Action.NOTIFY));
        NewSessionViewModel form = new NewSessionViewModel(dir, Duration.ofSeconds(2), 64 * 1024, defaults);
        assertEquals("WARN", form.highlightProperty().get());
        assertEquals("ready", form.notifyOnProperty().get());
        form.commandProperty().set("true");
        form.highlightProperty().set("WARN|SKIP");
        form.notifyOnProperty().set(" ");
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())));
        assertEquals(List.of(new OutputRule("WARN|SKIP", OutputRule.Action.HIGHLIGHT), OutputRule.failOn("FATAL"),
                new OutputRule("deprecated", OutputRule.Action.HIGHLIGHT)), launched.get(0).watch().rules(),
                "a blank field removes its rule");

        // Edit & rerun shows the spec's own rules, and a bad regex is reported, starting nothing.
        NewSessionViewModel rerun = new NewSessionViewModel(dir);
        rerun.prefill(launched.get(0));
        assertEquals("WARN|SKIP", rerun.highlightProperty().get());
        assertEquals("", rerun.notifyOnProperty().get());
        rerun.notifyOnProperty().set("listening on (");
        assertFalse(rerun.launch(spec -> launched.add(spec.validate())));
        assertTrue(rerun.error("rules").get().contains("/listening on (/ is not a valid regex"), rerun.error("rules").get());
        assertEquals(1, launched.size());
    }

    @Test
    void theHangWatchdogIsSetClearedAndCheckedBesideItsField() {
        NewSessionViewModel form = new NewSessionViewModel(dir);
        form.commandProperty().set("true");
        form.hangAfterProperty().set("5m");
        form.hangKillsProperty().set(true);
        List<SessionSpec> launched = new ArrayList<>();
        assertTrue(form.launch(spec -> launched.add(spec.validate())));
        assertEquals(Duration.ofMinutes(5), launched.get(0).watch().hangAfter());
        assertEquals(WatchSpec.HangAction.KILL, launched.get(0).watch().hangAction());

        NewSessionViewModel rerun = new NewSessionViewModel(dir);
        rerun.prefill(launched.get(0));
        assertEquals("5m", rerun.hangAfterProperty().get(), "the duration grammar of the CLI and runboard.yaml");
        assertTrue(rerun.hangKillsProperty().get());
        rerun.hangAfterProperty().set("");
        assertTrue(rerun.launch(launched::add));
        assertNull(launched.get(1).watch().hangAfter(), "an empty field turns the watchdog off");

        form.hangAfterProperty().set("0.5");
        assertFalse(form.launch(spec -> launched.add(spec.validate())));
        assertEquals("the hang watchdog needs at least 1 second of silence", form.error("hang").get());
        form.hangAfterProperty().set("soon");
        assertFalse(form.launch(spec -> launched.add(spec.validate())));
        assertTrue(form.error("hang").get().startsWith("hang after: "), form.error("hang").get());
        assertEquals(2, launched.size());
    }
}
