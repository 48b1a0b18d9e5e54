package dev.runboard.ui.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InsightFormatsTest {

    @Test
    void cpuHasOneDecimalBelowTenAndNoneFromThere() {
        assertEquals("0.0 %", InsightFormats.cpu(0.0));
        assertEquals("9.9 %", InsightFormats.cpu(9.94));
        // What would round to 10.0 already reads as the whole numbers above it do.
        assertEquals("10 %", InsightFormats.cpu(9.96));
        assertEquals("11 %", InsightFormats.cpu(10.6));
        assertEquals("150 %", InsightFormats.cpu(150.4));
        assertEquals("", InsightFormats.cpu(null));
    }
}
