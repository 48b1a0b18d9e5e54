package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionSpecTest {
    @TempDir
    Path dir;

    private void rejects(SessionSpec spec, String field, String message) {
        InvalidSpecException e = assertThrows(InvalidSpecException.class, spec::validate);
        assertEquals(field, e.field());
        assertEquals(message, e.getMessage());
    }

    @Test
    void eachInvalidFieldIsNamed() throws Exception {
        SessionSpec.Builder ok = SessionSpec.shell("echo hi").shell(Path.of("/bin/sh")).cwd(dir);
        rejects(SessionSpec.shell("  ").cwd(dir).shell(Path.of("/bin/sh")).build(), "command", "command is empty: type the command to run");
        rejects(SessionSpec.argv(List.of()).cwd(dir).build(), "command", "command is empty: give the program to run");
        rejects(ok.cwd(dir.resolve("nope")).build(), "cwd", "cwd " + dir.resolve("nope") + " does not exist");
        Path file = Files.writeString(dir.resolve("file"), "x");
        rejects(ok.cwd(file).build(), "cwd", "cwd " + file + " is not a directory");
        ok.cwd(dir);
        rejects(ok.shell(Path.of("/no/such/shell")).build(), "shell", "shell /no/such/shell not found");
        rejects(ok.shell(file).build(), "shell", "shell " + file + " is not executable");
        ok.shell(Path.of("/bin/sh"));
        rejects(ok.timeout(Duration.ZERO).build(), "timeout", "timeout must be at least 1 second (leave it empty for none)");
        ok.timeout(null);
        rejects(ok.env("A=B", "x").build(), "env", "environment name 'A=B' is invalid (empty, or contains '=' or NUL)");
        ok.env(java.util.Map.of());
        String niceMessage = "priority (nice) must be 0 (normal) to 19 (lowest); a command cannot be run above normal"
                + " priority without privileges";
        rejects(ok.nice(-1).build(), "nice", niceMessage);
        rejects(ok.nice(20).build(), "nice", niceMessage);
        ok.nice(19).build().validate();
    }

    @Test
    void everyNumberHasARangeWithAClearMessage() {
        SessionSpec.Builder ok = SessionSpec.shell("echo hi").shell(Path.of("/bin/sh")).cwd(dir);
        ok.timeout(SessionSpec.MAX_TIMEOUT).grace(SessionSpec.MAX_GRACE).previewBytes(SessionSpec.MAX_PREVIEW_BYTES).build().validate();
        ok.timeout(Duration.ofSeconds(1)).grace(Duration.ZERO).previewBytes(SessionSpec.MIN_PREVIEW_BYTES).build().validate();

        rejects(ok.timeout(Duration.ofMillis(Long.MAX_VALUE)).build(), "timeout",
                "timeout must be at most 365 days, got " + Durations.describe(Duration.ofMillis(Long.MAX_VALUE))
                + " (leave it empty for none)");
        rejects(ok.timeout(Duration.ofDays(366)).build(), "timeout", "timeout must be at most 365 days, got 366 days (leave it empty for none)");
        ok.timeout(null);
        rejects(ok.grace(Duration.ofSeconds(9_200_000_000L)).build(), "grace", "kill grace must be at most 1 hour, got 2555555h33m20s");
        rejects(ok.grace(Duration.ofMinutes(61)).build(), "grace", "kill grace must be at most 1 hour, got 1h1m");
        rejects(ok.grace(Duration.ofMillis(-1)).build(), "grace", "kill grace cannot be negative");
        ok.grace(null);
        String preview = "preview bound must be 1 KiB to 16 MiB (1024 to 16777216 bytes), got ";
        rejects(ok.previewBytes(Integer.MAX_VALUE).build(), "preview", preview + Integer.MAX_VALUE + " bytes");
        rejects(ok.previewBytes(1023).build(), "preview", preview + "1023 bytes");
        rejects(ok.previewBytes(-1).build(), "preview", preview + "-1 bytes");
    }

    @Test
    void watchLimitsHaveRangesToo() {
        SessionSpec.Builder ok = SessionSpec.shell("echo hi").shell(Path.of("/bin/sh")).cwd(dir);
        WatchSpec none = WatchSpec.NONE;
        ok.watch(none.withHang(SessionSpec.MAX_TIMEOUT, WatchSpec.HangAction.KILL).withMaxRss(WatchSpec.MAX_RSS_BYTES)
                .withMaxCpu(WatchSpec.MAX_CPU_PERCENT, SessionSpec.MAX_TIMEOUT)).build().validate();
        rejects(ok.watch(none.withHang(Duration.ofDays(400), WatchSpec.HangAction.WARN)).build(), "hang",
                "the hang watchdog must act within 365 days, got 400 days");
        rejects(ok.watch(none.withHang(Duration.ofMillis(500), WatchSpec.HangAction.WARN)).build(), "hang",
                "the hang watchdog needs at least 1 second of silence");
        rejects(ok.watch(none.withMaxRss(Long.MAX_VALUE)).build(), "guards", "the RSS limit must be 1 MiB to 1 PiB, got 9223372036854775807 B");
        rejects(ok.watch(none.withMaxRss(1024L)).build(), "guards", "the RSS limit must be 1 MiB to 1 PiB, got 1 KiB");
        // Exact, never rounded: a rounded value contradicted the limit beside it ("to 1 PiB, got 1 PiB").
        rejects(ok.watch(none.withMaxRss(1025 * Sizes.TIB)).build(), "guards", "the RSS limit must be 1 MiB to 1 PiB, got 1025 TiB");
        rejects(ok.watch(none.withMaxRss(Sizes.MIB - 1)).build(), "guards", "the RSS limit must be 1 MiB to 1 PiB, got 1048575 B");
        rejects(ok.watch(none.withMaxCpu(Double.NaN, Duration.ofSeconds(10))).build(), "guards",
                "the CPU limit must be a percentage above 0 and at most 100000 (100 is one core), got NaN");
        rejects(ok.watch(none.withMaxCpu(Double.POSITIVE_INFINITY, Duration.ofSeconds(10))).build(), "guards",
                "the CPU limit must be a percentage above 0 and at most 100000 (100 is one core), got Infinity");
        rejects(ok.watch(none.withMaxCpu(150.0, Duration.ofDays(999))).build(), "guards",
                "the CPU guard's duration must be 0 to 365 days, got 999 days");
    }

    @Test
    void argvIsDisplayedAsAShellWouldReadIt() {
        SessionSpec s = SessionSpec.argv("grep", "-r", "it's here", "src").build();
        assertEquals("grep -r 'it'\\''s here' src", s.displayCommand());
        assertEquals(List.of("grep", "-r", "it's here", "src"), s.launchArgv());
    }

    @Test
    void shellStringRunsWithDashC() {
        SessionSpec s = SessionSpec.shell("make test").shell(Path.of("/bin/bash")).build();
        assertEquals(List.of("/bin/bash", "-c", "make test"), s.launchArgv());
    }
}
