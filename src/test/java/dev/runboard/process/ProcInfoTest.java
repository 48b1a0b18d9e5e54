package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ProcInfoTest {
    @Test
    void readsTheStartTimeAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 120 0 0 0 3 1 0 0 20 0 1 0 987654 1000 200";

        ProcInfo info = ProcInfo.parseStat(stat);

        assertEquals(987654, info.startTicks());
        assertEquals("a) b (c)", info.comm());
    }
}
