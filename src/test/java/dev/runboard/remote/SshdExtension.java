package dev.runboard.remote;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test sshd for one test class: {@code @RegisterExtension static final SshdExtension SSHD = new
 * SshdExtension();} starts it before the class's {@code @BeforeAll} methods and stops it after its
 * {@code @AfterAll} ones (skipping the class, with the reason, where no sshd can be had).
 */
public final class SshdExtension implements BeforeAllCallback, AfterAllCallback {
    private SshdFixture sshd;
    private boolean named;

    public SshdFixture get() {
        return sshd;
    }

    /**
     * Names the sshd's ssh config to runboard ({@code runboard.ssh.config}) for the class's duration: the CLI in the
     * test's JVM, and the supervisors it starts (they get the property), reach the test host by its alias.
     */
    public SshdExtension namedToRunboard() {
        named = true;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        sshd = SshdFixture.start();
        if (named) {
            System.setProperty("runboard.ssh.config", sshd.config.toString());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (named) {
            System.clearProperty("runboard.ssh.config");
        }
        if (sshd != null) {
            sshd.close();
            sshd = null;
        }
    }
}
