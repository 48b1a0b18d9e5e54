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

    public SshdFixture get() {
        return sshd;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        sshd = SshdFixture.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (sshd != null) {
            sshd.close();
            sshd = null;
        }
    }
}
