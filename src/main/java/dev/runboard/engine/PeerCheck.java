package dev.runboard.engine;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/** Who is at the other end of a Unix socket: only the supervisor's own user may drive it. */
final class PeerCheck {
    private PeerCheck() {
    }

    static boolean sameUser(SocketChannel ch) throws IOException {
        UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
        return peer.user().getName().equals(System.getProperty("user.name"));
    }
}
