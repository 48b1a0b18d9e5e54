package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** What is read from /proc and the wrapper's status files. */
class ProcFilesTest {

    /** Words are split without a regular expression (exec splits two lines around its command), exactly as {@code split("\\s+")} splits them. */
    @Test
    void wordsAreWhatSplittingOnWhitespaceGives() {
        String alphabet = "ab1 \t\n\u000B\f\r\u001F\u00A0é-";
        Random random = new Random(5);
        for (int round = 0; round < 100_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(14); i > 0; i--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            for (String line : new String[] {text.toString().trim(), text.toString().strip()}) {
                assertArrayEquals(line.split("\\s+"), ProcFiles.words(line), "'" + line + "'");
            }
        }
        assertArrayEquals(new String[] {"1000", "1000", "1000", "1000"}, ProcFiles.words("1000\t1000\t1000\t1000"));
        assertArrayEquals(new String[] {"exit", "0", "at", "1796159651735"}, ProcFiles.words("exit 0 at 1796159651735"));
    }
}
