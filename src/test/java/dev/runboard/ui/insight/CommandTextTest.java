package dev.runboard.ui.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.session.ProcessTreeSnapshot;
import org.junit.jupiter.api.Test;

class CommandTextTest {

    private static String shown(String commandLine) {
        return CommandText.shown(new ProcessTreeSnapshot.Node(10, 1, commandLine, 'S', 0, 0, false));
    }

    @Test
    void aProgramIsNamedWithoutItsFolderAndKeepsItsArguments() {
        assertEquals("bash ./run-tests.sh --watch", shown("/bin/bash ./run-tests.sh --watch"));
        assertEquals("java -jar /opt/app/server.jar", shown("/usr/lib/jvm/java-17/bin/java -jar /opt/app/server.jar"));
        assertEquals("sleep 600", shown("sleep 600"));
        assertEquals("./serve.sh", shown("./serve.sh"));
    }

    @Test
    void whatHasNoProgramPathIsShownAsItIs() {
        assertEquals("[kworker/0:1]", shown("[kworker/0:1]"));
        assertEquals("/", shown("/"));
        assertEquals("", shown(""));
    }

    @Test
    void runboardsWrapperIsNamedByWhatItDoes() {
        assertEquals(CommandText.WRAPPER, shown("/usr/bin/perl /home/u/.local/share/runboard/bin/runboard-wrap.pl"
                + " /home/u/.local/share/runboard/sessions/x/exit-status 0 2000 /bin/sh -c ./serve.sh"));
        assertEquals(CommandText.WRAPPER, shown("perl runboard-wrap.pl /tmp/s 0 0 true"));
        // Another script whose name ends the same, or the name as another program's argument, is not the wrapper.
        assertEquals("perl my-runboard-wrap.pl", shown("/usr/bin/perl my-runboard-wrap.pl"));
        assertEquals("grep runboard-wrap.pl notes.txt", shown("/bin/grep runboard-wrap.pl notes.txt"));
    }
}
