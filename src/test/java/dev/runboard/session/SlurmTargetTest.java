package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The help texts' list of the sbatch options runboard keeps to itself is the list it refuses. */
class SlurmTargetTest {
    @Test
    void theHelpTextsListNamesEveryOptionRunboardRefusesInItsOrder() {
        List<String> named = Arrays.stream(SlurmTarget.RUNBOARDS_OPTIONS.split(",| or "))
                .map(String::strip).filter(n -> !n.isEmpty()).toList();
        assertEquals(SlurmTarget.runboardsOptions(), named);
        for (String name : named) {
            assertThrows(InvalidSpecException.class, () -> new SlurmTarget(List.of(name + "=x")).check(), name);
        }
    }
}
